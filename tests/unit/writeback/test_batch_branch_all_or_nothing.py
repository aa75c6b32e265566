"""A batch's branch is all or nothing: when a later module cannot be written, the branch made
for the earlier ones is deleted (real git repositories in temp dirs)."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import rtlopt.writeback
from rtlopt.batch._finish import _write_one_branch
from rtlopt.config import ProjectConfig
from rtlopt.errors import RepoError
from rtlopt.frontend import load_design

TOP = """module adder(input [7:0] a, input [7:0] b, output [8:0] y);
  assign y = a + b;
endmodule
module keep_me(input x, output y);
  assign y = ~x;
endmodule
"""
NEW_ADDER = (
    "module adder(input [7:0] a, input [7:0] b, output [8:0] y);\n  assign y = b + a;\nendmodule"
)


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Test User")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "test@example.com")
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    (root / "top.v").write_text(TOP)
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "initial")
    monkeypatch.setattr(rtlopt.writeback, "commit_message_for", lambda m, o, r: f"rewrite {m}")
    return root


def _item(root: Path, module: str, code: str) -> tuple[Any, Any]:
    """A batch item whose design (parsed from the repository) targets ``module``."""
    d = load_design(root / "top.v", "keep_me", ProjectConfig())
    d = replace(d, target=replace(d.target, name=module))
    item = SimpleNamespace(target=SimpleNamespace(design=d), plan=SimpleNamespace(run_id="r1"))
    return item, SimpleNamespace(best_code=code)


def _plan(root: Path) -> Any:
    return SimpleNamespace(branch="rtlopt/batch/r1", push=None, run_dir=root.parent / "run")


@pytest.mark.parametrize(
    ("module", "code", "error"),
    [
        # the module is not in the file at HEAD: a repository error (exit 2, results kept)
        ("ghost", "module ghost(input x, output y);\n  assign y = x;\nendmodule", RepoError),
        # the text does not define the module: an internal error
        ("keep_me", "module other(input x, output y);\nendmodule", ValueError),
    ],
)
def test_a_later_module_that_cannot_be_written_leaves_no_branch(
    repo: Path, module: str, code: str, error: type[Exception]
) -> None:
    plan = _plan(repo)
    with pytest.raises(error) as exc:
        _write_one_branch(plan, [_item(repo, "adder", NEW_ADDER), _item(repo, module, code)])
    assert plan.branch not in _git(repo, "branch", "--list"), "a partial branch was left"
    if error is RepoError:
        assert "results kept; rerun with --resume" in str(exc.value)
    assert _git(repo, "worktree", "list").count("\n") == 1


def test_every_module_written_is_one_branch(repo: Path) -> None:
    keep = "module keep_me(input x, output y);\n  assign y = x ^ 1'b1;\nendmodule"
    plan = _plan(repo)
    out = _write_one_branch(plan, [_item(repo, "adder", NEW_ADDER), _item(repo, "keep_me", keep)])
    assert set(out) == {"adder", "keep_me"}
    assert len(_git(repo, "rev-list", f"main..{plan.branch}").split()) == 2
