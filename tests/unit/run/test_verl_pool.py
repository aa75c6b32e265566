"""The state pool in verl's loop (issue 32): the dataset's prompts come from the pool's
parents, each scored batch goes back into the pool and the KL-budget schedule, and the next
budget reaches rtlopt's estimators. verl's scored batch is a fake (the reward's columns as
rtlopt's compute_score writes them, with scripted scores): no GPU, no tools."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rtlopt.config import AdaptiveKLConfig, Config, RunConfig, SearchConfig, TrainConfig
from rtlopt.errors import UsageError
from rtlopt.results import PPA, EvalResult, Stage, Status
from rtlopt.run._verl_pool import PoolFeeder, PoolSpec, outcomes
from rtlopt.run._verl_scorer import REWARD_KEYS, RewardTask
from rtlopt.train import _verl as train_verl

REF = "module top(input [3:0] a, output [3:0] y);\n  assign y = ~a;\nendmodule\n"
SMALL = REF.replace("~a", "a ^ 4'hf")
WRONG = REF.replace("~a", "a")


def _spec(tmp_path: Path, code: str = REF) -> PoolSpec:
    ref = EvalResult(Status.OK, Stage.DONE, reward=11.0, ppa=PPA(40.0, 100.0, 2.0))
    task = RewardTask(str(tmp_path / "top.v"), overrides={"flow.pdk": "nangate45"})
    return PoolSpec(task, ref, code, "Invert a.", "adp", tmp_path, 8192)


def _cfg(**train: Any) -> Config:
    return Config(
        search=SearchConfig(parents=2, top_k=2),
        run=RunConfig(rollouts=2, steps=10),
        train=TrainConfig(**train),
    )


def fake_verl_batch(feeder: PoolFeeder, scored: list[tuple[str, float | None]]) -> dict[str, Any]:
    """verl's non-tensor columns after a step: each prompt's row repeated rollouts times
    (interleaved, one uid per prompt), and the reward's columns for the scripted answers."""
    n = feeder.config.run.rollouts
    prompts = [feeder.item(i) for i in range(feeder.config.search.parents)]
    rows = [p for p in prompts for _ in range(n)]
    assert len(rows) == len(scored)
    cols: dict[str, list[Any]] = {k: [] for k in (*REWARD_KEYS, "uid", "extra_info")}
    for k, (row, (code, score)) in enumerate(zip(rows, scored, strict=True)):
        good = code == SMALL
        cols["uid"].append(f"uid-{k // n}")
        cols["extra_info"].append(row["extra_info"])
        cols["score"].append(math.nan if score is None else score)
        cols["code"].append(code)
        cols["accepted"].append(1.0 if good else 0.0)
        cols["feedback"].append("Syntax: PASS\nFunctional Test: " + ("PASS" if good else "FAIL"))
        cols["source_hash"].append(f"h{abs(hash(code)) % 10**8}")
        cols["area_um2"].append(20.0 if good else math.nan)
        cols["delay_ps"].append(100.0 if good else math.nan)
        cols["power_uw"].append(2.0 if good else math.nan)
        cols["metric"].append(2000.0 if good else math.nan)
        for key in ("r_syn", "r_func", "r_ppa", "infrastructure_error", "duplicate"):
            cols[key].append(0.0)
        for key in ("status", "stage"):
            cols[key].append("ok")
    return {k: np.array(v, dtype=object) for k, v in cols.items()}


def test_fake_verl_batch_children_enter_the_pool_and_become_next_prompts(tmp_path: Path) -> None:
    feeder = PoolFeeder(_spec(tmp_path), config=_cfg())
    first = [feeder.item(i) for i in range(2)]
    assert [r["extra_info"]["rtlopt_state"] for r in first] == [0, 0]  # only the root yet
    assert "Invert a." in first[0]["raw_prompt"][-1]["content"]
    task = RewardTask.from_row(first[0]["reward_model"]["ground_truth"])
    assert task == feeder.spec.task
    scored = [(SMALL, 14.0), (WRONG, 1.0), ("", None), (WRONG, 1.0)]  # None: a tool failure
    line = feeder.observe(outcomes(fake_verl_batch(feeder, scored), "adp"))
    assert line["step"] == 1 and line["rollouts"] == 4 and line["groups"] == 2
    assert len(line["admitted"]) == 2  # SMALL and WRONG (admit_invalid); the failure never
    states = {s.id: s for s in feeder.pool.states}
    small = next(s for s in states.values() if s.code == SMALL)
    assert small.accepted and small.reward == 14.0 and small.metrics["adp"] == 2000.0
    assert small.metrics["area_um2"] == 20.0 and "power_uw" in small.metrics
    assert feeder.pool.root.best_child_reward == 14.0
    second = [feeder.item(i) for i in range(2)]
    assert {r["extra_info"]["rtlopt_step"] for r in second} == {2}
    chosen = [r["extra_info"]["rtlopt_state"] for r in second]
    assert small.id in chosen  # PUCT picks the best child of the root
    text = second[chosen.index(small.id)]["raw_prompt"][-1]["content"]
    assert "a ^ 4'hf" in text and "Functional Test: PASS" in text
    saved = (tmp_path / "pool" / "steps.jsonl").read_text().splitlines()
    assert len(saved) == 1 and (tmp_path / "pool" / "pool.json").is_file()


