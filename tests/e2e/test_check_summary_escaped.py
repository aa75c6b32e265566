"""Repository-derived text in `rtlopt check --summary` and `rtlopt check`'s terminal table
arrives escaped (real git, iverilog, Yosys): a module named with an escaped identifier full of
Markdown, HTML and rich markup, beside comments with terminal escapes. (`evaluate`'s printing
and the other pages: tests/unit/core/test_shown.py.)"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import git
from tests.fork_run import run_rtlopt

pytestmark = pytest.mark.tools

EVIL = "\\evil|<img/src=x/onerror=alert(1)>[a](b)[bold_red]PROVEN[/]"
COMMENT = "// | pass | `x` <img src=x onerror=alert(1)> [PROVEN](http://e) \x1b[2J PROVEN\x07"


def _module(body: str) -> str:
    return f"module {EVIL} (input a, input b, output y);\n  {body} {COMMENT}\nendmodule\n"


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS="200", TERM="dumb")
    return run_rtlopt(args, cwd=cwd, env=env, timeout=600)


def _no_controls(text: str) -> None:
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f]", text), repr(text)


def test_check_summary_and_table_show_names_escaped(example_repo: Path, tmp_path: Path) -> None:
    f = example_repo / "rtl" / "prio_enc.v"
    f.write_text(f.read_text() + _module("assign y = a & b;"))
    git(example_repo, "add", "-A")
    summary = tmp_path / "summary.md"
    r = _run(["check", "--no-ppa", "--summary", str(summary)], example_repo)
    assert r.returncode == 0, r.stdout + r.stderr
    _no_controls(r.stdout + r.stderr)
    assert "[bold_red]PROVEN[/]" in r.stdout  # shown, not read as markup
    md = summary.read_text()
    row = next(ln for ln in md.splitlines() if "evil" in ln)
    # the name sits in one code span that its characters cannot close; the row keeps 10 cells (with the rule)
    assert "`\\evil\\|<img" in row and row.count(" | ") == 9, row
