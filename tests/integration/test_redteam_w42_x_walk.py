"""Red team rounds 42, 50 and 51 (held out): x sources the walk of
``frontend/_open_inputs.py`` took for defined drivers, so no x-faithfulness proof ran and a
candidate reading x otherwise than the reference was accepted on the 0/1 proofs alone: an
inferred latch (``always @* if (en) bw = 1;``), an ``always @*`` that reads nothing (never
runs), a function's local assigned on one path only, and a loop through the target's own
output (``wire bw = y;``). And a value read from a file (``$readmemh`` of a ``z`` digit) was x
only for the proof, which then allowed a ``!==`` telling z from x.

The reference takes ``else`` on ``b`` = x (``y`` = 0); the candidate ``if (!b) y = 0; else y
= a;`` takes its ``else`` too (``y`` = ``a``): equal on 0/1, not in a simulation of ``top``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_redteam_w41_x_sources import IF_B, NOT_B, Z_APART, _top
from test_xfaith import _evaluate, _repo

pytestmark = pytest.mark.tools

CONN = "  m u(.a(a), .b(bw), .y(y));"
FORMS = {
    "latch": "  reg bw;\n  always @* if (en) bw = 1'b1;",
    "atstar": "  reg bw;\n  always @* bw = 1'b1;",
    "funclocal": (
        "  function automatic f(input e);\n    reg t;\n    begin if (e) t = 1'b1; f = t; end\n"
        "  endfunction\n  wire bw = f(en);"
    ),
    "selfloop": "  wire bw = y;",
    # an always_latch holds x while its enable is 0 (a known gap until wave 25); a clock
    # gate's gated clock read as data is x while the clock is 1 before its first low phase
    "always_latch": "  reg bw;\n  always_latch if (en) bw = 1'b1;",
    "clock_gate": "  reg q;\n  always_latch if (!en) q = a;\n  wire bw = en & q;",
    # round 50: a specparam holding x (a constant to the walk, its value not judged), a real
    # turned into bits (iverilog makes x of an infinite real), a vendor cell's output (counted
    # as a defined driver: a flip-flop cell powers up x)
    "specparam": "  specify specparam S = 1'bx; endspecify\n  wire bw = S;",
    "real": "  wire bw = 1e400;",
    "vendor_cell": "  wire bw;\n  DFF_X1 ff(.D(a), .CK(en), .Q(bw), .QN());",
    # round 51: 0 to a negative power (x), a function's local in a nested block or its result
    # read before any write, a local's initializer reading a local never written or a
    # module's register, a full case without default on a selector x at run time
    "power": "  wire bw = en ** -1;",
    "named_block": (
        "  function f(input d); begin : blk reg s; f = d & s; end endfunction\n  wire bw = f(en);"
    ),
    "unnamed_block": (
        "  function automatic logic f(input logic d); begin logic s; f = d & s; end endfunction\n"
        "  wire bw = f(en);"
    ),
    "result": "  function automatic logic f(input logic d); f = f & d; endfunction\n  wire bw = f(en);",
    "init_local": (
        "  function logic f(input logic d); logic s; static logic t = s; f = d & t; endfunction\n"
        "  wire bw = f(en);"
    ),
    "init_register": (
        "  reg r;\n  function logic f(input logic d); static logic t = r; f = d & t; endfunction\n"
        "  wire bw = f(en);"
    ),
    "case_divide": "  reg bw; always @* case (en / en) 1'b0: bw = 1'b0; 1'b1: bw = 1'b1; endcase",
    "case_select": (
        "  function automatic logic f(input logic d);\n    logic [2:0] v; v = {d, d, d};\n"
        "    case (v[{d, d}]) 1'b0: f = 1'b0; 1'b1: f = 1'b1; endcase\n  endfunction\n"
        "  wire bw = f(en);"
    ),
    # round 53: a local returned, a loop body's read (before its first write)
    "return_local": (
        "  function automatic logic f(input logic d);\n    logic t;\n    if (d) t = 1'b1;\n"
        "    return t;\n  endfunction\n  wire bw = f(en);"
    ),
    "repeat_body": (
        "  function automatic logic f(input logic d);\n    logic t;\n    f = 1'b0;\n"
        "    repeat (1) f = d & t;\n    t = 1'b0;\n  endfunction\n  wire bw = f(en);"
    ),
    # round 54: a return's x, a case selector's x constant, a wildcard's left side
    "return_x": (
        "  function automatic logic f(input logic d);\n    if (d) return 1'b1;\n"
        "    return 1'bx;\n  endfunction\n  wire bw = f(en);"
    ),
    "case_x_constant": (
        "  reg bw;\n  always @* case (en ^ 1'bx) 1'b0: bw = 1'b0; 1'b1: bw = 1'b1; endcase"
    ),
    "wildcard_left": "  wire [1:0] v = 2'b01;\n  wire bw = v[{en, en}] ==? 1'b1;",
}
SOURCES = {
    "latch": "'bw' (top.v, line 2) is written by a combinational block on some paths only",
    "atstar": "is written only by an always block whose event control waits on nothing",
    "funclocal": "leaves its local 't' (top.v, line 3) unassigned (x)",
    "selfloop": "depends on that input combinationally",
    "always_latch": "'bw' (top.v, line 2) is written by a combinational block on some paths only",
    "clock_gate": "'q' (top.v, line 2) is written by a combinational block on some paths only",
    "specparam": "which reads 'S' (top.v, line 2)",
    "real": "turns a real value into bits: x where it is infinite or not a number",
    "vendor_cell": "which the repository does not define (a vendor cell)",
    "power": "en ** -1 (top.v, line 2) raises to -1, an exponent that may be negative",
    "named_block": "leaves its local 's' (top.v, line 2) unassigned (x)",
    "unnamed_block": "leaves its local 's' (top.v, line 2) unassigned (x)",
    "result": "reads its result 'f' (top.v, line 2) before assigning it (x)",
    "init_local": "leaves its local 's' (top.v, line 2) unassigned (x)",
    "init_register": "leaves its local 't' (top.v, line 3) unassigned (x)",
    "case_divide": "'bw' (top.v, line 2) is written by a combinational block on some paths only",
    "case_select": "a path through its body (top.v, line 2) leaves its result unassigned (x)",
    "return_local": "its local 't' (top.v, line 3) unassigned (x)",
    "repeat_body": "its local 't' (top.v, line 3) unassigned (x)",
    "return_x": "a value with x/z bits (1'bx)",
    "case_x_constant": "'bw' (top.v, line 2) is written by a combinational block on some paths only",
    "wildcard_left": "selects with an index",
}


@pytest.mark.parametrize("form", list(FORMS))
def test_an_x_source_the_walk_took_for_defined_is_proven_against(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    repo = _repo(tmp_path, monkeypatch, IF_B, _top(f"{FORMS[form]}\n{CONN}"))
    out = _evaluate(tmp_path, repo, NOT_B)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "not where the repository feeds x into b" in reason and "b=x" in reason, reason
    assert SOURCES[form] in reason, reason


def test_a_value_read_from_a_file_may_be_z(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``$readmemh`` of a file holding ``z``: the proof, which reads z as x, may not decide
    a ``!==``."""
    body = (
        f'  reg [0:0] mem [0:0];\n  initial $readmemh("b.hex", mem);\n  wire bw = mem[0];\n{CONN}'
    )
    repo = _repo(tmp_path, monkeypatch, IF_B, _top(body))
    out = _evaluate(tmp_path, repo, Z_APART)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and reason.startswith("unchecked: "), reason
    assert "=== or !== where an input may be z" in reason, reason
    assert '$readmemh("b.hex", mem) (top.v, line 3)' in reason, reason
