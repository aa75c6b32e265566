"""The run loop hands every rollout its advantage: right value, right sign, right delta.

The policy is a recording fake (it hands out fixed texts and keeps what ``update`` receives);
everything else is real: the evaluator runs iverilog, Yosys and OpenSTA on the bundled priority
encoder, the pool and the KL-budget schedule are the product's. For every step the test
recomputes ``batch_advantages(group rewards, delta)`` from the recorded rewards and the delta
the schedule must have produced, and compares it with what the policy was given.
"""

from __future__ import annotations

import dataclasses
import math
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from rtlopt.config import (
    AdaptiveKLConfig,
    Config,
    EvalConfig,
    FlowConfig,
    RunConfig,
    SearchConfig,
    TrainConfig,
)
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.pdk import resolve_pdk
from rtlopt.policy import Completion, Prompt, Sample, UpdateStats, extract_verilog
from rtlopt.run import Optimizer, StepRecord
from rtlopt.run._loop import candidate_text
from rtlopt.train import batch_advantages

pytestmark = pytest.mark.tools

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "priority_encoder"
ALTS = sorted((EXAMPLE / "alternatives").glob("*.v"))  # good, good, wrong, syntax error
NO_MODULE = "I would rather not write Verilog today."
LN2 = math.log(2.0)


class RecordingFakePolicy:
    """Hands out a fixed rotation of answers; records every prompt and every update batch."""

    name = "recording-fake"
    trainable = False

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = list(texts)
        self.cursor = 0
        self.prompts: list[list[Prompt]] = []
        self.groups: list[list[list[str]]] = []
        self.updates: list[list[Sample]] = []

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        out = []
        for _ in prompts:
            group = []
            for _ in range(n):
                text = self.texts[self.cursor % len(self.texts)]
                self.cursor += 1
                group.append(
                    Completion(
                        text=text,
                        verilog=extract_verilog(text),
                        completion_tokens=len(text.split()),
                    )
                )
            out.append(group)
        self.prompts.append(list(prompts))
        self.groups.append([[c.text for c in g] for g in out])
        return out

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        self.updates.append(list(samples))
        return UpdateStats(
            loss=0.0, kl_ref=None, n_samples=len(samples), tokens=0, grad_norm=None, time_s=0.0
        )

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)

    def load(self, path: Path) -> None:
        pass

    def close(self) -> None:
        pass


def _run(
    tmp_path: Path,
    train: TrainConfig,
    texts: Sequence[str] | None = None,
    search: SearchConfig | None = None,
    steps: int = 3,
) -> tuple[RecordingFakePolicy, Evaluator, list[StepRecord], Config]:
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE / "rtl", repo / "rtl")
    cfg = Config(
        flow=FlowConfig(pdk="nangate45", metric="adp"),
        eval=EvalConfig(workers=1, cache=False),
        search=search or SearchConfig(parents=2),
        run=RunConfig(steps=steps, rollouts=5 if texts is None else len(texts), seed=3),
        train=train,
    )
    design = load_design(repo / "rtl" / "prio_enc.v", "prio_enc", cfg.project)
    if texts is None:
        texts = [p.read_text() for p in ALTS] + [NO_MODULE]
    policy = RecordingFakePolicy(texts)
    ev = Evaluator(design, cfg, tmp_path / "work", resolve_pdk("nangate45"))
    opt = Optimizer(design, cfg, ev, policy, tmp_path / "run", "spec")
    opt.prepare("test-run", resume=False)
    outcome = opt.run()
    return policy, ev, outcome.records, cfg


def _reward(ev: Evaluator, text: str) -> float | None:
    cand = candidate_text(Completion(text=text, verilog=extract_verilog(text)))
    if cand is None:
        return ev.config.reward.no_module
    return ev.evaluate(cand).reward  # memoized: the loop's own result


def _check_advantages(
    policy: RecordingFakePolicy,
    ev: Evaluator,
    records: list[StepRecord],
    cfg: Config,
    deltas: list[float],
) -> None:
    assert [r.delta for r in records] == pytest.approx(deltas)
    assert len(policy.updates) == len(records) == len(deltas)
    for step, (prompts, groups, samples, delta) in enumerate(
        zip(policy.prompts, policy.groups, policy.updates, deltas, strict=True), 1
    ):
        rewards = [[_reward(ev, t) for t in g] for g in groups]
        expected = batch_advantages(rewards, delta, cfg.train)
        # every rewarded rollout, degenerate groups' with advantage 0 (the loss's mean)
        want = [
            (prompts[gi], groups[gi][k], adv if used else 0.0)
            for gi, st in enumerate(expected.groups)
            for k, (adv, used) in enumerate(zip(st.advantages, st.used, strict=True))
            if rewards[gi][k] is not None
        ]
        got = [(s.prompt, s.completion, s.advantage) for s in samples]
        assert [(p, c) for p, c, _ in got] == [(p, c) for p, c, _ in want], step
        assert [a for _, _, a in got] == pytest.approx([a for _, _, a in want]), step
        # Independently of batch_advantages: in every group the best rollout is pushed up and
        # the worst pushed down.
        for gi, g in enumerate(groups):
            rs = rewards[gi]
            advs = {c: a for p, c, a in got if p == prompts[gi]}
            scored = [r if r is not None else 0.0 for r in rs]
            best = max(range(len(g)), key=lambda i: scored[i])
            worst = min(range(len(g)), key=lambda i: scored[i])
            if max(scored) - min(scored) > 1e-9:
                assert advs[g[best]] > 0 > advs[g[worst]], (step, rs, advs)


