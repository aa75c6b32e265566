"""A check kept word for word must keep its context: the generate blocks and conditional
directives enclosing it (with what their conditions read), the declarations (with types) of
every name it reads in every scope it sees, what the subroutines and macros it uses read, and
the calls of the subroutine holding it (class: a kept check whose meaning changes because its
context changed)."""

from __future__ import annotations

from rtlopt.harness._kept_checks import FIX, _Module, _reads, chained_checks, dropped_checks
from rtlopt.harness._kept_context import override_problems

HEAD = "module acc(input clk, input rst, input [3:0] d, output reg [3:0] q);\n"
ADD = "  always @(posedge clk) if (rst) q <= 4'd0; else q <= q + d;\n"
CHECK = (
    "  // synopsys translate_off\n"
    '  always @(posedge clk) if (!rst && q > 4\'d12) $error("above 12: %0d", q);\n'
    "  // synopsys translate_on\n"
)
REF = HEAD + ADD + CHECK + "endmodule\n"
KNOWN = ({"clk", "rst", "d", "q"}, set[str]())


def _dropped(cand: str, ref: str = REF, macros: dict[str, str] | None = None) -> list[str]:
    return dropped_checks(ref, cand, KNOWN, macros or {}, lambda o: f"acc.v:{o}")


def _wrapped(head: str, tail: str = "  end\n", body: str = CHECK) -> str:
    return HEAD + ADD + head + body + tail + "endmodule\n"


def test_an_indentation_only_rewrite_keeps_every_context() -> None:
    ref = _wrapped(
        "  localparam CHECKS = 1;\n  if (CHECKS) begin : g_chk\n  wire [3:0] w = q;\n",
        "  end else begin : g_none\n  end\n",
        CHECK.replace("q > 4'd12", "w > 4'd12 && f(q)")
        + "  function f(input [3:0] x); f = x[0]; endfunction\n",
    )
    cand = "\n".join("    " + line for line in ref.splitlines()) + "\n"
    assert _dropped(cand, ref) == []


def test_a_check_moved_under_a_generate_condition_or_directive_is_refused() -> None:
    for head, tail in (
        ("  if (1'b0) begin : g_off\n", "  end\n"),
        ("  if (1'b1) begin end else begin : g_off\n", "  end\n"),
        ("  for (genvar i = 0; i < 0; i++) begin : g_off\n", "  end\n"),
        ("`ifdef NEVER\n", "`endif\n"),
    ):
        found = _dropped(_wrapped(head, tail))
        assert found and all("another context" in m and FIX in m for m in found), head


def test_a_generate_condition_keeps_what_it_reads_and_its_branch() -> None:
    ref = _wrapped("  localparam CHECKS = 1;\n  if (CHECKS) begin : g_chk\n")
    found = _dropped(ref.replace("CHECKS = 1", "CHECKS = 0"), ref)
    assert found and "localparam CHECKS = 1" in found[0]
    ref = _wrapped("  if (W > 2) begin : g_a\n  end else begin : g_chk\n")
    swapped = _wrapped("  if (W > 2) begin : g_chk\n", "  end else begin : g_a\n  end\n")
    assert all("another context" in m for m in _dropped(swapped, ref))


def test_a_declaration_shadowing_what_a_kept_check_reads_is_refused() -> None:
    imported = REF.replace("acc(", "acc import lim_pkg::*; (").replace("4'd12", "LIMIT")
    shadowed = imported.replace(ADD, ADD + "  localparam logic [3:0] LIMIT = 4'd15;\n")
    found = _dropped(shadowed, imported)
    assert found and "reads LIMIT" in found[0] and "shadows" in found[0]
    ref = _wrapped("  if (1'b1) begin : g_chk\n")
    found = _dropped(ref.replace("g_chk\n", "g_chk\n  wire [3:0] q = 4'd0;\n"), ref)
    assert found and "reads q" in found[0]
    found = _dropped(ref.replace("g_chk\n", "g_chk\n  `DECL(q)\n"), ref, {"DECL": "wire x;"})
    assert found and "reads q" in found[0]


def test_the_type_of_what_a_kept_check_reads_is_kept() -> None:
    ref = REF.replace(ADD, "  wire [4:0] sum = q + d;\n" + ADD).replace("q > 4'd12", "sum > 20")
    found = _dropped(ref.replace("wire [4:0] sum", "wire signed [4:0] sum"), ref)
    assert found and "reads sum" in found[0] and "type" in found[0]
    split = ref.replace("wire [4:0] sum = q + d;", "logic [4:0] sum;\n  assign sum = q + d;")
    assert _dropped(split, ref) == []
    signed = REF.replace("input [3:0] d", "input signed [3:0] d").replace("q > 4'd12", "d > 3")
    found = _dropped(REF.replace("q > 4'd12", "d > 3"), signed)
    assert found and "reads d," in found[0]
    ref = REF.replace(
        "  // synopsys translate_off\n",
        "  default disable iff (rst);\n  // synopsys translate_off\n",
    )
    found = _dropped(ref.replace("(rst);", "(1'b1);"), ref)
    assert found and "defaults" in found[0]


