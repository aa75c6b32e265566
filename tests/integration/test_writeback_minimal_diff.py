"""The branch of an edited module changes only the edited lines: blank-line runs, comments and
indentation elsewhere in the module stay byte for byte (the edit answer format relies on it)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.writeback import write_branch
from tests.e2e.conftest import git

pytestmark = pytest.mark.tools

SRC = """// header comment

module m (input [3:0] a, b, output [3:0] y, output z);


\twire [3:0] t;



\tassign t = a & b;   // trailing spaces stay
  assign y = t | a;

\tassign z = ^t;
endmodule



module other (input a, output y);
  assign y = ~a;
endmodule
"""


def test_only_the_edited_line_changes_on_the_branch(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    repo.mkdir()
    (repo / "m.v").write_text(SRC)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "m")
    design = load_design(repo / "m.v", "m", ProjectConfig())
    new = design.target.text().replace("  assign y = t | a;", "  assign y = a;")
    res = write_branch(repo, repo / "m.v", "m", new, branch="edit", message="x", design=design)
    diff = git(repo, "diff", "--unified=0", "main", res.branch)
    changed = [ln for ln in diff.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")]
    assert changed == ["-  assign y = t | a;", "+  assign y = a;"]
    assert git(repo, "show", f"{res.branch}:m.v") == SRC.replace("t | a;", "a;")
