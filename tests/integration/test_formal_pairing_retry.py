"""The paired engine pairs once more by name and simulation when the pairing by next-state
function fails: picorv32's iterative multiplier rewritten (renamed registers, operands
commuted) is proven that way, and the proof states the pairing that was used.

Uses the picorv32 copy of the benchmark data (ISC, see its COPYING) and the equivalent
rewrite of tests/acceptance/cases, applied at run time; nothing of it is stored here."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.frontend import load_design
from rtlopt.results import FormalResult, Verdict
from tests.acceptance.edits import apply_edit
from tests.acceptance.runner import CASES
from tests.conftest import bench_path

pytestmark = [pytest.mark.tools, pytest.mark.slow]  # picorv32's core, tens of seconds each

CASE = CASES / "picorv32" / "picorv32_pcpi_mul"
UPSTREAM = bench_path() / "repos" / "picorv32" / "picorv32.v"


def _apply(edit: Path, base: Path) -> str:
    return apply_edit(edit.read_text(), base.read_bytes())


def _check(tmp_path: Path) -> FormalResult:
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(UPSTREAM, repo / "picorv32.v")
    cand = tmp_path / "equiv.v"
    cand.write_text(_apply(CASE / "equiv.edit", UPSTREAM))
    design = load_design(repo / "picorv32.v", "picorv32_pcpi_mul", ProjectConfig())
    return check_equivalence(design, [cand], tmp_path / "formal", FormalConfig(timeout_s=60))


@pytest.mark.skipif(not UPSTREAM.exists(), reason="picorv32 benchmark copy not found")
def test_iterative_multiplier_with_renamed_registers_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    res = _check(tmp_path)
    assert res.verdict is Verdict.PROVEN, res
    # the multiplier has no reset: the proof is from a free power-up state of paired registers
    # (or, where that engine is not used, from the paired registers alone)
    assert res.method in (
        "abc dprove (registers paired)",
        "abc scorr (registers paired)",
        "abc dprove (free power-up state)",
    ), res
    assert "paired" in res.reason, res.reason


@pytest.mark.skipif(not UPSTREAM.exists(), reason="picorv32 benchmark copy not found")
def test_a_failing_pairing_by_function_is_followed_by_pairing_by_simulation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the compared constants, the first pairing by next-state function once paired
    the operand registers wrongly and only the second pairing (by name and simulation) proved
    it. Since the classes are split one to one (issue 22), either pairing proves it; the proof
    must still come, and say how the registers were paired."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr("rtlopt.formal.prepare.miter_constants", lambda design: ())
    res = _check(tmp_path)
    assert res.verdict is Verdict.PROVEN, res
    assert "by next-state function" in res.reason and "paired" in res.reason
