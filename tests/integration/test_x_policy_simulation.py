"""The X policy of the equivalence testbench, seen by simulation alone (formal off, no netlist
check, no synthesis): a candidate x where the reference is defined is a mismatch; a defined
candidate bit where the reference is x is a refinement (accepted, the default policy)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import Stage, Status

pytestmark = pytest.mark.tools

DEFINED = (
    "module m(input [3:0] a, input [3:0] b, output [4:0] y);\n  assign y = a + b;\nendmodule\n"
)
X_SOMETIMES = (
    "module m(input [3:0] a, input [3:0] b, output [4:0] y);\n"
    "  assign y = (a[0] & b[0]) ? 5'bxxxxx : a + b;\nendmodule\n"
)


def _evaluate(tmp_path: Path, reference: str, candidate: str) -> tuple[Status, Stage | None, str]:
    src = tmp_path / "m.v"
    src.write_text(reference)
    base = Config()
    cfg = dataclasses.replace(
        base,
        formal=dataclasses.replace(base.formal, enabled=False, require_proof=False),
        eval=EvalConfig(workers=1, cache=False, netlist_check="never"),
    )
    design = load_design(src, "m", cfg.project)
    with Evaluator(design, cfg, tmp_path / "eval", None) as ev:
        r = ev.evaluate(candidate)
    return r.status, r.stage, r.reason


def test_candidate_x_where_the_reference_is_defined_is_rejected_by_simulation(
    tmp_path: Path,
) -> None:
    status, stage, reason = _evaluate(tmp_path, DEFINED, X_SOMETIMES)
    assert status is Status.INVALID and stage is Stage.SIMULATION, (status, stage, reason)


def test_defined_candidate_where_the_reference_is_x_is_a_refinement(tmp_path: Path) -> None:
    status, stage, reason = _evaluate(tmp_path, X_SOMETIMES, DEFINED)
    assert status is Status.OK, (status, stage, reason)
