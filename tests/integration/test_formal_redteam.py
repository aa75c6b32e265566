"""Red-team cases for the sequential proof (wave 8): the exact miter with latch correspondence
first (:mod:`rtlopt.formal.engines.lcorr`) refutes what differs from reset, also registers
without reset that only power-up values would make equal; and cases the whole check wrongly
proved (``equiv_induct`` proves only that two designs do not diverge once their outputs
agreed for some cycles: it has no base case from reset), so it decides only with a reset and the
same registers on both sides (the reset state is then its base). The designs are in
``tests/data/formal_redteam/`` (each with a testbench showing the difference in iverilog)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.frontend import load_design
from rtlopt.results import FormalResult, Verdict

pytestmark = [pytest.mark.tools, pytest.mark.slow]

CASES = Path(__file__).resolve().parents[1] / "data" / "formal_redteam"


def _check(tmp_path: Path, case: str) -> FormalResult:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "t.v").write_text((CASES / case / "ref.v").read_text())
    design = load_design(repo / "t.v", "t", ProjectConfig())
    return check_equivalence(
        design, [CASES / case / "cand.v"], tmp_path / "formal", FormalConfig(timeout_s=120)
    )


def test_a_reset_value_seen_two_cycles_later_is_refuted_by_lcorr(tmp_path: Path) -> None:
    res = _check(tmp_path, "a_resetval")
    assert res.verdict is Verdict.REFUTED, res
    assert res.method == "abc lcorr; dprove", res


def test_a_register_without_reset_equal_only_from_zero_is_refuted(tmp_path: Path) -> None:
    res = _check(tmp_path, "k2_unreset")
    assert res.verdict is Verdict.REFUTED, res


@pytest.mark.parametrize("case", ["k_unreset", "k3_induct", "k4_glitch", "l_noreset"])
def test_registers_out_of_step_from_power_up_are_not_proven(tmp_path: Path, case: str) -> None:
    res = _check(tmp_path, case)
    assert res.verdict is not Verdict.PROVEN, res


def test_an_equivalent_reset_rewrite_is_still_proven(tmp_path: Path) -> None:
    """The check is not blind: ``if (!rst)`` with the branches swapped is the same design."""
    res = _check(tmp_path, "c_polarity")
    assert res.verdict is Verdict.PROVEN, res
