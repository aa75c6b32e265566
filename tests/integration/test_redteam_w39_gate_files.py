"""Red team w39 through the gate, with real git: the new-file screen read too little.

- F1, F2: a new file that ```include``s an existing, unchanged header (included by nothing at
  the base) brought in the header's `` `define `` (read by another file: glob build order),
  ``force``, ``defparam`` or hierarchical write unseen: the screen read the file's own text.
  The file is now screened with every header it includes inlined.
- F3: a hierarchical write spelled other than ``NAME =`` (escaped, ``+=``, ``++``, a
  concatenation, a task's output, ``$sscanf``, the file's own macro, a decoy declaration in
  another module of the file) passed: any reference into the design counts unless it stands
  where it is only read.
- F4: a new ``.sva``/``.md`` a Makefile glob compiles was "no Verilog module changed": every
  added or edited text file is screened, whatever its suffix.
- F13: a Makefile change adding ``-DINC=8'd2`` was "no Verilog module changed": a changed line
  of a build script whose elaboration options differ is a finding.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
M = (
    "module m #(parameter [7:0] K = 8'd1) (input clk, input [7:0] a, output [7:0] y);\n"
    "  reg [7:0] c = 8'd0;\n  always @(posedge clk) c <= c;\n  assign y = a + K + c;\n"
    "endmodule\n"
)
TOP = (
    "`ifndef INC\n`define INC 8'd1\n`endif\n"
    "module top(input clk, input [7:0] a, output [7:0] y, output [7:0] z);\n"
    "  m u(.clk(clk), .a(a), .y(y));\n  assign z = a + `INC;\nendmodule\n"
)
TB = (
    "module tb; reg clk = 0; reg [7:0] a = 8'h10; wire [7:0] y, z;\n"
    "  top t(.clk(clk), .a(a), .y(y), .z(z)); initial #1 $display(y, z); endmodule\n"
)
MAKE = "sim:\n\tiverilog -g2012 -Iinc -o sim.vvp *.v tb/tb.v $(wildcard verif/*)\n"
BASE = {"rtlopt.toml": CONFIG, "m.v": M, "top.v": TOP, "tb/tb.v": TB, "Makefile": MAKE}


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *GIT_ID, "-C", str(repo), *args], capture_output=True, text=True, timeout=900
    )


def _checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, base: dict[str, str], change: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """``rtlopt check`` of ``change`` staged over a repository of ``base``."""
    repo = committed_repo(tmp_path / "repo", base, monkeypatch, tmp_path / "cache")
    for rel, text in change.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    _git(repo, "add", "-A")
    return run_rtlopt(repo, "check", "--no-ppa")


@pytest.mark.parametrize(
    ("header", "said"),
    [
        ("`define INC 8'd2\n", "the macro INC is also read by top.v"),
        ("initial force tb.t.u.y = 8'd7;\n", "force reaches into other modules"),
        ("defparam tb.t.u.K = 8'd7;\n", "defparam reaches into other modules"),
        ("initial #0 tb.t.u.c = 8'd7;\n", "write to the hierarchical name tb.t.u.c"),
    ],
)
def test_a_new_file_including_an_unchanged_header_is_screened_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, header: str, said: str
) -> None:
    """F1, F2: the header is unchanged and included by nothing at the base."""
    base = BASE | {"inc/dbg.vh": "// for a bench to include\n" + header}
    helper = 'module helper;\n`include "dbg.vh"\nendmodule\n'
    r = _checked(tmp_path, monkeypatch, base, {"a_helper.v": helper})
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert "the new file a_helper.v at line 2: " in r.stdout, r.stdout[-1500:]
    assert said in r.stdout and "inc/dbg.vh" in r.stdout, r.stdout[-1500:]


@pytest.mark.parametrize(
    "line",
    [
        "initial #0 \\tb .t.u.c = 8'd7;",
        "initial #0 tb.t.u.c += 8'd6;",
        "initial #0 repeat (6) tb.t.u.c++;",
        "initial #0 {tb.t.u.c} = 8'd7;",
        "task automatic ld(output [7:0] v); v = 8'd7; endtask\n  initial #0 ld(tb.t.u.c);",
        'integer n; initial #0 n = $sscanf("07", "%h", tb.t.u.c);',
        "`define W tb.t.u.c\n  initial #0 `W = 8'd7;\n`undef W",
        "initial #0 tb.t.u.c = 8'd7;\nendmodule\nmodule helper_cfg;\n  reg [7:0] tb;",
    ],
)
def test_a_hierarchical_write_in_any_spelling_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    """F3."""
    r = _checked(
        tmp_path, monkeypatch, BASE, {"a_helper.v": f"module helper;\n  {line}\nendmodule\n"}
    )
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert "write to the hierarchical name" in r.stdout and "t.u.c" in r.stdout, r.stdout[-1500:]


@pytest.mark.parametrize("name", ["verif/poke.sva", "verif/poke.md", "verif/poke.vl"])
def test_a_new_file_of_any_suffix_is_screened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """F4: the Makefile's glob compiles whatever verif/ holds."""
    poke = "module poke;\n  initial #0 tb.t.u.c = 8'd7;\nendmodule\n"
    r = _checked(tmp_path, monkeypatch, BASE, {name: poke})
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert f"the new file {name} at line 2: write to the hierarchical name" in r.stdout


def test_a_build_option_added_to_a_makefile_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F13: the define is the build script's, which the gate does not judge."""
    make = MAKE.replace("iverilog -g2012", "iverilog -g2012 -DINC=8\\'d2")
    r = _checked(tmp_path, monkeypatch, BASE, {"Makefile": make})
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert (
        "the change to Makefile at line 2: the build options or sources change (-DINC" in r.stdout
    )
    assert "rtlopt.toml" in r.stdout


MONITOR = (
    "module mon;\n  integer n = 0;\n  initial $dumpvars(0, tb.t);\n"
    "  always @(posedge tb.clk) if (tb.t.u.c == 8'd3) n = n + tb.t.u.y;\n"
    "  wire [7:0] w = tb.t.u.c;\nendmodule\n"
)
ORDINARY = {
    "n.v": '`include "n_defs.vh"\nmodule n(input [`N_W-1:0] a, output [`N_W-1:0] y);\n'
    "  assign y = a;\nendmodule\n",
    "README.md": "# demo\n\nRun `make sim`; top.v holds u, see tb.t.u.c. Use -v.\n"
    "```verilog\nmodule ex; initial $display(tb.t.u.c); endmodule\n```\n",
    "tb/mon.v": MONITOR,
}


@pytest.mark.parametrize(
    "change", [ORDINARY, {"m.v": M.replace("a + K + c", "K + a + c")}], ids=["new", "edit"]
)
def test_ordinary_changes_still_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: dict[str, str]
) -> None:
    """A new plain module with its own header, a README naming files and hierarchical names,
    a monitor that only reads the design; an edited module. (A Makefile edit is a finding
    here: its iverilog line is not literal, ``$(wildcard verif/*)``:
    tests/unit/check/test_computed_settings.py.)"""
    base = BASE | {"README.md": "# demo\n\nRun `make sim`.\n", "inc/n_defs.vh": "`define N_W 8\n"}
    r = _checked(tmp_path, monkeypatch, base, change)
    assert r.returncode == 0, (r.stdout + r.stderr)[-2500:]
