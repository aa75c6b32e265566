"""The texts as iverilog reads them on the SystemVerilog view path (round 69): simulation and
both proofs read slang's views there, and iverilog 11 reads some constructs otherwise than slang
(``foreach`` over a ``[7:0]`` array runs from 0 upward in iverilog, from 7 down in slang). A
``foreach`` rewrite of a descending ``for`` was accepted though iverilog, simulating the texts,
tells them apart. The candidate's text is now simulated against the reference's text with
iverilog in the equivalence testbench (``evaluate/_text_sim.py``); where iverilog cannot compile
the reference's text, the candidate's is simulated against the reference's view, and where it
compiles neither, the verdict's scope says so.

Since round 70 the screen refuses a descending ``foreach`` first (``rtlopt.harness.
_foreach_order``); the tests of the text simulation run with that rule off (``no_foreach_rule``)
and one checks the screen's refusal."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.evaluate._view import view_reason
from rtlopt.frontend import load_design
from rtlopt.harness import _readings
from rtlopt.results import EvalResult

pytestmark = pytest.mark.tools

#: A typedef'd cast: SystemVerilog Yosys 0.23 cannot read (the view path), iverilog can.
ENCODER = (
    "module tgt(input logic [7:0] a, output logic [3:0] y);\n"
    "  typedef logic [3:0] n_t;\n"
    "  always_comb begin\n"
    "    y = 4'hf;\n"
    "{loop}"
    "  end\n"
    "endmodule\n"
)
DOWN = ENCODER.format(loop="    for (int i = 7; i >= 0; i--)\n      if (a[i]) y = n_t'(i);\n")
#: slang runs it from 7 down (the reference), iverilog from 0 up (the highest set bit wins)
FOREACH = ENCODER.format(loop="    foreach (a[i])\n      if (a[i]) y = n_t'(i);\n")
#: the same encoder, upward, stopping at the first set bit: read alike by both
UP = ENCODER.format(
    loop="    for (int i = 0; i < 8; i++)\n      if (a[i] && y == 4'hf) y = n_t'(i);\n"
)
#: a streaming operator reverses the bits: iverilog 11 cannot compile it
STREAM = (
    "module tgt(input logic [7:0] a, output logic [3:0] y);\n"
    "  typedef logic [3:0] n_t;\n"
    "  logic [7:0] r;\n"
    "  assign r = {<<{a}};\n"
    "  always_comb begin\n"
    "    y = 4'hf;\n"
    "    for (int i = 0; i < 8; i++)\n"
    "      if (r[i]) y = n_t'(7 - i);\n"
    "  end\n"
    "endmodule\n"
)

REVERSE = "module tgt(input logic [7:0] a, output logic [7:0] y);\n{body}endmodule\n"
REV_STREAM = REVERSE.format(body="  assign y = {<<{a}};\n")
REV_STREAM1 = REVERSE.format(body="  assign y = {<<1{a}};\n")
REV_LOOP = REVERSE.format(body="  always_comb for (int i = 0; i < 8; i++) y[i] = a[7 - i];\n")
#: shifted in from the top: slang (7 down to 0) reverses, iverilog (0 up) keeps the order
REV_FOREACH = REVERSE.format(
    body="  always_comb begin\n    y = '0;\n    foreach (a[i]) y = {a[i], y[7:1]};\n  end\n"
)


def _evaluate(tmp: Path, ref: str, cand: str) -> EvalResult:
    repo = tmp / "repo"
    repo.mkdir(parents=True, exist_ok=True)
    (repo / "tgt.sv").write_text(ref)
    base = Config()
    cfg = dataclasses.replace(
        base,
        harness=dataclasses.replace(base.harness, random_vectors=100),
        eval=dataclasses.replace(base.eval, cache=False),
    )
    design = load_design(repo / "tgt.sv", "tgt", cfg.project)
    assert view_reason(design, cfg, tmp / "probe"), "the design is read through the view"
    with Evaluator(design, cfg, tmp / "scratch", None) as ev:
        return ev.evaluate(cand)


@pytest.fixture
def no_foreach_rule(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The screen without its ``foreach`` order rule: the text simulation behind it judges."""
    monkeypatch.setattr(_readings, "foreach_problems", lambda *_: [])
    _readings.reading_problems.cache_clear()
    yield
    _readings.reading_problems.cache_clear()


def test_the_screen_refuses_a_foreach_iverilog_runs_the_other_way(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, DOWN, FOREACH)
    assert not res.accepted and res.reason.startswith("rejected by screening"), res.reason
    assert "foreach (a[i])" in res.reason and "iterates [7:0]" in res.reason, res.reason


@pytest.mark.usefixtures("no_foreach_rule")
def test_a_foreach_iverilog_runs_the_other_way_is_rejected(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, DOWN, FOREACH)
    assert not res.accepted, res.reason
    assert res.reason.startswith("not equivalent in simulation of the text"), res.reason
    assert "iverilog reads it otherwise than synthesis" in res.reason
    assert "output y" in res.reason and "for inputs a=" in res.reason, res.reason
    # slang's views agree: the view simulation and the proof passed
    assert res.sim is not None and res.sim.passed
    assert res.formal is not None and res.formal.verdict.value == "proven"


def test_a_rewrite_iverilog_reads_alike_stays_accepted(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, DOWN, UP)
    assert res.accepted, res.reason
    assert "iverilog" not in res.scope, res.scope


def test_a_candidate_iverilog_cannot_compile_is_rejected(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, DOWN, STREAM)
    assert not res.accepted, res.reason
    assert res.reason.startswith("does not compile in iverilog as the reference's text does")
    assert "Streaming" in res.reason, res.reason


def test_a_reference_iverilog_cannot_compile_is_compared_with_its_view(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, REV_STREAM, REV_LOOP)
    assert res.accepted, res.reason
    assert "against the reference's view" in res.scope, res.scope


@pytest.mark.usefixtures("no_foreach_rule")
def test_a_candidate_read_otherwise_than_the_reference_view_is_rejected(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, REV_STREAM, REV_FOREACH)
    assert not res.accepted, res.reason
    assert res.reason.startswith("not equivalent in simulation of the text"), res.reason
    assert "otherwise than synthesis reads the reference" in res.reason, res.reason


def test_texts_iverilog_compiles_neither_of_are_noted(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, REV_STREAM, REV_STREAM1)
    assert res.accepted, res.reason
    assert "iverilog compiles neither" in res.scope, res.scope
