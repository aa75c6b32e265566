"""A filelist is one compilation unit for macros (issue 16, class 1), through the real CLI.

tests/data/filelist_unit: four Verilog sources (no headers) in a ``-f`` list with
``${CODE_BASE_PATH}`` paths. The first defines macros (one over two lines), the second
redefines one, undefines another and defines a third under ``SYNTHESIS``; the target uses
them without ```include``; a file listed after the target defines a macro the target must not
see. The frontend, iverilog, Yosys and the formal check all read the unit the same way, for
reference and candidate alike.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import evaluate_json, fixture_repo, run_rtlopt

pytestmark = pytest.mark.tools

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "filelist_unit"
TARGET = "rtl/unit_alu.v"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return fixture_repo(FIXTURE, tmp_path / "unit", monkeypatch, tmp_path / "cache")


def test_inspect_sees_the_macros_of_earlier_sources_in_order(repo: Path) -> None:
    r = run_rtlopt(repo, "inspect", TARGET, "--json")
    assert r.returncode == 0, r.stderr.strip()[-500:]
    out = json.loads(r.stdout)
    # UNIT_W redefined to 8 by the second file
    assert {p["name"]: p["width"] for p in out["ports"]} == {"a": 8, "b": 8, "y": 8}
    assert not (repo / ".rtlopt").exists()
    assert (
        subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain"], capture_output=True, text=True
        ).stdout
        == ""
    )


@pytest.mark.parametrize("cand", [TARGET, "candidates/unit_alu_equiv.v"])
def test_self_and_a_rewrite_using_the_unit_macros_are_proven(repo: Path, cand: str) -> None:
    rc, out = evaluate_json(repo, TARGET, cand)
    c = out["candidate"]
    assert rc == 0 and out["accepted"], c
    assert c["formal"]["verdict"] == "proven", c  # type: ignore[index]


def test_a_rewrite_that_drops_the_switched_off_branches_is_not_accepted(repo: Path) -> None:
    # equivalent in this unit, but a build that defines UNIT_OLD would get another module
    rc, out = evaluate_json(repo, TARGET, "candidates/unit_alu_flat.v")
    c = out["candidate"]
    assert rc == 1 and not out["accepted"]
    assert "switch off" in c["reason"], c  # type: ignore[index]


@pytest.mark.parametrize("cand", ["candidates/unit_alu_old.v", "candidates/unit_alu_broken.v"])
def test_the_undefined_branch_and_a_broken_rewrite_are_rejected(repo: Path, cand: str) -> None:
    # unit_alu_old.v is what the target would be if `undef UNIT_OLD were ignored
    rc, out = evaluate_json(repo, TARGET, cand)
    c = out["candidate"]
    assert rc == 1 and not out["accepted"]
    assert c["stage"] in ("simulation", "formal"), c  # type: ignore[index]
