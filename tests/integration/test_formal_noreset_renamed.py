"""Registers without reset, renamed and reordered, paired by function (issue 22, darkriscv's
UART style): bits that one next-state class holds several of per side (the always-zero bits of
a status register, a divisor register that only holds its power-up value) are paired one to
one by what they show on the outputs, so the proof from every paired power-up state holds
(real Yosys and yosys-abc)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.formal.regcorr import match_classes
from rtlopt.frontend import load_design
from rtlopt.results import FormalResult, Verdict
from tests.acceptance.runner import FIXTURES, fixture_file

pytestmark = pytest.mark.tools

#: the acceptance fixture repository fx_noreset and its case's rewrites (one copy for both)
UART = FIXTURES / "fx_noreset" / "rtl" / "uartlite.v"


def _check(tmp_path: Path, name: str, timeout: float) -> FormalResult:
    d = load_design(UART, "uartlite", ProjectConfig())
    cand = fixture_file("fx_noreset", name.removeprefix("uartlite_"), tmp_path / f"{name}.v")
    return check_equivalence(d, [cand], tmp_path / name, FormalConfig(timeout_s=timeout))


def test_renamed_registers_without_reset_are_proven_from_every_power_up(tmp_path: Path) -> None:
    res = _check(tmp_path, "uartlite_equiv", 120)
    assert res.verdict is Verdict.PROVEN, res
    assert "free power-up state" in res.method
    assert "71 of 71 reference register bits paired" in res.reason, res


def test_a_changed_acknowledge_is_never_proven(tmp_path: Path) -> None:
    res = _check(tmp_path, "uartlite_broken", 10)
    assert res.verdict is not Verdict.PROVEN, res


class _Net:
    """Two registers q1, q2 that only hold their values; output o = {q2, q1}."""

    def __init__(self, q1: int, q2: int, swap: bool) -> None:
        self.inputs: dict[str, list[int | str]] = {}
        self.driver: dict[int | str, tuple[str, list[int | str]]] = {
            q1 + 10: ("$_BUF_", [q1]),
            q2 + 10: ("$_BUF_", [q2]),
        }
        self.ffs: list[tuple[int | str, int | str]] = [(q1 + 10, q1), (q2 + 10, q2)]
        self.outputs: dict[str, list[int]] = {"o": [q2, q1] if swap else [q1, q2]}


def test_hold_registers_of_one_class_pair_by_what_the_outputs_show() -> None:
    gold, gate = _Net(1, 2, swap=False), _Net(1, 2, swap=True)
    one = [[((0, 1), 0), ((0, 2), 0), ((1, 1), 0), ((1, 2), 0)]]
    pairs = {frozenset(m[0] for m in c) for c in match_classes(gold, gate, one)}
    # output bit 0 is q1 in the reference and q2 in the candidate
    assert pairs == {frozenset({(0, 1), (1, 2)}), frozenset({(0, 2), (1, 1)})}


def test_bits_of_one_class_keep_their_names_when_the_rewrite_kept_them() -> None:
    gold, gate = _Net(1, 2, swap=False), _Net(1, 2, swap=False)
    gold.outputs = gate.outputs = {}  # nothing to tell them apart but their names
    gold.names = {1: "rf[0]", 2: "rf[1]"}  # type: ignore[attr-defined]
    gate.names = {1: "rf[1]", 2: "rf[0]"}  # type: ignore[attr-defined]
    one = [[((0, 1), 0), ((0, 2), 0), ((1, 1), 0), ((1, 2), 0)]]
    pairs = {frozenset(m[0] for m in c) for c in match_classes(gold, gate, one)}
    assert pairs == {frozenset({(0, 1), (1, 2)}), frozenset({(0, 2), (1, 1)})}
