"""Two clock inputs with a clock-gate cell between them (issue 22, C910's write-table entry
style): a control clock gated outside and a free-running clock gated inside by a latch-based
gate cell instantiated as a module. The gate becomes an enable of the free clock's registers,
and both clocks are inputs of Yosys's clk2fflogic model (their edges in any order or
together), so a renamed and reordered rewrite is proven and a broken one refuted (real Yosys
and yosys-abc)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.formal.plan import plan_formal
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.results import FormalResult, Verdict
from tests.acceptance.runner import FIXTURES, fixture_file

pytestmark = pytest.mark.tools

#: the acceptance fixture repository fx_clockgate and its case's rewrites (one copy for both)
DATA = FIXTURES / "fx_clockgate" / "rtl"


def _design(tmp_path: Path) -> Design:
    repo = tmp_path / "repo"
    repo.mkdir()
    for name in ("gated_clk_cell.v", "wtab_entry.v"):
        (repo / name).write_text((DATA / name).read_text())
    return load_design(repo / "wtab_entry.v", "wtab_entry", ProjectConfig())


def _check(tmp_path: Path, d: Design, name: str, timeout: float) -> FormalResult:
    cand = fixture_file("fx_clockgate", name, tmp_path / f"wtab_entry_{name}.v")
    files = [d.root / "gated_clk_cell.v", cand]
    return check_equivalence(d, files, tmp_path / name, FormalConfig(timeout_s=timeout))


def test_two_clocks_with_a_gate_cell_between_them_are_checked(tmp_path: Path) -> None:
    d = _design(tmp_path)
    plan = plan_formal(d, [])
    assert plan.mode == "seq" and plan.clk2fflogic, plan
    res = _check(tmp_path, d, "equiv", 120)
    assert res.verdict is Verdict.PROVEN, res
    res = _check(tmp_path, d, "broken", 60)
    assert res.verdict is Verdict.REFUTED, res
    assert "ctrl_clk@0" in res.counterexample and "free_clk@0" in res.counterexample


TWO = """module two(input ca, input cb, input rst, input [3:0] d, output reg [3:0] qa,
           output reg [3:0] qb);
  always @(posedge ca) if (rst) qa <= 4'd0; else qa <= qa + d;
  always @(posedge cb) if (rst) qb <= 4'd0; else qb <= qa ^ qb;
endmodule
"""


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        # the second register moved to the other clock: equal whenever both clocks tick
        # together, different when they do not
        ("moved", "always @(posedge cb)", "always @(posedge ca)"),
        # a state-only difference in the second domain
        ("broken", "qb <= qa ^ qb;", "qb <= qa ^ qb ^ {3'd0, d[0]};"),
    ],
)
def test_two_independent_clocks_are_never_proven_wrong(
    tmp_path: Path, name: str, old: str, new: str
) -> None:
    (tmp_path / "two.v").write_text(TWO)
    d = load_design(tmp_path / "two.v", "two", ProjectConfig())
    cand = tmp_path / f"{name}.v"
    assert old in TWO
    cand.write_text(TWO.replace(old, new))
    res = check_equivalence(d, [cand], tmp_path / "formal", FormalConfig(timeout_s=30))
    assert res.verdict is not Verdict.PROVEN, res
