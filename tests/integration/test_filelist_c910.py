"""A C910-style filelist project (tests/data/filelist_c910) through the real command line.

The fixture's top `-f` list starts with a header listed as a source (`cpu_cfig.h` defines
CT_WIDTH/CT_MSB/CT_SAT_MAX, used by later files without `include), writes every path as
`${CODE_BASE_PATH}/...` or `$CODE_BASE_PATH/...`, and has `+incdir+`, `+define+` and a nested
`-f`. Simulators and synthesis tools read such a list as one compilation unit, in order; rtlopt
must do the same (issue 16, failure classes 1 and 2).

The headers a filelist lists as sources form the design's prelude, read first by the frontend,
iverilog, Yosys and the formal check, for reference and candidate alike.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.fork_run import run_rtlopt

pytestmark = pytest.mark.tools

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "filelist_c910"
TARGET = "gen_rtl/alu/rtl/ct_alu_sat.v"


@pytest.fixture
def c910_repo(tmp_path: Path) -> Path:
    """The fixture copied into a fresh git repository, as a user's checkout."""
    repo = tmp_path / "c910"
    shutil.copytree(FIXTURE, repo)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", "fixture"], check=True)
    return repo


def _rtlopt(
    args: Sequence[str], repo: Path, code_base: Path | None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("CODE_BASE_PATH", None)
    if code_base is not None:
        env["CODE_BASE_PATH"] = str(code_base)
    return run_rtlopt(args, cwd=repo, env=env, timeout=900)


def _evaluate(repo: Path, candidate: str) -> tuple[int, dict[str, object]]:
    r = _rtlopt(
        ["evaluate", TARGET, "--candidate", candidate, "--pdk", "nangate45", "--json"], repo, repo
    )
    assert r.returncode in (0, 1), f"exit {r.returncode}: {r.stderr.strip()[-500:]}"
    return r.returncode, json.loads(r.stdout)


def test_inspect_reads_the_filelist_as_one_unit(c910_repo: Path) -> None:
    r = _rtlopt(["inspect", TARGET, "--json"], c910_repo, c910_repo)
    assert r.returncode == 0, r.stderr.strip()[-500:]
    out = json.loads(r.stdout)
    assert out["module"] == "ct_alu_sat"
    # the macros from the header give 8-bit ports
    assert {p["name"]: p["width"] for p in out["ports"]} == {"x": 8, "y": 8, "z": 8, "ovf": 1}
    files = [Path(f).name for f in out["files"]]
    assert files[-2:] == ["ct_alu_add.v", "ct_alu_sat.v"]
    assert "CT_ALU_FAST" in out["defines"]
    incdirs = {Path(d).resolve() for d in out["include_dirs"]}
    assert (c910_repo / "gen_rtl" / "common" / "rtl").resolve() in incdirs
    assert (c910_repo / "gen_rtl" / "alu" / "rtl").resolve() in incdirs


def test_evaluate_accepts_itself_and_an_equivalent_rewrite_with_a_proof(c910_repo: Path) -> None:
    rc, out = _evaluate(c910_repo, TARGET)
    cand = out["candidate"]
    assert rc == 0 and out["accepted"], cand
    rc, out = _evaluate(c910_repo, "candidates/ct_alu_sat_equiv.v")
    cand = out["candidate"]
    assert rc == 0 and out["accepted"], cand
    assert cand["formal"]["verdict"] == "proven"  # type: ignore[index]


def test_evaluate_rejects_the_broken_rewrite_by_simulation_or_proof(c910_repo: Path) -> None:
    rc, out = _evaluate(c910_repo, "candidates/ct_alu_sat_broken.v")
    cand = out["candidate"]
    assert rc == 1 and not out["accepted"]
    # rejected for being different, not for failing to compile in the project's context
    assert cand["stage"] in ("simulation", "formal"), cand  # type: ignore[index]
    assert cand["stage"] == "simulation" or cand["formal"]["verdict"] == "refuted"  # type: ignore[index]


def test_an_unset_filelist_variable_is_named_as_such(c910_repo: Path) -> None:
    r = _rtlopt(["inspect", TARGET], c910_repo, None)
    assert r.returncode == 2, r.stderr
    err = r.stderr.strip()
    assert "CODE_BASE_PATH" in err and "ct_top.fl" in err
    assert any(w in err for w in ("not set", "undefined", "not defined")), err
