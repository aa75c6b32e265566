"""Red team w40 G1 through the gate, with real git: a build without a fixed file order.

A Makefile compiles ``*.v``: the order of the names decides which definition of a macro wins
where one file defines it and another reads it without including the definer. A commit that
renames, moves or deletes such a file (or renames the reading module's own file, byte for
byte) changed what the unchanged module ``m`` reads (``8'd1`` <-> ``8'd2``) and passed:
"m (reached) proven", "no Verilog module changed". Each is now a finding naming the file,
the macro and the reading module, with the fix.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
DEFAULT = "`ifndef INC\n`define INC 8'd1\n`endif\n"
M = "module m(input [7:0] a, output [7:0] y);\n  assign y = a + `INC;\nendmodule\n"
TOP = "module top(input [7:0] a, output [7:0] y);\n  m u(.a(a), .y(y));\nendmodule\n"
# (an output: a module without one cannot be judged where a change reaches it)
CFG = "`define INC 8'd2\nmodule cfg(output z);\n  assign z = 1'b0;\nendmodule\n"
MAKE = "sim:\n\tiverilog -g2012 -Iinc -o sim.vvp *.v\n"


def _base(inline: bool, cfg: str) -> dict[str, str]:
    files = {"rtlopt.toml": CONFIG, "top.v": TOP, "Makefile": MAKE, cfg: CFG}
    if inline:
        return files | {"m.v": DEFAULT + M}
    return files | {"inc/h.vh": DEFAULT, "m.v": '`include "h.vh"\n' + M}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *GIT_ID, "-C", str(repo), *args], check=True, capture_output=True)


def _checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], *op: str
) -> subprocess.CompletedProcess[str]:
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    _git(repo, *op)
    _git(repo, "add", "-A")
    return run_rtlopt(repo, "check", "--no-ppa")


@pytest.mark.parametrize(
    ("inline", "cfg", "op", "said"),
    [
        (False, "z_cfg.v", ("mv", "z_cfg.v", "a_cfg.v"), "the rename of z_cfg.v to a_cfg.v"),
        (True, "a_cfg.v", ("mv", "a_cfg.v", "z_cfg.v"), "the rename of a_cfg.v to z_cfg.v"),
        (True, "a_cfg.v", ("rm", "-q", "a_cfg.v"), "the deletion of a_cfg.v"),
    ],
)
def test_moving_or_deleting_a_file_that_defines_a_macro_another_reads_fails(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    inline: bool,
    cfg: str,
    op: tuple[str, ...],
    said: str,
) -> None:
    """G1 rename / back / delete: cfg's text is unchanged; m's definition of INC is not."""
    r = _checked(tmp_path, monkeypatch, _base(inline, cfg), *op)
    assert r.returncode == 1, (r.stdout + r.stderr)[-2000:]
    out = " ".join(r.stdout.split())
    assert said in out, out[-2000:]
    assert "it defines the macro INC, which" in out and "m.v (module m)" in out, out[-2000:]
    assert "a filelist that fixes their order" in out, out[-2000:]


@pytest.mark.parametrize("inline", [False, True])
def test_renaming_the_reading_modules_own_file_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inline: bool
) -> None:
    """G1 target: m.v renamed a_m.v byte for byte moves it before b_cfg.v in ``*.v``."""
    r = _checked(tmp_path, monkeypatch, _base(inline, "b_cfg.v"), "mv", "m.v", "a_m.v")
    assert r.returncode == 1, (r.stdout + r.stderr)[-2000:]
    out = " ".join(r.stdout.split())
    assert "the rename of m.v to a_m.v" in out, out[-2000:]
    said = "a_m.v (module m) reads the macro INC, which b_cfg.v defines, a file it"
    assert said in out, out[-2000:]


def test_renaming_a_file_that_defines_no_macro_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: a rename that moves no definition of a macro another file reads."""
    files = _base(False, "z_cfg.v")
    files["z_cfg.v"] = "module cfg; endmodule\n"
    r = _checked(tmp_path, monkeypatch, files, "mv", "z_cfg.v", "a_cfg.v")
    assert r.returncode == 0, (r.stdout + r.stderr)[-2000:]
