"""A bug only one opcode reaches: plain random simulation passes it, biased stimulus rejects it.

The design (tests/data/stimulus/copro.v) starts a 6-cycle FSM on a 14-bit opcode/funct7
match of a 32-bit instruction, held while it runs; the broken copy flips a result bit for one
funct3. Real iverilog through the real evaluator (formal off, so simulation alone decides).
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from rtlopt.benchmark.mutants import generate_mutants
from rtlopt.benchmark.stimulus import judge_stimulus
from rtlopt.config import Config, EvalConfig, FormalConfig, ProjectConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.results import Stage, Status
from rtlopt.verilog import find_span
from tests.conftest import full_size

pytestmark = pytest.mark.tools

DATA = Path(__file__).resolve().parents[1] / "data" / "stimulus"


def _design(tmp_path: Path) -> Design:
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(DATA / "copro.v", repo / "copro.v")
    return load_design(repo / "copro.v", "copro", ProjectConfig())


def _only(text: str, name: str) -> str:
    span = find_span(text, name)
    assert span is not None
    return text[span.start : span.end] + "\n"


def _config(bias: bool) -> Config:
    base = Config()
    return dataclasses.replace(
        base,
        harness=dataclasses.replace(base.harness, bias_constants=bias),
        formal=FormalConfig(enabled=False),
        eval=EvalConfig(workers=1, cache=False, netlist_check="never"),
    )


def test_broken_opcode_path_passes_random_and_fails_biased(tmp_path: Path) -> None:
    design = _design(tmp_path)
    # the target module alone: a candidate may not carry the file's other modules (copro_dec)
    broken = _only((DATA / "copro_broken.v").read_text(), "copro")
    with Evaluator(design, _config(False), tmp_path / "plain") as ev:
        plain = ev.evaluate(broken)
    # plain random never issues the opcode: simulation passes (formal off: accepted)
    assert plain.status is Status.OK, plain.reason
    assert plain.sim is not None and plain.sim.passed
    with Evaluator(design, _config(True), tmp_path / "biased") as ev:
        biased = ev.evaluate(broken)
        same = ev.evaluate(_only(design.target.file.read_text(), "copro"))
        prov = ev.provenance()
    assert biased.status is Status.INVALID and biased.stage is Stage.SIMULATION
    assert biased.sim is not None and biased.sim.first_mismatch is not None
    assert biased.sim.first_mismatch.output == "y"
    assert same.status is Status.OK  # the reference itself still passes
    # the seed and the constant set are recorded with the result
    stim = prov["stimulus"]
    assert stim["seed"] == Config().harness.seed
    assert {"port": "insn", "slice": "[6:0]", "value": "0001011"} in stim["constants"]


@pytest.mark.slow  # tens of seconds: its module is scheduled first
def test_judge_keeps_the_set_that_kills_more_mutants(tmp_path: Path) -> None:
    design = _design(tmp_path)
    text = design.target.file.read_text()
    t = design.target
    # 4 mutants (one of each kind first): the broken opcode path decides the comparison; 10
    # only lengthened it (bench/long_tests.py keeps 10)
    count = 10 if full_size() else 4
    mutants = [m.text for m in generate_mutants("copro", text, count, 1, span=(t.start, t.end))]
    mutants.append(_only((DATA / "copro_broken.v").read_text(), "copro"))
    verdict = judge_stimulus(design, Config(), mutants, tmp_path / "judge")
    plain, more, biased = (verdict.score(n) for n in ("random", "random+", "biased"))
    assert plain.judged == biased.judged > 0
    # the broken opcode path is killed by the biased set only
    last = len(mutants) - 1
    assert last in biased.killed_ids and last not in plain.killed_ids
    assert last not in more.killed_ids
    assert biased.killed > max(plain.killed, more.killed)
    assert verdict.best.name == "biased"
    assert biased.stimulus["constants"] and not plain.stimulus["constants"]
