"""Round 116 (held out, `/work/notes/rt116/`), against a reduction of a parameter read only as a
truth value to one probe per class (0, 1, 1'bx, 0.5; reverted): rtlopt's screen refuses the
reference itself under an x-valued or real parameter (the tools read those differently), so
the x and real probes were never legal, and the reduction skipped the split proof of value
uses, which rejects these two (real tools): a generate ``if (P)`` rewritten ``P ? a : b``
(x where the reference gives b, at P = 1'bx) or ``if (P ? (a[0] & ~a[0]) : (a[0] | ~a[0]))``
with the branches swapped (a where the reference gives b, at P = 1'bx).

A freed value parameter was proven free as integers and vectors only, so ``if (!P && (a[0] |
~a[0]))`` with swapped branches for ``if (P)`` (differs at P = 1'bx) and ``if (|P)`` for
``if (P)`` (does not build at P = 0.5) were accepted: now the x-faithfulness proof feeds a
freed 4-state parameter x, and a real override that the reference takes is unchecked unless
both texts read the parameter only as conditions or only as whole assigned values."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict

pytestmark = pytest.mark.tools

HEAD = "module lib #(parameter P = 1) (input [7:0] a, input [7:0] b, output {kind}[7:0] y);\n"
GENERATE = (
    HEAD.format(kind="")
    + "  if (P) begin : g_a\n    assign y = a;\n  end else begin : g_b\n    assign y = b;\n"
    "  end\nendmodule\n"
)
PROCEDURAL = (
    HEAD.format(kind="reg ") + "  always_comb begin\n    if (P) y = a;\n    else y = b;\n  end\n"
    "endmodule\n"
)
CASES = {
    "generate-if-as-a-choice": (GENERATE, HEAD.format(kind="") + "  assign y = P ? a : b;\n"),
    "generate-if-as-a-swapped-predicate": (
        GENERATE,
        HEAD.format(kind="logic ") + "  always_comb begin\n"
        "    if (P ? (a[0] & ~a[0]) : (a[0] | ~a[0])) y = b;\n    else y = a;\n  end\n",
    ),
}
FREED = {
    "swapped-under-a-negation-at-x": (
        PROCEDURAL,
        HEAD.format(kind="reg ") + "  always_comb begin\n"
        "    if (!P && (a[0] | ~a[0])) y = b;\n    else y = a;\n  end\n",
    ),
    "a-reduction-on-a-real": (PROCEDURAL, PROCEDURAL.replace("if (P)", "if (|P)")),
}


def _rc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str) -> tuple[int, str]:
    text = cand if cand.endswith("endmodule\n") else cand + "endmodule\n"
    return module_verdict(tmp_path, monkeypatch, ref, text)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_truth_value_rewrite_wrong_at_x_is_refused(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = _rc(tmp_path, monkeypatch, *CASES[case])
    assert rc == 1, reason


@pytest.mark.parametrize("case", sorted(FREED))
def test_a_freed_parameter_rewrite_wrong_at_x_or_a_real_is_refused(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = _rc(tmp_path, monkeypatch, *FREED[case])
    assert rc == 1, reason
    assert ("x into P" in reason) if "x" in case else ("a real value of it" in reason), reason
