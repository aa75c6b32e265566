"""Mutation analysis on a small sample (bench/mutation_analysis.py runs the full table).

The ground truth is independent of the product (own testbench, exhaustive or deep simulation,
ABC on a miter); the product is rtlopt's Evaluator. Every mutant the ground truth calls
non-equivalent must be rejected by the product, and the "missed" column must come from outcomes
(an accepted non-equivalent mutant counts), not from arithmetic on other columns.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from _harness_designs import LZA_DIR, RTLLM

from rtlopt.results import EvalResult, FormalResult, Stage, Status, Verdict
from tests.conftest import full_size

pytestmark = [pytest.mark.tools, pytest.mark.slow]

_BENCH = Path(__file__).resolve().parents[2] / "bench" / "mutation_analysis.py"
#: an exhaustively simulated and a deeply simulated design (bench/long_tests.py, case mutants,
#: adds the C910 LZA and counter_12)
DESIGNS = (
    ("lza", "counter_12", "comparator_4bit", "edge_detect")
    if full_size()
    else ("comparator_4bit", "edge_detect")
)


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rtlopt_mutation_analysis", _BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def _args(ma: ModuleType, **kw: object) -> argparse.Namespace:
    """The bench script's own parser, so a new option cannot be missing here."""
    args = ma.build_parser().parse_args(
        [
            "--per-design=4",
            "--seed=3",
            "--cycles=20000",
            "--exhaustive-bits=16",
            "--abc-timeout=30",
            "--formal-timeout=30",
            "--pdk=nangate45",
        ]
    )
    for key, value in kw.items():
        setattr(args, key, value)
    return args


@pytest.mark.skipif(not (RTLLM.exists() and LZA_DIR.exists()), reason="benchmarks not found")
def test_sampled_mutants_judged_independently_and_rejected(tmp_path: Path) -> None:
    from rtlopt.pdk import resolve_pdk

    ma = _module()
    pdk = resolve_pdk("nangate45")
    runs = [ma.run_design(n, _args(ma), tmp_path, pdk) for n in DESIGNS]
    outcomes = [o for r in runs for o in r.outcomes]
    print({r.name: len(r.outcomes) for r in runs}, ma.count(outcomes))
    assert len(outcomes) >= 3 * len(DESIGNS) + 2
    for r in runs:  # the ground truth proves each reference equal to itself
        assert r.self_check.truth is ma.Truth.EQUIVALENT, (r.name, r.self_check)
    methods = {o.truth.method.split(" (")[0] for o in outcomes}
    assert {"exhaustive sim", "deep sim"} <= methods, methods
    nonequiv = [o for o in outcomes if o.truth.truth is ma.Truth.NON_EQUIVALENT]
    assert len(nonequiv) >= 3 * len(DESIGNS)
    for o in nonequiv:
        assert o.truth.detail.startswith("GT_MISMATCH"), o.truth  # a simulation witness
        assert not o.result.accepted, (o.mutant.design, o.mutant.description, o.result.reason)
    c = ma.count(outcomes)
    assert c["missed"] == 0
    assert sum(c[f"caught@{s.value}"] for s in ma.STAGES) + c["infra"] == len(nonequiv)
    assert "caught at formal" in ma.table(runs).splitlines()[0]


def _result(status: Status, stage: Stage, verdict: Verdict | None = None) -> EvalResult:
    formal = FormalResult(verdict, "test") if verdict else None
    return EvalResult(status=status, stage=stage, reward=0.1, formal=formal)


def test_missed_and_stage_columns_come_from_outcomes() -> None:
    ma = _module()
    accepted = _result(Status.OK, Stage.DONE, Verdict.PROVEN)
    unknown = _result(Status.INVALID, Stage.FORMAL, Verdict.UNKNOWN)
    accepted_unknown = _result(Status.OK, Stage.DONE, Verdict.UNKNOWN)
    at_sim = _result(Status.INVALID, Stage.SIMULATION)

    def outcome(truth: object, res: EvalResult, relaxed: EvalResult | None = None) -> object:
        m = ma.Mutant("d", "op_swap", 1, "", "x")
        return ma.Outcome(m, ma.GroundTruth(truth, "test"), res, relaxed or res, 0.0, 0.0)

    ne, eq, unk = ma.Truth.NON_EQUIVALENT, ma.Truth.EQUIVALENT, ma.Truth.UNKNOWN
    c = ma.count(
        [
            outcome(ne, accepted),
            outcome(ne, unknown, accepted_unknown),
            outcome(ne, at_sim),
            outcome(eq, unknown, accepted_unknown),
            outcome(unk, unknown, accepted_unknown),
        ]
    )
    assert c["missed"] == 1 and c["missed_relaxed"] == 2
    assert c["caught@formal"] == 1 and c["caught@simulation"] == 1
    assert c["equiv_rejected"] == 1 and c["equiv_accepted_relaxed"] == 1
    assert c["unknown_accepted"] == 0 and c["unknown_accepted_relaxed"] == 1
    # Stage columns follow the product's Stage enum (a new stage gets its own column).
    assert [s.value for s in ma.STAGES] == [s.value for s in Stage if s is not Stage.DONE]
