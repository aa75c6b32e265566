"""`rtlopt check` on a commit that edits comments only (nothing to prove, no tool started),
and input errors that name the repository's files, not the gate's temporary copies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

PKG = "package p;\n  typedef logic [3:0] t;\nendpackage\n"
#: A design slang cannot elaborate (a member of a plain vector): any judged change stops.
BAD = "module tgt (input p::t a, output logic [3:0] y);\n  assign y = a.x;\nendmodule\n"


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "bad"
    (repo / "rtl").mkdir(parents=True)
    (repo / "rtl" / "p.sv").write_text(PKG)
    (repo / "rtl" / "tgt.sv").write_text(BAD)
    (repo / "rtlopt.toml").write_text('[check]\noptimization_only = ["*"]\nppa = false\n')
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return repo


def test_an_input_error_names_the_repository_file_not_the_gates_copy(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "rtl" / "tgt.sv").write_text(BAD.replace("a.x;", "a.x | 4'd0;"))
    git(repo, "add", "-A")
    r = rtlopt(["check", "--no-ppa"], cwd=repo)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "error: rtl/tgt.sv:2: slang cannot elaborate" in r.stderr, r.stderr
    assert "rtlopt-check-" not in r.stderr + r.stdout, r.stderr


def test_a_commit_of_comments_only_is_nothing_to_prove(tmp_path: Path) -> None:
    # the same design: judged, it would stop (above); its comments are read by no tool
    repo = _repo(tmp_path)
    (repo / "rtl" / "tgt.sv").write_text("// the target\n" + BAD + "// end of file\n")
    git(repo, "add", "-A")
    r = rtlopt(["check", "--no-ppa", "--json"], cwd=repo)
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["ok"] and out["modules"] == [], out
    assert any("comments" in n and "rtl/tgt.sv" in n for n in out["notes"]), out["notes"]
