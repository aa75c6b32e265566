"""Red team round 79 through the gate (``rtlopt check``), with real git: changes a build reads
another way than as Verilog passed.

- Cases 09, 10 (mode): a file made executable (``[ -x m.v ]``), a documentation file's mode
  or type changed (a link now): git's mode is what a build tests; no rule saw it.
- Cases 11, 14 (files a build names): a new or deleted Verilog file a build tests for
  (``$(wildcard opt.v)`` in a conditional, ``[ -f fast.v ]``), an edited documentation file a
  build reads (``$(shell cat k.md)``) were not judged.

Cases 15, 22 and 25 (a delay, a define a macro makes): test_redteam_w79_gate_macros.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from _fixture_repo import committed_repo
from _gate_repo import M, check_staged, gate_repo, git

pytestmark = pytest.mark.tools

_git, _repo, _check = git, gate_repo, check_staged


MAKE_X = "sim:\n\tif [ -x m.v ]; then iverilog -DFAST -o sim m.v; else iverilog -o sim m.v; fi\n"


@pytest.mark.parametrize("rel", ["m.v", "notes.md"])
def test_a_file_made_executable_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rel: str
) -> None:
    """Cases 09, 10: the text is the same, the mode a build tests is not."""
    repo = _repo(tmp_path, monkeypatch, {"Makefile": MAKE_X, "notes.md": "# notes\n"})
    os.chmod(repo / rel, 0o755)
    r = _check(repo)
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert f"{rel}: (file): its mode changed (100644 -> 100755;" in r.stdout, r.stdout[-1500:]


def test_a_documentation_file_turned_into_a_link_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Case 10: a type change (a file to a link) of a file the gate reads as documentation
    (the links' rule: this guards it)."""
    repo = _repo(tmp_path, monkeypatch, {"notes.md": "# notes\n", "gen.md": "# notes\n"})
    (repo / "notes.md").unlink()
    (repo / "notes.md").symlink_to("gen.md")
    r = _check(repo)
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert "notes.md: (file): notes.md is a symlink the change adds" in r.stdout, r.stdout[-1500:]


TESTED = {
    "Makefile": "ifneq ($(wildcard opt.v),)\nDEF = -DOPT\nendif\n"
    "sim:\n\t[ -f legacy/fast.v ] && iverilog -DFAST -o sim m.v; iverilog $(DEF) -o sim m.v\n",
    "legacy/fast.v": "module fast_unused(input a, output y);\n  assign y = a;\nendmodule\n",
}


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"opt.v": "module opt_unused(input a, output y);\n  assign y = a;\nendmodule\n"}, "opt.v"),
        ({"legacy/fast.v": None}, "legacy/fast.v"),
        ({"k.md": "8\n"}, "k.md"),
    ],
    ids=["added", "deleted", "doc-edited"],
)
def test_a_file_a_build_tests_or_reads_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: dict[str, str | None], said: str
) -> None:
    """Cases 11, 14: the build reads the file's existence or its text, not its modules."""
    make = TESTED["Makefile"] + "k:\n\tiverilog -Pm.K=$(shell cat k.md) -o sim m.v\n"
    repo = _repo(tmp_path, monkeypatch, TESTED | {"Makefile": make, "k.md": "7\n"})
    for rel, text in change.items():
        if text is None:
            (repo / rel).unlink()
        else:
            (repo / rel).write_text(text)
    r = _check(repo)
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert f"{said}: (file): " in r.stdout and "Makefile names it" in r.stdout, r.stdout[-1500:]


def test_a_new_module_a_build_compiles_by_its_glob_still_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cost: a source a tool line's glob compiles, and a README no build names."""
    make = "sim:\n\tiverilog -o sim *.v\n"
    repo = _repo(tmp_path, monkeypatch, {"Makefile": make, "README.md": "# demo\n"})
    (repo / "n.v").write_text("module n(input a, output y);\n  assign y = ~a;\nendmodule\n")
    (repo / "README.md").write_text("# demo\n\nmake sim; see n.v\n")
    r = _check(repo)
    assert r.returncode == 0, (r.stdout + r.stderr)[-1500:]


def test_a_file_made_executable_in_a_submodule_bump_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cases 09, 10 under a submodule: the bump's files are the change's, their modes too."""
    lib = committed_repo(tmp_path / "lib", {"m.v": M}, monkeypatch, tmp_path / "cache")
    repo = _repo(tmp_path, monkeypatch, {})
    sub = ("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "lib")
    _git(repo, *sub)
    _git(repo, "commit", "-q", "-m", "lib")
    os.chmod(repo / "lib" / "m.v", 0o755)
    _git(repo / "lib", "commit", "-q", "-a", "-m", "exec")
    r = _check(repo)
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert "lib/m.v: (file): its mode changed (100644 -> 100755;" in r.stdout, r.stdout[-1500:]


def test_a_verilog_file_turned_into_a_link_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Case 10's type change for a source: the link's target reads the same text, but a
    build may tell a link from a file (``[ -L m.v ]``, a copy that keeps links)."""
    repo = _repo(tmp_path, monkeypatch, {"alt/m_impl.txt": M})
    (repo / "m.v").unlink()
    (repo / "m.v").symlink_to("alt/m_impl.txt")
    r = _check(repo)
    assert r.returncode == 1, (r.stdout + r.stderr)[-1500:]
    assert "m.v: (file): its type changed (a file to a link, or back;" in r.stdout, r.stdout
