"""The verl reward adapter on real completions (real tools, no GPU, no verl) and rtlopt's
advantages in verl's estimator signature (torch on CPU)."""

from __future__ import annotations

import asyncio
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rtlopt.config import TrainConfig
from rtlopt.evaluate import Evaluator, source_hash
from rtlopt.policy import answer_code
from rtlopt.run import verl as _verl
from rtlopt.run.verl import (
    REWARD_KEYS,
    RewardScorer,
    RewardTask,
    compute_score,
    compute_score_async,
)
from rtlopt.train import _verl as _verl_adv
from rtlopt.train._advantage import make_advantage
from rtlopt.train._verl import entropic_advantage, expected_advantage

REPO = Path(__file__).resolve().parents[2]
RTLLM = Path(os.environ["RTLOPT_BENCH_PATH"]) / "rtllm"
ADDER = RTLLM / "adder_8bit" / "verified_adder_8bit.v"
REWRITES = REPO / "examples" / "rtllm_rewrites" / "adder_8bit"
GOOD = (REWRITES / "01_behavioral.v").read_text()
WRONG = (REWRITES / "02_drops_cin.v").read_text()
LOOP = GOOD.replace("endmodule", "    wire w;\n    assign w = a[0] ? ~w : 1'b0;\nendmodule")
TASK = RewardTask(
    str(ADDER),
    overrides={
        "flow.pdk": "nangate45",
        "eval.cache": False,
        "eval.workers": 2,
        "harness.sim_timeout_s": 3.0,
    },
)

needs_rtllm = pytest.mark.skipif(not ADDER.is_file(), reason="RTLLM not found")


def fenced(code: str, before: str = "", after: str = "") -> str:
    return f"{before}```verilog\n{code}```\n{after}"


