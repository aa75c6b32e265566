"""The simulators' readings of a change (evaluate/_sim_reading.py, evaluate/_sim_headers.py):
SYNTHESIS undefined and the simulators' own macros, which rtlopt's proof does not read."""

from __future__ import annotations

from pathlib import Path

from rtlopt.evaluate._sim_headers import header_simulator_change, unread_include_sites
from rtlopt.evaluate._sim_reading import declarations, inert, simulator_change

DEFS = """`ifndef SYNTHESIS
`define DONT_CARE 8'hxx
`else
`define DONT_CARE 8'h00
`endif
`ifdef SYNTHESIS
`define CHK(x)
`else
`define CHK(x) always @(posedge clk) if (!(x)) $error("chk");
`endif
"""

MODULE = """module m(input clk, input [1:0] s, input [7:0] a, b, output reg [7:0] y);
  always @* begin
    case (s)
      2'd0: y = a;
      2'd1: y = b;
      default: y = 8'h00;
    endcase
  end
  `CHK(s != 2'd3)
`ifndef SYNTHESIS
  reg [3:0] seen;
  always @(posedge clk) begin
    seen <= seen + 4'd1;
    if (s == 2'd3) $display("m: s=%d y=%h", s, y);
  end
`endif
endmodule
"""


def _judge(tmp_path: Path, reference: str, candidate: str, defs: str = DEFS) -> str:
    (tmp_path / "defs.vh").write_text(defs)
    top = tmp_path / "m.v"
    top.write_text('`include "defs.vh"\n' + reference)
    return simulator_change(
        reference,
        candidate,
        defined=frozenset({"SYNTHESIS"}),
        files=[top],
        include_dirs=[tmp_path],
        module_file=top,
    )


def test_a_macro_that_synthesis_defines_otherwise_is_unchecked(tmp_path: Path) -> None:
    # red team 29 F9: `DONT_CARE is 8'h00 in the proven reading, 8'hxx in every simulator
    cand = MODULE.replace("default: y = 8'h00;", "default: y = `DONT_CARE;")
    why = _judge(tmp_path, MODULE, cand)
    assert "`DONT_CARE" in why and "defs.vh line 2" in why and "SYNTHESIS undefined" in why


def test_assertions_and_reports_kept_verbatim_pass(tmp_path: Path) -> None:
    # the common idiom: an `ifndef SYNTHESIS block of reports (with a counter of its own) and
    # an assertion macro empty in synthesis, kept as they are while shared code changes
    cand = MODULE.replace("2'd1: y = b;", "2'd1: y = b | 8'h00;")
    assert _judge(tmp_path, MODULE, cand) == ""
    # dropping them is no behaviour a simulator's outputs show
    dropped = cand.replace("  `CHK(s != 2'd3)\n", "")
    assert _judge(tmp_path, MODULE, dropped) == ""


def test_a_simulation_only_driver_of_shared_state_is_unchecked(tmp_path: Path) -> None:
    ref = MODULE.replace("seen <= seen + 4'd1;", "seen <= seen + 4'd1; y <= 8'd0;")
    cand = ref.replace("2'd1: y = b;", "2'd1: y = b | 8'h00;")
    why = _judge(tmp_path, ref, cand)
    assert "an assignment to y" in why
    # the same text in both (no change a simulator reads) passes
    assert _judge(tmp_path, ref, ref) == ""


def test_a_change_only_synthesis_reads_passes(tmp_path: Path) -> None:
    ref = """module m(input [7:0] a, b, output [7:0] y);
`ifdef SYNTHESIS
  assign y = a + b;
`else
  assign y = a + b;  // the simulation model
`endif
endmodule
"""
    assert (
        _judge(tmp_path, ref, ref.replace("assign y = a + b;\n`else", "assign y = b + a;\n`else"))
        == ""
    )
    # a change of the shared code next to a simulation model is not proven there
    shared = ref.replace("endmodule", "  wire unused = a[0];\nendmodule")
    assert "SYNTHESIS undefined" in _judge(tmp_path, ref, shared)


def test_an_assertion_macro_that_drives_is_unchecked(tmp_path: Path) -> None:
    defs = DEFS.replace('if (!(x)) $error("chk");', "y_dbg <= x;")
    cand = MODULE.replace("2'd1: y = b;", "2'd1: y = b | 8'h00;")
    assert "`CHK" in _judge(tmp_path, MODULE, cand, defs)


