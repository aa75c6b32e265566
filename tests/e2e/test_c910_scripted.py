"""A scripted `rtlopt optimize` on the C910 LZA over the hand-written rewrites in examples/."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import bench_path
from tests.e2e.conftest import REPO, git, rtlopt

pytestmark = pytest.mark.tools

LZA = bench_path() / "c910" / "lza_simd_half"
REWRITES = REPO / "examples" / "c910_lza_rewrites"


def test_scripted_c910_run_selects_best_proven_rewrite(tmp_path: Path) -> None:
    if not (LZA / "ct_vfmau_lza_simd_half.v").exists():
        pytest.skip("C910 LZA benchmark not found (set RTLOPT_BENCH_PATH)")
    repo = tmp_path / "c910"
    (repo / "rtl").mkdir(parents=True)
    for f in LZA.glob("*.v"):
        shutil.copy(f, repo / "rtl" / f.name)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "c910 lza")
    r = rtlopt(
        [
            "optimize",
            "rtl/ct_vfmau_lza_simd_half.v",
            "--pdk",
            "sky130hd",
            "--metric",
            "adp",
            "--candidates",
            str(REWRITES),
            "--steps",
            "1",
            "--parents",
            "1",
            "--rollouts",
            "3",
        ],
        repo,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    m = re.search(r"best: ADP ([\d.e+,]+) \(([-+\d.]+)% vs reference\), formal: (\w+)", r.stdout)
    assert m, r.stdout
    assert float(m.group(2)) < -10 and m.group(3) == "proven"
    run_dir = Path(re.search(r"run directory: (\S+)", r.stdout).group(1))  # type: ignore[union-attr]
    best = json.loads((run_dir / "best.json").read_text())
    ref = json.loads((run_dir / "reference.json").read_text())
    assert (
        best["ppa"]["area_um2"] * best["ppa"]["delay_ps"]
        < ref["ppa"]["area_um2"] * ref["ppa"]["delay_ps"]
    )
    # The wrong rewrite was scored and rejected, and is not what went on the branch.
    cands = [json.loads(p.read_text()) for p in (run_dir / "candidates").glob("*.json")]
    assert any(c["status"] == "invalid" and c["stage"] in ("simulation", "formal") for c in cands)
    wrong = (REWRITES / "03_grouped_wrong_last_group.v").read_text()
    branch = re.search(r"branch: (\S+)", r.stdout).group(1)  # type: ignore[union-attr]
    on_branch = git(repo, "show", f"{branch}:rtl/ct_vfmau_lza_simd_half.v")
    assert (run_dir / "best.v").read_text().strip() in on_branch
    assert wrong.strip() not in on_branch