def test_what_a_called_function_task_or_macro_reads_is_read() -> None:
    ref = REF.replace(ADD, ADD + "  reg [3:0] peak;\n  always @(posedge clk) peak <= q;\n")
    ref = ref.replace(
        "  // synopsys translate_off\n",
        "  function hi(input x); hi = peak > 4'd12; endfunction\n  // synopsys translate_off\n",
    ).replace("q > 4'd12", "hi(1'b0)")
    mod = _Module(ref, *KNOWN, {})
    assert all("peak" in _reads(item, mod)[1] for _, item, _, _ in chained_checks(ref, {}))
    task = ref.replace("function hi(input x); hi = peak > 4'd12; endfunction", "")
    task = task.replace(
        "if (!rst && hi(1'b0)) $error",
        "if (!rst) begin chk; end else $error",
    ).replace(ADD, ADD + '  task chk; if (q > 4\'d12) $display("hi"); endtask\n')
    found = _dropped(task.replace("4'd12) $display", "4'd15) $display"), task)
    assert found and "chk" in found[0]
    macros = {"PEAK_HI": "(peak > 4'd12)"}
    ref = REF.replace(ADD, ADD + "  reg [3:0] peak;\n  always @(posedge clk) peak <= q;\n")
    ref = ref.replace("q > 4'd12", "`PEAK_HI")
    mod = _Module(ref, *KNOWN, macros)
    assert all("peak" in _reads(i, mod)[1] for _, i, _, _ in chained_checks(ref, macros))
    found = _dropped(ref, ref, {})
    assert found and "no text of the repository defines" in found[0]
    redefined = ref.replace(ADD, ADD + "`undef PEAK_HI\n`define PEAK_HI 1'b0\n")
    found = _dropped(redefined, ref, macros)
    assert found and "PEAK_HI" in found[0]


def test_a_check_in_a_subroutine_keeps_its_calls() -> None:
    ref = (
        HEAD
        + "  function [3:0] add4(input [3:0] x, input [3:0] y);\n    reg [4:0] s;\n"
        + "    begin\n      s = x + y;\n      // synopsys translate_off\n"
        + '      if (s[4]) $error("overflow");\n      // synopsys translate_on\n'
        + "      add4 = s[3:0];\n    end\n  endfunction\n"
        + "  always @(posedge clk) if (rst) q <= 4'd0; else q <= add4(q, d);\n"
        + "endmodule\n"
    )
    found = _dropped(ref.replace("add4(q, d)", "q + d"), ref)
    assert found and "stands in add4" in found[0] and FIX in found[0]
    assert _dropped(ref.replace("  always", "  // the same\n  always"), ref) == []


def test_a_check_reading_into_a_generate_block_keeps_the_block() -> None:
    ref = (
        HEAD
        + "  if (1'b1) begin : g_x\n  wire [3:0] w = q;\n  end\n"
        + ADD
        + CHECK.replace("q > 4'd12", "g_x.w > 4'd12")
        + "endmodule\n"
    )
    found = _dropped(ref.replace("w = q;", "w = 4'd0;"), ref)
    assert found and "generate block g_x" in found[0]
    assert _dropped(ref.replace("  wire", "      wire"), ref) == []


def test_a_port_declared_after_an_import_and_a_parameter_list_keeps_its_type() -> None:
    head = "module acc import p::*; #(parameter W = 4) (input clk, input rst, input [3:0] d,"
    ref = REF.replace(HEAD.split(" output")[0], head).replace("q > 4'd12", "d > 3")
    found = _dropped(ref.replace("input [3:0] d", "input signed [3:0] d"), ref)
    assert found and "reads d," in found[0]


def test_the_parameters_an_instance_sets_for_the_checks_below_are_kept() -> None:
    top = (
        "module top(input clk, input rst, input [3:0] d, output [3:0] q);\n"
        "  chk #(.CHECKS(1)) u_chk(.clk(clk), .rst(rst), .d(d), .q(q));\nendmodule\n"
    )
    found = override_problems(top, top.replace("CHECKS(1)", "CHECKS(0)"), {"chk"}, FIX)
    assert found and "CHECKS ( 0 )" in found[0]
    defparam = top.replace("  chk #", "  defparam u_chk.CHECKS = 0;\n  chk #")
    assert override_problems(top, defparam, {"chk"}, FIX)
    moved = top.replace("  chk #", "  if (1'b0) begin : g\n  chk #").replace(
        ";\nend", ";\n  end\nend"
    )
    assert override_problems(top, moved, {"chk"}, FIX)
    rewired = top.replace("u_chk(.clk(clk)", "u_chk (.clk(clk)")
    assert override_problems(top, rewired, {"chk"}, FIX) == []


def test_a_renamed_instance_sets_the_parameters_the_reference_set() -> None:
    """The instance's name is no parameter: a rename with the same override is none of the
    rule's business (C910's gate cells renamed), a changed override still is."""
    top = (
        "module top(input clk, input rst, input [3:0] d, output [3:0] q);\n"
        "  chk #(.CHECKS(1)) u_chk(.clk(clk), .rst(rst), .d(d), .q(q));\nendmodule\n"
    )
    renamed = top.replace("u_chk(", "x_chk_q(")
    assert override_problems(top, renamed, {"chk"}, FIX) == []
    assert override_problems(top, renamed.replace("CHECKS(1)", "CHECKS(0)"), {"chk"}, FIX)