def test_inert() -> None:
    assert inert('always @(posedge c) if (a <= b) $display("%d", a);', {}, set()) == ""
    assert inert('assert property (@(posedge c) a |-> ##1 b) else $error("x");', {}, set()) == ""
    assert inert("initial c = 8'h5a;", {}, set()) == "an assignment to c"
    assert inert("initial $display(c++);", {}, set()) == "'++'"
    loop = "for (genvar i = 0; i < 4; i++) begin : g always @(posedge c) $display(i); end"
    assert inert(loop, {}, set()) == ""
    assert inert('initial $readmemh("f", mem);', {}, set()) == "the system task $readmemh"
    assert inert("sub u (.a(a));", {}, set()).startswith("a call or instance")
    assert inert("logic d; assign d = a & b;", {}, {"d"}) == ""
    assert inert("assign {x, d} = a;", {}, {"d"}) == "an assignment to an expression"
    assert inert("initial top.u.d = 1'b1;", {}, {"d"}) == "a hierarchical name (top.u)"
    # a member's name reads as a hierarchical one (fail closed)
    assert inert("always @* v[2].f = 1'b1;", {}, {"v"}) == "a hierarchical name (].f)"
    assert inert("always @(posedge c) if (a) disable blk;", {}, set()) == "'disable' of a block"
    assert inert("initial #5 $finish;", {}, set()) == "the system task $finish"
    assert inert("defparam u.W = 4;", {}, set()) != ""
    assert inert("sub u [1:0] (.a(a));", {}, set()) == "a call or instance of u"
    assert declarations("pkg::state_t s; logic [3:0] q [2]; my_t w = 1;") == {"s", "q", "w"}


def test_header_changed_in_the_simulators_branch() -> None:
    # red team 29 F8b: the `ifndef SYNTHESIS definition changes, the proven one does not
    old = "`ifndef SYNTHESIS\n`define PAD 8'h00\n`else\n`define PAD 8'h00\n`endif\n"
    assert "SYNTHESIS undefined" in header_simulator_change(
        old, old.replace("8'h00", "8'hff", 1), set()
    )
    # a change only the proven reading reads, and a header with no such conditional, pass
    assert header_simulator_change(old, old.replace("8'h00\n`endif", "8'h01\n`endif"), set()) == ""
    assert header_simulator_change("`define W 8\n", "`define W 16\n", set()) == ""
    # a change that reads the same in both readings of a reading-dependent header passes too
    both = "`define W 8\n`ifndef SYNTHESIS\n`define CHK 1\n`endif\n"
    assert header_simulator_change(both, both, set()) == ""


def test_include_sites_a_simulator_alone_reads() -> None:
    # red team 29 F7 / F8: a header only an `ifndef SYNTHESIS / `else branch includes
    texts = {
        "m.v": 'module m;\n`ifndef SYNTHESIS\n`include "sim/pu.vh"\n`endif\nendmodule\n',
        "n.v": 'module n;\n`ifdef SYNTHESIS\n`else\n`include "model.vh"\n`endif\nendmodule\n',
        "k.v": '`include "sim/ok.vh"\nmodule k;\nendmodule\n',
        "sim/wrap.vh": '`include "deep.vh"\n',
        "w.v": '`ifdef VERILATOR\n`include "sim/wrap.vh"\n`endif\nmodule w;\nendmodule\n',
    }
    sites = unread_include_sites("sim/pu.vh", texts, set())
    assert sites == [
        "m.v line 3 includes it in a branch a simulator reads (with SYNTHESIS undefined "
        "(every simulator's reading))"
    ]
    assert unread_include_sites("sim/model.vh", texts, set())[0].startswith("n.v line 4")
    assert unread_include_sites("sim/ok.vh", texts, set()) == []
    # through a header a simulator's branch includes
    deep = unread_include_sites("sim/deep.vh", texts, set())
    assert deep and deep[0].startswith("w.v line 2") and "VERILATOR" in deep[0]
    # a branch of a project macro the configuration does not define: switched off here
    other = {"f.v": '`ifdef FPGA\n`include "fpga.vh"\n`endif\nmodule f;\nendmodule\n'}
    assert "switches off" in unread_include_sites("fpga.vh", other, set())[0]
    assert unread_include_sites("fpga.vh", other, {"FPGA"}) == []


