"""Held-out trial 49 (biriscv, public, Apache-2.0 layout copied in miniature): three ways the
repository was read otherwise than its build reads it.

- a write above its target's declaration (``always @* r = q;`` before ``reg q;``) is valid to
  iverilog and Yosys; slang dropped it, and the net was called "undriven";
- a testbench that does not parse in the configuration (it reads an undefined macro) is read
  in part and judged fail closed: the reason now says so, and how to fix it;
- a module's ``#(`` after comment lines was read as a delay by the screen.
"""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.frontend._open_inputs import open_inputs, open_inputs_reason
from rtlopt.verilog import blank_comments
from rtlopt.verilog_delays import delay_offsets

SUB = """module sub(input clk_i, input rst_i, input [3:0] addr_i, output reg [3:0] q);
  always @(posedge clk_i) if (rst_i) q <= 4'd0; else q <= addr_i;
endmodule
"""
TOP = """module top(input clk_i, input rst_i, input [3:0] a, input s, output [3:0] q);
  reg [3:0] addr_r;
  always @ *
  begin
    addr_r = a_w;
    if (s)
      addr_r = ~a_w;
  end
  wire [3:0] a_w = a;
  sub u(.clk_i(clk_i), .rst_i(rst_i), .addr_i(addr_r), .q(q));
endmodule
"""


def test_a_write_above_the_declaration_it_reads_drives_its_net(tmp_path: Path) -> None:
    (tmp_path / "sub.v").write_text(SUB)
    (tmp_path / "top.v").write_text(TOP)
    design = load_design(tmp_path / "sub.v", "sub", ProjectConfig(), root=tmp_path)
    assert open_inputs(design) == []
    # the same net really left undriven is still found
    (tmp_path / "top.v").write_text(TOP.replace("addr_r = ~a_w;", ";").replace("addr_r = a_w;", ""))
    design = load_design(tmp_path / "sub.v", "sub", ProjectConfig(), root=tmp_path)
    assert [o.port for o in open_inputs(design)] == ["addr_i"]


TB = """module tb;
  reg clk;
  reg rst;
  initial begin
    if (`TRACE) $dumpvars(0, tb);
    clk = 0; rst = 1;
  end
  top t(.clk_i(clk), .rst_i(rst), .a(4'd0), .s(1'bx), .q());
endmodule
"""


def test_a_testbench_that_does_not_parse_is_named_with_the_fix(tmp_path: Path) -> None:
    """What slang keeps of a file that does not parse in the configuration is judged fail
    closed (another build may compile it), and the reason says why and what to do."""
    (tmp_path / "sub.v").write_text(SUB)
    (tmp_path / "top.v").write_text(TOP)
    (tmp_path / "tb").mkdir()
    (tmp_path / "tb" / "tb.v").write_text(TB)
    design = load_design(tmp_path / "sub.v", "sub", ProjectConfig(), root=tmp_path)
    assert open_inputs(design)
    why = open_inputs_reason(design)
    assert "tb/tb.v does not parse with this configuration's defines, line 5" in why, why
    assert "project.defines" in why, why
    # compiled with its macro, it is read whole, and no note is added
    design = load_design(
        tmp_path / "sub.v", "sub", ProjectConfig(), root=tmp_path, defines={"TRACE": "0"}
    )
    assert open_inputs(design) and "does not parse" not in open_inputs_reason(design)


def test_a_parameter_list_after_comment_lines_is_no_delay() -> None:
    head = "module dport_mux\n//---\n// Params " + "-" * 80 + "\n//---\n#(\n  parameter B = 0\n)"
    code = blank_comments(head + "(input a, output y);\n  assign y = a;\nendmodule\n")
    assert list(delay_offsets(code)) == []
    # a delay after a long comment stays a delay
    code = blank_comments("module m; initial begin\n// " + "x" * 200 + "\n#(5) ; end endmodule")
    assert len(list(delay_offsets(code))) == 1


def test_a_module_switched_off_by_a_define_is_named_as_such(tmp_path: Path) -> None:
    """biriscv's ``RAM16X1D`` sits under `` `ifdef verilator`` in the file that uses it: the
    error says so, and names no option the command does not have."""
    import pytest

    from rtlopt.errors import DesignError

    (tmp_path / "w.v").write_text(
        "module w(input a, output y);\n  ram16 u(.a(a), .y(y));\nendmodule\n"
        "`ifdef verilator\nmodule ram16(input a, output y);\n  assign y = ~a;\nendmodule\n"
        "`endif\n"
    )
    with pytest.raises(DesignError) as err:
        load_design(tmp_path / "w.v", "w", ProjectConfig(), root=tmp_path)
    assert "defines it at line 5" in str(err.value) and "project.defines" in str(err.value)
    with pytest.raises(DesignError) as err:
        load_design(tmp_path / "w.v", "ram16", ProjectConfig(), root=tmp_path)
    assert "defines it at line 5" in str(err.value) and "--module" not in str(err.value)
    design = load_design(
        tmp_path / "w.v", "w", ProjectConfig(), root=tmp_path, defines={"verilator": ""}
    )
    assert design.target.name == "w"


def test_a_masked_opcode_compare_is_a_compared_constant(tmp_path: Path) -> None:
    """``(op & MASK) == DIV`` compares the opcode's masked bits: the stimulus biases them."""
    from rtlopt.frontend import compare_constants

    (tmp_path / "m.v").write_text(
        "module m(input [31:0] op, input [31:0] a, output [31:0] y);\n"
        "  assign y = ((op & 32'hfe00707f) == 32'h02005033) ? a : ~a;\nendmodule\n"
    )
    design = load_design(tmp_path / "m.v", "m", ProjectConfig(), root=tmp_path)
    found = [(c.port, c.value, c.care) for c in compare_constants(design)]
    assert found == [("op", 0x02005033, 0xFE00707F)], found
