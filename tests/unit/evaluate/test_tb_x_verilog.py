"""A Verilog testbench the x analysis does not read or follow feeds every input of the target
x (``evaluate/_tb_x.py``): a write through a clocking block or a virtual interface, a DPI
import with a 4-state result, a non-standard system task given a variable (PLI), an x value in
any branch of a testbench's conditional directive, a text Verilog by content outside the
source scan (``.vt``, a hidden folder) that does not elaborate beside the build. One that
does is its own build: what it feeds is what the instance analysis finds there
(``evaluate/_tb_x_benches.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.evaluate import _tb_x_forms as tf
from rtlopt.evaluate._tb_x import tb_x_inputs, text_x
from rtlopt.frontend import load_design

MUX = "module mux(input s, input [3:0] a, output [3:0] y);\n  assign y = s ? a : 4'd0;\nendmodule\n"
INST = "  mux dut(.s(s), .a(a), .y(y));\n"


def _fed(tmp: Path, files: dict[str, str]) -> tuple[tuple[str, ...], str]:
    for name, text in {"mux.v": MUX, **files}.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    got = tb_x_inputs(load_design(tmp / "mux.v", "mux", ProjectConfig(), root=tmp))
    return got.ports, got.source


def _tb(body: str, head: str = "") -> str:
    return (
        f"{head}module tb; reg s = 0; reg [3:0] a = 0; wire [3:0] y;\n{INST}"
        f"  initial begin\n{body}\n    #5 $finish;\n  end\nendmodule\n"
    )


UNSCANNED = ["mux.vt", ".sim/tb.v", "sim/tb.txt", "build/tb.v", "tb_noext"]


@pytest.mark.parametrize("name", UNSCANNED)
def test_unscanned_verilog_testbench_is_elaborated_as_its_own_build(
    tmp_path: Path, name: str
) -> None:
    """Two-state writes feed nothing; an x write feeds the input it reaches, found there."""
    assert _fed(tmp_path / "two", {name: _tb("    #5 s = 1'b0;")}) == ((), "")
    ports, source = _fed(tmp_path / "x", {name: _tb("    #5 s = 1'bx;")})
    assert ports == ("s",)
    assert source.startswith(f"{name} as its own build: ") and "tb.dut" in source


@pytest.mark.parametrize("name", UNSCANNED)
def test_unscanned_verilog_testbench_that_does_not_elaborate_feeds_every_input(
    tmp_path: Path, name: str
) -> None:
    """A name that resolves to nothing, a syntax error: what it feeds is not known (a module
    no text defines is a vendor cell, as in the build)."""
    unknown = _tb("    #5 s = 1'b0;\n    nowhere.x = 1'b1;")
    for sub, bench in [("unknown", unknown), ("syntax", _tb("    s = ;"))]:
        ports, source = _fed(tmp_path / sub, {name: bench})
        assert ports == ("s", "a"), sub
        assert source.startswith(f"{name}:1:") and "does not elaborate" in source, source


def test_unscanned_text_not_naming_the_target_feeds_nothing(tmp_path: Path) -> None:
    other = "module other; reg q; initial q = 1'bx; endmodule\n"
    assert _fed(tmp_path, {"lib/other.vt": other}) == ((), "")


@pytest.mark.parametrize(
    ("body", "head", "what"),
    [
        ("    ##1 cb.s <= 1'bx;", "", "clocking block"),
        ("    drv.go();", "", "virtual interface"),
        ("    s = stim(1);", 'import "DPI-C" function logic stim(input int i);\n', "DPI"),
        ("    $xsel(s);", "", "user system task $xsel"),
        ("    $deposit(s, 1'b0);", "", "user system task $deposit"),
        ("`ifdef XPROP\n    s = 1'bx;\n`endif", "", "conditional directive"),
        ("`ifndef FAST\n`else\n    s = 'z;\n`endif", "", "conditional directive"),
    ],
)
def test_unfollowed_writes_feed_every_input(
    tmp_path: Path, body: str, head: str, what: str
) -> None:
    files = {"tb.v": _tb(body, head)}
    if "cb." in body:
        files["tb.v"] = files["tb.v"].replace(
            "  initial", "  clocking cb @(posedge s); output s; endclocking\n  initial"
        )
    if "drv" in body:
        files["drv.sv"] = (
            "interface mux_if; logic s; endinterface\nclass driver;\n"
            "  virtual mux_if vif;\n  task go(); vif.s = 1'bx; endtask\nendclass\n"
        )
    ports, source = _fed(tmp_path, files)
    assert ports == ("s", "a")
    assert what in source


@pytest.mark.parametrize(
    ("body", "head"),
    [
        ("    s = stim(1);", 'import "DPI-C" function bit stim(input int i);\n'),
        ("    s = stim(1);", 'import "DPI-C" function int unsigned stim(input logic i);\n'),
        ('    $display("%b", y); $dumpvars(0, tb); $fsdbDumpvars(0, tb);', ""),
        ("`ifdef CHECK\n    if (y !== 4'bx) $display(y);\n`endif", ""),
        ("    s = 1'b1;", ""),
    ],
)
def test_followed_or_two_state_writes_feed_nothing(tmp_path: Path, body: str, head: str) -> None:
    assert _fed(tmp_path, {"tb.v": _tb(body, head)}) == ((), "")


def test_design_text_keeps_configured_defines(tmp_path: Path) -> None:
    """An x value under a directive in a design's text (no testbench content) is no source."""
    top = f"module top(input s, input [3:0] a, output [3:0] y);\n`ifdef X\n  wire q = 1'bx;\n`endif\n{INST}endmodule\n"
    assert _fed(tmp_path, {"top.v": top}) == ((), "")


