"""Reflection in the run loop: a reflector behind a real local OpenAI-compatible server reads the
step's failed and improved rollouts; the playbook in the run directory gets the lessons (with
evidence, deduplicated, bounded) and the next step's prompts show them. The evaluator is real
(iverilog, Yosys, OpenSTA); the generator is a deterministic fake, or the on-device CPU model
learning at test time."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import (
    Config,
    EvalConfig,
    FlowConfig,
    PolicyConfig,
    ReflectConfig,
    RunConfig,
    SearchConfig,
    TrainConfig,
)
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.pdk import resolve_pdk
from rtlopt.policy import Completion, Policy, Prompt, Sample, UpdateStats, extract_verilog
from rtlopt.run import Optimizer
from rtlopt.rundir import RunDir
from tests.conftest import bench_path, full_size
from tests.openai_server import LocalOpenAIServer

pytestmark = pytest.mark.tools

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "priority_encoder"
#: the learning run's design: a short prompt (361 tokens against the priority encoder's 837)
#: makes the real model's generation and update cost less
SMALL = bench_path() / "rtllm" / "counter_12" / "verified_counter_12.v"
ALTS = [p.read_text() for p in sorted((EXAMPLE / "alternatives").glob("*.v"))]
LESSONS = {
    "simulation": "Keep the numbering of the lowest group: bit 0 alone must give position 15.",
    "compile": "End every assign statement with a semicolon.",
    "improved": "Encoding groups of four bits first shortens the priority chain.",
}


class FakeGenerator:
    """Hands out the example's alternatives in order (good, good, wrong, syntax error)."""

    name = "fake"
    trainable = False

    def __init__(self) -> None:
        self.cursor = 0
        self.prompts: list[list[Prompt]] = []

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        self.prompts.append(list(prompts))
        out = []
        for _ in prompts:
            group = []
            for _ in range(n):
                text = ALTS[self.cursor % len(ALTS)]
                self.cursor += 1
                group.append(Completion(text=text, verilog=extract_verilog(text)))
            out.append(group)
        return out

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        return UpdateStats(None, None, 0, 0, None, 0.0)

    def save(self, path: Path) -> None:
        pass

    def load(self, path: Path) -> None:
        pass

    def close(self) -> None:
        pass


ASIDES = [
    "Consider gray code counters for lower switching power.",
    "Registers without reset need care in formal checks.",
    "Wide multiplexers cost much area in this library.",
    "Retiming the output register could help the clock period.",
    "Document each optimization in a comment for reviewers.",
    "Prefer synchronous resets on this technology.",
    "Check that parameters keep their default values.",
    "Latches appear when a combinational branch misses an assignment.",
    "Avoid initial blocks in synthesizable code.",
]


@pytest.fixture
def reflector() -> Iterator[LocalOpenAIServer]:
    count = iter(range(1000))

    def answer(body: dict[str, Any]) -> str:
        user = body["messages"][-1]["content"]
        outcome = user.split("Outcome: ", 1)[1].split("\n", 1)[0]
        if "IMPROVED" in user:
            key = "improved"
        elif "at simulation" in outcome or "at formal" in outcome:
            key = "simulation"
        else:
            key = "compile"
        # the same lesson twice (merged), and a once-only aside that the bound drops first
        aside = ASIDES[next(count) % len(ASIDES)]
        return (
            f"<think>looking at {key}</think>\nLESSON: {LESSONS[key]}\n"
            f"LESSON: {LESSONS[key].upper()}\n"
            f"LESSON: {aside}\n"
        )

    s = LocalOpenAIServer(answer)
    yield s
    s.close()


def _run(
    tmp: Path,
    policy: Policy,
    reflect: ReflectConfig,
    *,
    steps: int,
    rollouts: int = 4,
    lr: float = 0.0,
    policy_cfg: PolicyConfig | None = None,
    rtl: Path = EXAMPLE / "rtl" / "prio_enc.v",
) -> tuple[Optimizer, Path]:
    repo = tmp / "repo"
    (repo / "rtl").mkdir(parents=True)
    shutil.copy(rtl, repo / "rtl" / rtl.name)
    cfg = Config(
        flow=FlowConfig(pdk="nangate45", metric="adp", power=False),
        eval=EvalConfig(workers=1, cache=True, cache_dir=str(tmp / "cache")),
        search=SearchConfig(sampler="puct", parents=1),
        run=RunConfig(steps=steps, rollouts=rollouts, seed=11),
        train=TrainConfig(learning_rate=lr),
        policy=policy_cfg or PolicyConfig(),
        reflect=reflect,
    )
    design = load_design(repo / "rtl" / rtl.name, None, cfg.project)
    run_dir = tmp / "run"
    with Evaluator(design, cfg, tmp / "work", resolve_pdk("nangate45")) as ev:
        opt = Optimizer(design, cfg, ev, policy, run_dir, "spec")
        opt.prepare("r", resume=False)
        opt.run()
    return opt, run_dir


