"""Round 96 (held out): a guard computed from a parameter, at a value no probe tried.

In a module nothing instantiates (its parameters are its interface), a candidate
``((W ^ 5) == 8) ? a - b : a + b`` differs only at ``W = 13``: the probes came from the numbers
written beside ``W`` (5, 8, their neighbours) and common widths, so it was accepted. Now the
candidate is elaborated at each value of the parameter and a constant expression that changes
at only a few of them singles those out as probes (``frontend/_param_special.py``)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from _fixture_repo import committed_repo, evaluate_text

from rtlopt.frontend._param_special import special_values

HEAD = "module m #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n"
REF = HEAD + "  assign y = a + b;\nendmodule\n"
DESIGN = SimpleNamespace(include_dirs=(), defines={})

SINGLED_OUT = {
    "condition": ("  assign y = ((W ^ 5) == 8) ? a - b : a + b;\n", "13"),
    "shift_amount": ("  assign y = a + b + ((W / 2) + (1 >> (W ^ 300))) - W / 2 - 1;\n", "300"),
    "periodic_localparam": (
        "  localparam G = (W % 7 == 6) && (W % 11 == 2);\n"
        "  if (G) begin : g\n    assign y = a - b;\n  end else begin : h\n"
        "    assign y = a + b;\n  end\n",
        "13",
    ),
}


@pytest.mark.parametrize("case", sorted(SINGLED_OUT))
def test_a_value_a_constant_expression_singles_out_is_found(case: str) -> None:
    body, value = SINGLED_OUT[case]
    found = special_values(HEAD + body + "endmodule\n", "m", "W", "8", DESIGN)  # type: ignore[arg-type]
    assert value in found[:4], found


def test_expressions_that_change_at_most_steps_single_out_nothing() -> None:
    body = "  assign y = a + b + W / 2 - (W - 1) + (W >> 1) - (W / 2) + W - 1 - (W >> 1);\n"
    assert special_values(HEAD + body + "endmodule\n", "m", "W", "8", DESIGN) == []  # type: ignore[arg-type]


@pytest.mark.tools
def test_the_guarded_candidate_is_refused_at_the_value_it_singles_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = committed_repo(tmp_path / "repo", {"m.v": REF}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", HEAD + SINGLED_OUT["condition"][0] + "endmodule\n")
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    # refused as a guard the reference does not write (round 97), or at W = 13 itself
    assert rc == 1 and not out.get("accepted") and ("W=13" in reason or "W ^ 5" in reason), reason