def test_fake_verl_rows_of_another_step_are_not_admitted(tmp_path: Path) -> None:
    feeder = PoolFeeder(_spec(tmp_path), config=_cfg())
    cols = fake_verl_batch(feeder, [(SMALL, 14.0), (SMALL, 14.0), (WRONG, 1.0), (WRONG, 1.0)])
    for extra in cols["extra_info"]:
        extra["rtlopt_step"] = 7
    line = feeder.observe(outcomes(cols, "adp"))
    assert line["stale"] == 4 and line["admitted"] == [] and len(feeder.pool) == 1


def test_fake_verl_adaptive_budget_moves_between_batches(tmp_path: Path) -> None:
    """Groups of three tied top answers and a rising maximum (over-exploring) make P4 grow
    the budget after the warm-up; each step's budget is set for rtlopt's verl estimators
    (which read it: tests/integration/test_verl_reward.py)."""
    adaptive = AdaptiveKLConfig(t_warm=1)
    cfg = dataclasses.replace(_cfg(delta="adaptive", adaptive=adaptive), run=RunConfig(rollouts=4))
    feeder = PoolFeeder(_spec(tmp_path), config=cfg)
    try:
        budgets, rules = [], []
        for k in range(6):
            feeder.item(0)
            budgets.append(train_verl.budget_override())
            top = 10.0 * 1.05**k
            scored = ([(SMALL, top)] * 3 + [(WRONG, 0.0)]) * 2
            line = feeder.observe(outcomes(fake_verl_batch(feeder, scored), "adp"), kl_ref=0.01)
            assert line["delta"] == budgets[-1]
            rules.append(line["rule"])
        assert budgets[0] == pytest.approx(adaptive.delta0)
        assert "P4" in rules, rules
        feeder.item(0)
        assert train_verl.budget_override() == pytest.approx(line["next_delta"])
        assert line["next_delta"] > adaptive.delta0
    finally:
        train_verl.set_budget(None)


def test_fake_verl_a_restarted_job_continues_the_pool(tmp_path: Path) -> None:
    feeder = PoolFeeder(_spec(tmp_path), config=_cfg())
    feeder.observe(
        outcomes(fake_verl_batch(feeder, [(SMALL, 14.0)] * 2 + [(WRONG, 1.0)] * 2), "adp")
    )
    again = PoolFeeder(_spec(tmp_path), config=_cfg())
    assert again.step == 2 and len(again.pool) == len(feeder.pool) == 3
    assert [again.item(i)["extra_info"]["rtlopt_state"] for i in range(2)] == [
        feeder.item(i)["extra_info"]["rtlopt_state"] for i in range(2)
    ]  # the same sampler state: the same parents


def test_strategies_and_edit_answers_the_pool_cannot_feed_are_refused(tmp_path: Path) -> None:
    for strategy in ("igr", "mcts"):
        with pytest.raises(UsageError, match="whole search strategy"):
            PoolFeeder(_spec(tmp_path), config=Config(search=SearchConfig(sampler=strategy)))
    long = "module top(input a, output y);\n" + "  wire w;\n" * 500 + "endmodule\n"
    with pytest.raises(UsageError, match="SEARCH/REPLACE"):
        PoolFeeder(_spec(tmp_path, long), config=Config())


def test_a_batch_without_rtlopts_reward_columns_is_refused() -> None:
    with pytest.raises(UsageError, match="code, accepted"):
        outcomes({"uid": [], "extra_info": [], "score": []}, "adp")
