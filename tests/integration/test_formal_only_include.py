"""A header only the formal build includes (ibex's ```ifdef FORMAL `ifdef YOSYS `include
"formal_tb_frag.svh"``, a file its formal flow generates) is looked for like any other: a
``FORMAL`` branch is verification code only where its own content is (no instances, macros or
includes: ``harness/_verification_content.py``), and a header nobody can read is not known to
be. A header found nowhere leaves the change unchecked under ``FORMAL`` as under any other
macro; where the header is there, the change reaches the proof (a broken rewrite is not
equivalent)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult


def _evaluate(tmp: Path, files: dict[str, str], target: str, candidate: str) -> EvalResult:
    """The candidate judged on the SystemVerilog view path (ibex's)."""
    repo = tmp / "repo"
    repo.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (repo / name).write_text(text)
    base = Config()
    cfg = dataclasses.replace(
        base,
        harness=dataclasses.replace(base.harness, sim_timeout_s=20.0, random_vectors=100),
        formal=dataclasses.replace(base.formal, timeout_s=60.0),
        flow=dataclasses.replace(base.flow, systemverilog="slang"),
    )
    design = load_design(repo / target, None, cfg.project)
    with Evaluator(design, cfg, tmp / "scratch", None) as ev:
        return ev.evaluate(candidate)


REF = """module m(input clk, input rst_n, input [7:0] a, output reg [7:0] y);
  always @(posedge clk or negedge rst_n) if (!rst_n) y <= 8'd0; else y <= a + 8'd1;
`ifdef FORMAL
  `ifdef YOSYS
    `include "formal_tb_frag.svh"
  `endif
`endif
endmodule
"""
CAND = """module m(input clk, input rst_n, input [7:0] a, output reg [7:0] y);
  always @(posedge clk or negedge rst_n) if (!rst_n) y <= 8'd0; else y <= 8'd1 + a;
endmodule
"""


#: The same rewrite keeping the ``FORMAL`` branch as the repository has it (a branch that is
#: not verification code may not be dropped).
KEPT = REF.replace("y <= a + 8'd1", "y <= 8'd1 + a")
assert KEPT != REF

#: The header the formal flow would generate, present in the repository.
FRAG = "  always @(posedge clk) if (rst_n) assert (y == y);\n"


@pytest.mark.tools
def test_a_header_only_the_formal_build_includes(tmp_path: Path) -> None:
    """Not provably verification code: what the missing header holds is unknown (an instance,
    a macro, a force), so the change is unchecked rather than accepted (fail closed)."""
    res = _evaluate(tmp_path, {"m.sv": REF}, "m.sv", KEPT)
    assert not res.accepted and "formal_tb_frag.svh" in res.reason, res.reason
    assert "not found" in res.reason, res.reason


@pytest.mark.tools
def test_a_header_found_nowhere_under_another_macro(tmp_path: Path) -> None:
    ref = REF.replace("`ifdef FORMAL", "`ifdef USER_CHECKS")
    res = _evaluate(tmp_path, {"m.sv": ref}, "m.sv", CAND)
    assert not res.accepted and "not found" in res.reason, res.reason


@pytest.mark.tools
def test_a_header_of_formal_when_a_build_defines_it(tmp_path: Path) -> None:
    files = {"m.sv": REF, "Makefile": "sim:\n\tiverilog -DFORMAL m.sv\n"}
    res = _evaluate(tmp_path, files, "m.sv", CAND)
    assert not res.accepted and "not found" in res.reason, res.reason


@pytest.mark.tools
def test_a_broken_rewrite_beside_a_formal_header_is_rejected(tmp_path: Path) -> None:
    """With the header there, the rewrite reaches the proof, which finds it wrong (not a
    rejection for the missing header)."""
    files = {"m.sv": REF, "formal_tb_frag.svh": FRAG}
    res = _evaluate(tmp_path, files, "m.sv", KEPT.replace("8'd1 + a", "8'd2 + a"))
    assert not res.accepted and "not equivalent" in res.reason, res.reason
