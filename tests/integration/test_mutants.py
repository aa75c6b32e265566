"""Mutation analysis on a small sample: every non-equivalent mutant is rejected by the
simulation harness or the formal check (real iverilog/Yosys; bench/mutation_analysis.py runs
the full table)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from _harness_designs import LZA_DIR, RTLLM

from rtlopt.config import FormalConfig

pytestmark = pytest.mark.tools

_BENCH = Path(__file__).resolve().parents[2] / "bench" / "mutation_analysis.py"


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("rtlopt_mutation_analysis", _BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.skipif(not (RTLLM.exists() and LZA_DIR.exists()), reason="benchmarks not found")
def test_sampled_mutants_all_rejected() -> None:
    ma = _module()
    designs = ["lza", "counter_12", "comparator_4bit", "edge_detect", "adder_bcd"]
    outcomes = ma.run(designs, per_design=6, seed=3, workers=2,
                      formal_cfg=FormalConfig(timeout_s=20))
    assert len(outcomes) >= 25
    assert len({o.mutant.design for o in outcomes}) == 5
    kinds = {o.mutant.kind for o in outcomes}
    assert {"op_swap", "const"} <= kinds
    for o in outcomes:
        if o.verdict == "proven":  # an equivalent mutant: simulation must agree
            assert not o.sim_caught, (o.mutant.description, o.sim_reason)
            continue
        assert o.sim_caught or o.verdict == "refuted", (
            o.mutant.design, o.mutant.line, o.mutant.description, o.verdict, o.formal_reason)
        # a refuted verdict always comes with a counterexample-backed reason
        if o.verdict == "refuted":
            assert o.formal_reason
    assert sum(o.verdict != "proven" for o in outcomes) >= 20
