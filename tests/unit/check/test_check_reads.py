"""What the gate reads: both sides as a checkout of each reads them (their own
``.gitattributes``), the files the design reads whatever their suffix, and which submodule
folders the design may read. Real git repositories in temporary folders, no EDA tool."""

from __future__ import annotations

import subprocess
from pathlib import Path

import git

from rtlopt.check._git import checkout_tree, context_tree
from rtlopt.check._reads import DesignReads, design_reads, read_under, untracked_findings
from rtlopt.config import ProjectConfig

KEYWORDS = 'module m; localparam T = "$Id$"; localparam F = "$Format:%H$"; endmodule\n'


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", "-C", str(repo), *args],
        check=True,
        capture_output=True,
    )


def _repo(tmp_path: Path, files: dict[str, str]) -> git.Repo:
    root = tmp_path / "repo"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    _git(tmp_path, "init", "-q", "-b", "main", str(root))
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    return git.Repo(root)


def test_each_side_is_read_with_its_own_attributes(tmp_path: Path) -> None:
    # the base has export attributes (git archive would expand $Format$ and drop the file) and
    # no ident; the change adds ident: the base reads the blob, the change the expanded $Id$
    repo = _repo(tmp_path, {"a.v": KEYWORDS, ".gitattributes": "a.v export-subst\n"})
    root = Path(repo.working_tree_dir or "")
    (root / ".gitattributes").write_text("a.v export-subst export-ignore ident\n")
    _git(root, "add", "-A")
    base = checkout_tree(repo, tmp_path / "base", "HEAD").joinpath("a.v").read_text()
    assert base == KEYWORDS  # the work tree's ident is not the base's
    for staged in (True, False):
        new = context_tree(repo, root, tmp_path / f"new-{staged}", staged=staged)
        text = (new / "a.v").read_text()
        assert '"$Id: ' in text and "$Format:%H$" in text, (staged, text)
    assert (root / "a.v").read_text() == KEYWORDS  # the user's work tree is untouched


def test_library_files_are_read_whatever_their_suffix(tmp_path: Path) -> None:
    files = {
        "files.f": "-y lib\n+libext+.vlib\n-v cells/std.lib\nrtl/top.v\n",
        "rtl/top.v": "module top; endmodule\n",
        "lib/op.vlib": "module op; endmodule\n",
        "lib/notes.txt": "not a library file\n",
        "cells/std.lib": "module std; endmodule\n",
    }
    repo = _repo(tmp_path, files)
    reads = design_reads(Path(repo.working_tree_dir or ""), ProjectConfig(filelists=("files.f",)))
    assert {"lib/op.vlib", "cells/std.lib", "rtl/top.v"} <= reads.files
    assert "lib/notes.txt" not in reads.files
    assert ".vlib" in reads.suffixes and "lib" in reads.folders


def test_a_submodule_the_gate_cannot_read_is_named_with_what_reads_it() -> None:
    none = DesignReads(frozenset(), (), ())
    lib = DesignReads(frozenset({"ip/op.vlib", "ipx/a.v"}), (), ("ip/rtl", "ipx"))
    assert read_under("ip", [none]) == "the gate cannot see its files"
    assert read_under("ip", [lib]) == "the design reads ip/op.vlib; the rules name ip/rtl"


def test_a_commit_is_judged_without_untracked_files_and_those_the_design_may_read_are_named(
    tmp_path: Path,
) -> None:
    files = {"files.f": "rtl/top.v\n", "rtl/top.v": '`include "defs.inc"\nmodule top; endmodule\n'}
    repo = _repo(tmp_path, files)
    root = Path(repo.working_tree_dir or "")
    untracked = {
        "rtl/w.vh": "`define X\n",  # a header: an include may read it
        "rtl/defs.inc": "`define Y\n",  # named by an include
        "lib/extra.vlib": "module extra; endmodule\n",  # nothing names it
        "notes.txt": "to do\n",
        "rtl/extra.v": "module extra2; endmodule\n",  # the scan reads it
        "sim/tb.v": "module tb; endmodule\n",  # excluded from the scan, named by nothing
    }
    for rel, text in untracked.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    new = context_tree(repo, root, tmp_path / "new", staged=True)
    assert not (new / "rtl/w.vh").exists() and (new / "rtl/top.v").is_file()
    assert (context_tree(repo, root, tmp_path / "work", staged=False) / "rtl/w.vh").is_file()
    project = ProjectConfig(filelists=("files.f",), exclude=("sim/*",))
    found = dict(untracked_findings(root, untracked, [project]))
    assert sorted(found) == ["rtl/defs.inc", "rtl/extra.v", "rtl/w.vh"]
    assert all("is not staged" in f for f in found.values())
    # a -y folder reads it: then it is named
    (root / "files.f").write_text("-y lib\n+libext+.vlib\nrtl/top.v\n")
    found = dict(untracked_findings(root, untracked, [project]))
    assert "lib/extra.vlib" in found and "notes.txt" not in found and "sim/tb.v" not in found


def test_an_untracked_file_a_text_in_a_dot_folder_names_is_named(tmp_path: Path) -> None:
    """Round 79 (dot folders): ``.ci/sim.f`` reads ``lib/extra.vlib``; a build may run it."""
    files = {"files.f": "rtl/top.v\n", "rtl/top.v": "module top; endmodule\n"}
    files[".ci/sim.f"] = "-v lib/extra.vlib\nrtl/top.v\n"
    repo = _repo(tmp_path, files)
    root = Path(repo.working_tree_dir or "")
    untracked = {"lib/extra.vlib": "module extra; endmodule\n"}
    (root / "lib").mkdir()
    (root / "lib/extra.vlib").write_text(untracked["lib/extra.vlib"])
    found = dict(untracked_findings(root, untracked, [ProjectConfig(filelists=("files.f",))]))
    assert "lib/extra.vlib" in found, found
