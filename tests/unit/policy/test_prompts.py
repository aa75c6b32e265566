"""Prompt templates of appendix H, number formatting, spec loading, feedback lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.errors import UsageError
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
from rtlopt.policy._prompts import fit_prompt
from rtlopt.results import (
    PPA,
    EvalResult,
    Mismatch,
    SimResult,
    Stage,
    Status,
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
    parent = ParentInfo(
        code="module lza(input [7:0] a, output [2:0] y); endmodule",
        ppa=parent_ppa,
        feedback=(
            "Syntax: PASS",
            "Functional Test: PASS",
            "Synthesis: area=1200\u03bcm^2, delay=2000ps, ADP=2,400,000",
        ),
        prev_metric=REF_PPA.adp,
    )
    _, user = build_prompt(REF, REF_PPA, "spec", "adp", parent)
    text = user["content"]
    assert text.index("## Design Specification") < text.index("## Previous Attempt")
    assert "## Feedback from Previous Attempt\n- Syntax: PASS\n- Functional Test: PASS\n" in text
    rel = (REF_PPA.adp - parent_ppa.adp) / REF_PPA.adp * 100
    assert (
        f"Previous ADP: {fmt_number(REF_PPA.adp)} -> current: 2,400,000 "
        f"(improved by {rel:.1f}%)" in text
    )
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
    assert feedback_lines(syn, "adp", errors=["c.v:3: syntax error", "c.v:4: bad", "x", "y"]) == (
        "Syntax: FAIL (2 error(s): c.v:3: syntax error; c.v:4: bad; x)",
    )
    mm = Mismatch(time="40", inputs={"a": "8'h01"}, output="y", expected="3'h0", got="3'h1")
    func = EvalResult(
        Status.INVALID,
        Stage.SIMULATION,
        reason="1 mismatch",
        sim=SimResult(passed=False, vectors=100, mismatches=1, first_mismatch=mm),
    )
    lines = feedback_lines(func, "adp")
    assert lines[0] == "Syntax: PASS"
    assert lines[1].startswith("Functional Test: FAIL (first mismatch at 40: inputs a=8'h01;")
    assert "y expected 3'h0, got 3'h1" in lines[1]
    # the netlist check failed: the RTL simulation passed, the mismatch is the netlist's
    net = EvalResult(
        Status.INVALID,
        Stage.NETLIST,
        reason="netlist differs",
        sim=SimResult(passed=True, vectors=100, mismatches=0),
        netlist=SimResult(passed=False, vectors=100, mismatches=1, first_mismatch=mm),
    )
    lines = feedback_lines(net, "adp")
    assert lines[1].startswith("Functional Test: FAIL (first mismatch at 40: inputs a=8'h01;")
    ok = EvalResult(Status.OK, Stage.DONE, ppa=PPA(10.0, 20.0, 0.5))
    assert feedback_lines(ok, "ppa") == (
        "Syntax: PASS",
        "Functional Test: PASS",
        "Synthesis: area=10\u03bcm^2, delay=20ps, power=0.5\u03bcW, PPA-product=100",
    )


# ---------------------------------------------------------------- fitting a token budget


def _chars(prompt: tuple[dict[str, str], ...]) -> int:
    return sum(len(m["content"]) for m in prompt)


def _body(name: str, n: int, ansi: bool = True) -> str:
    head = (
        f"module {name}(input [7:0] a, output [7:0] y);\n"
        if ansi
        else f"module {name}(a, y);\n  input [7:0] a;\n  parameter W = 8;\n  output [7:0] y;\n"
    )
    return (
        head
        + "".join(f"  wire w{i} = a[{i % 8}];\n" for i in range(n))
        + "  assign y = a;\nendmodule\n"
    )


def test_fit_prompt_leaves_a_fitting_prompt_alone() -> None:
    p = build_prompt(REF, REF_PPA, "spec", "adp")
    assert fit_prompt(p, _chars, 10_000) is p


def test_fit_prompt_keeps_interfaces_instruction_and_feedback() -> None:
    parent = ParentInfo(
        code=_body("lza", 300, ansi=False),
        ppa=REF_PPA,
        feedback=("Syntax: PASS", "Functional Test: PASS"),
        prev_metric=4_000_000.0,
    )
    spec = "\n".join(f"Spec line {i}." for i in range(200))
    p = build_prompt(_body("lza", 400), REF_PPA, spec, "adp", parent)
    limit = _chars(p) // 4
    fitted = fit_prompt(p, _chars, limit)
    assert fitted is not None and _chars(fitted) <= limit
    assert fitted[0] == p[0]  # the system prompt is never cut
    user = fitted[1]["content"]
    # Both interfaces: ANSI header, and the non-ANSI port/parameter declarations.
    assert "module lza(input [7:0] a, output [7:0] y);" in user
    for line in (
        "module lza(a, y);",
        "  input [7:0] a;",
        "  parameter W = 8;",
        "  output [7:0] y;",
    ):
        assert line in user
    assert user.count("endmodule") == 2 and user.count("```verilog") == 3
    # Feedback and instruction intact; every section kept a part of its lines.
    tail = p[1]["content"][p[1]["content"].index("## Feedback from Previous Attempt") :]
    assert user.endswith(tail)
    assert "Spec line 0." in user and "wire w0 = a[0];" in user
    assert "lines omitted to fit the prompt budget" in user
    assert "lines of the specification omitted" in user
    # The largest share that fits: a slightly larger budget keeps more.
    more = fit_prompt(p, _chars, limit + 400)
    assert more is not None and _chars(fitted) < _chars(more) <= limit + 400


def test_fit_prompt_gives_up_when_the_fixed_parts_do_not_fit() -> None:
    p = build_prompt(_body("lza", 50), REF_PPA, "spec", "adp")
    assert fit_prompt(p, _chars, len(SYSTEM_PROMPT) + 50) is None


def test_fit_prompt_on_a_foreign_prompt_shortens_code_blocks_only() -> None:
    user = "Please rewrite:\n```verilog\n" + _body("x", 300).strip() + "\n```\nThanks."
    p = ({"role": "system", "content": "S"}, {"role": "user", "content": user})
    fitted = fit_prompt(p, _chars, 2000)
    assert fitted is not None and _chars(fitted) <= 2000
    text = fitted[1]["content"]
    assert text.startswith("Please rewrite:\n```verilog\nmodule x(") and text.endswith(
        "```\nThanks."
    )
