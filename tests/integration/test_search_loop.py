"""IGR and MCTS through the product's run loop, with a deterministic fake policy and the real
evaluator (iverilog, Yosys, OpenSTA) on the bundled priority encoder: node budget, edit answers,
kill-and-resume, and the test-time update of a training policy.

The fake policy answers from a fixed list, chosen by a hash of the prompt and the rollout's
seed, so a redone step gets the same answers (what a seeded model does); idea prompts get
``IDEA:`` lines; edit prompts may get SEARCH/REPLACE blocks against the code they show.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from rtlopt.config import (
    Config,
    EvalConfig,
    FlowConfig,
    PolicyConfig,
    RunConfig,
    SearchConfig,
    TrainConfig,
)
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.pdk import resolve_pdk
from rtlopt.policy import Completion, Prompt, Sample, UpdateStats, extract_verilog
from rtlopt.run import Optimizer
from rtlopt.rundir import RunDir

pytestmark = pytest.mark.tools

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "priority_encoder"
ALTS = [p.read_text() for p in sorted((EXAMPLE / "alternatives").glob("*.v"))]
NO_MODULE = "I would rather not write Verilog today."
EDIT_OK = (
    "<<<<<<< SEARCH\n  assign zero = ~|v;\n=======\n  assign zero = (v == 16'd0);\n"
    ">>>>>>> REPLACE\n"
)
EDIT_BAD = "<<<<<<< SEARCH\n  assign nothing = 1'b0;\n=======\n  assign x = 1;\n>>>>>>> REPLACE\n"
IDEAS = (
    "IDEA: encode each group of four bits first, then pick the first non-empty group\n"
    "IDEA: scan the bits in a loop from the least significant bit upwards\n"
    "IDEA: compute the zero flag from the group flags instead of all sixteen bits\n"
)


class KilledError(KeyboardInterrupt):
    """What the fake raises to stand for a kill in the middle of a step."""


class FakePolicy:
    """Deterministic fake: the answer depends only on (prompt, seed, rollout index).

    Args:
        answers: The pool of answers for code prompts.
        kill_at: Raise a KeyboardInterrupt on this ``generate`` call (1-based).
        trainable: Whether the loop should treat it as learning (records updates).
    """

    name = "fake"

    def __init__(
        self,
        answers: Sequence[str],
        kill_at: int | None = None,
        trainable: bool = False,
        chooser: Callable[[str, int], str] | None = None,
    ) -> None:
        self.answers = list(answers)
        self.chooser = chooser
        self.kill_at = kill_at
        self.trainable = trainable
        self.calls = 0
        self.prompts: list[Prompt] = []
        self.updates: list[list[Sample]] = []

    def _pick(self, prompt: Prompt, seed: int, j: int) -> str:
        user = prompt[-1]["content"]
        if "starting with `IDEA:`" in user:
            return IDEAS
        if self.chooser is not None:
            return self.chooser(user, j)
        h = hashlib.sha256(f"{seed}/{j}/{user}".encode()).digest()
        return self.answers[h[0] % len(self.answers)]

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        self.calls += 1
        if self.kill_at is not None and self.calls == self.kill_at:
            raise KilledError
        out = []
        for i, p in enumerate(prompts):
            self.prompts.append(p)
            group = []
            for j in range(n):
                text = self._pick(p, seed + 1000 * i, j)
                group.append(Completion(text=text, verilog=extract_verilog(text)))
            out.append(group)
        return out

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        self.updates.append(list(samples))
        return UpdateStats(
            loss=0.0 if samples else None,
            kl_ref=None,
            n_samples=len(samples),
            tokens=0,
            grad_norm=None,
            time_s=0.0,
        )

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)

    def load(self, path: Path) -> None:
        pass

    def close(self) -> None:
        pass


def _config(
    tmp: Path,
    search: SearchConfig,
    *,
    steps: int = 10,
    rollouts: int = 2,
    answer_format: str = "auto",
    lr: float = 0.0,
) -> Config:
    return Config(
        flow=FlowConfig(pdk="nangate45", metric="adp", power=False),
        eval=EvalConfig(workers=1, cache=True, cache_dir=str(tmp / "cache")),
        search=search,
        run=RunConfig(steps=steps, rollouts=rollouts, seed=5),
        train=TrainConfig(learning_rate=lr),
        policy=PolicyConfig(answer_format=answer_format),
    )


def _repo(tmp: Path) -> Path:
    repo = tmp / "repo"
    if not repo.exists():
        shutil.copytree(EXAMPLE / "rtl", repo / "rtl")
    return repo / "rtl" / "prio_enc.v"


def _run(
    tmp: Path, cfg: Config, policy: FakePolicy, run_dir: Path, resume: bool = False
) -> Optimizer:
    target = _repo(tmp)
    design = load_design(target, "prio_enc", cfg.project)
    with Evaluator(design, cfg, tmp / "work", resolve_pdk("nangate45")) as ev:
        opt = Optimizer(design, cfg, ev, policy, run_dir, "spec")
        opt.prepare(run_dir.name, resume=resume)
        opt.run()
    return opt


def _steps(run_dir: Path) -> list[tuple[int, int | None, float, int]]:
    return [
        (r["step"], r["nodes"], round(r["max_reward"], 6), r["accepted"])
        for r in RunDir(run_dir).read_steps()
    ]


def test_fake_policy_mcts_run_killed_mid_step_resumes_without_losing_anything(
    tmp_path: Path,
) -> None:
    answers = [*ALTS, NO_MODULE]
    search = SearchConfig(sampler="mcts", parents=2, node_budget=14)
    cfg = _config(tmp_path, search)
    whole = _run(tmp_path, cfg, FakePolicy(answers), tmp_path / "whole")
    assert whole.nodes == 14 and whole.exhausted  # the budget, not run.steps, ended it
    info = RunDir(tmp_path / "whole").read_info()
    assert info is not None and info.status == "done"

    killed_dir = tmp_path / "killed"
    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path, cfg, FakePolicy(answers, kill_at=3), killed_dir)
    info = RunDir(killed_dir).read_info()
    assert info is not None and info.status == "interrupted"
    done_before = RunDir(killed_dir).read_state()
    assert done_before is not None and done_before.step == 2
    resumed = _run(tmp_path, cfg, FakePolicy(answers), killed_dir, resume=True)
    assert resumed.start_step == 3
    # the same tree, the same step records, the same best design
    a = json.loads((tmp_path / "whole" / "search.json").read_text())
    b = json.loads((killed_dir / "search.json").read_text())
    assert a == b and a["strategy"] == "mcts" and len(a["nodes"]) == 1 + 14
    assert _steps(tmp_path / "whole") == _steps(killed_dir)
    assert (tmp_path / "whole" / "best.v").read_text() == (killed_dir / "best.v").read_text()
    # the tree is EvolVE's: Q of the root is the sum of all scores, C the number of nodes
    root = next(n for n in a["nodes"] if n["id"] == 0)
    scores = [n["score"] for n in a["nodes"] if n["id"] != 0]
    assert root["visits"] == 14 and root["value"] == pytest.approx(sum(scores))
    assert any(s == -1e5 for s in scores) and any(s > 11 for s in scores)


def _edit_chooser(user: str, j: int) -> str:
    """The first idea's chain first gets only blocks that match nothing; then rollout 0 edits
    the line if the code shown still has it, rollout 1 sends a block that matches nothing; once
    the line is gone, a whole module or no module."""
    shown = user[user.rindex("```verilog") :]
    if "encode each group" in user and "## Feedback from Previous Attempt" not in user:
        return EDIT_BAD
    if "  assign zero = ~|v;" in shown:
        return EDIT_OK if j == 0 else EDIT_BAD
    return ALTS[1] if j == 0 else NO_MODULE


def test_fake_policy_igr_run_with_edit_answers(tmp_path: Path) -> None:
    # the batched variant (2 answers per chain step): the budget of 9 ends the run mid-chain
    search = SearchConfig(sampler="igr-batched", parents=2, igr_ideas=3, igr_steps=2, node_budget=9)
    cfg = _config(tmp_path, search, rollouts=2, answer_format="edit")
    run_dir = tmp_path / "igr"
    policy = FakePolicy([], chooser=_edit_chooser)
    opt = _run(tmp_path, cfg, policy, run_dir)
    state = json.loads((run_dir / "search.json").read_text())
    assert [i["source"] for i in state["ideas"]] == ["model"] * 3
    assert state["ideas"][0]["text"].startswith("encode each group of four bits")
    assert opt.nodes == 9 and opt.exhausted
    # every code prompt asked for edits, with the idea of its chain
    code_prompts = [p for p in policy.prompts if "IDEA:" not in p[-1]["content"]]
    assert code_prompts and all("<<<<<<< SEARCH" in p[-1]["content"] for p in code_prompts)
    assert all("## Idea to Implement\n" in p[-1]["content"] for p in code_prompts)
    # an applied edit changed exactly one line of the reference and was judged
    ref = (EXAMPLE / "rtl" / "prio_enc.v").read_text()
    rd = RunDir(run_dir)
    edited = [
        c
        for c in rd.iter_candidates()
        if c.code_path is not None and "(v == 16'd0)" in c.code_path.read_text()
    ]
    assert edited and edited[0].result.accepted
    text = edited[0].code_path.read_text()  # type: ignore[union-attr]
    ref_mod = ref[ref.index("module prio_enc") : ref.index("endmodule") + len("endmodule")]
    diff = [(x, y) for x, y in zip(ref_mod.splitlines(), text.splitlines(), strict=True) if x != y]
    assert diff == [("  assign zero = ~|v;", "  assign zero = (v == 16'd0);")]
    # an edit that does not apply is a syntax-stage failure whose feedback names the block
    fed_back = [
        p[-1]["content"]
        for p in code_prompts
        if "Syntax: FAIL (rejected: edit block 1: its SEARCH text was not found" in p[-1]["content"]
    ]
    assert fed_back, "the failed edit's feedback never reached a later prompt"


def test_fake_trainable_policy_learns_from_every_strategys_groups(tmp_path: Path) -> None:
    answers = [*ALTS, NO_MODULE]
    # EvolVE's igr and mcts make one child per expansion: a group of one has no advantage, so
    # a training policy learns from the batched variants (and the pool) only
    for sampler in ("mcts-batched", "igr-batched", "puct"):
        search = SearchConfig(sampler=sampler, parents=2, igr_ideas=2, igr_steps=2, node_budget=8)
        cfg = _config(tmp_path, search, rollouts=3, lr=1e-3)
        policy = FakePolicy(answers, trainable=True)
        _run(tmp_path, cfg, policy, tmp_path / f"ttt-{sampler}")
        samples = [s for batch in policy.updates for s in batch]
        assert policy.updates and samples, sampler
        # each sample is a rollout of one of the step's code prompts, with a non-zero advantage
        code_prompts = {p[-1]["content"] for p in policy.prompts if "IDEA:" not in p[-1]["content"]}
        assert all(s.prompt[-1]["content"] in code_prompts for s in samples), sampler
        assert all(s.advantage != 0.0 for s in samples), sampler
        assert any(s.advantage > 0 for s in samples) and any(s.advantage < 0 for s in samples)
        assert not any(re.match(r"IDEA:", s.completion) for s in samples)
