"""`rtlopt check` judges a change in the context `rtlopt evaluate` uses (issue 22, item 1).

A darkriscv-style repository: macros from ``rtl/config.vh`` found through the include folder,
a filelist in ``rtlopt.toml``; in one variant the filelist and ``rtlopt.toml`` are not committed
yet (the base commit has no copy of them): untracked they are findings, staged a change of the
rules. The real ``rtlopt check`` command line, as the
pre-commit hook runs it: staged changes against HEAD.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.e2e._darkstyle import BROKEN, EQUIVALENT, edit, write_darkstyle
from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

UART = "rtl/darkuart.v"


def _stage(repo: Path, pairs: tuple[tuple[str, str], ...], *, add: bool = True) -> None:
    p = repo / UART
    text = p.read_text()
    for old, new in pairs:
        text = edit(text, old, new)
    p.write_text(text)
    if add:
        git(repo, "add", UART)


def _check(repo: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    r = rtlopt(["check", "--json", *args], repo)
    assert r.returncode in (0, 1), r.stderr
    return r, json.loads(r.stdout)


@pytest.mark.parametrize("committed", [True, False], ids=["committed", "untracked-context"])
def test_staged_equivalent_edit_passes_broken_edit_fails(tmp_path: Path, committed: bool) -> None:
    repo = write_darkstyle(tmp_path / "dark", commit_context=committed)
    _stage(repo, EQUIVALENT)
    # a configuration the base does not hold is a change to the rules (issue 33): a finding,
    # unless the user trusts it
    trust = () if committed else ("--trust-config",)
    if not committed:
        # the commit (the index) does not hold the setup: not staged, a finding each
        r, out = _check(repo)
        assert r.returncode == 1, out
        found = {m["file"]: m["findings"] for m in out["modules"] if m["change"] == "untracked"}
        assert set(found) == {"rtlopt.toml", "rtl/rtl.f"}, out
        assert all("is not staged" in f[0] for f in found.values()), found
        git(repo, "add", "rtlopt.toml", "rtl/rtl.f")
        r, out = _check(repo)
        assert r.returncode == 1, out
        [config] = [m for m in out["modules"] if m["module"] == "(configuration)"]
        assert any("check.optimization_only" in f for f in config["findings"]), config
    r, out = _check(repo, *trust)
    assert r.returncode == 0, out
    [m] = [m for m in out["modules"] if m["module"] != "(configuration)"]
    assert (m["module"], m["equivalence"], m["findings"]) == ("darkuart", "proven", [])
    _stage(repo, BROKEN)
    r, out = _check(repo, *trust)
    assert r.returncode == 1
    [m] = [m for m in out["modules"] if m["module"] != "(configuration)"]
    assert m["findings"] and m["findings"][0].startswith(f"the change to {UART}")
    assert "candidate" not in " ".join(m["findings"])


def test_syntax_error_is_reported_at_the_files_own_line(tmp_path: Path) -> None:
    repo = write_darkstyle(tmp_path / "dark")
    text = (repo / UART).read_text()
    line = text[: text.index("assign TICK")].count("\n") + 1
    assert line > 20  # well below the module line: counting from it would be wrong
    _stage(repo, (("assign TICK = ", "assign TICK = = "),))
    r = rtlopt(["check"], repo)
    assert r.returncode == 2, r.stdout + r.stderr  # an input error, as for any command
    msg = r.stderr.strip().splitlines()[-1]
    assert f"{UART}:{line}: syntax error in the change" in msg, msg
    assert "fix the change" in msg and "candidate" not in msg
    # a change that parses but does not compile is a finding in the file's own lines
    _stage(repo, (("assign TICK = = ", "assign TICK = "), ("SHIFT[0];", "SHIFT[0] + nowire;")))
    r, out = _check(repo)
    assert r.returncode == 1
    [finding] = out["modules"][0]["findings"]
    assert f"{UART}:" in finding and "candidate" not in finding, finding


def test_unstaged_edit_is_named_or_judged(tmp_path: Path) -> None:
    repo = write_darkstyle(tmp_path / "dark")
    _stage(repo, BROKEN, add=False)
    r, out = _check(repo)  # the hook: nothing staged
    assert r.returncode == 0 and out["modules"] == []
    assert any("not staged" in n and UART in n for n in out["notes"]), out
    r, out = _check(repo, UART)  # named on the command line: judged from the work tree
    assert r.returncode == 1
    [m] = out["modules"]
    assert m["findings"] and any("not staged" in n for n in m["notes"])
