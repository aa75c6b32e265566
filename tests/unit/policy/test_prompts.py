"""Prompt templates of appendix H, number formatting, spec loading, feedback lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.errors import UsageError
from rtlopt.evaluate.result import (
    PPA,
    EvalResult,
    Mismatch,
    SimResult,
    Stage,
    Status,
)
from rtlopt.policy import (
    NO_SPEC,
    SYSTEM_PROMPT,
    ParentInfo,
    build_prompt,
    feedback_lines,
    fmt_number,
    load_spec,
    metric_name,
)

REF = "module lza(input [7:0] a, output [2:0] y);\n  assign y = a[2:0];\nendmodule\n"
REF_PPA = PPA(area_um2=1552.74, delay_ps=2191.1, power_uw=None)


def test_fmt_number() -> None:
    assert fmt_number(1552.7412) == "1552.74"
    assert fmt_number(3402207.3) == "3,402,207"
    assert fmt_number(2.0) == "2"
    assert fmt_number(0.0123456) == "0.0123456"
    assert fmt_number(0.0) == "0"


def test_metric_names() -> None:
    assert metric_name("adp") == "ADP"
    assert metric_name("ppa") == "PPA-product"
    with pytest.raises(UsageError):
        metric_name("speed")


def test_root_prompt_adp() -> None:
    system, user = build_prompt(REF, REF_PPA, "Leading zero anticipator.", "adp")
    assert system == {"role": "system", "content": SYSTEM_PROMPT}
    assert "<think>" in SYSTEM_PROMPT and "```verilog" in SYSTEM_PROMPT
    text = user["content"]
    assert user["role"] == "user"
    adp = fmt_number(REF_PPA.adp)
    assert "area=1552.74\u03bcm^2, delay=2191.1ps (ADP=" + adp + ")" in text
    assert "power=" not in text
    assert "```verilog\n" + REF.strip() + "\n```" in text
    assert "## Design Specification\nLeading zero anticipator." in text
    assert f"Write a complete Verilog module with ADP lower than {adp}." in text
    assert "Previous Attempt" not in text
    assert "`lza`" in text


def test_root_prompt_ppa_shows_power() -> None:
    ppa = PPA(area_um2=100.0, delay_ps=250.0, power_uw=12.5)
    _, user = build_prompt(REF, ppa, "spec", "ppa")
    text = user["content"]
    m = fmt_number(100.0 * 250.0 * 12.5)
    assert "power=12.5\u03bcW (PPA-product=" + m + ")" in text
    assert "Area \u00d7 Delay \u00d7 Power" in text
    assert f"PPA-product lower than {m}" in text


def test_non_root_prompt_with_improvement_and_target() -> None:
    parent_ppa = PPA(area_um2=1200.0, delay_ps=2000.0, power_uw=None)
    parent = ParentInfo(code="module lza(input [7:0] a, output [2:0] y); endmodule",
                        ppa=parent_ppa,
                        feedback=("Syntax: PASS", "Functional Test: PASS",
                                  "Synthesis: area=1200\u03bcm^2, delay=2000ps, ADP=2,400,000"),
                        prev_metric=REF_PPA.adp)
    _, user = build_prompt(REF, REF_PPA, "spec", "adp", parent)
    text = user["content"]
    assert text.index("## Design Specification") < text.index("## Previous Attempt")
    assert "## Feedback from Previous Attempt\n- Syntax: PASS\n- Functional Test: PASS\n" in text
    rel = (REF_PPA.adp - parent_ppa.adp) / REF_PPA.adp * 100
    assert f"Previous ADP: {fmt_number(REF_PPA.adp)} -> current: 2,400,000 " \
           f"(improved by {rel:.1f}%)" in text
    assert "Produce a design with ADP lower than 2,400,000." in text
    assert text.rstrip().endswith("Output only Verilog code within ```verilog fences.")


def test_non_root_prompt_worse_parent() -> None:
    parent = ParentInfo("module lza; endmodule", PPA(2000.0, 2000.0, None), (), 3_000_000.0)
    _, user = build_prompt(REF, REF_PPA, "spec", "adp", parent)
    assert "(worse by 33.3%)" in user["content"]


def test_non_root_prompt_failed_parent_targets_reference() -> None:
    parent = ParentInfo("module lza; endmodule", None, ("Syntax: FAIL (2 error(s): x)",), None)
    _, user = build_prompt(REF, REF_PPA, "spec", "adp", parent)
    text = user["content"]
    assert "- Syntax: FAIL (2 error(s): x)" in text
    assert "Previous ADP" not in text
    assert f"ADP lower than {fmt_number(REF_PPA.adp)}." in text


def test_load_spec_from_file_and_header(tmp_path: Path) -> None:
    f = tmp_path / "spec.md"
    f.write_text("  The LZA predicts leading zeros.\n")
    assert load_spec(f, "// ignored") == "The LZA predicts leading zeros."
    header = "// Copyright X\n//\n/* Leading zero\n * anticipator */\n"
    assert load_spec(None, header) == "Copyright X\n\nLeading zero\nanticipator"
    assert load_spec(None, "") == NO_SPEC
    with pytest.raises(UsageError, match="cannot read specification"):
        load_spec(tmp_path / "missing.txt")


def test_feedback_lines_from_results() -> None:
    syn = EvalResult(Status.INVALID, Stage.COMPILE, reason="syntax error", compile_errors=2)
    assert feedback_lines(syn, "adp", errors=["c.v:3: syntax error", "c.v:4: bad", "x", "y"]) \
        == ("Syntax: FAIL (2 error(s): c.v:3: syntax error; c.v:4: bad; x)",)
    mm = Mismatch(time="40", inputs={"a": "8'h01"}, output="y", expected="3'h0", got="3'h1")
    func = EvalResult(Status.INVALID, Stage.SIMULATION, reason="1 mismatch",
                      sim=SimResult(passed=False, vectors=100, mismatches=1, first_mismatch=mm))
    lines = feedback_lines(func, "adp")
    assert lines[0] == "Syntax: PASS"
    assert lines[1].startswith("Functional Test: FAIL (first mismatch at 40: inputs a=8'h01;")
    assert "y expected 3'h0, got 3'h1" in lines[1]
    ok = EvalResult(Status.OK, Stage.DONE, ppa=PPA(10.0, 20.0, 0.5))
    assert feedback_lines(ok, "ppa") == (
        "Syntax: PASS", "Functional Test: PASS",
        "Synthesis: area=10\u03bcm^2, delay=20ps, power=0.5\u03bcW, PPA-product=100")