def test_a_declaration_that_moves_between_readings_is_shared(tmp_path: Path) -> None:
    # red team 29 F2's shape: the simulators' declaration of c gives it a power-up value
    ref = """module m(input clk, output [7:0] y);
`ifndef SYNTHESIS
  reg [7:0] c
    = 8'h5a;
`else
  reg [7:0] c;
`endif
  always @(posedge clk) c <= c + 8'd1;
  assign y = c;
endmodule
"""
    cand = ref.replace(
        "assign y = c;", "reg [7:0] n;\n  always @(posedge clk) n <= n + 8'd1;\n  assign y = n;"
    )
    assert "an assignment to c" in _judge(tmp_path, ref, cand)


def test_a_stretch_that_changes_the_statements_around_it_is_not_inert(tmp_path: Path) -> None:
    # `ifndef SYNTHESIS if (x) `endif guards the shared assignment after it in a simulator
    ref = """module m(input x, input [7:0] a, output reg [7:0] y);
  always @* begin
    y = 8'd0;
`ifndef SYNTHESIS
    if (x)
`endif
    y = a;
  end
endmodule
"""
    cand = ref.replace("    y = 8'd0;\n", "    y = a;\n")
    assert "in the place of a statement" in _judge(
        tmp_path, ref, cand
    ) or "whole statement" in _judge(tmp_path, ref, cand)
    # a report that steals the body of a shared if
    ref2 = """module m(input x, input [7:0] a, output reg [7:0] y);
  always @* begin
    y = 8'd0;
    if (x)
`ifndef SYNTHESIS
      $display("x");
`endif
    y = a;
  end
endmodule
"""
    cand2 = ref2.replace("    y = 8'd0;\n", "    y = a & a;\n")
    assert "in the place of a statement" in _judge(tmp_path, ref2, cand2)


def test_a_call_by_a_hierarchical_name_is_not_inert() -> None:
    # red team 31 F1: `g.put(b)` (g a generate block) was read as a named port connection
    assert "hierarchical name" in inert("always @(t or b) if (t !== b) g.put(b);", {}, set())
    assert "hierarchical name" in inert("assert (t === b) else g.put(b);", {}, set())
    assert "hierarchical name" in inert("always @* if (c) g[0].put;", {}, set())
    # named port connections and real numbers still read
    assert inert("initial #1.5 $display(a);", {}, set()) == ""
    assert inert("sub u (.a(a), .*);", {}, set()).startswith("a call or instance")


def test_an_escaped_identifier_is_not_inert() -> None:
    # red team 31 F2: `\q[` opened a bracket, and `t <= b` read as a comparison
    text = "reg \\q[ ;\n always @(t or b) if (t !== b) t <= b;\n reg \\q] ;"
    assert inert(text, {}, {"\\q[", "\\q]"}) == "an escaped identifier"
    # what the classifier cannot pair is not read either
    assert inert("always @(t) if (t) $display(t));", {}, set()) == "brackets that do not pair"


def test_a_task_enabled_without_parentheses_is_not_inert() -> None:
    # red team 31 F3 / F3b: `put;` calls a task of shared code
    assert "task put" in inert("always @(t or b) if (t !== b) put;", {}, set())
    assert "task preset" in inert("always_comb if (c === 8'bx) preset;", {}, set())
    assert "task put" in inert("initial begin #5 put; end", {}, set())
    assert "task put" in inert("always @* case (s) 2'd0: put; endcase", {}, set())
    # a declaration, a conditional operator and a return are no task enables
    assert inert("reg [3:0] d; my_t w; always @* d = s ? a : b;", {}, {"d"}) == ""


def test_a_gate_primitive_without_an_instance_name_is_not_inert() -> None:
    # red team 31 F6: `or`, `and`, `not` are also property operators
    assert "gate primitive or" in inert("or (supply1, supply0) (t, b, b);", {}, set())
    assert "gate primitive and" in inert("wire d; and #1 (t, b, b);", {}, {"d"})
    assert "gate primitive not" in inert("not (t, b);", {}, set())
    # the property operators still read
    prop = 'assert property (@(posedge c) a and b or c) else $error("x");'
    assert inert(prop, {}, set()) == ""
