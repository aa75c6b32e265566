"""An asynchronous reset held active from time 0 without an event (round 61, wave 28): a
testbench's ``logic rst_n = 0;`` (a declaration initializer makes no event under
``-g2012``), or a top's port driven so. ``always_ff @(posedge clk or negedge rst_n)`` does
not run then: the register stays at its power-up value (x) until the first clock edge, where
the block runs with the reset active and resets it. Both x proofs modelled the reset with
``async2sync`` (the reset value at once, from step 0), so a candidate reading the reset into
an output was proven though iverilog gives the reference x where it gives 0: ``y = q &
rst_n`` for ``y = q`` (active low, q resets to 0) and ``y = rst ? 1 : q`` for ``y = q``
(active high, q resets to 1).

The x proofs now read every register with an asynchronous reset, set or load at its
power-up value in the first step where a free input says its reset was held without an
event (``formal/xfaith_held.py``; both readings compared, the rest of the logic sees the
reset's real value, the register's next state is ``async2sync``'s). On the Verilog path the
proof from reset finds the difference: **refuted** (real: iverilog shows it at time 0). On
the SystemVerilog view path the procedural views' proof runs from power-up only, where a
difference is no verdict: **unchecked**, named as at time 0 with the reset held. Controls:
rewrites that do not read the reset (a renamed register, the reset branch inverted) stay
accepted, and say that the time-0 reading was proven."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult

pytestmark = pytest.mark.tools

#: A package import in the header sends the SystemVerilog text through slang's views.
PKG = "package p;\n  localparam logic ONE = 1'b1;\nendpackage\n"

#: Active low, q resets to 0: the red team's e10.
LOW = (
    "module m(input clk, input rst_n, input d, output y);\n  reg q;\n"
    "  always @(posedge clk or negedge rst_n)\n    if (!rst_n) q <= 1'b0; else q <= d;\n"
    "  assign y = q;\nendmodule\n"
)
#: 0 at time 0 with rst_n held 0, where the reference's y is x.
LOW_AND = LOW.replace("assign y = q;", "assign y = q & rst_n;")
#: The same register under another name: it reads x at time 0 as the reference's.
LOW_RENAMED = LOW.replace("q", "st")
#: Active high, q resets to 1: the red team's f31.
HIGH = (
    "module m(input clk, input rst, input d, output y);\n  reg q;\n"
    "  always @(posedge clk or posedge rst)\n    if (rst) q <= 1'b1; else q <= d;\n"
    "  assign y = q;\nendmodule\n"
)
#: 1 at time 0 with rst held 1, where the reference's y is x.
HIGH_MUX = HIGH.replace("assign y = q;", "assign y = rst ? 1'b1 : q;")
#: The reset branch second: the same logic rewritten.
HIGH_INVERTED = HIGH.replace(
    "if (rst) q <= 1'b1; else q <= d;", "if (!rst) q <= d; else q <= 1'b1;"
)

#: What a refutation or an unchecked verdict says about the held reset.
HELD = "held without an event from time 0"


def _sv(module: str) -> str:
    """``module`` as SystemVerilog with a package import (read through the view)."""
    text = module.replace("module m(", "module m import p::*; (", 1)
    return text.replace("  reg q;", "  logic q;").replace("  reg st;", "  logic st;")


def _evaluator(factory: pytest.TempPathFactory, reference: str, sv: bool) -> Iterator[Evaluator]:
    d = factory.mktemp("w61")
    repo = d / "repo"
    repo.mkdir()
    base = Config()
    flow = dataclasses.replace(base.flow, systemverilog="slang") if sv else base.flow
    if sv:
        (repo / "p.sv").write_text(PKG)
    name = "m.sv" if sv else "m.v"
    (repo / name).write_text(_sv(reference) if sv else reference)
    harness = dataclasses.replace(base.harness, random_vectors=100, initial_values="ignore")
    cfg = dataclasses.replace(base, harness=harness, flow=flow)
    design = load_design(repo / name, "m", cfg.project)
    ev = Evaluator(design, cfg, d / "scratch", None)
    yield ev
    ev.close()


@pytest.fixture(scope="module")
def low_v(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Evaluator]:
    yield from _evaluator(tmp_path_factory, LOW, sv=False)


@pytest.fixture(scope="module")
def high_v(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Evaluator]:
    yield from _evaluator(tmp_path_factory, HIGH, sv=False)


@pytest.fixture(scope="module")
def low_sv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Evaluator]:
    yield from _evaluator(tmp_path_factory, LOW, sv=True)


@pytest.fixture(scope="module")
def high_sv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Evaluator]:
    yield from _evaluator(tmp_path_factory, HIGH, sv=True)


def _refuted_at_time_zero(res: EvalResult, reset: str, got: str) -> None:
    """``res`` is refuted by the x proof at time 0 (step 1) with ``reset`` held: the
    reference's y is x, the candidate's ``got``."""
    assert not res.accepted, res.reason
    assert res.reason.startswith("formally not equivalent"), res.reason
    assert f"{reset} {HELD}" in res.reason, res.reason
    assert "cycle=1, expected y=x, got y=" + got in res.reason, res.reason


def _unchecked_at_time_zero(res: EvalResult, reset: str) -> None:
    """``res`` is unchecked: the procedural views' proof from power-up found the time-0
    difference (no verdict from power-up: the repository sees it only where it holds the
    reset without an event)."""
    assert not res.accepted, res.reason
    assert res.reason.startswith("unchecked: "), res.reason
    assert "differs at time 0" in res.reason and f"{reset} {HELD}" in res.reason, res.reason


def _proven_at_time_zero(res: EvalResult) -> None:
    assert res.accepted, res.reason
    said = res.formal.reason if res.formal else ""
    assert "at time 0 with an asynchronous reset held without an event" in said, res


def test_an_active_low_reset_read_into_an_output_is_refuted(low_v: Evaluator) -> None:
    _refuted_at_time_zero(low_v.evaluate(LOW_AND), "rst_n", "0")


def test_an_active_high_reset_read_into_an_output_is_refuted(high_v: Evaluator) -> None:
    _refuted_at_time_zero(high_v.evaluate(HIGH_MUX), "rst", "1")


def test_rewrites_not_reading_the_reset_stay_accepted(low_v: Evaluator, high_v: Evaluator) -> None:
    _proven_at_time_zero(low_v.evaluate(LOW_RENAMED))
    _proven_at_time_zero(high_v.evaluate(HIGH_INVERTED))


def test_an_active_low_reset_read_into_an_output_is_unchecked_on_the_view(
    low_sv: Evaluator,
) -> None:
    _unchecked_at_time_zero(low_sv.evaluate(_sv(LOW_AND)), "rst_n")


def test_an_active_high_reset_read_into_an_output_is_unchecked_on_the_view(
    high_sv: Evaluator,
) -> None:
    _unchecked_at_time_zero(high_sv.evaluate(_sv(HIGH_MUX)), "rst")


def test_rewrites_not_reading_the_reset_stay_accepted_on_the_view(
    low_sv: Evaluator, high_sv: Evaluator
) -> None:
    _proven_at_time_zero(low_sv.evaluate(_sv(LOW_RENAMED)))
    _proven_at_time_zero(high_sv.evaluate(_sv(HIGH_INVERTED)))
