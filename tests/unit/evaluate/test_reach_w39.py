"""Red team w39 F9-F12: names into the target the reach rule's raw regexes missed (a root
written by its module name, a path a macro's arguments join, a select holding a bracket, a
register name a macro pastes, an instance a macro writes), and texts that stay no reach.
Real frontend and slang, no tool run."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate._reach import repository_reach
from rtlopt.frontend import load_design

M = """module m (input clk, input rst, input [7:0] a, output [7:0] y);
  reg [7:0] c;
  always @(posedge clk) if (rst) c <= 8'd1;
  assign y = a + c;
endmodule
"""
TOP = """module top(input clk, input rst, input [7:0] a, output [7:0] y);
  m u(.clk(clk), .rst(rst), .a(a), .y(y));
endmodule
"""


def _tb(body: str, head: str = "") -> str:
    return (
        f"{head}module tb; reg clk = 0, rst = 1; reg [7:0] a = 8'h10; wire [7:0] y;\n"
        "  localparam [1:0] I = 2'b10;\n"
        f"  top t(.clk(clk), .rst(rst), .a(a), .y(y));\n{body}endmodule\n"
    )


def _reach(tmp: Path, files: dict[str, str]) -> str:
    for name, text in {"m.v": M, **files}.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    return repository_reach(load_design(tmp / "m.v", "m", ProjectConfig()))


@pytest.mark.parametrize("path", ["m.c", "$root.m.c"])
def test_a_root_written_by_its_module_name_is_a_reach(tmp_path: Path, path: str) -> None:
    # F9: nothing instantiates m: a simulation elaborates it as a root named m
    probe = f"module probe;\n  initial #0 {path} = 8'd7;\nendmodule\n"
    why = _reach(tmp_path, {"sim/probe.v": probe})
    assert "probe.v:2:" in why and "(m.c)" in why, why


def test_a_path_a_macro_joins_from_its_arguments_is_a_reach(tmp_path: Path) -> None:
    # F10 args: expanded by slang's preprocessor
    tb = _tb("  initial #3 `AT(tb.t.u, c) = 8'd7;\n", "`define AT(p, n) p.n\n")
    why = _reach(tmp_path, {"top.v": TOP, "tb/tb.v": tb})
    assert "tb.v:" in why and "(u.c)" in why and "macros are expanded" in why, why


def test_a_path_builder_a_reading_cannot_expand_fails_closed(tmp_path: Path) -> None:
    # the macro is used in a branch the simulator's reading leaves out, behind another macro
    tb = _tb("`ifdef SIM_ONLY\n  initial #3 `AT(`HERE, c) = 8'd7;\n`endif\n")
    defs = "`define AT(p, n) p.n\n"
    why = _reach(tmp_path, {"top.v": TOP, "tb/tb.v": tb, "defs.vh": defs})
    assert "a macro joins a hierarchical name from its arguments (`AT" in why, why


def test_a_select_holding_a_bracket_is_a_reach(tmp_path: Path) -> None:
    # F10 index
    top = TOP.replace("m u(", "m u[0:0] (")
    why = _reach(tmp_path, {"top.v": top, "tb/tb.v": _tb("  initial #3 tb.t.u[I[0]].c = 8'd7;\n")})
    assert "(u[I[0]].c)" in why, why


def test_a_name_a_macro_pastes_in_the_target_is_one_of_its_names(tmp_path: Path) -> None:
    # F11: c_q is never spelled in m's text; the probe is in a file that is no source
    (tmp_path / "q.vh").write_text("`define Q(n) n``_q\n")
    m = '`include "q.vh"\n' + M.replace("reg [7:0] c;", "reg [7:0] `Q(c);").replace(
        "c <= 8'd1", "`Q(c) <= 8'd1"
    ).replace("a + c", "a + `Q(c)")
    probe = "module probe; initial #3 tb.t.u.c_q = 8'd7; endmodule\n"
    why = _reach(tmp_path, {"m.v": m, "top.v": TOP, "tb/tb.v": _tb(""), "sim/probe.txt": probe})
    assert "probe.txt:1:" in why and "(u.c_q)" in why, why


def test_a_pasted_name_is_found_through_the_preprocessor_without_slang_elaboration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rtlopt.evaluate._reach as reach
    from rtlopt.evaluate._reach_names import Elaborated

    monkeypatch.setattr(reach, "elaborated", lambda design: Elaborated())
    test_a_name_a_macro_pastes_in_the_target_is_one_of_its_names(tmp_path)


def test_an_instance_a_macro_writes_from_the_module_name_is_found(tmp_path: Path) -> None:
    # F12: `INST(m, u) holds no instance the raw instance reader sees
    top = (
        "`define INST(mod, n) mod n(.clk(clk), .rst(rst), .a(a), .y(y))\n"
        "module top(input clk, input rst, input [7:0] a, output [7:0] y);\n"
        "  `INST(m, u);\nendmodule\n"
    )
    why = _reach(tmp_path, {"top.v": top, "tb/tb.v": _tb("  initial #3 tb.t.u.c = 8'd7;\n")})
    assert "tb.v:4:" in why and "(u.c)" in why, why


_GEN = (
    "`define INST(mod, n) mod n(.clk(clk), .rst(rst), .a(a), .y(y))\n"
    "module top #(parameter ALT = 0) (input clk, input rst, input [7:0] a, output [7:0] y);\n"
    "  if (ALT) begin : g\n    `INST(m, {name});\n  end else begin : g\n"
    "    m u(.clk(clk), .rst(rst), .a(a), .y(y));\n  end\nendmodule\n"
)


def test_an_instance_a_macro_names_from_another_macro_fails_closed(tmp_path: Path) -> None:
    # `NAME is defined by another build (no text here): the branch slang does not elaborate
    # names an instance no reading here expands, reached by tb.t.g.u2.c
    top = _GEN.format(name="`NAME")
    why = _reach(tmp_path, {"top.v": top, "tb/tb.v": _tb("  initial #3 tb.t.g.u2.c = 8'd7;\n")})
    assert "top.v:4: a macro writes an instance of m (`INST" in why, why
    assert "cannot be read here" in why, why


@pytest.mark.parametrize("name", ["u2", "`NAME"])
def test_an_instance_a_macro_names_that_a_reading_expands_is_read(
    tmp_path: Path, name: str
) -> None:
    # a plain name, or a macro the repository defines: the expanded text names u2
    files = {"top.v": _GEN.format(name=name), "defs.vh": "`define NAME u2\n"}
    assert (
        _reach(tmp_path, {**files, "tb/tb.v": _tb("  initial #3 $display(tb.t.g.u2.y);\n")}) == ""
    )
    why = _reach(tmp_path, {**files, "tb/tb.v": _tb("  initial #3 tb.t.g.u2.c = 8'd7;\n")})
    assert "(u2.c)" in why, why


@pytest.mark.parametrize(
    "files",
    [
        # a file list, a Makefile, an include and a dump file naming m's file: no reach
        {
            "Makefile": "sim:\n\tiverilog -o sim.vvp m.v top.v tb/tb.v\n",
            "files.f": "m.v\ntop.v\n",
            "tb/tb.v": _tb('  initial $dumpfile("m.vcd");\n', '`include "m.vh"\n'),
            "m.vh": "`define W 8\n",
        },
        # a path builder used on another module's names, read whole by the preprocessor
        {"tb/tb.v": _tb("  wire [7:0] w = `AT(tb, y);\n", "`define AT(p, n) p.n\n")},
        # ports read through the elaborated instance
        {"tb/tb.v": _tb("  initial #3 if (tb.t.u.y != 0) $display(tb.t.u.y);\n")},
    ],
)
def test_ordinary_texts_stay_no_reach(tmp_path: Path, files: dict[str, str]) -> None:
    assert _reach(tmp_path, {"top.v": TOP, **files}) == ""
