"""A parameter read only as a truth value (serv's ``if (|WITH_CSR)``) is probed once per class
of value it builds with (0, 1; x and a real where slang elaborates the reference with them),
not at nine values (real tools): an equivalent rewrite of a module nothing instantiates, its
generate body rewritten under the same guard, is proven with EN = 0 probed; a change wrong
only where the parameter is 0 is refuted there; the branches swapped under ``if (!EN)`` (the
same for every integer, not where EN is x: iverilog and Yosys take the ``else`` of a generate
``if (1'bx)``, where slang builds nothing) stay refused as a guard computed from the parameters
(red-team round 113: a reduction to 0 and 1 accepted it); and a candidate that reads it as a
number (``EN != 1``, wrong at EN = 2) keeps the generic probes and is refuted."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

pytestmark = pytest.mark.tools

HEAD = (
    "module m #(parameter EN = 1) (input clk, input [3:0] a, input [3:0] b, "
    "output reg [3:0] y);\n"
)
REF = (
    HEAD + "  generate if (EN) begin : g\n"
    "    always @(posedge clk) y <= a + b;\n"
    "  end else begin : h\n"
    "    always @(posedge clk) y <= a;\n"
    "  end endgenerate\nendmodule\n"
)
# the body rewritten under the same guard (a generate condition: no proof takes EN as an input)
EQUIV = REF.replace("a + b", "b + a")
# the branches swapped: the same for every integer, not where EN is x (else on both sides)
SWAPPED = (
    HEAD + "  generate if (!EN) begin : h\n"
    "    always @(posedge clk) y <= a;\n"
    "  end else begin : g\n"
    "    always @(posedge clk) y <= b + a;\n"
    "  end endgenerate\nendmodule\n"
)


def _verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cand: str) -> tuple[int, dict]:
    repo = committed_repo(tmp_path / "repo", {"m.v": REF}, monkeypatch, tmp_path / "cache")
    rc, out = evaluate_text(repo, "m.v", cand, tmp_path / "candidate")
    return rc, out.get("candidate", {})  # type: ignore[return-value]


def _probes(res: dict) -> list[str]:
    return [r["values"] for r in res.get("configurations", []) if r["kind"] == "probe"]


def test_a_truth_only_parameter_is_proven_with_its_classes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, res = _verdict(tmp_path, monkeypatch, EQUIV)
    assert rc == 0, res.get("reason")
    # EN = 0 (x and a real do not elaborate a generate condition in slang: not legal); the
    # generic probes tried up to nine
    probes = _probes(res)
    assert "EN=0" in probes and len(probes) <= 2, res.get("configurations")


def test_a_change_wrong_only_where_it_is_zero_is_refuted_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, res = _verdict(tmp_path, monkeypatch, EQUIV.replace("y <= a;", "y <= ~a;"))
    assert rc == 1 and "EN=0" in res.get("reason", ""), res.get("reason")


def test_branches_swapped_under_a_negation_stay_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, res = _verdict(tmp_path, monkeypatch, SWAPPED)
    assert rc == 1 and "computes `! EN`" in res.get("reason", ""), res.get("reason")


def test_a_candidate_reading_it_as_a_number_keeps_the_generic_probes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = SWAPPED.replace("if (!EN)", "if (EN != 1)")  # wrong at EN = 2
    rc, res = _verdict(tmp_path, monkeypatch, cand)
    assert rc == 1 and "EN" in res.get("reason", ""), res.get("reason")
