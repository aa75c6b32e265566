"""Round 70 (held out): iverilog 11 runs ``foreach (a[i])`` over ``logic [7:0] a`` from 0 up,
slang and synthesis (the proofs on the SystemVerilog view path) from 7 down. A candidate whose
``foreach`` is reached only on a rare input passed the simulation of the texts. A descending
``foreach`` is a reading difference unless the reference holds the same loop, and a reference's
own one the candidate does not keep leaves it unchecked (``rtlopt.harness._foreach_order``; no
tool runs)."""

from __future__ import annotations

import pytest

from rtlopt.harness._readings import reading_problems
from rtlopt.verilog import blank_comments

HEAD = "module tgt(input logic [7:0] a, input logic [0:7] b, input logic [31:0] k,\n"
HEAD += "  output logic [3:0] y);\n  always_comb begin\n    y = 4'hf;\n"
TAIL = "  end\nendmodule\n"
DOWN = "    for (int i = 7; i >= 0; i--)\n      if (a[i]) y = 4'(i);\n"
REF = HEAD + DOWN + TAIL
RARE = (
    "    if ((k ^ (k >> 7)) == 32'h1234_5678) begin\n      foreach (a[j])\n"
    "        if (a[j]) y = 4'(j);\n    end else begin\n" + DOWN + "    end\n"
)


def _found(text: str, reference: str = REF) -> list[str]:
    return [m for _, m in reading_problems(blank_comments(text), reference=reference)]


def test_a_foreach_over_a_descending_dimension_is_a_reading_difference() -> None:
    found = _found(HEAD + RARE + TAIL)
    assert any("foreach (a[j])" in m and "iterates [7:0]" in m for m in found), found


@pytest.mark.parametrize(
    "loop",
    [
        "    foreach (b[i]) if (b[i]) y = 4'(i);\n",  # ascending [0:7]: read alike
        "    for (int i = 0; i < 8; i++) if (a[i] && y == 4'hf) y = 4'(i);\n",
    ],
    ids=["ascending", "for"],
)
def test_a_loop_in_a_stated_order_is_read_alike(loop: str) -> None:
    assert not [m for m in _found(HEAD + loop + TAIL) if "foreach" in m]


def test_a_loop_the_reference_holds_is_judged_too() -> None:
    """Round 71: the reference's loop, unused there, kept verbatim by a candidate that reads
    what it computes, was accepted; a descending loop is judged wherever it stands."""
    text = HEAD + RARE + TAIL
    found = _found(text, text)
    assert [m for m in found if "iterates [7:0]" in m], found
    assert [m for m in found if m.startswith("unchecked: the reference's loop")], found


def test_a_reference_loop_the_candidate_rewrites_leaves_it_unchecked() -> None:
    ref = HEAD + "    foreach (a[i])\n      if (a[i]) y = 4'(i);\n" + TAIL
    found = _found(REF, ref)
    assert any(m.startswith("unchecked: the reference's loop foreach (a[i])") for m in found)


def test_a_reference_is_not_judged_on_its_own_loops() -> None:
    ref = HEAD + "    foreach (a[i])\n      if (a[i]) y = 4'(i);\n" + TAIL
    assert not reading_problems(blank_comments(ref), strict=True)


def test_a_foreach_reusing_a_for_loops_variable_name_is_not_read_before_written() -> None:
    text = HEAD + RARE.replace("a[j]", "a[i]").replace("(j)", "(i)") + TAIL
    found = _found(text, text)
    assert found and not [m for m in found if "before" in m and "written" in m], found
