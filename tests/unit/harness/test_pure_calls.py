"""An assertion may call a user function that provably writes nothing outside itself
(ibex's prim_lfsr: ``lfsr_q == compute_next_state(coeffs, $past(entropy_i), $past(lfsr_q))``
with a ``function automatic`` of inputs writing its own locals); any other call may write,
and the view drops what a simulator runs (:mod:`rtlopt.harness._pure_calls`)."""

from __future__ import annotations

import pytest

from rtlopt.harness._dropped import dropped_problems
from rtlopt.verilog import blank_comments

HEAD = "module m(input clk, input [7:0] a, input [7:0] d, output logic [7:0] q);\n"
#: prim_lfsr's shape: automatic, inputs only, locals, a loop variable, a select, $error.
PURE = (
    "localparam logic [7:0] SEED = 8'h1;\n"
    "function automatic logic [7:0] f(logic [7:0] x);\n"
    "  logic s0; logic [7:0] t;\n"
    "  t = x;\n"
    "  if (t == 0) t = SEED; else begin s0 = t[0]; t = t >> 1; if (s0) t ^= 8'hb8; end\n"
    "  for (int i = 0; i < 2; i++) t[i] = ~t[i];\n"
    '  if (&t) $error("all ones");\n'
    "  return t;\n"
    "endfunction\n"
)
CHECK = "always @(posedge clk) assert (f(a) != 8'hA5);\n"


def _messages(body: str) -> list[str]:
    code = blank_comments(HEAD + body + "\nendmodule\n")
    return [msg for _, _, msg in dropped_problems(code)]


@pytest.mark.parametrize(
    "body",
    [
        PURE + CHECK,
        PURE + "assert property (@(posedge clk) a[0] |=> q == f($past(a)))\n"
        '  else begin $error("x"); end\n',
        PURE + 'always @(posedge clk) assert (a != 8\'hA5) else $display("%0d", f(a));\n',
        # a pure function calling another, or itself
        PURE.replace("return t;", "return g(t);")
        + "function automatic logic [7:0] g(logic [7:0] y); return ~y; endfunction\n"
        + CHECK,
        "function automatic int f(int n); return n == 0 ? 0 : f(n - 1); endfunction\n"
        "always @(posedge clk) assert (f(a) == 0);\n",
    ],
)
def test_a_call_of_a_function_that_writes_only_its_own_names_is_no_logic(body: str) -> None:
    assert _messages(body) == [], body


@pytest.mark.parametrize(
    "body",
    [
        PURE.replace("automatic ", "") + CHECK,  # static: its variables outlive the call
        PURE.replace("logic s0;", "static logic s0;") + CHECK,
        PURE.replace("t = x;", "t = x; q = 0;") + CHECK,  # a module signal
        PURE.replace("(logic [7:0] x)", "(logic [7:0] x, output logic o)")
        + "always @(posedge clk) assert (f(a, q[0]) != 8'hA5);\n",
        PURE.replace("(logic [7:0] x)", "(ref logic [7:0] x)") + CHECK,
        PURE.replace("(logic [7:0] x)", "(inout logic [7:0] x)") + CHECK,
        PURE.replace("return t;", "return g(t);")  # calls one that writes
        + "function automatic logic [7:0] g(logic [7:0] y); q = y; return y; endfunction\n"
        + CHECK,
        PURE.replace("return t;", "return t + g;")  # ... without parentheses
        + "function automatic logic [7:0] g; q = 1; return 1; endfunction\n"
        + CHECK,
        PURE.replace("t = x;", "t = x + top.u.s;") + CHECK,  # a hierarchical name
        PURE.replace("t = x;", "t = x + p::K;") + CHECK,  # a package's name: maybe a call
        PURE.replace("t = x;", "t = x + zz;") + CHECK,  # declared outside the text
        PURE.replace("t = x;", 't = x; $sscanf("1", "%d", t);') + CHECK,  # a writing task
        PURE.replace("t = x;", "begin : b logic [7:0] u; end u = 1; t = x;") + CHECK,
        PURE.replace("t = x;", "t = x; disable p;") + CHECK,
        PURE.replace("t = x;", "t = x; -> ev;") + "event ev;\n" + CHECK,
        PURE + 'import "DPI-C" function int f(int a);\n' + CHECK,  # another f
        PURE  # the nearer declaration of f, in a generate block, writes
        + "if (1) begin : g\n"
        + "  function automatic logic [7:0] f(logic [7:0] x); q = x; return x; endfunction\n"
        + "  always @(posedge clk) assert (f(a) != 8'hA5);\nend\n",
        PURE + "always @(posedge clk) assert (f(q++) != 8'hA5);\n",  # its argument writes
        "task automatic f(input logic [7:0] x); endtask\n"
        "always @(posedge clk) assert (a != 8'hA5) else f(a);\n",
        CHECK,  # declared nowhere in the text
    ],
)
def test_a_call_that_may_write_stays_logic(body: str) -> None:
    found = _messages(body)
    assert any("assertion action" in m for m in found), (body, found)
