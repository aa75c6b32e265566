"""The gate where a setting line of the repository is not fully literal: a changed Make
``define`` block's body (``iverilog -D$(VARIANT)_INV``) is a finding naming that line; the
same change passes with ``--trust-config``, a comment edit passes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = [pytest.mark.tools]

TOML = '[project]\nfilelists = ["files.f"]\n[check]\noptimization_only = ["*"]\nppa = false\n'
INV = (
    "module inv(input [3:0] a, output [3:0] y);\n`ifdef FAST_INV\n  assign y = a ^ 4'b0111;\n"
    "`else\n  assign y = ~a;\n`endif\nendmodule\n"
)
MAKE = (
    "define VARIANT\nSLOW\nendef\n# the simulation\nsim:\n\tiverilog -D$(VARIANT)_INV -o s inv.v\n"
)


def _check(repo: Path, files: dict[str, str], *extra: str) -> tuple[int, str]:
    for rel, text in files.items():
        (repo / rel).write_text(text)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa", "--json", *extra)
    if r.returncode not in (0, 1):
        raise AssertionError((r.stdout[-800:], r.stderr[-800:]))
    out = json.loads(r.stdout)
    return r.returncode, "\n".join(str(f) for m in out["modules"] for f in m["findings"])


def test_a_change_a_computed_setting_may_read_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    base = {"rtlopt.toml": TOML, "files.f": "inv.v\n", "inv.v": INV, "Makefile": MAKE}
    committed_repo(repo, base, monkeypatch, tmp_path / "c")
    # a comment in the Makefile: a build-file finding only (no computed-setting one)
    code, said = _check(repo, {"Makefile": MAKE.replace("# the simulation", "# the sim")})
    assert code == 1 and said.count("no Verilog source and no documentation") == 1, said
    assert "\n" not in said, said
    fast = MAKE.replace("SLOW", "FAST")
    code, said = _check(repo, {"Makefile": fast})
    assert code == 1 and "Makefile at line 2" in said and "may feed Makefile:6" in said, said
    code, said = _check(repo, {"Makefile": fast}, "--trust-config")
    assert (code, said) == (0, ""), said
