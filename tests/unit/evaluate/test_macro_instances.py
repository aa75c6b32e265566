"""A macro standing where an instance names its module (:mod:`rtlopt.evaluate._macro_instances`):
what counts as one, and which instances may be of the target."""

from __future__ import annotations

from rtlopt.evaluate._macro_instances import _definitions, _given, _may_be, macro_cells
from rtlopt.verilog_instances import procedural_spans


def _cells(code: str) -> list[str]:
    return [name for _at, _end, name, _args in macro_cells(code)]


def test_a_macro_naming_an_instances_module_is_found() -> None:
    code = (
        "module top;\n  `CORE #(.K(8'd200)) u(.a(a), .y(y));\n  `CELL(x) v [1:0] (.a(a));\n"
        "  `PLAIN w(a, y);\nendmodule\n"
    )
    assert _cells(code) == ["CORE", "CELL", "PLAIN"]


def test_macro_statements_are_no_instances() -> None:
    code = (
        "module top;\n  `ASSERT(A, a |-> b)\n  if (P) begin end\n  `FF(q, d, '0)\n"
        "  `FF(r, q, '0)\n  `KEEP reg [7:0] x;\n  `CSR(id)\n  x[0] = 1'b0;\nendmodule\n"
    )
    assert _cells(code) == []


def test_an_instance_connecting_a_name_the_target_lacks_is_not_of_it() -> None:
    code = "`CORE #(.K(1)) u(.a(a), .y(y));"
    end = code.index(" #")
    assert _may_be(code, end, {"K"}, {"a", "y"})
    assert not _may_be(code, end, {"W"}, {"a", "y"})
    assert not _may_be(code, end, {"K"}, {"a", "z"})
    assert _may_be("`CORE u(.*);", 5, set(), {"b"})
    assert _may_be("`CORE u(a, y);", 5, set(), {"b"})


def test_a_definition_through_a_macro_only_a_build_defines_gives_no_module() -> None:
    code = "`define CORE `IMPL\n`define NAME m\n`define BOTH `NAME\n"
    visible = _definitions(code)
    assert not _given("CORE", visible)  # IMPL: only a build's -DIMPL=...
    assert _given("NAME", visible) and _given("BOTH", visible)
    assert not _given("OTHER", visible)


def test_a_macro_in_procedural_code_is_no_instance() -> None:
    """A statement macro before a task call (lowRISC's ```DV_CHECK_STD_RANDOMIZE_FATAL(k1,
    "", ID)`` then ``test_prince(p, {k1, k0});`` in a testbench's ``initial``) reads like
    ```CELL(x) u(...)``; no instance stands in an ``initial``, ``always`` or ``final`` block
    or a task's or function's body."""
    code = (
        "module tb;\n  task automatic t(input a);\n    `CHK(a) run(a, b);\n  endtask\n"
        "  initial begin : p\n    for (int i = 0; i < 4; i++) begin\n"
        '      `RAND(k1, "", ID)\n      test_prince(p, {k1, k0});\n    end\n  end\n'
        "  always @* begin `M(x) f(x); end\n  final begin `M(y) g(y); end\n"
        "  function automatic int f(int x);\n    `M(x) g(x);\n    return x;\n  endfunction\n"
        "  `CORE(x) u(.a(a));\n  if (P) begin : gen\n    `CELL w(.a(a));\n  end\nendmodule\n"
    )
    assert _cells(code) == ["CORE", "CELL"]  # the module's and a generate block's instances


def test_procedural_spans_never_reach_module_items() -> None:
    """Read from the literal words: a block misread is left out (never a span that covers a
    module item), a prototype has no body, a single statement without ``begin`` is none."""
    proto = 'module m;\n  import "     " function void f();\n  `CELL u(.a(a));\n'
    proto += "  function int g; return 1; endfunction\nendmodule\n"
    assert _cells(proto) == ["CELL"]
    assert [proto[a:b].split()[0] for a, b in procedural_spans(proto)] == ["function"]
    single = "module m;\n  always @(posedge c) if (e) `M(x) u(x);\nendmodule\n"
    assert procedural_spans(single) == []
    unclosed = "module m;\n  initial begin\n  `CELL u(.a(a));\nendmodule\n"
    assert procedural_spans(unclosed) == [] and _cells(unclosed) == ["CELL"]
    timed = "module m;\n  initial #10 begin `M(x) t(x); end\n  always @ * begin end\nendmodule\n"
    assert len(procedural_spans(timed)) == 2 and _cells(timed) == []


def test_a_begin_in_a_macro_definition_does_not_extend_procedural_code() -> None:
    """Round 68: ``begin`` in a `define body inside an initial block left the block open
    past its ``end``, over a module-level instance through a macro."""
    from rtlopt.verilog_instances import procedural_spans

    code = (
        "module tb;\n  initial begin\n    `define SECTION_BEGIN begin\n    x = 1;\n  end\n"
        "  `CORE #(.W(4321)) u(.a(a));\n  `define SECTION_END end\n  initial #1 x = 0;\n"
        "endmodule\n"
    )
    at = code.index("`CORE")
    assert not any(a <= at < b for a, b in procedural_spans(code))
