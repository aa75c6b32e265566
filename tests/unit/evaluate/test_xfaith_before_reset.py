"""The x-exact proof before the first reset (``evaluate/_xfaith.py``, round 52): a register
with a reset and no initial value is x from power-up until its first write; the proof from
power-up with the resets free runs first, and where it does not prove the candidate the
proof from reset tells a difference after the reset (its verdict) from one before it
("unchecked: differs before the first reset")."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from rtlopt.evaluate import _xfaith
from rtlopt.formal.xfaith import XFaith
from rtlopt.results import FormalResult, Verdict

PROVEN = FormalResult(Verdict.PROVEN, "sat -tempinduct")
EARLY = ("r[0]",)
#: An evaluation on the texts' path (the proof is trusted there), a candidate.
SETUP, CAND = SimpleNamespace(formal_reference="ref.v"), SimpleNamespace(x_inputs=())


def _proofs(mp: pytest.MonkeyPatch, free: XFaith, forced: XFaith) -> list[bool]:
    """:func:`_xfaith._proofs` with ``free`` and ``forced`` as the two runs; which ran."""
    ran: list[bool] = []

    def run(_s: Any, _c: Any, *, free_reset: bool = False, moot: bool = False) -> XFaith:
        ran.append(free_reset)
        return free if free_reset else forced

    mp.setattr(_xfaith, "_run", run)
    return ran


def test_a_proof_from_power_up_says_it_all(monkeypatch: pytest.MonkeyPatch) -> None:
    free = XFaith(Verdict.PROVEN, sources=(), early=EARLY, from_power_up=True)
    ran = _proofs(monkeypatch, free, XFaith(Verdict.PROVEN))
    out = _xfaith.with_inner_x(SETUP, CAND, PROVEN)  # type: ignore[arg-type]
    assert ran == [True]
    assert out.verdict is Verdict.PROVEN and "also before the first reset" in out.reason
    assert "r[0] before the first reset" in out.reason


def test_a_difference_before_the_first_reset_is_unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    cex = {"rst@1": "0", "y@1": "x"}
    free = XFaith(Verdict.REFUTED, counterexample=cex, sources=(), early=EARLY, from_power_up=True)
    forced = XFaith(Verdict.PROVEN, sources=(), early=EARLY)
    ran = _proofs(monkeypatch, free, forced)
    out = _xfaith.with_inner_x(SETUP, CAND, PROVEN)  # type: ignore[arg-type]
    assert ran == [True, False]
    assert out.verdict is Verdict.UNKNOWN and out.unchecked.startswith("unchecked: ")
    assert "differs before the first reset" in out.unchecked and "r[0]" in out.unchecked
    assert "counterexample from power-up, the reset free: rst@1=0" in out.unchecked


def test_a_difference_after_the_reset_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    free = XFaith(Verdict.REFUTED, counterexample={"a@2": "1"}, sources=("m",), early=EARLY)
    forced = XFaith(Verdict.REFUTED, counterexample={"a@2": "1"}, sources=("m",), early=EARLY)
    _proofs(monkeypatch, XFaith(**{**free.__dict__, "from_power_up": True}), forced)
    out = _xfaith.with_inner_x(SETUP, CAND, PROVEN)  # type: ignore[arg-type]
    assert out.verdict is Verdict.REFUTED and out.method == _xfaith.XFAITH_METHOD


def test_undecided_before_the_reset_is_unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    free = XFaith(Verdict.UNKNOWN, "the induction did not close", early=EARLY, from_power_up=True)
    _proofs(monkeypatch, free, XFaith(Verdict.PROVEN, sources=(), early=EARLY))
    out = _xfaith.with_inner_x(SETUP, CAND, PROVEN)  # type: ignore[arg-type]
    assert out.verdict is Verdict.UNKNOWN and "before the first reset" in out.unchecked
    assert "undecided: the induction did not close" in out.unchecked


def test_no_register_x_before_the_reset_keeps_the_proof_from_reset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # an initial value differing before the reset is no x: the proof from reset decides
    free = XFaith(Verdict.REFUTED, counterexample={"y@1": "1"}, sources=(), from_power_up=True)
    _proofs(monkeypatch, free, XFaith(Verdict.PROVEN, sources=()))
    out = _xfaith.with_inner_x(SETUP, CAND, PROVEN)  # type: ignore[arg-type]
    assert out == PROVEN


def test_a_difference_from_power_up_with_an_x_fed_reset_is_refuted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the repository feeds x into the reset (gate trial 52), its trace need never
    reset: the difference from power-up is the verdict, the proof from reset is not run."""
    cex = {"rst@1": "x", "q@2": "x"}
    free = XFaith(Verdict.REFUTED, counterexample=cex, sources=(), early=EARLY, from_power_up=True)
    ran = _proofs(monkeypatch, free, XFaith(Verdict.UNKNOWN, "the proof starts from reset"))
    setup = SimpleNamespace(design=SimpleNamespace(target=SimpleNamespace(resets=("rst",))))
    found, other = _xfaith._proofs(setup, SimpleNamespace(x_inputs=("rst", "d")))  # type: ignore[arg-type]
    assert ran == [True] and other is None
    assert found.verdict is Verdict.REFUTED and found.counterexample == cex
