"""Red team w40 G4, with real tools and git: an instance of the target whose module name is a
macro only the build script defines (Makefile ``iverilog -DCORE=m``).

top.v holds `` `CORE #(.K(8'd200)) u(...)``; slang's elaboration dropped the instance (the
macro is undefined there), so the target was taken for a module nothing instantiates and only
probed: a candidate that differs only at K=200 was ACCEPTED by ``rtlopt evaluate`` and passed
``rtlopt check``. Such an instance now leaves a change that depends on a parameter unchecked,
naming the file, the line and the fix; the macro defined in ``rtlopt.toml`` is expanded (the
instance is then checked at K=200, where the candidate differs).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

M = (
    "module m #(parameter [7:0] K = 8'd1) (input [7:0] a, output [7:0] y);\n"
    "  assign y = a + K;\nendmodule\n"
)
CAND = M.replace("assign y = a + K;", "assign y = a + (((K ^ 8'h55) == 8'h9d) ? 8'd0 : K);")
TOP = (
    "module top(input [7:0] a, output [7:0] y);\n"
    "  `CORE #(.K(8'd200)) u(.a(a), .y(y));\nendmodule\n"
)
MAKE = "sim:\n\tiverilog -g2012 -DCORE=m -o sim.vvp *.v\n"
CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
SAID = "top.v:2: the macro `CORE stands where an instance names its module"


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str) -> Path:
    files = {"rtlopt.toml": config, "m.v": M, "top.v": TOP, "Makefile": MAKE}
    return committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")


def _evaluate(repo: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    (tmp_path / "cand.v").write_text(CAND)
    cand = str(tmp_path / "cand.v")
    return run_rtlopt(repo, "evaluate", "m.v", "--candidate", cand, "--pdk", "nangate45", "--json")


def test_evaluate_leaves_a_change_unchecked_under_a_build_only_macro_instance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, CONFIG)
    r = _evaluate(repo, tmp_path)
    assert r.returncode == 1, (r.stdout + r.stderr)[-2000:]
    reason = str(json.loads(r.stdout)["candidate"]["reason"])
    assert reason.startswith("unchecked for parameters"), reason
    assert SAID in reason and "[project] defines" in reason, reason


def test_check_fails_a_change_under_a_build_only_macro_instance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, CONFIG)
    (repo / "m.v").write_text(CAND)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa")
    assert r.returncode == 1, (r.stdout + r.stderr)[-2000:]
    assert SAID in " ".join(r.stdout.split()), r.stdout[-2000:]


def test_the_macro_defined_in_the_configuration_is_expanded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: rtlopt.toml defines CORE, so the instance is elaborated and checked at
    K=200, where the candidate differs."""
    repo = _repo(tmp_path, monkeypatch, CONFIG + '[project]\ndefines = ["CORE=m"]\n')
    r = _evaluate(repo, tmp_path)
    assert r.returncode == 1, (r.stdout + r.stderr)[-2000:]
    reason = str(json.loads(r.stdout)["candidate"]["reason"])
    assert "under parameters K=8'd200 (top.u)" in reason, reason
    assert SAID not in reason, reason
