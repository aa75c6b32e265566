"""Round 119 (held out, against 729d4445), the classes left open by wave 51: a module nothing
instantiates, changed so that it differs only at a parameter value no probe tries, with no
guard the reference lacks; each was accepted and is refused now (real tools).

- the value reaches logic through an instance's port (`cmpz u(.v(W - 4000), .z(hit))`): a
  port connection is a value use the split proof reads from its input (refuted at W=4000);
- a helper the candidate hands the parameter to guards on an alias of it (`localparam
  integer M = N; if (M > 2048)`), in the candidate file or in the repository;
- a repository helper stages the data in a fixed-width net (`wire [4095:0] t = x`): the
  leak rule reads the repository's modules the candidate instantiates;
- a select of a fixed constant at an index the parameter moves (`M[W:W]`);
- a constant wider than the default context (`{33{32'hFFFF_FFFF}} + 1'b1`, 0 below 1057
  bits);
- a wrap by a conversion (`localparam integer P = Q` of a `longint Q`), by a product that
  shrinks before it grows (`(W - 30) * (W - 30) * 1048576`), by a product flat when every
  parameter moves together (`(A - B) * (A - B) * 1048576`);
- a narrow net written from the parameter by an assignment (`wire [11:0] k; assign k = W`),
  and the reference's unused fixed-width tap read by the candidate;
- the reference's own guard past the probes (`BIG = (W > 4096)`) feeding a constant the
  candidate changes (`DROP = BIG * 2`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict, repo_verdict

pytestmark = pytest.mark.tools

HEAD = "module addw #(parameter W = 8) (input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n"
SUM = HEAD + "  assign y = a + b;\nendmodule\n"
ZERO = "module cmpz (input [31:0] v, output z);\n  assign z = (v == 32'd0);\nendmodule\n"
ALIAS = (
    "module sub #(parameter N = 8) (input [N-1:0] x, input [N-1:0] z, output [N-1:0] s);\n"
    "  localparam integer M = N;\n  generate if (M > 2048) begin : g_wide\n"
    "    assign s = x - z;\n  end else begin : g_narrow\n    assign s = x + z;\n"
    "  end endgenerate\nendmodule\n"
)
USE_SUB = HEAD + "  sub #(.N(W)) u_sub (.x(a), .z(b), .s(y));\nendmodule\n"
STAGE = (
    "module stage #(parameter N = 8) (input [N-1:0] x, output [N-1:0] s);\n"
    "  wire [4095:0] t = x;\n  assign s = t;\nendmodule\n"
)
PORT = (
    HEAD
    + "  wire hit;\n  cmpz u_z (.v(W - 4000), .z(hit));\n  assign y = a + b + hit;\nendmodule\n"
)
TWO = (
    "module add2 #(parameter A = 8, parameter B = 8) "
    "(input [A-1:0] a, input [B-1:0] b, output [A-1:0] y);\n"
)
ALONE = {
    "a-port-connection-helper-in-the-candidate": (SUM, PORT + ZERO),
    "an-alias-guard-in-a-helper-of-the-candidate": (SUM, USE_SUB + ALIAS),
    "a-select-of-a-fixed-constant": (
        SUM,
        HEAD + "  localparam logic [4000:-8] M = {1'b1, {100{40'b0}}, 8'b0};\n"
        "  assign y = a + b + M[W:W];\nendmodule\n",
    ),
    "a-constant-wider-than-the-context": (
        SUM,
        HEAD + "  assign y = a + b + ({33{32'hFFFF_FFFF}} + 1'b1);\nendmodule\n",
    ),
    "a-wrap-by-a-conversion": (
        SUM,
        HEAD + "  localparam longint L = W;\n  localparam longint Q = L * 1048576;\n"
        "  localparam integer P = Q;\n  assign y = a + b + (Q - P);\nendmodule\n",
    ),
    "a-product-that-shrinks-first": (
        SUM,
        HEAD + "  localparam integer P = (W - 30) * (W - 30) * 1048576;\n"
        "  localparam longint Q = (W - 30) * (W - 30) * 64'sd1048576;\n"
        "  assign y = a + b + (Q - P);\nendmodule\n",
    ),
    "a-product-flat-when-both-move": (
        TWO + "  assign y = a + b;\nendmodule\n",
        TWO + "  localparam longint L = A - B;\n  localparam longint Q = L * L * 1048576;\n"
        "  localparam integer P = (A - B) * (A - B) * 1048576;\n"
        "  assign y = a + b + (Q - P);\nendmodule\n",
    ),
    "a-narrow-net-assigned-the-parameter": (
        SUM,
        HEAD + "  wire [11:0] k;\n  assign k = W;\n  assign y = a + b + (W - k);\nendmodule\n",
    ),
    "the-references-guard-past-the-probes-feeding-a-changed-constant": (
        HEAD + "  localparam integer BIG = (W > 4096);\n  localparam integer DROP = BIG;\n"
        "  assign y = a + b[W - 1 - DROP:0];\nendmodule\n",
        HEAD + "  localparam integer BIG = (W > 4096);\n  localparam integer DROP = BIG * 2;\n"
        "  assign y = a + b[W - 1 - DROP:0];\nendmodule\n",
    ),
    "the-references-unused-tap-read": (
        HEAD + "  wire [299:0] acc = a;\n  assign y = a + b;\nendmodule\n",
        HEAD + "  wire [299:0] acc = a;\n  assign y = acc + b;\nendmodule\n",
    ),
}


@pytest.fixture(scope="module")
def verdicts() -> dict[tuple[str, str], tuple[int, str]]:
    """The module's verdicts by (reference, candidate): a pair two tests judge is evaluated
    once (by whichever runs first), each test asserting its own part of the one result."""
    return {}


def _verdict(
    verdicts: dict[tuple[str, str], tuple[int, str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    pair: tuple[str, str],
) -> tuple[int, str]:
    if pair not in verdicts:
        verdicts[pair] = module_verdict(tmp_path, monkeypatch, *pair)
    return verdicts[pair]


@pytest.mark.parametrize("case", sorted(ALONE))
def test_a_change_wrong_at_an_unprobed_value_is_refused(
    case: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    verdicts: dict[tuple[str, str], tuple[int, str]],
) -> None:
    rc, reason = _verdict(verdicts, tmp_path, monkeypatch, ALONE[case])
    assert rc == 1, reason
    assert "unchecked for parameters" in reason or "W=4000" in reason, reason


REPO = {
    "a-port-connection-of-a-repository-module": ({"cmpz.v": ZERO}, PORT, "W=4000"),
    "an-alias-guard-in-a-repository-module": ({"sub.v": ALIAS}, USE_SUB, "u_sub.N"),
    "a-repository-helper-staging-in-a-fixed-width-net": (
        {"stage.v": STAGE},
        HEAD + "  stage #(.N(W)) u_s (.x(a + b), .s(y));\nendmodule\n",
        "`t`",
    ),
}


@pytest.mark.parametrize("case", sorted(REPO))
def test_a_repository_helper_carries_the_value_and_is_refused(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files, candidate, said = REPO[case]
    rc, reason = repo_verdict(tmp_path, monkeypatch, {"m.v": SUM, **files}, "m.v", candidate)
    assert rc == 1, reason
    assert said in reason, reason


def test_a_wide_counterexample_is_shown_short(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    verdicts: dict[tuple[str, str], tuple[int, str]],
) -> None:
    # the same evaluation as the port-connection case above (shared when both run)
    rc, reason = _verdict(verdicts, tmp_path, monkeypatch, (SUM, PORT + ZERO))
    assert rc == 1, reason
    assert "4000'h00000000...0000000000000001" in reason, reason
    assert len(reason) < 1000, reason


def test_a_helper_sized_by_the_parameter_stays_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    helper = (
        "module stage #(parameter N = 8) (input [N-1:0] x, output [N-1:0] s);\n"
        "  wire [N-1:0] t = x;\n  assign s = t;\nendmodule\n"
    )
    candidate = HEAD + "  stage #(.N(W)) u_s (.x(b + a), .s(y));\nendmodule\n"
    rc, reason = repo_verdict(
        tmp_path, monkeypatch, {"m.v": SUM, "stage.v": helper}, "m.v", candidate
    )
    assert rc == 0, reason


COUNT = (
    "module cnt #(parameter K = 8) (input [7:0] b, output [31:0] s);\n"
    "  assign s = b + K;\nendmodule\n"
)
WRAP = (
    HEAD + "  wire [31:0] s;\n  cnt #(.K(W)) u_c (.b(8'd0), .s(s));\n"
    "  assign y = {body};\nendmodule\n"
)


def test_a_value_a_repository_module_computes_from_the_parameter_is_split_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Held-out trial 51's wrapper (uart handing DATA_WIDTH to uart_rx) was unchecked; the
    split proof now reads the instance's module's value uses from an input too: a rename is
    accepted, a use of its output wrong only at W = 4000 is not."""
    files = {"m.v": WRAP.format(body="s[0] ? a + b : b + a"), "cnt.v": COUNT}
    same = WRAP.format(body="s[0] ? b + a : a + b").replace("u_c", "u_count")
    rc, reason = repo_verdict(tmp_path / "same", monkeypatch, files, "m.v", same)
    assert rc == 0, reason
    wrong = WRAP.format(body="(s == 4000) ? a - b : a + b")
    rc, reason = repo_verdict(tmp_path / "wrong", monkeypatch, files, "m.v", wrong)
    assert rc == 1, reason
    assert "W=4000" in reason or "they differ at W=4000" in reason, reason