def test_loop_gives_fake_policy_batch_advantages_at_fixed_delta(tmp_path: Path) -> None:
    train = TrainConfig(delta="fixed", delta_fixed=0.3)
    policy, ev, records, cfg = _run(tmp_path, train)
    try:
        _check_advantages(policy, ev, records, cfg, [0.3, 0.3, 0.3])
        assert sum(len(s) for s in policy.updates) >= 10
    finally:
        ev.close()


def test_loop_gives_fake_policy_batch_advantages_at_adaptive_delta(tmp_path: Path) -> None:
    # No warm-up and a low eff-n threshold: the controller's P4 rule (grow by rho_plus) fires
    # after every step, so each step's delta differs and must come from the controller.
    adaptive = dataclasses.replace(AdaptiveKLConfig(), t_warm=0, tau_n=1.0, rho_plus=1.5)
    train = TrainConfig(delta="adaptive", adaptive=adaptive)
    policy, ev, records, cfg = _run(tmp_path, train)
    try:
        assert [r.rule for r in records] == ["P4", "P4", "P4"]
        _check_advantages(policy, ev, records, cfg, [LN2, 1.5 * LN2, 2.25 * LN2])
        assert records[-1].next_delta == pytest.approx(3.375 * LN2)
    finally:
        ev.close()


def _screened_module() -> str:
    """The bundled priority encoder with a $display: screening rejects it before any tool."""
    text = (EXAMPLE / "rtl" / "prio_enc.v").read_text()
    head, _, tail = text.rpartition("endmodule")
    return head + '  initial $display("hello");\nendmodule' + tail


def test_screened_and_module_less_answers_get_a_gradient(tmp_path: Path) -> None:
    """A weak policy's group of a screened module and an answer without a module is ranked
    (screened above no module), so it trains instead of reading as a constant group."""
    texts = [_screened_module(), NO_MODULE]
    policy, ev, records, cfg = _run(tmp_path, TrainConfig(), texts, SearchConfig(parents=1), 1)
    try:
        rewards = [_reward(ev, t) for t in texts]
        assert rewards == [cfg.reward.screened, cfg.reward.no_module]
        assert cfg.reward.no_module < cfg.reward.screened < 0.0
        (samples,) = policy.updates
        adv = {s.completion: s.advantage for s in samples}
        assert adv[texts[0]] > 0 > adv[NO_MODULE]
        assert records[0].const_frac == 0.0
    finally:
        ev.close()


def test_mcts_leaf_group_trains(tmp_path: Path) -> None:
    """EvolVE's MCTS expands one leaf into mcts_children rollouts: one group, trained."""
    texts = [(EXAMPLE / "rtl" / "prio_enc.v").read_text(), NO_MODULE]
    search = SearchConfig(sampler="mcts", parents=1, mcts_children=2)
    policy, ev, records, cfg = _run(tmp_path, TrainConfig(), texts, search, 1)
    try:
        (samples,) = policy.updates
        assert len(samples) == 2 and all(s.advantage != 0.0 for s in samples)
        assert {s.completion: s.advantage > 0 for s in samples} == {
            texts[0]: True,
            NO_MODULE: False,
        }
    finally:
        ev.close()


def test_igr_chains_share_a_pooled_baseline(tmp_path: Path) -> None:
    """EvolVE's IGR makes one child per chain and step: its groups are single rollouts, and
    only the pooled group (the step's chains together) gives the loss any sample."""
    texts = [(EXAMPLE / "rtl" / "prio_enc.v").read_text(), NO_MODULE]
    search = SearchConfig(sampler="igr", parents=2, igr_ideas=2, igr_steps=1)
    policy, ev, records, cfg = _run(tmp_path, TrainConfig(), texts, search, 1)
    try:
        assert records[0].expansions == 2 and records[0].rollouts == 2
        assert records[0].const_frac == 1.0  # every group is one rollout
        (samples,) = policy.updates
        assert len(samples) == 2
        assert {s.completion: s.advantage > 0 for s in samples} == {
            texts[0]: True,
            NO_MODULE: False,
        }
    finally:
        ev.close()
