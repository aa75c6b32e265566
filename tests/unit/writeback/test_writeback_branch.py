"""write_branch / assert_clean on real git repositories in temp dirs."""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from rtlopt.errors import RepoError
from rtlopt.verilog import find_span
from rtlopt.writeback import assert_clean, write_branch

TWO_MODULES = """\
// Copyright header: leading comment of the file.
`timescale 1ns/1ps

// Adds two bytes.
module adder (
    input  [7:0] a,
    input  [7:0] b,
    output [8:0] y
);
    assign y = a + b;   // keep   odd   spacing
endmodule

/* The other module must stay byte-identical. */
module keep_me(input x, output   y);
  assign y = ~x;
endmodule
"""

OTHER = "module other(input a, output b); assign b = {}; endmodule\n"

NEW_ADDER = """module adder (
    input  [7:0] a,
    input  [7:0] b,
    output [8:0] y
);
    wire [8:0] s = {1'b0, a} + {1'b0, b};
    assign y = s;
endmodule"""


def _run(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for who in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{who}_NAME", "Test User")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "test@example.com")


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "repo"
    (root / "rtl").mkdir(parents=True)
    _run(root, "init", "-q", "-b", "main")
    (root / "rtl" / "top.v").write_text(TWO_MODULES)
    (root / "rtl" / "other.v").write_text(OTHER.format("a"))
    _run(root, "add", ".")
    _run(root, "commit", "-q", "-m", "initial")
    yield root


def _digest_tree(root: Path) -> dict[str, str]:
    """Hashes of every file of the checkout plus .git/index and HEAD."""
    out: dict[str, str] = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and ".git" not in p.relative_to(root).parts:
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    out[".git/index"] = hashlib.sha256((root / ".git" / "index").read_bytes()).hexdigest()
    out[".git/HEAD"] = (root / ".git" / "HEAD").read_text()
    return out


def test_branch_changes_only_the_target_module(repo: Path) -> None:
    # an uncommitted edit elsewhere and an untracked file must survive untouched
    (repo / "rtl" / "other.v").write_text(OTHER.format("!a"))
    (repo / "notes.txt").write_text("scratch\n")
    _run(repo, "add", "rtl/other.v")  # staged change: the index is not pristine either
    (repo / "rtl" / "other.v").write_text(OTHER.format("~a"))
    before = _digest_tree(repo)

    res = write_branch(
        repo,
        repo / "rtl" / "top.v",
        "adder",
        NEW_ADDER,
        branch="rtlopt/adder/run1",
        message="optimize adder\n\narea -10%",
    )

    assert _digest_tree(repo) == before
    assert _run(repo, "rev-parse", "--abbrev-ref", "HEAD").strip() == "main"
    assert res.branch == "rtlopt/adder/run1"
    assert _run(repo, "rev-parse", "rtlopt/adder/run1").strip() == res.commit_sha
    assert "wire [8:0] s" in res.diff
    # exactly one file changed in the commit
    names = _run(repo, "diff", "--name-only", "main", res.commit_sha).split()
    assert names == ["rtl/top.v"]
    new_text = _run(repo, "show", f"{res.commit_sha}:rtl/top.v")
    old_span = find_span(TWO_MODULES, "adder")
    new_span = find_span(new_text, "adder")
    assert old_span is not None and new_span is not None
    assert new_text[new_span.start : new_span.end] == NEW_ADDER
    # everything outside the module is byte-identical (comments, spacing, other module)
    assert new_text[: new_span.start] == TWO_MODULES[: old_span.start]
    assert new_text[new_span.end :] == TWO_MODULES[old_span.end :]
    assert _run(repo, "log", "-1", "--format=%B", res.commit_sha).startswith("optimize adder")
    # no worktree left behind
    assert _run(repo, "worktree", "list").count("\n") == 1


def test_uses_head_version_when_other_parts_of_the_file_are_dirty(repo: Path) -> None:
    edited = TWO_MODULES.replace("assign y = ~x;", "assign y = !x;")
    (repo / "rtl" / "top.v").write_text(edited)
    res = write_branch(repo, repo / "rtl" / "top.v", "adder", NEW_ADDER, branch="b1", message="m")
    new_text = _run(repo, "show", f"{res.commit_sha}:rtl/top.v")
    assert "assign y = ~x;" in new_text  # HEAD content, not the working copy
    assert (repo / "rtl" / "top.v").read_text() == edited


def test_push_to_bare_remote(repo: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    _run(tmp_path, "init", "-q", "--bare", str(remote))
    _run(repo, "remote", "add", "origin", str(remote))
    res = write_branch(
        repo, repo / "rtl" / "top.v", "adder", NEW_ADDER, branch="opt/x", message="m", push="origin"
    )
    assert res.pushed_to == "origin"
    assert _run(remote, "rev-parse", "opt/x").strip() == res.commit_sha


def test_error_not_a_repo(tmp_path: Path) -> None:
    d = tmp_path / "plain"
    d.mkdir()
    (d / "a.v").write_text(TWO_MODULES)
    with pytest.raises(RepoError, match="not a git repository"):
        write_branch(d, d / "a.v", "adder", NEW_ADDER, branch="b", message="m")


def test_error_detached_head(repo: Path) -> None:
    _run(repo, "checkout", "-q", "--detach")
    with pytest.raises(RepoError, match="detached"):
        write_branch(repo, repo / "rtl" / "top.v", "adder", NEW_ADDER, branch="b", message="m")


def test_error_outside_repo(repo: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere.v"
    other.write_text(TWO_MODULES)
    with pytest.raises(RepoError, match="outside the repository"):
        write_branch(repo, other, "adder", NEW_ADDER, branch="b", message="m")


def test_error_branch_exists(repo: Path) -> None:
    _run(repo, "branch", "taken")
    with pytest.raises(RepoError, match="already exists"):
        write_branch(repo, repo / "rtl" / "top.v", "adder", NEW_ADDER, branch="taken", message="m")


def test_error_untracked_target(repo: Path) -> None:
    (repo / "rtl" / "new.v").write_text(TWO_MODULES)
    with pytest.raises(RepoError, match="not committed"):
        write_branch(repo, repo / "rtl" / "new.v", "adder", NEW_ADDER, branch="b", message="m")


def test_error_module_changed_in_work_tree(repo: Path) -> None:
    before_branches = _run(repo, "branch")
    (repo / "rtl" / "top.v").write_text(TWO_MODULES.replace("a + b", "b + a"))
    with pytest.raises(RepoError, match="commit or stash your changes to rtl/top.v"):
        write_branch(repo, repo / "rtl" / "top.v", "adder", NEW_ADDER, branch="b", message="m")
    assert _run(repo, "branch") == before_branches


def test_error_module_missing_at_head(repo: Path) -> None:
    with pytest.raises(RepoError, match="modules: adder, keep_me"):
        write_branch(
            repo,
            repo / "rtl" / "top.v",
            "nosuch",
            NEW_ADDER.replace("module adder", "module nosuch"),
            branch="b",
            message="m",
        )


def test_error_bad_branch_name(repo: Path) -> None:
    with pytest.raises(RepoError, match="not a valid branch name"):
        write_branch(repo, repo / "rtl" / "top.v", "adder", NEW_ADDER, branch="a..b", message="m")


def test_assert_clean(repo: Path) -> None:
    assert_clean(repo)
    (repo / "untracked.v").write_text("// untracked files do not count\n")
    assert_clean(repo)
    (repo / "rtl" / "other.v").write_text("// edited\n")
    with pytest.raises(RepoError, match="uncommitted changes: rtl/other.v"):
        assert_clean(repo)
    assert_clean(repo, [repo / "rtl" / "top.v"])
    with pytest.raises(RepoError, match="commit or stash them"):
        assert_clean(repo, [repo / "rtl" / "other.v"])


def test_extend_adds_a_commit_per_module_on_one_branch(repo: Path) -> None:
    """Two modules of one file on one branch: the second commit keeps the first's change, the
    user's checkout stays as it was."""
    before = _digest_tree(repo)
    first = write_branch(
        repo, repo / "rtl" / "top.v", "adder", NEW_ADDER, branch="rtlopt/multi/r1", message="a"
    )
    new_keep = "module keep_me(input x, output y);\n  assign y = x ^ 1'b1;\nendmodule"
    second = write_branch(
        repo,
        repo / "rtl" / "top.v",
        "keep_me",
        new_keep,
        branch="rtlopt/multi/r1",
        message="b",
        extend=True,
    )
    assert _digest_tree(repo) == before
    assert _run(repo, "rev-list", "main..rtlopt/multi/r1").split() == [
        second.commit_sha,
        first.commit_sha,
    ]
    text = _run(repo, "show", "rtlopt/multi/r1:rtl/top.v")
    assert NEW_ADDER in text and new_keep in text and text.startswith("// Copyright header")
    assert _run(repo, "worktree", "list").count("\n") == 1
    with pytest.raises(RepoError, match="does not exist"):
        write_branch(
            repo, repo / "rtl" / "top.v", "adder", NEW_ADDER, branch="nope", message="m",
            extend=True,
        )  # fmt: skip
    assert "nope" not in _run(repo, "branch", "--list")
