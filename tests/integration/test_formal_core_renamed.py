"""A whole core with an equivalent rename-and-reorder edit is proven at the default settings,
and the same edit with one comparison changed is refuted with a counterexample (issue 22):
picorv32's core (2,100 lines, 1,835 register bits), its registers renamed and a declaration
moved. Latch correspondence on the exact miter (:mod:`rtlopt.formal.engines.lcorr`) merges the
renamed registers by induction, where Yosys's structural proof ran past the limit.

Uses the picorv32 copy of the benchmark data (ISC, see its COPYING); the edit is made at run
time, nothing of the core is stored here."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.frontend import load_design
from rtlopt.results import FormalResult, Verdict
from tests.conftest import bench_path

pytestmark = [pytest.mark.tools, pytest.mark.slow]

UPSTREAM = bench_path() / "repos" / "picorv32" / "picorv32.v"
#: Registers of the core renamed (``reg_op1`` is also the ``pcpi_rs1`` output's net).
RENAMES = {
    "reg_op1": "op1_q",
    "reg_op2": "op2_q",
    "mem_wordsize": "wordsize_q",
    "latched_store": "store_latched",
    "cpu_state": "state_q",
    "decoded_imm": "imm_decoded",
}
MOVED = "\treg [31:0] irq_mask;\n"
AFTER = "\treg [31:0] timer;\n"


def renamed_core(text: str, *, broken: bool) -> str:
    """picorv32.v with the core's registers renamed and ``irq_mask`` declared after
    ``timer``; ``broken``: also ``<`` turned into ``<=`` in the unsigned comparison."""
    start = text.index("module picorv32 #(")
    end = text.index("endmodule", start)
    body = text[start:end]
    for old, new in RENAMES.items():
        assert re.search(rf"\b{old}\b", body), old
        body = re.sub(rf"\b{old}\b", new, body)
    assert body.count(MOVED) == 1 and body.count(AFTER) == 1
    body = body.replace(MOVED, "", 1).replace(AFTER, AFTER + MOVED, 1)
    if broken:
        old = "alu_ltu = op1_q < op2_q;"
        assert body.count(old) == 1
        body = body.replace(old, "alu_ltu = op1_q <= op2_q;")
    return text[:start] + body + text[end:]


def _check(tmp_path: Path, *, broken: bool) -> FormalResult:
    if not UPSTREAM.exists():
        pytest.skip(f"benchmark data not found: {UPSTREAM} (set RTLOPT_BENCH_PATH)")
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(UPSTREAM, repo / "picorv32.v")
    cand = tmp_path / "candidate.v"
    cand.write_text(renamed_core(UPSTREAM.read_text(), broken=broken))
    design = load_design(repo / "picorv32.v", "picorv32", ProjectConfig())
    return check_equivalence(design, [cand], tmp_path / "formal", FormalConfig())


def test_renamed_and_reordered_core_is_proven_at_the_default_settings(tmp_path: Path) -> None:
    res = _check(tmp_path, broken=False)
    assert res.verdict is Verdict.PROVEN, res
    assert "identical" not in res.method


def test_the_same_edit_with_a_changed_comparison_is_refuted(tmp_path: Path) -> None:
    res = _check(tmp_path, broken=True)
    assert res.verdict is Verdict.REFUTED, res
    assert res.counterexample, res
