"""Round 97 (held out): a guard on the design's signals that fires only at a parameter value
no probe tries.

In a module nothing instantiates (its parameters are its interface), ``s = a + b + K;
y = (a == 200 && b == 7 && s == 1000) ? 0 : s`` differs from ``y = a + b + K`` only at
``K = 793``: no constant expression of ``K`` changes, so neither the probes (numbers beside
``K``, common widths) nor the scan of constant expressions find it. ``K`` only enters values,
so it is proven once more as an input of the proof (``frontend/_param_free.py``), covering
every value; a parameter that sizes something cannot be an input and keeps its probes."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

from rtlopt.frontend._param_free import FREED_SUFFIX, free_parameters

pytestmark = pytest.mark.tools

HEAD = "module m #(parameter K = 5)(input [7:0] a, input [7:0] b, output [31:0] y);\n"
REF = HEAD + "  assign y = a + b + K;\nendmodule\n"
GUARDED = (
    HEAD + "  wire [31:0] s = a + b + K;\n"
    "  assign y = (a == 8'd200 && b == 8'd7 && s == 32'd1000) ? 32'd0 : s;\nendmodule\n"
)


def test_a_parameter_becomes_an_input_of_its_type() -> None:
    text = (
        "module m #(parameter K = 5, parameter [7:0] J = 3, parameter real R = 1.0)"
        "(input [7:0] a, output [31:0] y);\n  assign y = a + K + J;\nendmodule\n"
        "module n(a, y); parameter K = 1; input a; output y; assign y = a ^ K[0]; endmodule\n"
    )
    freed = free_parameters(text, "m", ["K", "J"])
    assert freed is not None
    assert "output [31:0] y, input signed [31:0] K, input [7:0] J)" in freed, freed
    assert f"parameter K{FREED_SUFFIX} = 5" in freed and f"J{FREED_SUFFIX}" in freed
    assert free_parameters(text, "m", ["R"]) is None  # a real is no input
    non_ansi = free_parameters(text, "n", ["K"])
    assert non_ansi is not None and "module n(a, y, K); input signed [31:0] K;" in non_ansi


def test_a_guard_on_signals_at_a_value_no_probe_tries_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = committed_repo(tmp_path / "repo", {"m.v": REF}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", GUARDED)
    reason = str(out.get("candidate", {}).get("reason", ""))  # type: ignore[union-attr]
    assert rc == 1 and "with parameter K free" in reason, reason
    assert "K=00000000000000000000001100011001" in reason, reason  # 793
    # the same rewrite without the guard is proven for every integer K, and unchecked for a
    # real override of the untyped K (round 116); with K an int, accepted
    rc, out = evaluate_text(repo, "m.v", GUARDED.replace("(a == 8'd200", "(1'b0 && a == 8'd200"))
    assert rc == 1 and "a real value of it" in str(out.get("candidate")), out
    typed = {"m.v": REF.replace("parameter K", "parameter int K")}
    repo = committed_repo(tmp_path / "typed", typed, monkeypatch, tmp_path / "cache")
    cand = GUARDED.replace("parameter K", "parameter int K")
    rc, out = evaluate_text(repo, "m.v", cand.replace("(a == 8'd200", "(1'b0 && a == 8'd200"))
    assert rc == 0 and "every value of K" in str(out.get("scope")), out


def test_a_parameter_that_sizes_ports_keeps_its_probes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = "module m #(parameter W = 8)(input [W-1:0] a, input [W-1:0] b, output [W-1:0] y);\n"
    repo = committed_repo(
        tmp_path / "repo",
        {"m.v": head + "  assign y = a + b;\nendmodule\n"},
        monkeypatch,
        tmp_path / "cache",
    )
    rc, out = evaluate_text(repo, "m.v", head + "  assign y = b + a;\nendmodule\n")
    scope = str(out.get("scope"))
    assert rc == 0 and "W not freed" in scope and "probe" in scope, out