def test_importing_the_adapter_imports_neither_verl_nor_torch_nor_ray() -> None:
    code = (
        "import sys, rtlopt.run.verl\n"
        "bad = sorted(m for m in ('verl', 'torch', 'ray', 'vllm') if m in sys.modules)\n"
        "print(bad)\nsys.exit(1 if bad else 0)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_task_round_trips_and_bad_rows_say_what_to_do() -> None:
    assert RewardTask.from_row(TASK.to_ground_truth()) == TASK
    assert RewardTask.from_row("ignored", {"rtlopt": TASK.to_ground_truth()}) == TASK
    assert RewardTask.from_row({"file": "x.v"}) == RewardTask("x.v")
    with pytest.raises(Exception, match="names no design"):
        RewardTask.from_row(None)
    with pytest.raises(Exception, match="not rtlopt's task JSON"):
        RewardTask.from_row("42 apples")
    with pytest.raises(Exception, match="unknown field.*modul"):
        RewardTask.from_row({"file": "x.v", "modul": "m"})


@pytest.fixture
def scorer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> RewardScorer:
    """The adapter's process-wide scorer, fresh for the test."""
    s = RewardScorer(tmp_path / "verl")
    monkeypatch.setattr(_verl, "_SCORER", s)
    yield s  # type: ignore[misc]
    s.close()


def _scratch_dirs(root: Path, code: str) -> list[Path]:
    """Scratch folders the evaluator made for ``code`` (one per evaluation)."""
    return [p for p in root.rglob(f"*-{source_hash(code)[:12]}") if p.is_dir()]


@pytest.mark.tools
@needs_rtllm
def test_batch_of_completions_valid_invalid_duplicate(scorer: RewardScorer, tmp_path: Path) -> None:
    truncated = "Here it is:\n```verilog\nmodule verified_adder_8bit(input [7:0] a, b,\n"
    answers = [
        fenced(GOOD, "<think>one adder is enough</think>\n"),  # valid, better than reference
        fenced(WRONG),  # compiles, not equivalent
        "I cannot rewrite this module.",  # no Verilog at all
        truncated,  # cut off: partial syntax credit
        fenced(GOOD, "Same again:\n", "\nDone."),  # duplicate of the first
    ]
    gt = TASK.to_ground_truth()
    rows = scorer.score(RewardTask.from_row(gt), answers)
    assert [list(r) for r in rows] == [list(REWARD_KEYS)] * 5  # verl needs one key set

    # the same numbers as rtlopt's own evaluator gives the same code
    with Evaluator(
        scorer.evaluator(TASK).design,
        scorer.evaluator(TASK).config,
        tmp_path / "own",
        scorer.evaluator(TASK).pdk,
    ) as own:
        none = own.config.reward.no_module  # the lowest reward class: no module at all
        expect = [
            own.evaluate(c).reward if c is not None else none for c in map(answer_code, answers)
        ]
    assert [r["score"] for r in rows] == pytest.approx(expect)

    good, wrong, prose, cut, dup = rows
    assert good["accepted"] == 1.0 and good["score"] > 11.1  # the reference scores 11.1
    assert good["status"] == "ok" and good["metric"] > 0 and good["r_ppa"] > 1.0
    assert wrong["accepted"] == 0.0 and wrong["stage"] == "simulation"
    assert wrong["score"] == pytest.approx(0.1 * 1.0)  # w_syn * r_syn, no function, no PPA
    assert (
        prose["score"] == pytest.approx(-0.03)
        and prose["stage"] == "screen"
        and prose["source_hash"] == ""
    )
    assert cut["stage"] == "compile" and 0.0 < cut["score"] < 0.1  # partial r_syn
    assert dup["score"] == good["score"] and dup["source_hash"] == good["source_hash"]
    assert (dup["duplicate"], good["duplicate"]) == (1.0, 0.0)
    assert not any(r["infrastructure_error"] for r in rows)
    # the duplicate was not evaluated again
    assert len(_scratch_dirs(scorer._root(), GOOD)) == 1


@pytest.mark.tools
@needs_rtllm
def test_concurrent_calls_evaluate_an_answer_once(scorer: RewardScorer) -> None:
    gt = TASK.to_ground_truth()

    async def main() -> list[dict[str, object]]:
        return await asyncio.gather(
            *(compute_score_async("rtllm", fenced(GOOD), gt) for _ in range(4))
        )

    rows = asyncio.run(main())
    assert len({r["score"] for r in rows}) == 1 and rows[0]["accepted"] == 1.0
    assert sorted(r["duplicate"] for r in rows) == [0.0, 1.0, 1.0, 1.0]
    assert len(_scratch_dirs(scorer._root(), GOOD)) == 1
    # the sync entry point answers later calls from the evaluator (same score)
    assert compute_score("rtllm", fenced(GOOD), gt)["score"] == rows[0]["score"]


@pytest.mark.tools
@needs_rtllm
def test_tool_timeout_is_no_score_unless_asked(scorer: RewardScorer) -> None:
    gt = TASK.to_ground_truth()
    row = compute_score("rtllm", fenced(LOOP), gt)
    assert row["status"] == "timeout" and row["infrastructure_error"] == 1.0
    assert math.isnan(row["score"])
    row = compute_score("rtllm", fenced(LOOP), gt, infrastructure_score=0.0)
    assert row["score"] == 0.0


def test_entropic_advantage_in_verl_shape_matches_rtlopt_groups() -> None:
    torch = pytest.importorskip("torch")
    # two groups of four rollouts; verl puts each score on the last response token
    scores = [11.1, 23.6, 0.1, 0.0, 5.0, 5.0, float("nan"), 7.0]
    length = [3, 2, 4, 1, 4, 4, 2, 3]
    rewards = torch.zeros(8, 4)
    mask = torch.zeros(8, 4)
    for i, (s, n) in enumerate(zip(scores, length, strict=True)):
        rewards[i, n - 1] = s
        mask[i, :n] = 1.0
    index = ["a"] * 4 + ["b"] * 4
    adv, ret = entropic_advantage(rewards, mask, index, {"rtlopt_delta": math.log(2)})
    assert adv.shape == (8, 4) and torch.equal(adv, ret)
    assert torch.equal(adv * (1 - mask), torch.zeros(8, 4))  # padding stays 0
    est = make_advantage(TrainConfig(advantage="entropic"))
    want_a = est(scores[:4], math.log(2)).advantages
    want_b = est([5.0, 5.0, None, 7.0], math.log(2)).advantages
    for i, want in enumerate([*want_a, *want_b]):
        assert adv[i, : length[i]].tolist() == pytest.approx([want] * length[i], rel=1e-6)
    assert adv[6].abs().sum().item() == 0.0  # the tool error: no advantage
    assert adv[1, 0].item() > 0 > adv[3, 0].item()


def test_expected_advantage_is_grpo_without_nan_rows() -> None:
    torch = pytest.importorskip("torch")
    rewards = torch.tensor([[1.0], [3.0], [float("nan")], [2.0]])
    adv, _ = expected_advantage(rewards, torch.ones(4, 1), [0, 0, 0, 0])
    want = make_advantage(TrainConfig(advantage="expected"))([1.0, 3.0, None, 2.0], 0.0)
    assert adv[:, 0].tolist() == pytest.approx(list(want.advantages))
    assert adv[2, 0].item() == 0.0


def test_register_with_a_fake_verl_registry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """verl's registry decorator, as verl 0.9 defines it (verl itself is not installed here)."""
    pkg = tmp_path / "verl" / "trainer" / "ppo"
    pkg.mkdir(parents=True)
    for d in (tmp_path / "verl", tmp_path / "verl" / "trainer", pkg):
        (d / "__init__.py").write_text("")
    (pkg / "core_algos.py").write_text(
        "ADV_ESTIMATOR_REGISTRY = {}\n"
        "def register_adv_est(name):\n"
        "    def deco(fn):\n"
        "        if name in ADV_ESTIMATOR_REGISTRY and ADV_ESTIMATOR_REGISTRY[name] != fn:\n"
        "            raise ValueError(name)\n"
        "        ADV_ESTIMATOR_REGISTRY[name] = fn\n"
        "        return fn\n"
        "    return deco\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for m in [m for m in sys.modules if m == "verl" or m.startswith("verl.")]:
        monkeypatch.delitem(sys.modules, m)
    assert _verl_adv.register_advantage_estimators() == ("rtlopt_entropic", "rtlopt_expected")
    assert _verl_adv.register_advantage_estimators()  # idempotent
    from verl.trainer.ppo import core_algos  # type: ignore[import-not-found]

    assert core_algos.ADV_ESTIMATOR_REGISTRY["rtlopt_entropic"] is entropic_advantage
    for m in [m for m in sys.modules if m == "verl" or m.startswith("verl.")]:
        monkeypatch.delitem(sys.modules, m)


def test_the_pool_datasets_budget_is_the_one_the_estimator_uses() -> None:
    """Issue 32: the KL budget the state-pool dataset sets between batches (same process as
    verl's advantage computation) overrides the launch's algorithm.rtlopt_delta."""
    torch = pytest.importorskip("torch")
    rewards = torch.zeros(4, 2)
    rewards[:, -1] = torch.tensor([30.0, 0.0, 10.0, 0.0])
    mask = torch.ones(4, 2)
    est = make_advantage(TrainConfig(advantage="entropic"))
    try:
        _verl_adv.set_budget(0.25)
        got, _ = entropic_advantage(rewards, mask, ["a"] * 4, {"rtlopt_delta": math.log(2)})
        assert got[:, -1].tolist() == pytest.approx(
            list(est([30.0, 0.0, 10.0, 0.0], 0.25).advantages), rel=1e-5
        )
    finally:
        _verl_adv.set_budget(None)
    got, _ = entropic_advantage(rewards, mask, ["a"] * 4, {"rtlopt_delta": math.log(2)})
    want = est([30.0, 0.0, 10.0, 0.0], math.log(2)).advantages
    assert got[:, -1].tolist() == pytest.approx(list(want), rel=1e-5)
    assert est([30.0, 0.0, 10.0, 0.0], 0.25).advantages != want  # the budget matters