def test_dpi_four_state_forms() -> None:
    def fed(decl: str) -> bool:
        return bool(tf.dpi_four_state(tf.lexed(decl)))

    assert fed('import "DPI-C" function logic [1:0] f();')
    assert fed('import "DPI-C" context function reg f();')
    assert fed('import "DPI-C" function my_t f();')  # a type not known: fail closed
    assert fed('import "DPI-C" task t(output logic v);')
    assert fed('import "DPI-C" function void f(inout integer v);')
    assert not fed('import "DPI-C" pure function longint f(input logic v);')
    assert not fed('import "DPI-C" function void f(output bit [7:0] v);')


def test_handle_writes_in_a_class_where_a_virtual_interface_exists() -> None:
    code = tf.lexed("class c; m_t h; task t(); h.cfg.s = 1'b1; endtask endclass\n")
    assert tf.handle_writes(code, any_virtual=True)
    assert not tf.handle_writes(code, any_virtual=False)


def test_another_builds_version_feeds_only_as_a_testbench() -> None:
    """A design file the build drops for another version (cv32e40p's latch register file) is
    no testbench by itself; another version of a testbench is one."""
    design = tf.lexed("module rf(input a); cg u(.en(a)); endmodule\n")
    bench = tf.lexed("module tb; reg a; rf u(.a(a)); initial #5 $finish; endmodule\n")
    kw = {"elaborated": False, "own_design": False, "related": True, "any_virtual": False}
    assert text_x(design, **kw, another_build=True) is None
    assert text_x(design, **kw) == (1, "a Verilog testbench rtlopt does not elaborate")
    assert text_x(bench, **kw, another_build=True) is not None


def test_unscanned_testbench_naming_the_target_through_a_macro(tmp_path: Path) -> None:
    tb = _tb("    #1 s = 1'bx;").replace("  mux dut(", "  `DUT dut(")
    files = {"defs.vh": "`define DUT mux\n", "sim/tb.vt": '`include "defs.vh"\n' + tb}
    ports, source = _fed(tmp_path, files)
    assert ports == ("s",) and source.startswith("sim/tb.vt as its own build: "), source
