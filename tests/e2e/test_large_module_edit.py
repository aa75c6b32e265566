"""A module of over 1,000 lines from a real repository (picorv32's core, 2,106 lines), optimized
with the edit answer format: the prompt stays under ``policy.max_prompt_tokens`` (counted with
the CPU model's own tokenizer and chat template), it shows the interface and the region of the
critical path, the scripted answer (SEARCH/REPLACE blocks) is applied, proven equivalent (by
Yosys's structural proof, not the identical-source shortcut), and written to a new branch as a
minimal diff (only the edited lines change).

picorv32.v uses `ifdef and macros inside the core, which the candidate screen refuses; the test
repository holds the file as ``iverilog -E`` prints it (same lines, directives expanded), built
at test time from ../shared/bench/repos (nothing is copied into this project). Its parameters
default to a smaller configuration (16 registers, no cycle/instruction counters: the same 2,106
lines, 640 fewer flip-flops for Yosys's structural equivalence proof, which is most of the
time); ``RTLOPT_TEST_FULL_SIZE=1`` keeps picorv32's own defaults (bench/long_tests.py times both).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from rtlopt import session
from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.policy import Completion, Policy, Prompt, Sample, UpdateStats, create_policy
from rtlopt.rundir import RunDir
from tests.conftest import ACCEPTANCE_FULL_SKIP_REASON, bench_path
from tests.e2e.conftest import git

pytestmark = [
    pytest.mark.tools,
    pytest.mark.model,
    pytest.mark.slow,
    # Since partial pairing fails closed (issue 30), the outputs picorv32's core leaves x (its
    # un-reset registers and explicit 'bx assignments) go to the check from a shared power-up
    # state, which does not decide this edit within the limit: a known false rejection that
    # waits out most of the 2,400 s limit. Run it with RTLOPT_ACCEPTANCE_FULL=1.
    pytest.mark.skipif(
        os.environ.get("RTLOPT_ACCEPTANCE_FULL") != "1",
        reason=ACCEPTANCE_FULL_SKIP_REASON + " (picorv32's core edit: a known false rejection)",
    ),
    pytest.mark.xfail(
        strict=True,
        reason="known false rejection: the x outputs of picorv32's core are not re-proven "
        "from a shared power-up state within the limit",
    ),
]

PICORV32 = bench_path() / "repos" / "picorv32" / "picorv32.v"
# the smaller configuration: parameter defaults of the core changed in the test's copy
SMALL = [
    ("parameter [ 0:0] ENABLE_COUNTERS = 1,", "parameter [ 0:0] ENABLE_COUNTERS = 0,"),
    ("parameter [ 0:0] ENABLE_COUNTERS64 = 1,", "parameter [ 0:0] ENABLE_COUNTERS64 = 0,"),
    ("parameter [ 0:0] ENABLE_REGS_16_31 = 1,", "parameter [ 0:0] ENABLE_REGS_16_31 = 0,"),
]
EDITS = [
    ("\t\t\talu_eq = reg_op1 == reg_op2;", "\t\t\talu_eq = ~|(reg_op1 ^ reg_op2);"),
    ("\t\t\talu_ltu = reg_op1 < reg_op2;", "\t\t\talu_ltu = reg_op2 > reg_op1;"),
]


class RecordingPolicy:
    """Wraps the scripted policy and keeps every prompt it was given."""

    name = "recording"
    trainable = False

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.prompts: list[Prompt] = []

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        self.prompts.extend(prompts)
        return self.inner.generate(prompts, n, seed=seed)

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        return self.inner.update(samples)

    def save(self, path: Path) -> None:
        self.inner.save(path)

    def load(self, path: Path) -> None:
        self.inner.load(path)

    def close(self) -> None:
        self.inner.close()


def _repo(tmp: Path) -> Path:
    if not PICORV32.exists():
        pytest.skip(f"benchmark data not found: {PICORV32} (set RTLOPT_BENCH_PATH)")
    repo = tmp / "picorv32"
    repo.mkdir()
    subprocess.run(["iverilog", "-E", "-o", str(repo / "picorv32.v"), str(PICORV32)], check=True)
    if os.environ.get("RTLOPT_TEST_FULL_SIZE", "") != "1":
        text = (repo / "picorv32.v").read_text()
        for old, new in SMALL:  # the core's defaults come first in the file
            assert old in text, old
            text = text.replace(old, new, 1)
        (repo / "picorv32.v").write_text(text)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "picorv32, preprocessed")
    return repo


def test_edit_of_a_2000_line_core_is_proven_and_written_as_a_minimal_diff(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    text = (repo / "picorv32.v").read_text()
    for old, _ in EDITS:
        assert text.count(old + "\n") == 1
    answer = (
        "I change two comparisons of the ALU.\n```verilog\n"
        + "".join(f"<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n" for old, new in EDITS)
        + "```\n"
    )
    cands = tmp_path / "answers"
    cands.mkdir()
    (cands / "edit.v").write_text(answer)
    limit = 8192
    target = session.open_target(
        session.TargetSpec(
            repo / "picorv32.v",
            "picorv32",
            overrides={
                "flow.pdk": "nangate45",
                "flow.metric": "adp",
                "flow.power": False,
                "policy.backend": "scripted",
                "policy.scripted_path": str(cands),
                "policy.max_prompt_tokens": limit,
                "run.steps": 1,
                "run.rollouts": 2,
                "search.parents": 1,
                "eval.workers": 1,
                # the structural proof (equiv_induct over ~1,600 registers) takes ~220 s CPU; it
                # gets a quarter of the limit, which on a shared, loaded machine is wall time
                "formal.timeout_s": 2400,
                # Yosys's structural proof only: ABC's latch correspondence, which runs first,
                # does not merge this edit's registers and its dprove spends its whole budget
                # (a third of the limit: 13 min) before the structural proof starts. The lcorr
                # proof of a picorv32 core edit has its own test (test_formal_core_renamed.py).
                "formal.abc": False,
                # the smaller configuration is the core's own defaults only: the wrappers in
                # picorv32.v still instantiate it at full size, which the parameter stage would
                # prove too (that stage has tests of its own; here it is the edit format)
                "harness.parameterizations": False,
            },
        )
    )
    lines = target.design.target.text().count("\n") + 1
    assert lines > 2000
    plan = session.plan_run(target)
    with session.open_evaluator(target, plan.workdir) as ev:
        ev.reference()
        policy = RecordingPolicy(session.load_policy(target.config))
        outcome = session.optimize(target, ev, policy, plan)
        finished = session.finish(target, outcome, plan)
    # the prompt: edit format, interface + focused region, under the limit in real tokens
    (prompt,) = policy.prompts
    user = prompt[-1]["content"]
    assert "<<<<<<< SEARCH" in user and "## Code to Edit" in user
    assert "lines omitted (lines" in user
    assert "Critical path:" in user and "\tinput clk, resetn," in user  # the ports are shown
    assert user.count("\n") < lines  # but not the whole module
    (tmp_path / "prompt.txt").write_text(user)  # for a human reading a failure
    for old, _ in EDITS:  # the region around the critical path's signals is shown
        assert old in user
    cpu = create_policy(
        PolicyConfig(backend="transformers", device="cpu"), TrainConfig(learning_rate=0.0), seed=0
    )
    try:
        tokens = len(cpu.prompt_ids(prompt))  # type: ignore[attr-defined]
    finally:
        cpu.close()
    assert 2000 < tokens <= limit, tokens
    # the applied edit: accepted with a proof that is not the identical-source shortcut
    assert outcome.best is not None and outcome.best.accepted
    formal = outcome.best.formal
    assert formal is not None and formal.verdict.value == "proven"
    assert "identical" not in formal.method
    # on the branch, only the two edited lines changed. The edit is a rewrite, not an
    # optimization: whether it measures better is up to ABC (+-7% on this core between
    # equivalent texts), and only a better design gets a branch from `finish`; otherwise the
    # test writes it with the same product call `finish` makes.
    branch = finished.branch
    if not outcome.improved:
        assert branch is None
        from rtlopt.writeback import write_branch

        assert outcome.best_code is not None
        branch = write_branch(
            target.design.root,
            target.design.target.file,
            "picorv32",
            outcome.best_code.strip() + "\n",
            branch=plan.branch or "x",
            message="the proven edit",
            design=target.design,
        ).branch
    assert branch is not None
    diff = git(repo, "diff", "--unified=0", "main", branch, "--", "picorv32.v")
    changed = [ln for ln in diff.splitlines() if re.match(r"^[-+](?![-+])", ln)]
    assert sorted(changed) == sorted(
        [f"-{old}" for old, _ in EDITS] + [f"+{new}" for _, new in EDITS]
    )
    rd = RunDir(outcome.run_dir)
    assert rd.read_steps()[0]["accepted"] == 2  # the one answer, twice (scripted cycles)