def test_lessons_are_written_deduplicated_bounded_and_in_the_next_prompt(
    tmp_path: Path, reflector: LocalOpenAIServer
) -> None:
    gen = FakeGenerator()
    cfg = ReflectConfig(endpoint=reflector.url, parallel=4, max_lessons=3, prompt_lessons=3)
    _opt, run_dir = _run(tmp_path, gen, cfg, steps=2)
    # step 1: two equivalent rewrites that beat the reference, a wrong one, one that does not
    # compile; four reflections at once, on four different rollouts
    assert len(reflector.requests) >= 5  # step 2 reflects again (fewer improvements there)
    first = [r["messages"][-1]["content"] for r in reflector.requests[:4]]
    assert sum("IMPROVED" in u for u in first) == 2
    assert sum("rejected at simulation" in u for u in first) == 1
    assert sum("rejected at compile" in u or "rejected at screen" in u for u in first) == 1
    book = json.loads((run_dir / "playbook.json").read_text())
    texts = [x["text"] for x in book["lessons"]]
    assert len(texts) <= 3  # bounded
    for key in ("simulation", "compile", "improved"):
        assert LESSONS[key] in texts
        lesson = next(x for x in book["lessons"] if x["text"] == LESSONS[key])
        assert lesson["support"] >= 2  # the shouted duplicate was merged, not added
        assert all(e["step"] in (1, 2) and e["outcome"] for e in lesson["evidence"])
    # evidence points at recorded candidates
    rd = RunDir(run_dir)
    wrong = next(x for x in book["lessons"] if x["text"] == LESSONS["simulation"])
    assert rd.has_candidate(wrong["evidence"][0]["candidate"])
    # prompts: none at step 1, the playbook's at step 2
    step1, step2 = gen.prompts[0][0][-1]["content"], gen.prompts[1][0][-1]["content"]
    assert "## Lessons from Earlier Attempts" not in step1
    assert "## Lessons from Earlier Attempts" in step2
    assert all(LESSONS[k] in step2 for k in LESSONS)
    recs = rd.read_steps()
    assert recs[0]["reflections"] == 4 and recs[0]["lessons"] == 3


@pytest.mark.model
@pytest.mark.slow
def test_reflection_with_the_on_device_generator_learning(
    tmp_path: Path, reflector: LocalOpenAIServer
) -> None:
    from rtlopt.policy import create_policy

    pcfg = PolicyConfig(
        backend="transformers", model="auto", device="cpu", max_new_tokens=24, cpu_threads=1
    )
    train = TrainConfig(learning_rate=1e-3, lora_r=4, lora_alpha=8, micro_batch=4)
    policy = create_policy(pcfg, train, seed=3)
    # one step in the suite (its group trains and is reflected on); two with
    # RTLOPT_TEST_FULL_SIZE=1 (bench/long_tests.py, case reflect)
    steps = 2 if full_size() else 1
    try:
        cfg = ReflectConfig(endpoint=reflector.url, parallel=2, max_lessons=4)
        # three rollouts: a group whose rewards differ (it trains) and answers to reflect on;
        # each rollout costs a forward and backward pass of the model over the whole prompt
        _opt, run_dir = _run(
            tmp_path, policy, cfg, steps=steps, rollouts=3, lr=1e-3, policy_cfg=pcfg, rtl=SMALL
        )
    finally:
        policy.close()
    recs = RunDir(run_dir).read_steps()
    assert len(recs) == steps and recs[0]["reflections"] >= 1
    assert any(r["loss"] is not None for r in recs)  # the generator trained
    book = json.loads((run_dir / "playbook.json").read_text())
    assert book["lessons"] and all(x["evidence"] for x in book["lessons"])
