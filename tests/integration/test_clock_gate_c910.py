"""Clock-gate cells modelled as enables (issue 16, class 7), on a C910-style filelist project.

tests/data/clock_gate_c910: a ``-f`` list with ``${CODE_BASE_PATH}`` paths, a configuration
header first, C910's ``gated_clk_cell`` (latch open on the low clock phase ANDed with the clock;
an ``ifdef``-selected vendor cell otherwise) and a target whose registers are all clocked through
instances of it. The formal check rewrites registers behind such a gate into enabled registers
on the free clock (found by structure), so rewrites are proven; without it the reference's
gated clocks and latches leave every verdict unknown.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _fixture_repo import evaluate_json, fixture_repo, run_rtlopt

from rtlopt.config import load_config
from rtlopt.formal import check_equivalence
from rtlopt.formal.second import confirm_proof
from rtlopt.frontend import load_design
from rtlopt.results import FormalResult, Verdict

pytestmark = pytest.mark.tools

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "clock_gate_c910"
TARGET = "gen_rtl/lsu/rtl/ct_lsu_cnt.v"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return fixture_repo(FIXTURE, tmp_path / "c910", monkeypatch, tmp_path / "cache")


def test_inspect_finds_the_clock_behind_the_gate_cell(repo: Path) -> None:
    r = run_rtlopt(repo, "inspect", TARGET, "--json")
    assert r.returncode == 0, r.stderr[-500:]
    out = json.loads(r.stdout)
    assert out["clocks"] == ["forever_cpuclk"], out
    assert out["resets"] == {"cpurst_b": "low"}, out


def test_an_equivalent_rewrite_keeping_the_gate_cells_is_proven(repo: Path) -> None:
    # proven; still unchecked: its gate cells' enables are written in the connections
    # (`cnt_inc | cnt_clr` for the reference's wire), and the rule of simulation time 0
    # compares a cell holding a latch by its connections as written (fail closed: sources
    # alone let a value that changes otherwise at time 0 through)
    rc, out = evaluate_json(repo, TARGET, "candidates/ct_lsu_cnt_equiv.v")
    c = out["candidate"]
    assert c["formal"]["verdict"] == "proven", c  # type: ignore[index]
    assert rc == 1 and not out["accepted"], c
    # the cell's output clocks registers: its enable written otherwise is a clock derived
    # otherwise (round 63), or the cell compared by its connections (round 45)
    reason = c["reason"]  # type: ignore[index]
    assert "instance of gated_clk_cell" in reason or "waits for an edge of" in reason, c


def test_moving_the_gate_enables_into_the_registers_is_proven_twice(
    repo: Path, tmp_path: Path
) -> None:
    # the first proof models the gate cell as an enable, the second steps the latch and the
    # gated clock edge by edge (clk2fflogic): both prove the rewrite (the second proof once
    # stepped the gated registers on every clock edge and read a difference). The change is
    # still unchecked: from power-up, before the first reset, its registers (their enables
    # moved in) read x where the gated ones are written (the x-exact proof with the reset
    # free); and the gate cells' latches run on an event only, which the rule of simulation
    # time 0 does not follow inside the cell (fail closed)
    rc, out = evaluate_json(repo, TARGET, "candidates/ct_lsu_cnt_enable.v")
    c = out["candidate"]
    assert c["formal"]["method"] == "abc lcorr; dprove", c  # type: ignore[index]
    assert "proven x-exactly" in c["formal"]["reason"], c  # type: ignore[index]
    assert rc == 1 and not out["accepted"], c
    assert "differs before the first reset" in c["reason"], c  # type: ignore[index]
    cfg = load_config(repo / TARGET).config
    design = load_design(repo / TARGET, None, cfg.project)
    files = [repo / "gen_rtl/clk/rtl/gated_clk_cell.v", repo / "candidates/ct_lsu_cnt_enable.v"]
    first = FormalResult(Verdict.PROVEN, "abc lcorr; dprove", "")
    second = confirm_proof(design, files, tmp_path / "second", cfg.formal, first)
    assert second.agrees, second
    assert "(every clock edge)" in second.method, second


def test_the_second_proof_sees_the_gate_enables(repo: Path, tmp_path: Path) -> None:
    # a first proof that lies about the broken gate (its counter ignores the global enable):
    # the second proof finds the difference (stepping every register on the free clock, it
    # once saw no gate at all and agreed)
    cfg = load_config(repo / TARGET).config
    design = load_design(repo / TARGET, None, cfg.project)
    files = [repo / "gen_rtl/clk/rtl/gated_clk_cell.v", repo / "candidates/ct_lsu_cnt_broken.v"]
    fake = FormalResult(Verdict.PROVEN, "abc lcorr; dprove", "")
    second = confirm_proof(design, files, tmp_path / "second", cfg.formal, fake)
    assert not second.agrees and "found a difference" in second.reason, second


def test_the_vendor_configuration_leaves_a_rewrite_unchecked_by_default(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # without the fixture's statement, the CT_VENDOR_ICG build (a cell this tree lacks) is a
    # configuration rtlopt must prove and cannot: the rewrite is not accepted, and says why
    monkeypatch.setenv("RTLOPT_HARNESS__OTHER_CONFIGURATIONS", "check")
    rc, out = evaluate_json(repo, TARGET, "candidates/ct_lsu_cnt_equiv.v")
    c = out["candidate"]
    assert rc == 1 and not out["accepted"]
    assert "CT_VENDOR_ICG defined" in c["reason"], c  # type: ignore[index]


def test_broken_rewrite_is_rejected(repo: Path) -> None:
    rc, out = evaluate_json(repo, TARGET, "candidates/ct_lsu_cnt_broken.v")
    c = out["candidate"]
    assert rc == 1 and not out["accepted"]
    assert c["stage"] in ("simulation", "formal"), c  # type: ignore[index]


def test_a_gate_without_its_latch_is_not_a_clock_gate(repo: Path) -> None:
    rc, out = evaluate_json(repo, TARGET, "candidates/ct_lsu_cnt_glitchy.v")
    c = out["candidate"]
    assert rc == 1 and not out["accepted"]
    assert "clocked by data_clk" in str(c["formal"]["structure"]), c  # type: ignore[index]


def _formal(repo: Path, tmp_path: Path, cand: str) -> Verdict:
    cfg = load_config(repo / TARGET).config
    design = load_design(repo / TARGET, None, cfg.project)
    files = [repo / "gen_rtl/clk/rtl/gated_clk_cell.v", repo / cand]
    res = check_equivalence(design, files, tmp_path / Path(cand).stem, cfg.formal)
    assert not res.structure, res
    return res.verdict


def test_the_formal_check_itself_refutes_the_broken_gate(repo: Path, tmp_path: Path) -> None:
    # not only simulation: with the gates modelled as enables the miter finds the difference
    assert _formal(repo, tmp_path, "candidates/ct_lsu_cnt_broken.v") is Verdict.REFUTED
    assert _formal(repo, tmp_path, "candidates/ct_lsu_cnt_equiv.v") is Verdict.PROVEN
