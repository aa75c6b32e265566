"""The structure netlist (29 MB on picorv32's core) is parsed once per version in a check:
every engine's result goes through the clock/reset structure check, and the structural
proof's base-case test reads the same analysis (``Job.clocking``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rtlopt.formal.structure as structure
from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.frontend import load_design
from rtlopt.results import Verdict

pytestmark = pytest.mark.tools

CASES = Path(__file__).resolve().parents[2] / "data" / "formal_redteam"


@pytest.mark.parametrize("abc", [True, False])  # latch correspondence first, or structural
def test_the_structure_netlist_is_parsed_once_per_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, abc: bool
) -> None:
    parsed: list[int] = []
    real = structure.read_clocking

    def spy(text: str, modules: Any) -> Any:
        parsed.append(len(text))
        return real(text, modules)

    monkeypatch.setattr(structure, "read_clocking", spy)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "t.v").write_text((CASES / "c_polarity" / "ref.v").read_text())
    design = load_design(repo / "t.v", "t", ProjectConfig())
    res = check_equivalence(
        design,
        [CASES / "c_polarity" / "cand.v"],
        tmp_path / "formal",
        FormalConfig(timeout_s=60, abc=abc),
    )
    assert res.verdict is Verdict.PROVEN, res
    assert len(parsed) == 1, parsed


def test_a_structure_netlist_cut_short_is_not_written_and_a_proof_needs_it(
    tmp_path: Path,
) -> None:
    # a Yosys run whose time share ran out while it wrote the netlist left half a file: it
    # read as "unreadable" and rejected every later engine's proof (ibex's compressed
    # decoder); it is removed, so the next engine writes it again, and a proof without it is
    # not accepted
    from rtlopt.formal.scripts import STRUCTURE_JSON

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "t.v").write_text((CASES / "c_polarity" / "ref.v").read_text())
    design = load_design(repo / "t.v", "t", ProjectConfig())
    wd = tmp_path / "wd"
    wd.mkdir()
    (wd / STRUCTURE_JSON).write_text('{"creator": "Yosys", "modules": {"t": {"attributes": {')
    assert structure.read_structure(design, wd) is None
    assert not (wd / STRUCTURE_JSON).exists()
    (wd / STRUCTURE_JSON).write_text("")  # a run killed before its buffer was written out
    assert structure.read_structure(design, wd) is None
    assert not (wd / STRUCTURE_JSON).exists()
    (wd / STRUCTURE_JSON).write_text('{"creator": "Yosys"}')  # whole, but no netlist
    assert isinstance(structure.read_structure(design, wd), str)
    assert (wd / STRUCTURE_JSON).exists()
