"""The paired engine pairs once more by name and simulation when the pairing by next-state
function fails: picorv32's iterative multiplier rewritten (renamed registers, operands
commuted) is proven that way, and the proof states the pairing that was used.

Uses the picorv32 copy of the benchmark data (ISC, see its COPYING) and the equivalent
rewrite of bench/repos_cases, applied at run time; nothing of it is stored here."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.eda.formal import check_equivalence
from rtlopt.frontend import load_design
from rtlopt.results import Verdict
from tests.conftest import bench_path

pytestmark = pytest.mark.tools

ROOT = Path(__file__).resolve().parents[2]
CASE = ROOT / "bench" / "repos_cases" / "picorv32" / "picorv32_pcpi_mul"
UPSTREAM = bench_path() / "repos" / "picorv32" / "picorv32.v"


def _apply(edit: Path, base: Path) -> str:
    spec = importlib.util.spec_from_file_location(
        "rtlopt_repos_edits", ROOT / "bench" / "repos_edits.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return str(mod.apply_edit(edit.read_text(), base.read_bytes()))


@pytest.mark.skipif(not UPSTREAM.exists(), reason="picorv32 benchmark copy not found")
def test_multiplier_with_renamed_registers_is_proven_by_the_second_pairing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(UPSTREAM, repo / "picorv32.v")
    cand = tmp_path / "equiv.v"
    cand.write_text(_apply(CASE / "equiv.edit", UPSTREAM))
    design = load_design(repo / "picorv32.v", "picorv32_pcpi_mul", ProjectConfig())
    res = check_equivalence(design, [cand], tmp_path / "formal", FormalConfig(timeout_s=60))
    assert res.verdict is Verdict.PROVEN, res
    assert res.method == "abc dprove (registers paired)", res
    assert "(0 by next-state function" in res.reason and "by ternary simulation" in res.reason
