"""What reads a late block's outputs (``evaluate/_time_zero_readers.py``) is compared by what
it computes on four-valued values (``evaluate/_time_zero_canon.py``): serv's compressed
decoder rewritten (its ``always @*`` outputs renamed, the output mux inverted, the register
reading ``~t`` for ``!t``) reads the x before the block's first event as the reference does;
a reader that decides on that x otherwise (``=== 1'b0``) is still unchecked."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.evaluate._time_zero import time_zero_change
from rtlopt.evaluate._time_zero_canon import computed
from rtlopt.harness._event_blocks import module_items
from tests.unit.evaluate.test_time_zero import _design

#: serv_compdec's shape: an ``always @*`` decoder, a mux and a register reading its outputs.
REF = (
    "module m(input clk, input [3:0] i, input ack, output [3:0] o, output reg c);\n"
    "  reg [3:0] x;\n  reg ill;\n  assign o = ill ? i : x;\n"
    "  always @(posedge clk) begin\n    if (ack)\n      c <= !ill;\n  end\n"
    "  always @(*) begin\n    x = i;\n    ill = 1'b0;\n    case (i[1:0])\n"
    "      2'b00: x = {i[3:2], 2'b01};\n      2'b11: ill = 1'b1;\n"
    "      default: x = ~i;\n    endcase\n  end\nendmodule\n"
)


def _renamed(mux: str, reg: str) -> str:
    """REF with the decoder's outputs renamed (``ex``, ``pass``) and its readers as given."""
    return (
        REF.replace("assign o = ill ? i : x;", mux)
        .replace("c <= !ill;", reg)
        .replace("reg [3:0] x;", "reg [3:0] ex;")
        .replace("reg ill;", "reg pass;")
        .replace("x = ", "ex = ")
        .replace("ill = ", "pass = ")
    )


#: A parent changing every input at time 0 (only a testbench instantiating m holds them).
TOP = (
    "module top(output [3:0] o, output c);\n  reg clk, ack; reg [3:0] i;\n"
    "  initial begin clk = 0; ack = 1; i = 4'h3; end\n"
    "  m u(.clk(clk), .i(i), .ack(ack), .o(o), .c(c));\nendmodule\n"
)


@pytest.mark.parametrize("top", ["", TOP], ids=["top", "instantiated"])
def test_a_reader_computing_the_same_value_on_x_is_no_change(tmp_path: Path, top: str) -> None:
    design = _design(tmp_path, REF, top)
    cand = _renamed("assign o = !pass ? ex : i;", "c <= ~pass;")
    assert time_zero_change(design, REF, cand) == ""  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("ref_reg", "mux", "reg"),
    [
        # 0 where the reference's register takes x before the decoder first runs
        ("c <= !ill;", "assign o = !pass ? ex : i;", "c <= (pass === 1'b0);"),
        # x where the reference's register takes 1 before the decoder first runs
        ("c <= (ill === 1'b1) ? 1'b0 : 1'b1;", "assign o = !pass ? ex : i;", "c <= ~pass;"),
        # i where the reference's mux merges i and x: decides on the x otherwise
        ("c <= !ill;", "assign o = (pass !== 1'b0) ? i : ex;", "c <= ~pass;"),
        # a condition of two bits inverted is no negation: not rewritten
        ("c <= !ill;", "assign o = ~{pass, pass} ? ex : i;", "c <= ~pass;"),
    ],
    ids=["register_defined", "register_x", "mux", "wide_condition"],
)
@pytest.mark.parametrize("top", ["", TOP], ids=["top", "instantiated"])
def test_a_reader_deciding_on_x_otherwise_is_unchecked(
    tmp_path: Path, top: str, ref_reg: str, mux: str, reg: str
) -> None:
    ref = REF.replace("c <= !ill;", ref_reg)
    design = _design(tmp_path, ref, top)
    why = time_zero_change(design, ref, _renamed(mux, reg))  # type: ignore[arg-type]
    assert why.startswith("what reads the outputs of the always blocks of m"), why


def _last(body: str) -> tuple[str, str]:
    """The text of ``body`` (a module item among one-bit ``a``, ``b`` and two-bit ``w``,
    ``v``) and what it computes."""
    text = f"module m(input clk);\n  reg a, b; reg [1:0] w, v;\n  {body}\nendmodule\n"
    items = module_items(text, "m")
    assert items is not None
    return items.items[-1].text, computed(items.items[-1].text, items)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("always @(posedge clk) a <= ~b;", "always @ ( posedge clk ) a <= ! b ;"),
        ("assign w = !a ? v : w;", "assign w = a ? w : v ;"),
        ("assign w = ~a ? v[1:0] : {a, b};", "assign w = a ? { a , b } : v [ 1 : 0 ] ;"),
    ],
)
def test_identities_exact_on_x_and_z_are_applied(body: str, expected: str) -> None:
    assert _last(body)[1] == expected


@pytest.mark.parametrize(
    "body",
    [
        "assign w = ~a;",  # two bits wide: ~a is 2'b1x where !a is 2'b0x
        "always @(posedge clk) a <= ~w;",  # ~ of two bits, one kept: not !w
        "assign w = ~w ? v : w;",  # a two-bit condition inverted
        "assign w = !a ? v | w : w;",  # an arm of an operator: not one operand
        "assign w = !a ? v : a ? w : v;",  # a nested condition
        "assign w = !(a) ? v : w;",  # the condition not a name
        "assign w = !a ? f(v) : w;",  # a call
        "always @(posedge clk) if (a <= ~b) a <= b;",  # a comparison, no assignment
    ],
)
def test_nothing_else_is_rewritten(body: str) -> None:
    text, got = _last(body)
    assert got == text
