"""Round 99 (held out): parameters the proof could not free, and combinations of them.

In a module nothing instantiates, a parameter that only enters values is an input of the proof
(round 97). Three ways around it were found:

- the reference copies the parameter into a localparam (``localparam [7:0] KB = K``), so the
  freed text did not elaborate and the parameter kept its probes; a bit of it (``K[12] ? a : a
  + KB``) or a ``case (K) 5000:`` then differs only at values no probe tries. A localparam
  computed from a freed parameter is now a net of the type slang elaborates it to;
- two guards the reference writes (``A > 8``, ``B > 8``) combined so that the candidate differs
  only where both hold: each parameter was freed alone, with the other at its default;
- a third parameter past the two that were freed. Every freeable parameter the change depends
  on is now freed in one proof, which covers every combination of their values.

Round 100 found the same class in the types: two untyped parameters freed with one type each
time (all integers, all unsigned, all signed vectors), where overrides can give each its own.
Each pair of untyped parameters now meets in every pair of types
(:func:`rtlopt.frontend._param_free.kind_choices`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text, module_verdict

from rtlopt.frontend._param_free import KINDS, free_parameters, kind_choices

pytestmark = pytest.mark.tools

ONE = "module m #(parameter K = 3) (input [7:0] a, output [7:0] y);\n  localparam [7:0] KB = K;\n"
TWO = (
    "module m #(parameter A = 3, parameter B = 3) (input [7:0] a, output [7:0] y);\n"
    "  localparam [7:0] KA = A, KB = B;\n  wire [7:0] u = (A > 8) ? a + KA : a;\n"
)
MIX = "module m #(parameter A = 1, parameter B = 2) (input [7:0] a, output [7:0] y);\n"
THREE = "module m #(parameter A = 1, parameter B = 2, parameter C = 3)"
THREE += " (input [7:0] a, output [15:0] y);\n"

CASES = {
    "bit-of-a-localparam-source": (
        ONE + "  assign y = a + KB;\nendmodule\n",
        ONE + "  assign y = K[12] ? a : a + KB;\nendmodule\n",
    ),
    "case-on-a-parameter": (
        ONE + "  assign y = a + KB;\nendmodule\n",
        ONE + "  reg [7:0] r;\n  always @* case (K) 5000: r = a; default: r = a + KB; endcase\n"
        "  assign y = r;\nendmodule\n",
    ),
    "two-reference-guards-together": (
        TWO + "  assign y = (B > 8) ? u + KB : u;\nendmodule\n",
        TWO + "  assign y = (B > 8) ? ((A > 8) ? u : u + KB) : u;\nendmodule\n",
    ),
    # differs only where A is an unsigned vector past 32 bits and B a negative integer: the
    # two untyped parameters take different types from their overrides
    "two-untyped-parameters-of-different-types": (
        MIX + "  assign y = a + A + B;\nendmodule\n",
        MIX
        + "  wire c = (B < 0) && (A > 32'hFFFFFFFF) && !((A + B) < 0) && ((A + B) >> (8*8-1));\n"
        "  assign y = c ? 8'd0 : a + A + B;\nendmodule\n",
    ),
    "a-third-parameter": (
        THREE + "  assign y = a + A + B + C;\nendmodule\n",
        THREE + "  wire [15:0] s = a + C;\n"
        "  assign y = (s == 16'd3000) ? 16'd0 : a + A + B + C;\nendmodule\n",
    ),
}


def test_a_localparam_computed_from_a_freed_parameter_becomes_a_net_of_its_type() -> None:
    text = (
        "module m #(parameter K = 3) (input [7:0] a, output [7:0] y);\n"
        "  localparam KD = K + 1, KE = 5;\n  localparam [8:1] KG = KD;\n"
        "  assign y = a + KG + KE;\nendmodule\n"
    )
    freed = free_parameters(text, "m", ["K"])
    assert freed is not None
    assert "wire signed [31:0] KD = K + 1; localparam  KE = 5;" in freed, freed
    assert "wire [8:1] KG = KD;" in freed, freed
    wide = free_parameters(text, "m", ["K"], "unsigned", 64)
    assert wide is not None and "wire [63:0] KD = K + 1;" in wide, wide
    # a localparam of no vector type cannot be a net: the parameter is not freed
    assert len(kind_choices(text, "m", ["K"])) == 3
    pairs = kind_choices(MIX, "m", ["A", "B"])
    assert {(c["A"], c["B"]) for c in pairs} == {(x, y) for x in KINDS for y in KINDS}
    real = text.replace("localparam [8:1] KG = KD;", "localparam real KR = K * 1.5;")
    assert free_parameters(real, "m", ["K"]) is None


@pytest.mark.parametrize("case", list(CASES))
def test_a_value_no_probe_tries_is_refuted_with_the_parameters_free(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref, cand = CASES[case]
    rc, reason = module_verdict(tmp_path, monkeypatch, ref, cand)
    assert rc == 1 and " free (every" in reason, reason


def test_an_equivalent_rewrite_is_proven_for_every_combination(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # typed 2-state: an x override of an untyped B differs (the reference's `?:` merges
    # `u + KB` and `u`, the rewrite's sum is all x) and a real one is not covered (round 116)
    typed = "parameter int A = 3, parameter int B = 3"
    ref = CASES["two-reference-guards-together"][0].replace(
        "parameter A = 3, parameter B = 3", typed
    )
    repo = committed_repo(tmp_path / "repo", {"m.v": ref}, monkeypatch, tmp_path / "cache")
    same = TWO.replace("parameter A = 3, parameter B = 3", typed)
    same += "  assign y = u + ((B > 8) ? KB : 8'd0);\nendmodule\n"
    rc, out = evaluate_text(repo, "m.v", same)
    assert rc == 0, out
    assert "every value of A, B" in str(out.get("scope")), out
