"""Which file defines a module each build reads (``check/_definitions``), on plain folders: the
tiers of a filelist's lookup and of the scan, and which base/change pairs are a swap. No git,
no EDA tool (the gate around it: tests/integration/test_redteam_w16_gate.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.check._definitions import SCAN, Lookup, changed_names, definition_findings, swapped
from rtlopt.config import ProjectConfig
from rtlopt.frontend._depgraph import design_graph

SUB = "module sub (input [3:0] d, output [3:0] q);\n  assign q = d {} 4'd1;\nendmodule\n"
TOP = "module tgt (input [3:0] a, output [3:0] y);\n  sub s (.d(a), .q(y));\nendmodule\n"
FILELIST = ProjectConfig(filelists=("design.f",))


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _files(lookup: Lookup, build: str, user: str = "top/top.v") -> set[str]:
    return {f for f, _ in lookup.resolve(build, "sub", user)}


def test_a_library_folder_reads_every_suffix_of_the_name(tmp_path: Path) -> None:
    """One -y folder with sub.v and sub.sv: which one a tool takes differs, so both count."""
    tree = _tree(
        tmp_path,
        {
            "top/top.v": TOP,
            "lib/sub.v": SUB.format("+"),
            "lib/sub.sv": SUB.format("-"),
            "lib/sub_old.v": SUB.format("-"),  # not named sub: the lookup never reads it
            "design.f": "-y lib\n+libext+.v+.sv\ntop/top.v\n",
        },
    )
    assert _files(Lookup(tree, FILELIST), "design.f") == {"lib/sub.v", "lib/sub.sv"}


def test_the_first_library_folder_holding_the_name_wins(tmp_path: Path) -> None:
    files = {
        "top/top.v": TOP,
        "libA/sub.v": SUB.format("-"),
        "libB/sub.v": SUB.format("+"),
        "design.f": "-y libA\n-y libB\n+libext+.v\ntop/top.v\n",
    }
    assert _files(Lookup(_tree(tmp_path / "a", files), FILELIST), "design.f") == {"libA/sub.v"}
    files["design.f"] = "-y libB\n-y libA\n+libext+.v\ntop/top.v\n"
    assert _files(Lookup(_tree(tmp_path / "b", files), FILELIST), "design.f") == {"libB/sub.v"}


def test_a_listed_file_wins_over_the_library_and_the_scan(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "top/top.v": TOP,
            "top/sub.v": SUB.format("-"),  # the user's folder: only the scan prefers it
            "lib/sub.v": SUB.format("-"),
            "rtl/sub_listed.v": SUB.format("+"),
            "design.f": "-y lib\ntop/top.v\nrtl/sub_listed.v\n",
        },
    )
    assert _files(Lookup(tree, FILELIST), "design.f") == {"rtl/sub_listed.v"}


def test_the_scan_prefers_the_users_folder_then_reads_every_definition(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {"rtl/top.v": TOP, "rtl/sub.v": SUB.format("+"), "legacy/sub.v": SUB.format("-")},
    )
    lookup = Lookup(tree, ProjectConfig())
    assert list(lookup.builds) == [SCAN]
    assert _files(lookup, SCAN, "rtl/top.v") == {"rtl/sub.v"}
    assert _files(lookup, SCAN, "other/top.v") == {"rtl/sub.v", "legacy/sub.v"}


@pytest.mark.parametrize(
    ("before", "after", "swap"),
    [
        ({("a.v", "T")}, {("b.v", "T")}, False),  # renamed unchanged
        ({("a.v", "T")}, {("a.v", "U")}, False),  # edited in place: judged as a change
        (set(), {("a.v", "T")}, False),  # a new module
        ({("a.v", "T")}, set(), False),  # a removed one (still_instantiated)
        ({("a.v", "T")}, {("b.v", "U")}, True),
        ({("a.v", "T")}, {("a.v", "T"), ("b.v", "U")}, True),  # another suffix beside it
        ({("a.v", "T"), ("b.v", "U")}, {("b.v", "U")}, True),  # the preferred one deleted
    ],
)
def test_a_swap_is_another_file_and_another_text(
    before: set[tuple[str, str]], after: set[tuple[str, str]], swap: bool
) -> None:
    assert swapped(frozenset(before), frozenset(after)) is swap


def test_a_finding_names_the_user_and_both_files_and_skips_what_is_flagged(
    tmp_path: Path,
) -> None:
    base = _tree(
        tmp_path / "base",
        {"rtl/top.v": TOP, "rtl/sub.v": SUB.format("+"), "legacy/sub.v": SUB.format("-")},
    )
    new = _tree(tmp_path / "new", {"rtl/top.v": TOP, "legacy/sub.v": SUB.format("-")})
    lookups = (Lookup(base, ProjectConfig()), Lookup(new, ProjectConfig()))
    changes = {"rtl/sub.v": "D"}
    assert changed_names(base, new, changes) == {"sub"}
    [row] = definition_findings(lookups, design_graph(new), changes)
    assert (row.file, row.module) == ("rtl/top.v", "sub")
    [finding] = row.findings
    assert "rtl/top.v:2" in finding and "legacy/sub.v" in finding and "rtl/sub.v" in finding
    # one finding per change: a file that has one already is not reported twice
    assert definition_findings(lookups, design_graph(new), changes, flagged=["legacy/sub.v"]) == []
    # nothing instantiates it: no finding
    (new / "rtl" / "top.v").write_text("module tgt (input a, output y);\nendmodule\n")
    assert definition_findings(lookups, design_graph(new), changes) == []


def test_only_names_a_changed_file_starts_or_stops_defining_are_looked_up(tmp_path: Path) -> None:
    """An edit in place keeps the set of defining files (the module is judged as changed);
    a file added, deleted or renamed moves it."""
    base = _tree(tmp_path / "base", {"a.v": SUB.format("+") + TOP, "old.v": SUB.format("-")})
    new = _tree(tmp_path / "new", {"a.v": SUB.format("-") + TOP, "b.sv": SUB.format("-")})
    assert changed_names(base, new, {"a.v": "M"}) == set()
    assert changed_names(base, new, {"old.v": "D", "b.sv": "A"}) == {"sub"}
    assert changed_names(base, new, {"old.v": "D", "b.sv": "A", "notes.txt": "A"}) == {"sub"}
