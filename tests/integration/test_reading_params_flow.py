"""A parent that passes the target another value in another reading (red team round 34 F1),
end to end with real tools: ``rtlopt evaluate`` and ``rtlopt check`` on a git repository reject
a candidate that differs only at that value; an equivalent rewrite is still accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt
from tests.reading_designs import AGREE, AT_200, EQUIVALENT, FORMS, M

pytestmark = pytest.mark.tools

CONFIG = '[check]\noptimization_only = ["*"]\nppa = false\n'


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    for name, text in {"m.v": M, "rtlopt.toml": CONFIG, **files}.items():
        (repo / name).write_text(text)
    git(repo, "init", "-q", ".")
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return repo


def _verdicts(repo: Path, candidate: str) -> tuple[int, str, int]:
    (repo.parent / "cand.v").write_text(candidate)
    ev = rtlopt(
        ["evaluate", "m.v", "--candidate", "../cand.v", "--pdk", "nangate45", "--json"], repo
    )
    assert ev.returncode in (0, 1), ev.stderr[-2000:]
    reason = json.loads(ev.stdout)["candidate"]["reason"] or ""
    (repo / "m.v").write_text(candidate)
    git(repo, "add", "m.v")
    chk = rtlopt(["check", "m.v"], repo)
    assert chk.returncode in (0, 1), chk.stderr[-2000:]
    return ev.returncode, reason, chk.returncode


@pytest.mark.parametrize("form", sorted(FORMS))
def test_another_readings_value_rejects_a_difference_there(tmp_path: Path, form: str) -> None:
    ev, reason, chk = _verdicts(_repo(tmp_path, FORMS[form]), AT_200)
    assert ev == 1 and chk == 1, reason
    assert "K=8'd200" in reason or "unchecked" in reason, reason


def test_readings_that_agree_keep_an_equivalent_rewrite_accepted(tmp_path: Path) -> None:
    ev, reason, chk = _verdicts(_repo(tmp_path, AGREE), EQUIVALENT)
    assert ev == 0 and chk == 0, reason


def test_an_equivalent_rewrite_is_accepted_in_every_reading(tmp_path: Path) -> None:
    ev, reason, chk = _verdicts(_repo(tmp_path, FORMS["lp"]), EQUIVALENT)
    assert ev == 0 and chk == 0, reason
