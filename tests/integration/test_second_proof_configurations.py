"""The second, independent proof runs under every configuration of the target the repository
elaborates, as the first proof does (red team 36, F3): a fill literal ``'1`` that Yosys 0.23's
read_verilog reads as 1, used only under the parent's ``P = 1``, is proven by the first proof
everywhere and refuted by the second under ``P = 1``; an equivalent rewrite is still accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration._fixture_repo import committed_repo, evaluate_text

pytestmark = [pytest.mark.tools, pytest.mark.slow]

TOML = '[project]\nexclude = ["cand/**"]\n'
S = """module s #(parameter P = 0) (input [23:0] a, input [23:0] b, output y);
  assign y = !((((a * 24'd12345) ^ 24'd1) == b) && (a[7:0] == 8'hc3));
endmodule
"""
TOP = """module top(input [23:0] a, input [23:0] b, output y);
  s #(.P(1)) u(.a(a), .b(b), .y(y));
endmodule
"""


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {"s.v": S, "top.v": TOP, "rtlopt.toml": TOML}
    return committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")


def test_a_misreading_under_the_repositorys_configuration_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = S.replace(
        "  assign y = !((((a * 24'd12345) ^ 24'd1)",
        "  localparam [23:0] ONE = (P == 1) ? '1 : 24'd1;\n  assign y = !((((a * 24'd12345) ^ ONE)",
    )
    rc, report = evaluate_text(_repo(tmp_path, monkeypatch), "s.v", cand)
    reason = str(report["candidate"]["reason"])  # type: ignore[index]
    assert rc == 1, reason
    assert "under parameters P=" in reason and "second proof" in reason, reason


def test_an_equivalent_rewrite_passes_the_second_proof_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = S.replace("(a[7:0] == 8'hc3)", "(8'hc3 == a[7:0])")
    rc, report = evaluate_text(_repo(tmp_path, monkeypatch), "s.v", cand)
    assert rc == 0, report["candidate"]  # type: ignore[index]


#: The same misreading under an ```ifdef`` configuration the repository builds (FAST).
S_FAST = """module s(input [23:0] a, input [23:0] b, output y);
`ifdef FAST
  localparam F = 1;
`else
  localparam F = 0;
`endif
  assign y = !((((a * 24'd12345) ^ 24'd1) == b) && (a[7:0] == 8'hc3));
endmodule
"""


def test_a_misreading_in_another_ifdef_configuration_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"s.v": S_FAST, "top.v": TOP.replace(" #(.P(1))", ""), "rtlopt.toml": TOML}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    cand = S_FAST.replace(
        "  assign y = !((((a * 24'd12345) ^ 24'd1)",
        "  localparam [23:0] ONE = F ? '1 : 24'd1;\n  assign y = !((((a * 24'd12345) ^ ONE)",
    )
    rc, report = evaluate_text(repo, "s.v", cand)
    reason = str(report["candidate"]["reason"])  # type: ignore[index]
    assert rc == 1, reason
    assert "in the configuration FAST defined" in reason and "second proof" in reason, reason
