"""The screen's rules for state simulation keeps in combinational code and synthesis does not
(no tool runs): a combinational block that reads a variable before it writes it, a function or
task that reads a module signal its caller does not wake on (or a function that writes one),
a static function's variable read before it is written; with the ordinary code each must let
through (defaults written first, temporaries, loops, automatic functions, parameters)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.frontend.model import Design, Module, Port, SourceSet
from rtlopt.harness import screen_candidate
from rtlopt.harness._readings import reading_problems
from rtlopt.verilog import blank_comments


def _found(text: str) -> list[str]:
    return [msg for _, msg in reading_problems(blank_comments(text))]


def _module(body: str, ports: str = "input [7:0] a, input [7:0] b, output reg [7:0] y") -> str:
    return f"module m({ports});\n{body}\nendmodule\n"


READ_FIRST = """  reg [7:0] t;
  always @* begin
    if (a * 8'd3 == 8'h79) y = t; else y = a;
    t = a;
  end"""


@pytest.mark.parametrize(
    "body",
    [
        READ_FIRST,
        READ_FIRST.replace("always @*", "always @(a)"),
        READ_FIRST.replace("always @*", "always_comb"),
        # read on one path only: the else path leaves t from the previous run
        "  reg [7:0] t;\n  always @* begin if (a[0]) t = b; y = t; end",
        # a bit the block writes later
        "  reg [7:0] t;\n  always @* begin t[3:0] = a[3:0]; y = t; t[7:4] = b[3:0]; end",
        # read through a function that reads the variable
        "  reg [7:0] t;\n  function [7:0] g; input [7:0] x; g = x ^ t; endfunction\n"
        "  always @* begin y = g(a); t = b; end",
        # a named block's static variable
        "  always @* begin : blk reg [7:0] s; y = s; s = a; end",
        # an index that is not constant: not the bit written before
        "  reg [7:0] t;\n  always @* begin t[a[2:0]] = 1'b1; y = t[b[2:0]]; t = 0; end",
        # 2'd3 + 2'd1 is 0 at two bits: the write is t[0], not t[4]
        "  reg [7:0] t;\n  always @* begin t[2'd3 + 2'd1] = a[0]; y = {7'd0, t[4]}; t = b; end",
        # the body moves the loop variable: not the iterations the bounds say
        "  reg [7:0] t; integer i;\n  always @* begin\n"
        "    for (i = 0; i < 8; i = i + 1) begin t[i] = a[i]; i = i + 1; end y = t; t = b; end",
        # an array row read whole with one of its bits not yet written
        "  reg [1:0] m [0:1]; integer i;\n  always @* begin\n"
        "    for (i = 0; i < 2; i = i + 1) m[i][0] = a[i];\n"
        "    y = {6'd0, &m[0], &m[1]}; m[0][1] = b[0]; m[1][1] = b[1]; end",
        # a row of another width than the bits written (row [2:0], bits 0 and 1 written)
        "  reg [2:0] m [0:1]; integer i;\n  always @* begin\n"
        "    for (i = 0; i < 2; i = i + 1) begin m[i][0] = a[i]; m[i][1] = b[i]; end\n"
        "    y = {6'd0, &m[0], &m[1]}; m[0] = 0; m[1] = 0; end",
        # a row whose width cannot be evaluated: judged as unknown bits
        "  reg [a:0] m [0:1]; integer i;\n  always @* begin\n"
        "    for (i = 0; i < 2; i = i + 1) m[i][0] = a[i];\n"
        "    y = {6'd0, &m[0], &m[1]}; m[0] = 0; m[1] = 0; end",
        # an int is 32 bits: bit 0 written is not the whole variable
        "  int t;\n  always @* begin t[0] = a[0]; y = t[7:0]; t = b; end",
        # two generate blocks declare t at other widths: the 2-bit one is not this block's
        "  generate if (1) begin : g1\n    reg [7:0] t;\n"
        "    always @* begin t[0] = a[0]; t[1] = a[1]; y = t; t = b; end\n  end\n"
        "  if (1) begin : g2\n    reg [1:0] t;\n    always @* t = a[1:0];\n  end\n  endgenerate",
        # a type name's width is not known: bit 0 written is not the whole variable
        "  typedef logic [7:0] w_t;\n  w_t t;\n  always @* begin t[0] = a[0]; y = t; t = b; end",
    ],
    ids=[
        "at_star",
        "event_list",
        "always_comb",
        "one_path",
        "later_bits",
        "via_function",
        "named_block",
        "unknown_index",
        "sized_index_wraps",
        "loop_variable_changed_in_body",
        "row_bit_missing",
        "row_wider_than_bits_written",
        "row_width_unknown",
        "int_atom",
        "generate_blocks_declare_other_widths",
        "type_name",
    ],
)
def test_a_combinational_block_reading_a_variable_before_writing_it_is_found(body: str) -> None:
    found = _found(_module(body))
    assert any("before the block writes it" in m for m in found), found


@pytest.mark.parametrize(
    "body",
    [
        "  always @* begin y = 0; if (a[0]) y = b; end",
        "  reg [7:0] t;\n  always @* begin t = a & b; y = t | a; end",
        "  integer i;\n  always @* for (i = 0; i < 8; i = i + 1) y[i] = a[7 - i];",
        "  always_comb begin y = a; y[0] = 1'b0; y[7] = y[0]; end",
        # a carry chain: each bit read after the previous iteration wrote it
        "  reg [8:0] c; integer i;\n  always @* begin c[0] = b[0];\n"
        "    for (i = 0; i < 8; i = i + 1) begin y[i] = a[i] ^ c[i]; c[i+1] = a[i] & c[i]; end\n"
        "  end",
        "  localparam N = 4;\n  reg [N:0] c;\n  always @* begin c[0] = 1'b0;\n"
        "    for (int i = 0; i < N; i++) c[i+1] = c[i] | a[i];\n    y = {3'd0, c}; end",
        # a full case without default writes on every path
        "  reg [7:0] t;\n  always @* begin case (a[1:0]) 2'd0: t = 1; 2'd1: t = 2; 2'd2: t = 3;\n"
        "    2'd3: t = 4; endcase y = t; end",
        # the same non-constant index read after it is written
        "  reg [7:0] t;\n  always @* begin t = 0; t[a[2:0]] = 1'b1; y = t; end",
        "  reg [7:0] t;\n  always @* begin t[a[2:0]] = b[0]; y = {7'd0, t[a[2:0]]}; end",
        # another block's bits: no state of this one
        "  reg [1:0] v;\n  always @* v[0] = a[0];\n  always @* begin v[1] = v[0]; y = {6'd0, v}; end",
        # a task's output written, then read
        "  task tk; input [7:0] x; output [7:0] o; o = ~x; endtask\n"
        "  reg [7:0] t;\n  always @* begin tk(a, t); y = t; end",
        # a state register (driven from a: an undriven one is x in a decision, another rule)
        "  reg [1:0] st, nx;\n  always @* st = a[1:0];\n"
        "  always @* begin nx = st; case (st) 2'd0: nx = 2'd1; default: ;"
        " endcase y = {6'd0, nx}; end",
        # an array row written bit by bit in an unrolled loop, then read whole
        "  reg [1:0] m [0:1]; integer i;\n  always @* begin\n"
        "    for (i = 0; i < 2; i = i + 1) begin m[i][0] = a[i]; m[i][1] = 1'b1; end\n"
        "    y = {6'd0, &m[1], &m[0]}; end",
        # a matrix filled by rows and columns (mor1kx's LRU), each row then read whole
        "  localparam N = 3;\n  reg [N-1:0] e [0:N-1]; integer i, j;\n"
        "  always @* begin\n    for (i = 0; i < N; i = i + 1) begin e[i][i] = 1'b1;\n"
        "      for (j = i + 1; j < N; j = j + 1) e[i][j] = a[i+j];\n"
        "      for (j = 0; j < i; j = j + 1) e[i][j] = !e[j][i]; end\n"
        "    for (i = 0; i < N; i = i + 1) y[i] = &e[i];\n    y[7:N] = 0; end",
        # the [n] form of an unpacked dimension
        "  reg [1:0] m [2]; integer i;\n  always @* begin\n"
        "    for (i = 0; i < 2; i = i + 1) begin m[i][0] = a[i]; m[i][1] = b[i]; end\n"
        "    y = {6'd0, ^m[1], ^m[0]}; end",
    ],
)
def test_ordinary_combinational_blocks_are_not_found(body: str) -> None:
    assert _found(_module(body)) == []


F_READS = "  function [7:0] f; input [7:0] x; f = x ^ b; endfunction\n"


@pytest.mark.parametrize(
    "body",
    [
        F_READS + "  wire [7:0] w = f(a);\n  always @* y = w;",
        F_READS + "  wire [7:0] w;\n  assign w = f(a);\n  always @* y = w;",
        F_READS + "  always @* y = f(a);",
        F_READS + "  always @(a) y = f(a);",
        # through another function
        F_READS + "  function [7:0] h; input [7:0] x; h = f(x) + 1; endfunction\n"
        "  always @* y = h(a);",
        # a task read is not woken on by always_comb either
        "  task tk; input [7:0] x; output [7:0] o; o = x ^ b; endtask\n  always_comb tk(a, y);",
    ],
    ids=["net_init", "assign", "at_star", "event_list", "transitive", "task_comb"],
)
def test_a_subprogram_reading_a_signal_its_caller_does_not_wake_on_is_found(body: str) -> None:
    found = _found(_module(body))
    assert any("not one of its arguments" in m for m in found), found


def test_a_function_writing_a_module_signal_is_found() -> None:
    body = (
        "  reg [7:0] g;\n  function [7:0] f; input [7:0] x; begin g = x ^ b; f = x; end"
        " endfunction\n  always @* y = f(a) ^ g;"
    )
    found = _found(_module(body))
    assert any("writes 'g', a signal of the module" in m for m in found), found


@pytest.mark.parametrize(
    "body",
    [
        "  parameter W = 8;\n  localparam L = W - 1;\n  genvar k;\n"
        "  function [7:0] f; input [7:0] x, z; reg [7:0] t; begin t = x ^ z; f = t + L; end"
        " endfunction\n  always @* y = f(a, b);",
        # the signal is in the caller's own expression
        F_READS + "  always @* y = f(a) | b;",
        F_READS + "  always @(a or b) y = f(a);",
        # always_comb wakes on what its functions read
        F_READS + "  always_comb y = f(a);",
        # a clocked caller samples at the edge, as synthesis does
        F_READS + "  always @(posedge a[0]) y <= f(b);",
        "  function automatic [7:0] f(input [7:0] x); reg [7:0] t; t = x; f = t; endfunction\n"
        "  always @* y = f(a);",
        "  function [7:0] rev; input [7:0] x; integer i; begin\n"
        "    for (i = 0; i < 8; i = i + 1) rev[i] = x[7 - i]; end endfunction\n"
        "  always @* y = rev(a);",
        "  function [3:0] dec; input [1:0] x; case (x) 2'd0: dec = 1; 2'd1: dec = 2;"
        " 2'd2: dec = 4; 2'd3: dec = 8; endcase endfunction\n  always @* y = {4'd0, dec(a[1:0])};",
        "  function [7:0] f; input [7:0] x; begin f = 0; if (x[0]) f = x; end endfunction\n"
        "  always @* y = f(a);",
    ],
    ids=[
        "params_locals",
        "caller_reads",
        "listed",
        "always_comb",
        "clocked",
        "automatic",
        "for_loop",
        "full_case",
        "default_first",
    ],
)
def test_ordinary_functions_are_not_found(body: str) -> None:
    assert _found(_module(body)) == []


@pytest.mark.parametrize(
    ("body", "what"),
    [
        (
            "  function [7:0] f; input [7:0] x; reg [7:0] t;\n"
            "    begin if (x * 8'd3 == 8'h79) f = t; else f = x; t = x; end endfunction\n"
            "  always @* y = f(a);",
            "reads its variable 't'",
        ),
        (
            "  function [7:0] f; input [7:0] x; if (x[0]) f = x; endfunction\n"
            "  always @* y = f(a);",
            "does not assign its value on every path",
        ),
        (
            "  function [7:0] f; input [7:0] x; begin f = f + x; end endfunction\n"
            "  always @* y = f(a);",
            "reads its variable 'f'",
        ),
        (
            "  task tk; input [7:0] x; output [7:0] o; reg [7:0] s; begin o = s; s = x; end"
            " endtask\n  always @(posedge a[0]) tk(b, y);",
            "reads its variable 's'",
        ),
    ],
    ids=["local", "return_path", "return_read", "task_local"],
)
def test_a_static_subprogram_reading_its_variable_first_is_found(body: str, what: str) -> None:
    found = _found(_module(body))
    assert any(what in m for m in found), found


def test_a_reference_with_carried_state_leaves_a_changed_candidate_unchecked(
    tmp_path: Path,
) -> None:
    ref = _module(READ_FIRST, "input [3:0] a, input [7:0] b, output reg [3:0] y")
    f = tmp_path / "m.v"
    f.write_text(ref)
    ports = (Port("a", "input", 4, 3, 0), Port("y", "output", 4, 3, 0))
    m = Module("m", f, 1, ref.index("module"), ref.index("endmodule") + 9, ports)
    design = Design(tmp_path, m, SourceSet(tmp_path, (f,)), {"m": m}, (f,))
    assert screen_candidate(ref, design) == []  # the repository's own bytes
    found = screen_candidate(
        _module("  always @* y = a;", "input [3:0] a, output reg [3:0] y"), design
    )
    assert found and "unchecked: the reference module" in found[0], found


def test_combinational_code_the_parser_rejects_is_not_passed() -> None:
    text = _module(READ_FIRST.replace("t = a;", "t = a;;; )"))
    assert any("parser cannot read this text" in m for m in _found(text))
