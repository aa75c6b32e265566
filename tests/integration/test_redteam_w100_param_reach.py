"""Round 100 (held out, `/work/notes/rt100/`): parameter values the checks did not reach.

A width parameter, which cannot be an input of the proof, differing only past a number the
candidate computes instead of writing.

``t = a >> (13 * 3)`` is 0 while ``W <= 39``: the candidate adds it to ``a + 1`` and differs
only at ``W >= 40``. The probes went past the numbers the change writes (13, 3) and the widths
the texts write, never past 39. The numbers the candidate reaches and the reference does not
(each constant expression's value, and every value a shift amount or an index of at most 8
bits can take) now give a probe one past the largest; past the widest probe the change is
unchecked, rejected.

A width parameter reached through a signal only (``n = a - a + W; n == 3 * 4 + 1``, W = 13):
the two texts are proven once more with every use of W as a value read from an input
(:mod:`rtlopt.frontend._param_split`), and the values where they differ are probed.

And four ways around the free proof: a ``longint`` parameter (now freed as its 64 bits), a
localparam of the header list computed from the parameter (now a net as a body one is), a
shift of a shift reading past the freed width (untyped parameters are now freed past the sum
of the numbers the texts write), a negative value of a parameter that sizes ``[W:0]`` (a probe
at -1 or -2 where the reference takes it).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from _fixture_repo import committed_repo, evaluate_text, module_verdict

from rtlopt.frontend._param_special import reach_numbers
from rtlopt.frontend.model import Design

pytestmark = pytest.mark.tools

HEAD = "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
REF = HEAD + "  assign y = a + 1'b1;\nendmodule\n"


def _hidden(amount: str) -> str:
    return (
        HEAD + f"  wire [W-1:0] t = a >> ({amount});\n"
        "  assign y = a + 1'b1 + (|t & a[0] & a[1] & a[2]);\nendmodule\n"
    )


def test_the_numbers_a_text_reaches_without_writing_them(tmp_path: Path) -> None:
    design = cast(Design, SimpleNamespace(include_dirs=(), defines={}))
    assert 39 in reach_numbers(_hidden("13*3"), "m", design)
    counter = HEAD.replace("input [W-1:0] a", "input clk, input [W-1:0] a") + (
        "  reg [5:0] n;\n  always @(posedge clk) n <= n + 1'b1;\n"
        "  assign y = a + (|(a >> n));\nendmodule\n"
    )
    assert 63 in reach_numbers(counter, "m", design)  # every value of a 6-bit shift amount
    assert 39 not in reach_numbers(REF, "m", design)


@pytest.mark.parametrize(
    ("amount", "rc", "says"),
    [("13*3", 1, "not equivalent"), ("100*10", 1, "past the widest probe")],
    ids=["past-39", "past-every-probe"],
)
def test_a_change_wrong_only_past_a_reached_number_is_refused(
    amount: str, rc: int, says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    got, reason = module_verdict(tmp_path, monkeypatch, REF, _hidden(amount))
    assert got == rc and says in reason, reason


OTHERS = {
    # a longint parameter was not freed (its type had no input type) and kept probes <= 1024
    "longint": (
        "module m #(parameter longint K = 5) (input [7:0] a, output [63:0] y);\n",
        "  assign y = a + K;\n",
        "  localparam integer K32 = K;\n  assign y = a + K32;\n",
    ),
    # a localparam of the header list computed from K kept K from being freed
    "header-localparam": (
        "module m #(parameter K = 5, localparam KB = K + 1) (input [7:0] a, output [15:0] y);\n",
        "  assign y = a + KB;\n",
        "  assign y = a + K[7:0] + 1;\n",
    ),
    # a shift of a shift reads bit 80 of an untyped K, freed as 66 bits
    "shift-of-a-shift": (
        "module m #(parameter K = 5) (input [7:0] a, output [7:0] y);\n",
        "  assign y = a + K[7:0] + ((K >> 40) >> 40);\n",
        "  assign y = a + K[7:0];\n",
    ),
    # W reaches a value through a signal only (`a - a + W`), compared with 3 * 4 + 1: the
    # proof with W's value uses read from an input finds 13, and a probe there refutes
    "a-width-through-a-signal": (
        "module m #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n",
        "  assign y = a + b;\n",
        "  wire [31:0] n = a - a + W;\n  assign y = (n == 3 * 4 + 1) ? a - b : a + b;\n",
    ),
    # `[W:0]` holds W = -1: the candidate differs only for a negative width parameter
    "negative-width": (
        "module m #(parameter W = 7) (input [W:0] a, output [31:0] y);\n",
        "  assign y = a + W;\n",
        "  assign y = a + W[30 -: 31];\n",
    ),
}


@pytest.mark.parametrize("case", list(OTHERS))
def test_a_value_the_round_100_rules_missed_is_refuted(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    head, ref, cand = OTHERS[case]
    files = {"m.v": head + ref + "endmodule\n"}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", head + cand + "endmodule\n")
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    # refuted, or (round 104) W-wide data in a fixed-width net
    # or (round 115) a select of a parameter: a guard the probes cannot check
    says = ("not equivalent", "a net of a fixed width", "from the module's parameters")
    assert rc == 1 and any(w in reason for w in says), reason


POPCOUNT = (
    "module m #(parameter W = 8) (input [W-1:0] a, output reg [31:0] y);\n  integer i;\n"
    "  always @* begin\n    y = 0;\n    for (i = 0; i < W; i = i + 1) y = y + a[i];\n  end\n"
    "endmodule\n"
)


def test_a_count_in_a_fixed_width_variable_past_every_probe_is_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a 10-bit count of W ones wraps only at W >= 1024
    repo = committed_repo(tmp_path / "repo", {"m.v": POPCOUNT}, monkeypatch, tmp_path / "cache")
    cand = POPCOUNT.replace("  integer i;\n", "  integer i;\n  reg [9:0] c;\n")
    cand = cand.replace("y = 0;", "c = 0;").replace("y = y + a[i];", "c = c + a[i];")
    rc, out = evaluate_text(repo, "m.v", cand.replace("  end\n", "    y = c;\n  end\n"))
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and "reaches the number 1023" in reason, reason


def test_an_equivalent_rewrite_reaching_nothing_new_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = committed_repo(tmp_path / "repo", {"m.v": REF}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", HEAD + "  assign y = 1'b1 + a;\nendmodule\n")
    assert rc == 0, out
