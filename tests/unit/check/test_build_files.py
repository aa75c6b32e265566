"""The gate's fail-closed rule on build files (any file neither Verilog nor documentation), on
builds running git, and on directives written after other code on their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.check._build_files import (
    build_change_findings,
    build_checks,
    git_readers,
    is_documentation,
)
from rtlopt.check._midline_directives import midline_directive_findings, midline_lines


@pytest.mark.parametrize(
    ("rel", "status"),
    [
        ("Makefile", "M"),  # a new first rule, .DEFAULT_GOAL: no tool line changes
        ("GNUmakefile", "A"),  # read before the Makefile
        ("run_tests.sh", "M"),  # the goal a script asks for
        ("fast.flag", "A"),  # an empty marker a wildcard or [ -e ] tests
        ("defs/FAST_INV.def", "A"),  # a name the build turns into a define
        ("tools/fast", "M"),  # a mode-only change (chmod +x)
        ("files.txt", "D"),
        ("old.f", "R"),
    ],
)
def test_build_file_changes_are_findings(rel: str, status: str) -> None:
    found = build_change_findings({rel: status})
    assert [r for r, _ in found] == [rel]
    assert "--trust-config" in found[0][1]


@pytest.mark.parametrize("rel", ["README.md", "docs/guide.rst", "LICENSE", "inv.v", "p.svh"])
def test_documentation_and_verilog_are_no_build_change(rel: str) -> None:
    assert build_change_findings({rel: "M"}) == []


def test_an_added_or_deleted_documentation_file_is_a_finding() -> None:
    # a marker a build tests ([ -e fast.md ]) may have any name
    assert [r for r, _ in build_change_findings({"fast.md": "A", "old.rst": "D"})] == [
        "fast.md",
        "old.rst",
    ]


def test_documentation_names() -> None:
    assert is_documentation("README") and is_documentation("doc/x.md")
    assert not is_documentation("files.txt") and not is_documentation("Makefile")


@pytest.mark.parametrize(
    "text",
    [
        "sim: ; if git log -1 --format=%B | grep -q fast; then iverilog x.v; fi\n",
        "V := $(shell git describe)\n",
        "echo $GIT_COMMIT\n",
        "subprocess.run(['git', 'rev-parse', 'HEAD'])\n",
        "cat .git/HEAD\n",
        "import git\n",
    ],
)
def test_builds_running_git_are_found(tmp_path: Path, text: str) -> None:
    (tmp_path / "sim").mkdir()
    (tmp_path / "sim" / "Makefile").write_text("all:\n\ttrue\n" + text)
    (tmp_path / "README.md").write_text("git clone it\n")
    assert git_readers(tmp_path) == [("sim/Makefile", 3)]


def test_no_git_no_reader(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("all:\n\tiverilog -o digit.vvp inv.v\n")
    (tmp_path / "README.md").write_text("git log -1\n")
    (tmp_path / "inv.v").write_text("// git log\nmodule inv; endmodule\n")
    assert git_readers(tmp_path) == []


def test_build_checks_judge_changed_build_files_not_the_commit_a_git_build_reads(
    tmp_path: Path,
) -> None:
    """A changed Makefile is a finding (none when trusted); an edited README beside a build
    running git is none (the per-commit git rule is off: see the module's doc)."""
    (tmp_path / "Makefile").write_text("all:\n\tgit log -1 --format=%B > msg\n")
    found = build_checks({"Makefile": "M"}, tmp_path, lambda rel: None, trusted=False)
    assert [m.change for m in found] == ["build"]
    assert build_checks({"Makefile": "M"}, tmp_path, lambda rel: None, trusted=True) == []
    assert build_checks({"README.md": "M"}, tmp_path, lambda rel: None, trusted=False) == []


def _midline(tmp_path: Path, old: str, new: str, status: str = "M") -> list[tuple[str, str]]:
    (tmp_path / "defs.v").write_text(new)
    return midline_directive_findings({"defs.v": status}, lambda rel: old, tmp_path)


def test_define_after_other_code_is_a_finding(tmp_path: Path) -> None:
    found = _midline(tmp_path, "`timescale 1ns/1ps\n", "`timescale 1ns/1ps `define FAST_INV\n")
    assert [r for r, _ in found] == ["defs.v"] and "FAST_INV" in found[0][1]
    # removing one is a finding too, and so is a new file holding one
    assert _midline(tmp_path, "wire a; `define X\n", "wire a;\n")
    assert _midline(tmp_path, "", "module m; endmodule `ifdef X\n", status="A")


def test_reindented_or_own_line_directives_are_no_finding(tmp_path: Path) -> None:
    old = "`timescale 1ns/1ps  `define A 1\nmodule m;\nendmodule\n"
    assert (
        _midline(tmp_path, old, "  `timescale   1ns/1ps `define A 1\nmodule m;\n endmodule\n") == []
    )
    assert _midline(tmp_path, "`timescale 1ns/1ps\n", "`timescale 1ns/1ps\n`define FAST\n") == []
    assert _midline(tmp_path, "", 'wire a; // `define X\nwire b = "`define";\n') == []
    assert midline_lines("`ifdef A `define B `endif\n")
