"""Red team rounds 56 and 57 (held out): Yosys (and the second proof's frontend) read
``(* parallel_case *)`` and ``(* full_case *)`` as don't-cares where iverilog, like every
simulator, ignores them: two items matching take the first, no item matching keeps the value
written before. Both sides read as x there, so the proofs compared x with x and accepted a
change a simulation of the repository shows. Every tool now reads the plain statement
(``rtlopt.verilog_plain.plain_case_qualifiers``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_xfaith import _evaluate, _repo

pytestmark = pytest.mark.tools

PORTS = (
    "input [15:0] p, input [15:0] q, input a, input b, input d, output reg y, output reg [1:0] z"
)
HIT = "(p == ~{q[7:0], q[15:8]})"
#: Overlapping items (p == q == 16'hF00F matches both): a simulator takes the first.
PARALLEL = (
    f"module m({PORTS});\n  always @* begin\n    y = d;\n    (* parallel_case *)\n"
    f"    case (1'b1)\n      (p == q): z = 2'b01;\n      {HIT}: z = 2'b10;\n"
    "      default: z = 2'b00;\n    endcase\n  end\nendmodule\n"
)
SWAPPED = PARALLEL.replace(
    f"      (p == q): z = 2'b01;\n      {HIT}: z = 2'b10;\n",
    f"      {HIT}: z = 2'b10;\n      (p == q): z = 2'b01;\n",
)
#: No item matching ({hit, a} = 2'b11): a simulator keeps y = d.
FULL = (
    f"module m({PORTS});\n  wire hit = (p == q) && {HIT};\n  always @* begin\n    z = 2'b00;\n"
    "    y = d;\n    (* full_case *)\n    case ({hit, a})\n      2'b00: y = a;\n      2'b01: y = b;\n"
    "      2'b10: y = 1'b0;\n    endcase\n  end\nendmodule\n"
)
CHANGED = FULL.replace("    y = d;\n", "    y = ~d;\n")
TOP = (
    f"module top({PORTS.replace('output reg', 'output')});\n"
    "  m u(.p(p), .q(q), .a(a), .b(b), .d(d), .y(y), .z(z));\nendmodule\n"
)


#: Round 57: the attribute's name escaped (the same attribute to Yosys).
ESCAPED = PARALLEL.replace("(* parallel_case *)", "(* \\parallel_case *)")
#: Round 57: ``(* init *)`` is a power-up value Yosys reads and iverilog does not: q is x
#: until the first clock edge, ``if (q)`` takes ``else`` and ``if (!q)`` too.
INIT = (
    "module m(input clk, input d, input a, input b, output reg y);\n"
    "  (* init = 1'b1 *) reg q;\n  always @(posedge clk) q <= d;\n"
    "  always @* begin\n    if (q) y = a;\n    else y = b;\n  end\nendmodule\n"
)
INIT_TOP = (
    "module top(input clk, input d, input a, input b, output y);\n"
    "  m u(.clk(clk), .d(d), .a(a), .b(b), .y(y));\nendmodule\n"
)
CASES = {
    "parallel": (PARALLEL, SWAPPED),
    "full": (FULL, CHANGED),
    "escaped": (ESCAPED, SWAPPED.replace("(* parallel_case *)", "(* \\parallel_case *)")),
    "init": (
        INIT,
        INIT.replace("if (q) y = a;\n    else y = b;", "if (!q) y = b;\n    else y = a;"),
    ),
}


@pytest.mark.parametrize(("ref", "cand"), list(CASES.values()), ids=list(CASES))
def test_a_case_attribute_is_no_dont_care(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str
) -> None:
    repo = _repo(tmp_path, monkeypatch, ref, INIT_TOP if ref == INIT else TOP)
    out = _evaluate(tmp_path, repo, cand)
    reason = str(out["reason"])
    assert out["status"] == "invalid", reason
    # a parallel_case kept on reordered items is refused by the screen since wave 51
    # (``harness/_case_pragmas.py``: a claim on a case the reference does not hold it on)
    assert out["stage"] in ("simulation", "formal", "screen"), reason
