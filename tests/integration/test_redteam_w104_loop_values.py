"""Round 104 (held out, `/work/notes/rt104/`): a generate loop to ``W`` hands its variable every
value below ``W``, so the variable is ``W``'s value in another form; and the other ways a width
parameter's value reached code no check read.

The accepted candidates compared the loop variable with a constant the loop reaches only past
every probe (``g * g == 9801``: W > 99), directly, through a helper module's parameter
(``m_chk #(.K(g))``) or through a signal (``n = g; n == 99``). The variable of a loop whose
header names a parameter now counts as that parameter for the guard rule, for assignments to an
instance's parameters and in the split proof (read shifted by the split value's distance from
the parameter's: the loop's last values at that width, so the proof finds W = 100).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict, repo_verdict

pytestmark = pytest.mark.tools

REF = (
    "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
    "  assign y = a + 1'b1;\nendmodule\n"
)


def _loop(body: str, helper: str = "") -> str:
    return (
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n  wire [W-1:0] h;\n"
        f"  for (genvar g = 0; g < W; g = g + 1) begin : gl\n{body}  end\n"
        "  assign y = ((|h) & a[0]) ? a : a + 1'b1;\nendmodule\n" + helper
    )


CASES = {
    "a-guard-on-the-loop-variable": _loop("    assign h[g] = (g * g == 9801);\n"),
    "the-loop-variable-to-a-helpers-parameter": _loop(
        "    m_chk #(.K(g)) u_chk (.h(h[g]));\n",
        "module m_chk #(parameter K = 0) (output h);\n  assign h = (K * K == 9801);\nendmodule\n",
    ),
    "the-loop-variable-through-a-signal": _loop(
        "    wire [31:0] n = g + (a & 0);\n    assign h[g] = (n == 99);\n"
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_loop_variable_compared_past_every_probe_is_refused(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = module_verdict(tmp_path, monkeypatch, REF, CASES[case])
    assert rc == 1 and ("not equivalent" in reason or "unchecked" in reason), reason


def test_a_loop_variable_as_a_bits_position_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # selects and the loop's own bound are the variable's range, no guard: an equivalent
    # bit-by-bit rewrite stays accepted
    loop = (
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
        "  for (genvar g = 0; g < W; g = g + 1) begin : gl\n    assign y[g] = ~a[g];\n  end\n"
        "endmodule\n"
    )
    ref, cand = loop, loop.replace("~a[g]", "a[g] ^ 1'b1")
    rc, reason = module_verdict(tmp_path, monkeypatch, ref, cand)
    assert rc == 0, reason


# wrong only at W = 100, as round 103's
AT_100 = (
    "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
    "  wire [31:0] n = a - a + W;\n  assign y = (n == 10 * 10 && a[0]) ? a : a + 1'b1;\nendmodule\n"
)
PARENTS = {
    # a step of a top's parameter: no small nudge moves W (P = 64 gives W = 100)
    "a-step-of-a-tops-parameter": "module top #(parameter P = 8) (input [P/64*96+3:0] a, output [P/64*96+3:0] y);\n  m #(.W(P / 64 * 96 + 4)) u_m (.a(a), .y(y));\nendmodule\n",
    # an overridable macro written with a base
    "a-macro-written-with-a-base": "`ifndef WIDTH\n`define WIDTH 'd8\n`endif\nmodule top (input [`WIDTH-1:0] a, output [`WIDTH-1:0] y);\n  m #(.W(`WIDTH)) u_m (.a(a), .y(y));\nendmodule\n",
}  # fmt: skip


@pytest.mark.parametrize("parent", list(PARENTS))
def test_an_open_value_the_nudges_missed_is_read_from_the_texts(
    parent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"m.v": REF, "top.v": PARENTS[parent]}
    rc, reason = repo_verdict(tmp_path, monkeypatch, files, "m.v", AT_100)
    assert rc == 1 and ("unchecked" in reason or "not equivalent" in reason), reason


def test_width_parameter_data_in_a_fixed_width_net_is_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # {W{1'b1}} in a 256-bit net is 2**W - 1; compared with 1024**10 through nets it holds
    # only at W = 100
    cand = (
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
        "  wire [255:0] x = {W{1'b1}} | (a & 1'b0);\n  wire [255:0] c = 256'd1024;\n"
        "  wire hit = (x + 1'b1) == c * c * c * c * c * c * c * c * c * c;\n"
        "  assign y = (hit & a[0]) ? a : a + 1'b1;\nendmodule\n"
    )
    rc, reason = module_verdict(tmp_path, monkeypatch, REF, cand)
    assert rc == 1 and "a net of a fixed width" in reason, reason


def test_a_helper_taking_a_parameter_as_a_width_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the candidate's helpers were read from a file named candidate.v in the working folder:
    # never there, so every helper taking a parameter was "unchecked"
    cand = (
        "module m #(parameter W = 8) (input [W-1:0] a, output [W-1:0] y);\n"
        "  m_inc #(.K(W)) u_inc (.a(a), .y(y));\nendmodule\n"
        "module m_inc #(parameter K = 8) (input [K-1:0] a, output [K-1:0] y);\n"
        "  assign y = a + 1'b1;\nendmodule\n"
    )
    rc, reason = module_verdict(tmp_path, monkeypatch, REF, cand)
    assert rc == 0, reason
