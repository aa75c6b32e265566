"""Changed symlinks the design reads through (``check._links``): two plain folders stand for
the base's and the change's checkouts; no git, no EDA tool."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rtlopt.check._links import hard_link_findings, link_findings, passed_links
from rtlopt.config import ProjectConfig

SUB = "module sub; endmodule\n"


def _side(root: Path, files: dict[str, str], links: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    for rel, target in links.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).symlink_to(target)
    return root


def _found(
    tmp_path: Path,
    files: dict[str, str],
    old: dict[str, str],
    new: dict[str, str],
    **project: object,
) -> list[str]:
    cfg = ProjectConfig(**project)
    base = _side(tmp_path / "base", files, old)
    after = _side(tmp_path / "new", files, new)
    changes = dict.fromkeys({*old, *new}, "M")
    return [rel for rel, _ in link_findings(changes, [(base, cfg), (after, cfg)])]


IMPLS = {"impl_a/sub.v": SUB, "impl_b/sub.v": SUB, "top.v": SUB}


@pytest.mark.parametrize(
    ("listed", "link", "old", "new"),
    [
        ("-y lib\ntop.v\n", "lib", "impl_a", "impl_b"),  # a library folder
        ("rtl/impl/sub.v\ntop.v\n", "rtl/impl", "../impl_a", "../impl_b"),  # a listed file
        ("+incdir+hdrs\ntop.v\n", "hdrs", "impl_a", "impl_b"),  # an include folder
        ("-f cfg/more.f\ntop.v\n", "cfg", "impl_a", "impl_b"),  # a nested filelist's folder
    ],
)
def test_a_changed_symlink_a_filelist_path_passes_through_is_a_finding(
    tmp_path: Path, listed: str, link: str, old: str, new: str
) -> None:
    files = {**IMPLS, "files.f": listed, "impl_a/more.f": "", "impl_b/more.f": ""}
    assert _found(tmp_path, files, {link: old}, {link: new}, filelists=("files.f",)) == [link]


def test_a_folder_variable_and_an_include_folder_of_the_configuration(tmp_path: Path) -> None:
    files = {**IMPLS, "files.f": "${IP}/sub.v\ntop.v\n"}
    found = _found(
        tmp_path,
        files,
        {"ip": "impl_a"},
        {"ip": "impl_b"},
        filelists=("files.f",),
        filelist_vars=("IP=ip",),
    )
    assert found == ["ip"]
    found = _found(tmp_path, IMPLS, {"rtl/hdrs": "../impl_a"}, {}, include_dirs=("rtl/hdrs",))
    assert found == ["rtl/hdrs"]  # removed: the base read through it


def test_an_include_of_a_folder_named_like_the_link(tmp_path: Path) -> None:
    files = {**IMPLS, "top.v": '`include "cfg/w.vh"\nmodule top; endmodule\n'}
    assert _found(tmp_path, files, {"rtl/cfg": "../impl_a"}, {"rtl/cfg": "../impl_b"}) == [
        "rtl/cfg"
    ]


def test_a_verilog_file_link_the_rules_read_is_judged_by_its_text(tmp_path: Path) -> None:
    files = {**IMPLS, "files.f": "top.v\nrtl/sub.v\n"}
    # a Verilog file that is a link: judged by its target's text, as a changed source
    found = _found(
        tmp_path,
        files,
        {"rtl/sub.v": "../impl_a/sub.v"},
        {"rtl/sub.v": "../impl_b/sub.v"},
        filelists=("files.f",),
    )
    assert found == []


@pytest.mark.parametrize(
    ("link", "old", "new"),
    [
        ("rtl", "impl_a", "impl_b"),  # a folder a Makefile compiles rtl/sub.v through
        ("docs/latest", "../impl_a", "../impl_b"),  # any folder: a glob or a script may
        ("data/init.hex", "../impl_a/a.hex", "../impl_b/a.hex"),  # a file a testbench reads
        ("sim/run.sh", "../impl_a/sub.v", None),  # removed
    ],
)
def test_a_changed_symlink_the_rules_do_not_pass_is_a_finding(
    tmp_path: Path, link: str, old: str, new: str | None
) -> None:
    files = {**IMPLS, "files.f": "top.v\nimpl_a/sub.v\n"}
    after = {link: new} if new else {}
    assert _found(tmp_path, files, {link: old}, after, filelists=("files.f",)) == [link]


def test_passed_links_follows_the_kernel(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "l1").symlink_to("a")
    (tmp_path / "a" / "l2").symlink_to("b")
    got = passed_links(str(tmp_path / "l1" / "l2" / "x.v"))
    real = tmp_path.resolve()
    assert got == [(str(real / "l1"), False), (str(real / "a" / "l2"), False)]


def test_an_outside_file_hard_linking_a_work_tree_file_is_a_finding(tmp_path: Path) -> None:
    top, ext, lib = tmp_path / "repo", tmp_path / "ext", tmp_path / "lib"
    for d in (top / "inc", top / "untracked", ext, lib):
        d.mkdir(parents=True)
    (top / "inc/w.vh").write_text("`define OP &\n")
    (top / "untracked/x.vh").write_text("`define X 1\n")
    (ext / "other.vh").write_text("`define Y 1\n")
    (ext / "copy.vh").write_text("`define OP &\n")  # a copy, not a link: no finding
    (lib / "pair.v").write_text("module pair; endmodule\n")
    os.link(lib / "pair.v", lib / "twin.v")  # linked, but not to the work tree
    assert hard_link_findings([ext, lib / "pair.v"], top) == []
    os.link(top / "inc/w.vh", ext / "w.vh")  # in an include folder
    os.link(top / "untracked/x.vh", tmp_path / "x.vh")  # a listed file
    found = dict(hard_link_findings([ext, tmp_path / "x.vh"], top))
    assert sorted(found) == ["inc/w.vh", "untracked/x.vh"]
    assert found["inc/w.vh"].startswith(f"{ext / 'w.vh'} is the same file as inc/w.vh")
    # x.vh's folder holds the repository too: the repository's own files are not outside
    assert found["untracked/x.vh"].startswith(f"{tmp_path / 'x.vh'} is the same file as")
    assert hard_link_findings([], top) == []


def test_a_changed_symlink_out_of_the_repository_or_to_nothing_is_a_finding(
    tmp_path: Path,
) -> None:
    """Round 73: a listed source that is a symlink to a shared IP file outside the
    repository, retargeted: the frontend skips it on both sides (no text of it is judged),
    so the link is a finding, like one that points at nothing; whatever the rules name."""
    ext = tmp_path / "ip"
    ext.mkdir()
    (ext / "a1.v").write_text("module a; endmodule\n")
    (ext / "a2.v").write_text("module a; endmodule\n")
    files = {**IMPLS, "files.f": "top.v\nrtl/a.v\n"}
    old, new = {"rtl/a.v": str(ext / "a1.v")}, {"rtl/a.v": str(ext / "a2.v")}
    found = dict(link_findings({"rtl/a.v": "M"}, _sides(tmp_path / "1", files, old, new)))
    assert list(found) == ["rtl/a.v"], found
    assert f"points outside the repository ({ext / 'a1.v'})" in found["rtl/a.v"]
    unlisted = {"docs/x.v": str(ext / "a1.v"), "rtl/gone.v": "../impl_a/none.v"}
    got = _found(tmp_path / "2", IMPLS, {}, unlisted)  # added: outside, and to nothing
    assert got == ["docs/x.v", "rtl/gone.v"]


def _sides(
    root: Path, files: dict[str, str], old: dict[str, str], new: dict[str, str]
) -> list[tuple[Path, ProjectConfig]]:
    cfg = ProjectConfig(filelists=("files.f",))
    return [(_side(root / "base", files, old), cfg), (_side(root / "new", files, new), cfg)]


def test_a_verilog_file_link_a_design_without_filelists_reads_is_judged_by_its_text(
    tmp_path: Path,
) -> None:
    found = _found(tmp_path, IMPLS, {"m.v": "impl_a/sub.v"}, {"m.v": "impl_b/sub.v"})
    assert found == []
