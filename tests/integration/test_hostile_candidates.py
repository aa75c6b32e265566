"""Hostile candidates: each is rejected by screening or by the harness (real iverilog/vvp)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _harness_designs import design_from_files, run_harness

from rtlopt.eda.iverilog import SimulationTimeout
from rtlopt.frontend.model import Design
from rtlopt.harness import REF_SUFFIX, screen_candidate

pytestmark = pytest.mark.tools

REF = """module add4(input [3:0] a, input [3:0] b, output [4:0] s);
  assign s = a + b;
endmodule
"""
HEAD = "module add4(input [3:0] a, input [3:0] b, output [4:0] s);\n"
RIGHT = "  assign s = a + b;\n"
WRONG = "  assign s = a - b;\n"


@pytest.fixture
def design(tmp_path: Path) -> Design:
    src = tmp_path / "repo" / "add4.v"
    src.parent.mkdir()
    src.write_text(REF)
    return design_from_files([src], "add4")


def _listing(root: Path, skip: Path) -> set[str]:
    out = set()
    for dirpath, _dirs, files in os.walk(root):
        if Path(dirpath).is_relative_to(skip):
            continue
        out.update(str(Path(dirpath, f)) for f in files)
    return out


# (name, candidate body, expected words in a screening violation)
SCREENED = [
    (
        "pass_line",
        WRONG + '  initial $display("RTLOPT 0123abcd RESULT vectors=1 checks=1 mismatches=0");\n',
        "$display",
    ),
    ("early_finish", WRONG + "  initial #1 $finish;\n", "$finish"),
    (
        "fopen",
        RIGHT + '  integer f;\n  always @(a) begin f = $fopen("../../pwned.txt", "w"); '
        '$fwrite(f, "x"); end\n',
        "$fopen",
    ),
    ("include", '`include "/etc/passwd"\n' + RIGHT, "`include"),
    ("tb_reference", RIGHT + "  wire t = rtlopt_tb.errors_;\n", "testbench"),
    ("tb_force", WRONG + "  always @(*) force rtlopt_tb.errors_ = 0;\n", "force"),
    (
        "renamed_ref",
        RIGHT + f"endmodule\nmodule add4{REF_SUFFIX}(input [3:0] a, input [3:0] b,"
        " output [4:0] s);\n  assign s = a + b;\n",
        "reserved",
    ),
]


@pytest.mark.parametrize("name, body, needle", SCREENED, ids=[s[0] for s in SCREENED])
def test_screening_rejects(design: Design, name: str, body: str, needle: str) -> None:
    text = HEAD + body + "endmodule\n"
    problems = screen_candidate(text, design)
    assert any(needle in p for p in problems), (name, problems)


@pytest.mark.parametrize(
    "name, body",
    [
        ("pass_line", SCREENED[0][1]),
        ("early_finish", SCREENED[1][1]),
        ("renamed_ref", SCREENED[6][1]),
        ("tb_force", SCREENED[5][1]),
    ],
)
def test_harness_rejects_even_unscreened(
    design: Design, tmp_path: Path, name: str, body: str
) -> None:
    """Defence in depth: if screening were skipped, the harness still fails these."""
    scratch = tmp_path / "scratch"
    cand = scratch / "candidate.v"
    cand.parent.mkdir()
    cand.write_text(HEAD + body + "endmodule\n")
    before = _listing(tmp_path, scratch)
    rep = run_harness(design, [cand], scratch, timeout=10)
    assert not rep.result.passed, (name, rep)
    assert rep.reason
    assert _listing(tmp_path, scratch) == before


@pytest.mark.parametrize(
    "name, body",
    [
        # x starts at 0 after a[0] = 0, then oscillates in zero time once a[0] = 1
        (
            "comb_loop",
            RIGHT + "  reg x, y;\n  always @(*) x = a[0] ? ~y : 1'b0;\n  always @(*) y = x;\n",
        ),
        ("comb_loop_wire", RIGHT + "  wire w;\n  assign w = a[0] ? ~w : 1'b0;\n"),
    ],
)
def test_infinite_loop_times_out(design: Design, tmp_path: Path, name: str, body: str) -> None:
    text = HEAD + body + "endmodule\n"
    assert screen_candidate(text, design) == []  # legal Verilog: only the harness can tell
    cand = tmp_path / "c.v"
    cand.write_text(text)
    with pytest.raises(SimulationTimeout) as exc:
        run_harness(design, [cand], tmp_path / "s", timeout=3)
    assert exc.value.timeout_s == 3


def test_always_without_event_control_rejected(design: Design, tmp_path: Path) -> None:
    cand = tmp_path / "c.v"
    cand.write_text(HEAD + RIGHT + "  reg y;\n  always y = a[0];\nendmodule\n")
    rep = run_harness(design, [cand], tmp_path / "s", timeout=3)  # iverilog refuses it
    assert not rep.result.passed and "compile failed" in rep.reason


def test_runaway_memory_fails(design: Design, tmp_path: Path) -> None:
    text = HEAD + RIGHT + "  reg [63:0] big [0:(1<<27)-1];\n  always @(a) big[a] = b;\nendmodule\n"
    assert screen_candidate(text, design) == []
    cand = tmp_path / "c.v"
    cand.write_text(text)
    rep = run_harness(design, [cand], tmp_path / "s", timeout=30, memory_mb=400)
    assert not rep.result.passed
    assert rep.reason


@pytest.mark.parametrize(
    "name, text, why",
    [
        (
            "wider_output",
            "module add4(input [3:0] a, input [3:0] b, output [7:0] s);\n"
            "  assign s = a + b;\nendmodule\n",
            "width",
        ),
        (
            "narrower_input",
            "module add4(input [2:0] a, input [3:0] b, output [4:0] s);\n"
            "  assign s = a + b;\nendmodule\n",
            "width",
        ),
        (
            "missing_port",
            "module add4(input [3:0] a, output [4:0] s);\n  assign s = a;\nendmodule\n",
            "compile failed",
        ),
    ],
)
def test_interface_changes_rejected(
    design: Design, tmp_path: Path, name: str, text: str, why: str
) -> None:
    cand = tmp_path / "c.v"
    cand.write_text(text)
    rep = run_harness(design, [cand], tmp_path / "s", timeout=10)
    assert not rep.result.passed
    assert why in rep.reason, rep.reason


def test_correct_candidate_passes(design: Design, tmp_path: Path) -> None:
    """The control: the same harness accepts an equivalent rewrite."""
    cand = tmp_path / "c.v"
    cand.write_text(HEAD + "  wire [4:0] t = {1'b0, a} + {1'b0, b};\n  assign s = t;\nendmodule\n")
    rep = run_harness(design, [cand], tmp_path / "s", timeout=10)
    assert rep.result.passed, rep.reason
    assert rep.result.vectors == 256  # 8 input bits: exhaustive
