"""Two drivers of one net are counted by structure, in ``evaluate``, ``check`` and ``optimize``
alike (issue 30): a constant beside a signal that differs from it for one input pair passed
Yosys's ``check`` (0 problems) and was proven, combinational ("sat miter") and sequential
("abc lcorr; dprove"), and written to a branch. A net driven through a ``case`` is driven
(the control: an equivalent ROM rewrite was rejected as having undriven nets).

Fixtures: ``tests/data/two_drivers`` (see its README)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = [pytest.mark.tools, pytest.mark.slow]

DATA = Path(__file__).resolve().parents[1] / "data" / "two_drivers"
CONFIG = '[check]\noptimization_only = ["*"]\nppa = false\n'


def _repo(tmp_path: Path, form: str) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(DATA / f"{form}_ref.v", repo / "m.v")
    (repo / "rtlopt.toml").write_text(CONFIG)
    git(repo, "init", "-q", "-b", "main", ".")
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return repo


def _evaluate(tmp_path: Path, form: str) -> dict:
    repo = _repo(tmp_path, form)
    shutil.copy(DATA / f"{form}_cand.v", repo / "cand.v")
    r = rtlopt(["evaluate", "m.v", "--candidate", "cand.v", "--json"], repo)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    return dict(json.loads(r.stdout)["candidate"])


@pytest.mark.parametrize("form", ["comb", "seq"])
def test_evaluate_rejects_a_constant_beside_a_signal(tmp_path: Path, form: str) -> None:
    res = _evaluate(tmp_path, form)
    assert not res["accepted"], res
    assert res["stage"] == "formal", res
    assert "more drivers than the reference on net hit[0]" in res["reason"], res["reason"]


@pytest.mark.parametrize("form", ["comb", "seq"])
def test_check_fails_the_staged_second_driver(tmp_path: Path, form: str) -> None:
    repo = _repo(tmp_path, form)
    shutil.copy(DATA / f"{form}_cand.v", repo / "m.v")
    git(repo, "add", "-A")
    r = rtlopt(["check", "--json"], repo)
    assert r.returncode == 1, r.stdout + r.stderr[-2000:]
    [m] = json.loads(r.stdout)["modules"]
    assert m["module"] == "m" and m["equivalence"] != "proven", m
    assert "hit[0]" in json.dumps(m), m


@pytest.mark.parametrize("form", ["comb", "seq"])
def test_optimize_writes_no_branch_for_it(tmp_path: Path, form: str) -> None:
    repo = _repo(tmp_path, form)
    alts = tmp_path / "alternatives"
    alts.mkdir()
    shutil.copy(DATA / f"{form}_cand.v", alts / "a_two_drivers.v")
    args = ["optimize", "m.v", "-m", "m", "--candidates", str(alts), "--steps", "1"]
    r = rtlopt([*args, "--parents", "1", "--rollouts", "2", "--pdk", "nangate45"], repo)
    assert r.returncode == 1, r.stdout + r.stderr[-2000:]
    assert "rtlopt/" not in git(repo, "branch", "--list")
    run_dir = Path(re.search(r"run directory: (\S+)", r.stdout).group(1))  # type: ignore[union-attr]
    cands = [json.loads(p.read_text()) for p in (run_dir / "candidates").glob("*.json")]
    assert cands and all(not c["accepted"] for c in cands), cands
    assert any("hit[0]" in c["reason"] for c in cands), [c["reason"] for c in cands]


def test_a_case_rewrite_is_driven_and_proven(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, "case")
    assert res["accepted"], res["reason"]
    assert res["formal"]["verdict"] == "proven", res["formal"]
