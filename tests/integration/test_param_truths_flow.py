"""A parameter read only as a truth value (serv's ``if (|WITH_CSR)``) is probed at 0 and 1,
not at nine values, and the two classes are every behaviour (real tools): an equivalent
rewrite of a module nothing instantiates, its generate guard rewritten `if (!EN)` (refused
before as a guard computed from the parameters that no probe may reach), is proven with the
other class probed, a change wrong only where the parameter is 0 is refuted there, and a candidate that reads it as a number (`EN == 1`,
wrong at EN = 2) keeps the generic probes and is refuted at 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

pytestmark = pytest.mark.tools

REF = (
    "module m #(parameter EN = 1) (input clk, input [3:0] a, input [3:0] b, "
    "output reg [3:0] y);\n"
    "  generate if (EN) begin : g\n"
    "    always @(posedge clk) y <= a + b;\n"
    "  end else begin : h\n"
    "    always @(posedge clk) y <= a;\n"
    "  end endgenerate\nendmodule\n"
)
# the guard rewritten (a generate condition: no proof can take EN as an input)
EQUIV = (
    "module m #(parameter EN = 1) (input clk, input [3:0] a, input [3:0] b, "
    "output reg [3:0] y);\n"
    "  generate if (!EN) begin : h\n"
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


def test_a_truth_only_parameter_is_proven_with_its_two_classes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, res = _verdict(tmp_path, monkeypatch, EQUIV)
    assert rc == 0, res.get("reason")
    # EN = 0 (the other class) and the value a search for diverging guards adds; the generic
    # probes tried up to nine
    probes = _probes(res)
    assert "EN=0" in probes and len(probes) <= 2, res.get("configurations")


def test_a_change_wrong_only_where_it_is_zero_is_refuted_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, res = _verdict(tmp_path, monkeypatch, EQUIV.replace("y <= a;", "y <= ~a;"))
    assert rc == 1 and "EN=0" in res.get("reason", ""), res.get("reason")


def test_a_candidate_reading_it_as_a_number_keeps_the_generic_probes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cand = EQUIV.replace("if (!EN)", "if (EN != 1)")  # wrong at EN = 2
    rc, res = _verdict(tmp_path, monkeypatch, cand)
    assert rc == 1 and "EN" in res.get("reason", ""), res.get("reason")
