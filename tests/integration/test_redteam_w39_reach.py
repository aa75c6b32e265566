"""Red team w39 F9-F12, end to end (``rtlopt evaluate`` on a git repository): the repository
writes the target's register by a hierarchical name the reach rule's raw regexes missed, and a
candidate that drops the register was accepted while ``make sim`` printed another value.

- F9: nothing instantiates the target; a probe writes ``m.c``, the root's module name.
- F10: a macro joins the path from its arguments (`` `AT(tb.t.u, c)``), or the instance array's
  select holds a bracket (``tb.t.u[I[0]].c``).
- F11: the target names its register only through a token-pasting macro (``c_q``), written by
  a probe in a file that is no source (``sim/probe.txt``).
- F12: the repository instantiates the target through a macro taking the module name
  (`` `INST(m, u)``).

Each is refused now (``evaluate/_reach.py`` reads the preprocessed texts and slang's
elaboration); the same repository without the write is still accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_run import evaluate_in_repo

pytestmark = [pytest.mark.tools]

M = """module m (input clk, input rst, input [7:0] a, output [7:0] y);
  reg [7:0] c;
  always @(posedge clk) if (rst) c <= 8'd1;
  assign y = a + c;
endmodule
"""
CANDIDATE = M.replace("assign y = a + c;", "assign y = a + 8'd1;")
TOP = """module top(input clk, input rst, input [7:0] a, output [7:0] y);
  m u(.clk(clk), .rst(rst), .a(a), .y(y));
endmodule
"""


def _tb(write: str, head: str = "") -> str:
    return (
        f"{head}module tb; reg clk = 0, rst = 1; reg [7:0] a = 8'h10; wire [7:0] y;\n"
        "  localparam [1:0] I = 2'b10;\n  top t(.clk(clk), .rst(rst), .a(a), .y(y));\n"
        f'  initial begin #1 clk = 1; #1 clk = 0; rst = 0; {write} #1 $display("y=%h", y); end\n'
        "endmodule\n"
    )


def _evaluate(
    tmp: Path,
    files: dict[str, str],
    candidate: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[int, str]:
    """``rtlopt evaluate m.v --candidate cand.v`` in a new git repository of ``files``."""
    all_files = {"m.v": M, **files}
    return evaluate_in_repo(tmp, all_files, "m.v:m", candidate, capsys, monkeypatch, "nangate45")


def _refused(code: int, out: str, shown: str) -> None:
    assert code == 1 and "REJECTED" in out, out
    assert "reaches into an instance of m" in out and shown in out, out


@pytest.mark.parametrize("path", ["m.c", "$root.m.c"])
def test_a_root_written_by_its_module_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    root = M.replace("reg [7:0] c;", "reg [7:0] c = 8'd1;").replace(
        "  always @(posedge clk) if (rst) c <= 8'd1;\n", ""
    )
    probe = f"module probe;\n  initial #0 {path} = 8'd7;\nendmodule\n"
    cand = root.replace("a + c", "a + 8'd1")
    code, out = _evaluate(tmp_path, {"m.v": root, "sim/probe.v": probe}, cand, capsys, monkeypatch)
    _refused(code, out, "(m.c)")


@pytest.mark.parametrize(
    ("head", "write", "shown"),
    [
        ("`define AT(p, n) p.n\n", "#1 `AT(tb.t.u, c) = 8'd7;", "(u.c)"),
        ("", "#1 tb.t.u[I[0]].c = 8'd7;", "(u[I[0]].c)"),
    ],
)
def test_a_path_a_macro_joins_or_a_nested_select_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    head: str,
    write: str,
    shown: str,
) -> None:
    top = TOP if not head == "" else TOP.replace("m u(", "m u[0:0] (")
    files = {"top.v": top, "tb/tb.v": _tb(write, head)}
    code, out = _evaluate(tmp_path, files, CANDIDATE, capsys, monkeypatch)
    _refused(code, out, shown)


def test_a_register_a_macro_pastes_written_from_a_text_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pasted = (
        M.replace("reg [7:0] c;", "reg [7:0] `Q(c);")
        .replace("c <= 8'd1", "`Q(c) <= 8'd1")
        .replace("a + c", "a + `Q(c)")
    )
    files = {
        "q.vh": "`define Q(n) n``_q\n",
        "m.v": '`include "q.vh"\n' + pasted,
        "top.v": TOP,
        "tb/tb.v": _tb(""),
        "sim/probe.txt": "module probe; initial #3 tb.t.u.c_q = 8'd7; endmodule\n",
        "Makefile": "sim:\n\tiverilog -g2012 -I. -o sim.vvp m.v top.v tb/tb.v sim/probe.txt\n",
    }
    cand = '`include "q.vh"\n' + pasted.replace("a + `Q(c)", "a + 8'd1")
    code, out = _evaluate(tmp_path, files, cand, capsys, monkeypatch)
    _refused(code, out, "(u.c_q)")


INST = (
    "`define INST(mod, n) mod n(.clk(clk), .rst(rst), .a(a), .y(y))\n"
    "module top(input clk, input rst, input [7:0] a, output [7:0] y);\n"
    "  `INST(m, u);\nendmodule\n"
)


def test_an_instance_a_macro_writes_from_the_module_name_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"top.v": INST, "tb/tb.v": _tb("#1 tb.t.u.c = 8'd7;")}
    code, out = _evaluate(tmp_path, files, CANDIDATE, capsys, monkeypatch)
    _refused(code, out, "(u.c)")


@pytest.mark.slow
def test_the_same_repository_without_the_write_is_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No false rejection: the macro instance, a macro-joined read of a port, no write."""
    tb = _tb('#1 $display("%h", `AT(tb.t.u, y));', "`define AT(p, n) p.n\n")
    equal = M.replace("assign y = a + c;", "assign y = c + a;")
    code, out = _evaluate(tmp_path, {"top.v": INST, "tb/tb.v": tb}, equal, capsys, monkeypatch)
    assert code == 0 and "ACCEPTED" in out, out
