"""Verdicts come only from channels a candidate cannot write, and no proof stands without its
non-vacuity checks (unit level: the parsers and the AIG model, no tools)."""

from __future__ import annotations

import pytest

from rtlopt.config import FormalConfig
from rtlopt.formal.aig import Aig
from rtlopt.formal.channel import MARK, first_marker, seal, sealed_phases
from rtlopt.formal.logparse import MiterRun, is_vacuous, miter_verdict, witness_problem
from rtlopt.formal.netlist import MiterSpec, Netlist, NotModelled
from rtlopt.formal.plan import FormalPlan
from rtlopt.formal.vacuity import NOT_RUN, aig_witness, count_problems, drivers_problem
from rtlopt.results import Verdict

SECRET = "0123456789abcdef"

#: Every line a hostile candidate may print with ``$display`` into the Yosys log.
FORGED = "\n".join(
    [
        f"{MARK} sat",
        "SAT proof finished - no model found: SUCCESS!",
        f"{MARK} induction",
        "Induction step proven: SUCCESS!",
        f"{MARK} witness",
        "SAT solving finished - model found:",
        "Equivalence successfully proven!",
        "Networks are equivalent",
        "Property proved",
        "Found and reported 0 problems.",
    ]
)

WITNESS_OK = "Solving problem with 10 variables\nSAT solving finished - model found:\n"
SAT_OK = "Solving problem\nSAT proof finished - no model found: SUCCESS!\n"


def _run(log: str, results: dict[str, str], rc: int = 0) -> MiterRun:
    return MiterRun(log, SECRET, rc, False, results)


def test_a_forged_log_proves_nothing_without_result_files() -> None:
    found = miter_verdict(_run(FORGED, {}), FormalPlan("comb"), FormalConfig(), 0.0)
    assert found is not None
    assert found.verdict is not Verdict.PROVEN
    seq = miter_verdict(_run(FORGED, {}), FormalPlan("seq", "", {}), FormalConfig(), 0.0)
    assert seq is not None and seq.verdict is not Verdict.PROVEN


def test_the_result_files_decide() -> None:
    ok = miter_verdict(
        _run(FORGED, {"sat": SAT_OK, "witness": WITNESS_OK}), FormalPlan("comb"), FormalConfig(), 0
    )
    assert ok is not None and ok.verdict is Verdict.PROVEN
    # a proof needs a clean exit of the tool as well
    crashed = miter_verdict(
        _run("", {"sat": SAT_OK, "witness": WITNESS_OK}, rc=1),
        FormalPlan("comb"),
        FormalConfig(),
        0,
    )
    assert crashed is None or crashed.verdict is not Verdict.PROVEN


def test_failure_markers_win() -> None:
    both = SAT_OK + "SAT proof finished - model found: FAIL!\n"
    found = miter_verdict(
        _run("", {"sat": both, "witness": WITNESS_OK}), FormalPlan("comb"), FormalConfig(), 0
    )
    assert found is not None and found.verdict is Verdict.REFUTED
    assert first_marker("ok FAIL", ("FAIL",), ("ok",)) == "fail"


def test_unsealed_markers_start_no_phase() -> None:
    text = f"a\n{MARK} read_candidate\nb\n{MARK}_{SECRET} sat\nc\n{MARK}_deadbeef bmc\nd\n"
    ph = sealed_phases(text, SECRET, frozenset({"read_candidate", "sat", "bmc"}))
    assert set(ph) == {"_start", "sat"}
    assert "read_candidate" in ph["_start"] and "deadbeef bmc" in ph["sat"]
    assert seal(f"log {MARK} sat\nlog x\n", SECRET) == f"log {MARK}_{SECRET} sat\nlog x\n"


def test_a_proof_without_a_witness_is_not_taken() -> None:
    none = "SAT solving finished - no model found.\n"
    vac = miter_verdict(
        _run("", {"sat": SAT_OK, "witness": none}), FormalPlan("comb"), FormalConfig(), 0
    )
    assert vac is not None and vac.verdict is Verdict.UNKNOWN and vac.structure
    missing = miter_verdict(_run("", {"sat": SAT_OK}), FormalPlan("comb"), FormalConfig(), 0)
    assert missing is not None and missing.verdict is Verdict.UNKNOWN
    assert is_vacuous(witness_problem(none)) and not is_vacuous(witness_problem(""))
    assert witness_problem(WITNESS_OK) == ""


CHECK_CLEAN = "Checking module top...\nFound and reported 0 problems.\n"
CHECK_TWO = (
    "Checking module gate...\n"
    "Warning: multiple conflicting drivers for gate.\\t [0]:\n"
    "    port Y[0] of cell $a ($mux)\n"
    "Warning: Wire gate.\\u [1] is used but has no driver.\n"
    "Found and reported 2 problems.\n"
    # Yosys's digest of warnings appended at exit: not counted again
    "Warning: multiple conflicting drivers for gate.\\t [0]:\n"
)


def test_drivers_are_counted_against_the_reference() -> None:
    # used nets without a driver are counted on the design before memory's clean-up
    # (rtlopt.formal.drivers), not from check
    assert count_problems(CHECK_TWO) == {"conflicting drivers": 1, "logic loops": 0}
    why = drivers_problem(CHECK_CLEAN, CHECK_TWO)
    assert "1 conflicting drivers (the reference has 0)" in why
    assert drivers_problem(CHECK_TWO, CHECK_TWO) == ""
    assert drivers_problem(CHECK_CLEAN, "") == NOT_RUN
    # a name cannot fake the summary line: lines end at "\n" only
    assert count_problems("Warning: x\vFound and reported 0 problems.") is None


def _gate(kind: str, a: int, b: int, y: int) -> dict[str, object]:
    return {"type": kind, "connections": {"A": [a], "B": [b], "Y": [y]}}


def test_the_aig_model_refuses_a_second_driver() -> None:
    mod = {
        "ports": {
            "a": {"direction": "input", "bits": [2]},
            "b": {"direction": "input", "bits": [3]},
            "y": {"direction": "output", "bits": [4]},
        },
        "cells": {"g1": _gate("$_AND_", 2, 3, 4), "g2": _gate("$_OR_", 2, 3, 4)},
    }
    with pytest.raises(NotModelled, match="more than one driver"):
        Netlist(mod, "candidate", MiterSpec("ref", "top", False))
    del mod["cells"]["g2"]  # type: ignore[attr-defined]
    assert Netlist(mod, "candidate", MiterSpec("ref", "top", False)).driver
    # a gate driving an input port is a second driver too
    mod["cells"] = {"g1": _gate("$_AND_", 2, 3, 2)}
    with pytest.raises(NotModelled, match="more than one driver"):
        Netlist(mod, "candidate", MiterSpec("ref", "top", False))


def test_a_proof_the_simulation_contradicts_is_caught() -> None:
    g = Aig()
    a, b = g.input("a"), g.input("b")
    g.output(g.and_(a, b))  # 1 on a quarter of the inputs: "proven" would be wrong
    assert "step 0" in aig_witness(g)
    h = Aig()
    x = h.input("x")
    h.output(h.and_(x, x ^ 1))  # constant 0: consistent with a proof
    assert aig_witness(h) == ""
