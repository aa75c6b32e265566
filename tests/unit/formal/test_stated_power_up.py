"""The proof from the stated power-up values, without tools: the netlist's initial values, the
miter that starts from them, and how the two power-up models combine into one verdict
(rtlopt.formal.power_up_models)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import FormalConfig
from rtlopt.formal import power_up_models
from rtlopt.formal.job import Job
from rtlopt.formal.miter import MiterSpec, NotModelled, build_miter
from rtlopt.formal.netlist import Netlist
from rtlopt.formal.plan import FormalPlan
from rtlopt.formal.second import power_up_models as second_models
from rtlopt.results import FormalResult, Verdict

SPEC = MiterSpec("g", "t", True, clocks=("clk",), stated_init=True)


def _toggle(init: Any, *, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """A module whose one register toggles every cycle; ``init``: its initial value."""
    attrs = {} if init is None else {"init": init}
    return {
        "ports": {
            "clk": {"direction": "input", "bits": [2]},
            "y": {"direction": "output", "bits": [3]},
        },
        "cells": {
            "ff": {"type": "$_DFF_P_", "connections": {"C": [2], "D": [4], "Q": [3]}},
            "inv": {"type": "$_NOT_", "connections": {"A": [3], "Y": [4]}},
        },
        "netnames": {"q": {"bits": [3], "attributes": attrs}, **(extra or {})},
    }


def test_initial_values_are_read_per_bit_least_significant_last() -> None:
    mod = _toggle("1")
    mod["netnames"]["w"] = {"bits": [3, 4], "attributes": {"init": "x1"}}
    mod["netnames"]["v"] = {"bits": [2, 3], "attributes": {"init": 2}}  # 2'b10: bit 1 is 1
    net = Netlist(mod, "reference", SPEC)
    assert net.init == {2: "0", 3: "1"}  # x states nothing (bit 4)
    with pytest.raises(NotModelled, match="two initial values"):
        Netlist(_toggle("1", extra={"w": {"bits": [3], "attributes": {"init": "0"}}}), "r", SPEC)
    with pytest.raises(NotModelled, match="another width"):
        Netlist(_toggle("10"), "reference", SPEC)
    # without stated_init nothing is read
    assert Netlist(_toggle("1"), "reference", replace(SPEC, stated_init=False)).init == {}


def test_a_stated_value_on_a_gate_output_is_not_modelled() -> None:
    mod = _toggle(None, extra={"d": {"bits": [4], "attributes": {"init": "1"}}})
    with pytest.raises(NotModelled, match="no register holds"):
        Netlist(mod, "reference", SPEC).stated_leaves()


def _differs(gold: Any, gate: Any, steps: int = 4) -> list[int]:
    miter = build_miter({"modules": {"g": _toggle(gold), "t": _toggle(gate)}}, SPEC)
    assert miter.exact and miter.inputs  # an input for ABC even without one of the design's
    return [row[0] for row in miter.aig.simulate([[0]] * steps)]


def test_the_miter_starts_from_the_stated_values() -> None:
    assert _differs("1", "1") == [0, 0, 0, 0]
    assert _differs("0", "1") == [1, 1, 1, 1]  # visible from the first cycle on
    # a reference register without a value is x: the X policy accepts any candidate value
    assert _differs(None, "1") == [0, 0, 0, 0]
    # a candidate register without one is x where the reference is defined: a difference
    assert _differs("1", None) == [1, 1, 1, 1]


def test_free_and_stated_power_up_values_mix_bit_by_bit() -> None:
    """With ``free_init`` too (after a counterexample of x pessimism): a stated bit starts
    from its value, a bit without one from a free value shared with its pair (not exact)."""
    spec = replace(SPEC, free_init=True)

    def differs(gold: Any, gate: Any, value: int) -> list[int]:
        miter = build_miter({"modules": {"g": _toggle(gold), "t": _toggle(gate)}}, spec)
        assert not miter.exact
        return [row[0] for row in miter.aig.simulate([[value] * len(miter.inputs)] * 4)]

    for value in (0, 1):
        assert differs("1", "1", value) == [0, 0, 0, 0]
        assert differs("0", "1", value) == [1, 1, 1, 1]  # stated values are kept
        assert differs(None, None, value) == [0, 0, 0, 0]  # paired: one free value
    # a stated candidate bit against a free reference one: different for one free value
    assert differs(None, "1", 0) == [1, 1, 1, 1] and differs(None, "1", 1) == [0, 0, 0, 0]


def _job(tmp_path: Path, *, honor: bool) -> Job:
    plan = FormalPlan("bmc", stated=("q in m",), honor=honor)
    design: Any = None
    return Job(design, tmp_path / "ref.v", [], plan, FormalConfig(timeout_s=10.0), None, [], 0.0)


PROVEN = FormalResult(Verdict.PROVEN, "abc dprove", "")
REFUTED = FormalResult(Verdict.REFUTED, "abc dprove", "differ", {"cycle": "0"})
UNKNOWN = FormalResult(Verdict.UNKNOWN, "abc dprove", "timed out")


@pytest.mark.parametrize(
    ("first", "second", "verdict", "models", "unchecked"),
    [
        (PROVEN, PROVEN, Verdict.PROVEN, ("unknown", "stated"), False),
        (PROVEN, REFUTED, Verdict.REFUTED, (), False),  # a refutation from either refutes
        (REFUTED, PROVEN, Verdict.REFUTED, (), False),
        (PROVEN, UNKNOWN, Verdict.UNKNOWN, (), True),  # undecided: unchecked (fail closed)
        (UNKNOWN, PROVEN, Verdict.UNKNOWN, (), True),
    ],
)
def test_under_ignore_both_models_must_prove(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    first: FormalResult,
    second: FormalResult,
    verdict: Verdict,
    models: tuple[str, ...],
    unchecked: bool,
) -> None:
    calls: list[str] = []

    def stated(job: Job, **_: Any) -> FormalResult:
        calls.append("stated")
        return second

    def unknown(job: Job) -> FormalResult:
        calls.append("unknown")
        # the proof from unknown registers leaves the stated one its share of the limit
        assert job.cfg.timeout_s == pytest.approx(10.0 * (1 - power_up_models.STATED_SHARE))
        return first

    monkeypatch.setattr(power_up_models.stated, "run", stated)
    found = power_up_models.decide_stated(_job(tmp_path, honor=False), unknown)
    assert found.verdict is verdict, found
    assert found.power_up == models
    assert bool(found.unchecked) == unchecked, found
    # the stated proof runs only after a proof from unknown registers
    assert calls == (["unknown", "stated"] if first is PROVEN else ["unknown"])


@pytest.mark.parametrize("second", [PROVEN, REFUTED, UNKNOWN])
def test_under_honor_the_stated_model_alone_decides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, second: FormalResult
) -> None:
    def unknown(job: Job) -> FormalResult:
        raise AssertionError("not under honor")

    monkeypatch.setattr(power_up_models.stated, "run", lambda job, **_: second)
    found = power_up_models.decide_stated(_job(tmp_path, honor=True), unknown)
    assert found.verdict is second.verdict
    assert found.power_up == (("stated",) if second is PROVEN else ())


def test_the_second_proof_covers_the_models_the_first_accepted_under() -> None:
    assert second_models(FormalPlan("seq")) == ("unknown",)
    assert second_models(FormalPlan("seq", stated=("q in m",))) == ("unknown", "stated")
    assert second_models(FormalPlan("seq", stated=("q in m",), honor=True)) == ("stated",)


def test_a_two_state_variable_is_not_proven_from_stated_values(tmp_path: Path) -> None:
    """``bit c;`` starts at 0 in every simulator, but Yosys gives it no initial value: the
    proof from the stated values would start it unknown (and accept any candidate value
    there), so under honor the plan fails closed; under ignore the text rule names it."""
    from rtlopt.config import ProjectConfig
    from rtlopt.formal.plan import plan_formal
    from rtlopt.frontend import load_design
    from rtlopt.harness import power_up_difference

    text = (
        "module m(input logic clk, output logic [7:0] y);\n  bit [7:0] c;\n"
        "  always_ff @(posedge clk) c <= c + 8'd1;\n  assign y = c;\nendmodule\n"
    )
    (tmp_path / "m.sv").write_text(text)
    d = load_design(tmp_path / "m.sv", "m", ProjectConfig(), root=tmp_path)
    plan = plan_formal(d, [text], initial_values="honor")
    assert plan.mode == "unsupported" and "2-state" in plan.reason, plan
    assert "2-state" in power_up_difference(text, text, hierarchy=["m"])
