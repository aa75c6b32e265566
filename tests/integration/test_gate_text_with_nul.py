"""A text holding a NUL byte is no binary file (make and bash run it): a build-option change
in a Makefile with a NUL byte in a comment is judged by the gate like any other
(``harness/_binary.py``: only a recognised binary format, by magic number, is binary)."""

from __future__ import annotations

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
MAKE = "# regression build\n# tag: \0\n\nsim:\n\tiverilog {} -o sim.vvp inv.v\n"


def test_a_build_option_added_to_a_makefile_with_a_nul_byte_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    files = {"rtlopt.toml": TOML, "files.f": "inv.v\n", "inv.v": INV}
    committed_repo(repo, files, monkeypatch, tmp_path / "c")
    (repo / "Makefile").write_text(MAKE.format(""))
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "commit", "-qm", "make"], check=True)
    (repo / "Makefile").write_text(MAKE.format("-DFAST_INV"))
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa")
    assert r.returncode == 1, (r.stdout[-800:], r.stderr[-800:])
    assert "-DFAST_INV" in r.stdout + r.stderr, r.stdout[-800:]
