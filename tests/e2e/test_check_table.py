"""`rtlopt check`'s table: units in the headers, one line per module at 80 columns."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import git
from tests.fork_run import run_rtlopt

pytestmark = pytest.mark.tools


def _edit(repo: Path, old: str, new: str) -> None:
    f = repo / "rtl" / "prio_enc.v"
    text = f.read_text()
    assert old in text
    f.write_text(text.replace(old, new))


@pytest.mark.parametrize("width", [80, 120])
def test_check_table_fits_the_terminal(example_repo: Path, width: int) -> None:
    # a rename inside prio_enc (equivalent, optimization-only) and a costlier parity16
    _edit(example_repo, "casez (v)", "casez (v | 16'h0)")
    _edit(example_repo, "assign p = ^d;", "assign p = ^d ^ (&d[7:0]) ^ (|(d[15:8] & d[7:0]));")
    git(example_repo, "add", "-A")
    env = dict(os.environ, COLUMNS=str(width), TERM="dumb")
    r = run_rtlopt(["check"], cwd=example_repo, env=env, timeout=600)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    # the first line says what is required, one line however long (a log is searched for it)
    assert lines[0].startswith("rtlopt check: required to stay equivalent (1 of 2): prio_enc")
    table = lines[1 : next(i for i, ln in enumerate(lines) if ln.startswith("rtl/prio_enc.v:"))]
    assert all(len(ln) <= width for ln in table), "\n".join(table)
    title = next(ln for ln in table if ln.startswith("rtlopt check against"))
    assert "ADP in um^2*ps, threshold 2%)" in title
    assert ("file" in next(ln for ln in table if "module" in ln)) == (width >= 100)
    header = next(ln for ln in table if "module" in ln)
    for col in ("area um^2", "delay ps", "ADP Δ", "equivalence", "result"):
        assert col in header, header
    rows = {
        ln.split()[0]: ln
        for ln in table
        if ln.split() and ln.split()[0] in ("prio_enc", "parity16")
    }
    assert set(rows) == {"prio_enc", "parity16"}, table
    assert "proven" in rows["prio_enc"] and "pass" in rows["prio_enc"]
    assert "FAIL" in rows["parity16"] and "→" in rows["parity16"]
    assert "worse by" in r.stdout  # the finding names the threshold breach
