"""The walk's elaboration reads the build the configuration lists: of two files defining a
module, the filelist's (read first) wins over a stale copy elsewhere in the repository, whatever
the file names (round 48: a copy named so that it sorted first hid the filelist's ``top``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.errors import DesignError
from rtlopt.frontend import load_design
from rtlopt.frontend._one_build import build_files
from rtlopt.frontend._open_inputs import open_inputs
from rtlopt.frontend.model import Design

M = "module m(input a, input b, output reg y);\n  always @* if (b) y = a; else y = 1'b0;\nendmodule\n"
#: The build's top: an always_latch no clock opens feeds b (x while en is 0).
TOP_X = (
    "module top(input a, input en, output y);\n  reg bw;\n  always_latch if (en) bw = 1'b1;\n"
    "  m u(.a(a), .b(bw), .y(y));\nendmodule\n"
)
STALE = "module top(input a, input en, output y);\n  m u(.a(a), .b(en), .y(y));\nendmodule\n"


def _repo(tmp_path: Path, stale: str) -> Path:
    tmp_path.mkdir()
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "top_x.v").write_text(TOP_X)
    (tmp_path / stale).write_text(STALE)
    (tmp_path / "rtl.f").write_text("m.v\ntop_x.v\n")
    return tmp_path


def test_the_filelists_version_of_a_module_wins_over_a_stale_copy(tmp_path: Path) -> None:
    for stale in ("top.v", "z_top.v"):  # sorting before and after the listed file
        root = _repo(tmp_path / stale.replace(".", "_"), stale)
        design = load_design(root / "m.v", "m", ProjectConfig(filelists=(str(root / "rtl.f"),)))
        names = [p.name for p in build_files(design)]
        assert "top_x.v" in names and stale not in names, names
        found = open_inputs(design)
        assert [(o.instance, o.port, o.kind) for o in found] == [("top.u", "b", "latch")], stale


def test_the_targets_own_file_is_kept_beside_another_version(tmp_path: Path) -> None:
    (tmp_path / "a_m.v").write_text(M.replace("y = 1'b0", "y = 1'b1"))
    (tmp_path / "m.v").write_text(M)
    (tmp_path / "top.v").write_text(STALE)
    design = load_design(tmp_path / "m.v", "m", ProjectConfig())
    names = [p.name for p in build_files(design)]
    assert "m.v" in names and "a_m.v" not in names, names


def test_the_module_table_takes_the_filelists_version_too(tmp_path: Path) -> None:
    """``Design.modules`` (what the tools compile) keeps the filelist's ``top`` over a stale copy
    in the same folder, lazily parsed or not (round 48: the copy sorting first won)."""
    for lazy in (True, False):
        for stale in ("top.v", "z_top.v"):
            root = _repo(tmp_path / f"{lazy}_{stale.replace('.', '_')}", stale)
            project = ProjectConfig(filelists=(str(root / "rtl.f"),), lazy_parse=lazy)
            design = load_design(root / "m.v", "m", project)
            assert design.modules["top"].file.name == "top_x.v", (lazy, stale)


# round 51: the build's own rules decide which definition counts
#: ``mid`` as the build compiles it: b tied to x.
MID_X = "module mid(input a, input en, output y);\n  m u(.a(a), .b(1'bx), .y(y));\nendmodule\n"
#: A stale ``mid`` the build does not compile: b defined.
MID_OK = "module mid(input a, input en, output y);\n  m u(.a(a), .b(en), .y(y));\nendmodule\n"
TOP_MID = "module top(input a, input en, output y);\n  mid u0(.a(a), .en(en), .y(y));\nendmodule\n"


def _files(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _design(root: Path, lazy: bool = True, target: str = "m") -> Design:
    project = ProjectConfig(filelists=(str(root / "files.f"),), lazy_parse=lazy)
    return load_design(root / f"{target}.v", target, project)


def _fed_x(design: Design) -> list[tuple[str, str, str]]:
    return [(o.instance, o.port, o.kind) for o in open_inputs(design)]


def _library(root: Path, *, stale: bool) -> Path:
    files = {"m.v": M, "top.v": TOP_MID, "lib/mid.v": MID_X}
    if stale:
        files["lib/aaa.v"] = MID_OK  # sorts first; the -y search never loads it for mid
    files["files.f"] = "top.v\nm.v\n-y lib\n+libext+.v\n"
    return _files(root, files)


def test_a_library_folder_gives_a_module_from_the_file_named_after_it(tmp_path: Path) -> None:
    """FA-9: ``-y lib`` loads ``lib/mid.v`` for ``mid``, not a stale ``lib/aaa.v`` that
    sorts first; with ``lib/mid.v`` alone (negative control) nothing changes."""
    for stale in (True, False):
        root = _library(tmp_path / str(stale), stale=stale)
        for lazy in (True, False):
            design = _design(root, lazy)
            names = [p.name for p in build_files(design)]
            assert names == ["top.v", "m.v", "mid.v"], (stale, lazy, names)
            assert design.modules["mid"].file == root / "lib" / "mid.v", (stale, lazy)
            assert _fed_x(design) == [("top.u0.u", "b", "x")], (stale, lazy)
            top = _design(root, lazy, "top")
            assert top.modules["mid"].file == root / "lib" / "mid.v", (stale, lazy)
            assert root / "lib" / "aaa.v" not in top.closure, (stale, lazy)


def test_a_module_an_included_header_defines_is_the_includers(tmp_path: Path) -> None:
    """FA-10: ``top.v`` includes the header defining ``mid``; a stale ``mid.v`` outside the
    filelist is another build's (the walk, the module table and the index agree)."""
    root = _files(
        tmp_path / "repo",
        {
            "m.v": M,
            "top.v": f'`include "mid_impl.vh"\n{TOP_MID}',
            "inc/mid_impl.vh": MID_X,
            "mid.v": MID_OK,
            "files.f": "+incdir+inc\ntop.v\nm.v\n",
        },
    )
    header = root / "inc" / "mid_impl.vh"
    for lazy in (True, False):
        design = _design(root, lazy)
        assert [p.name for p in build_files(design)] == ["top.v", "m.v"], lazy
        assert design.modules["mid"].file == header, lazy
        assert _fed_x(design) == [("top.u0.u", "b", "x")], lazy
        assert _design(root, lazy, "top").modules["mid"].file == header, lazy


@pytest.mark.parametrize("form", ["second_loaded_file", "two_suffixes"])
def test_two_library_definitions_the_build_may_use_fail_closed(tmp_path: Path, form: str) -> None:
    """Where the build's definition cannot be told, both files are named: a library file
    loaded for its own module that defines another library file's module too (which one
    counts depends on the order the build needs them), or one folder holding the module
    under two ``+libext+`` suffixes (iverilog 11 takes ``.sv`` whatever the order)."""
    files = {"m.v": M, "top.v": TOP_MID, "lib/mid.v": MID_X}
    if form == "second_loaded_file":
        files["lib/helper.v"] = "module helper(output h);\n  assign h = 1'b0;\nendmodule\n"
        files["lib/mid.v"] = MID_X + "module helper(output h);\n  assign h = 1'b1;\nendmodule\n"
        files["top.v"] = TOP_MID.replace("endmodule", "  helper hh(.h());\nendmodule")
        files["files.f"] = "top.v\nm.v\n-y lib\n+libext+.v\n"
        named = ("mid.v", "helper.v")
    else:
        files["lib/mid.sv"] = MID_OK
        files["files.f"] = "top.v\nm.v\n-y lib\n+libext+.v+.sv\n"
        named = ("mid.v", "mid.sv")
    design = _design(_files(tmp_path / "repo", files))
    with pytest.raises(DesignError) as err:
        build_files(design)
    said = str(err.value)
    assert all(n in said for n in named) and "cannot be told" in said, said
    with pytest.raises(RuntimeError, match="cannot be told"):
        open_inputs(design)
    with pytest.raises(DesignError, match="cannot be told"):
        _design(tmp_path / "repo", target="top")


def test_a_header_definition_after_an_earlier_listed_one_fails_closed(tmp_path: Path) -> None:
    """Round 53: ``mid.v`` (listed first) and the header ``m.v`` includes both define ``mid``
    behind one include guard: the build compiles ``mid.v``'s, and the header's ranked first
    (the target's file) was walked. Guards and ```ifdef``s are not followed: both named."""
    guard = "`ifndef MID_DONE\n`define MID_DONE\n{}`endif\n"
    root = _files(
        tmp_path / "repo",
        {
            "m.v": f'`include "mid_impl.vh"\n{M}',
            "top.v": TOP_MID,
            "inc/mid_impl.vh": guard.format(MID_OK),
            "mid.v": guard.format(MID_X),
            "files.f": "+incdir+inc\nmid.v\ntop.v\nm.v\n",
        },
    )
    for lazy in (True, False):
        design = _design(root, lazy)
        with pytest.raises(DesignError) as err:
            build_files(design)
        said = str(err.value)
        assert "mid.v" in said and "through a header" in said and "cannot be told" in said, said


def test_a_repository_without_duplicates_keeps_every_file(tmp_path: Path) -> None:
    root = _files(
        tmp_path / "repo",
        {"m.v": M, "top.v": TOP_MID, "mid.v": MID_X, "files.f": "top.v\nmid.v\nm.v\n"},
    )
    design = _design(root)
    assert [p.name for p in build_files(design)] == ["top.v", "mid.v", "m.v"]
    assert _fed_x(design) == [("top.u0.u", "b", "x")]


def test_a_file_that_includes_a_modules_file_holds_no_second_definition(tmp_path: Path) -> None:
    """Held-out trial 52 (bmartini's verilog-arbiter): each file includes the files of the
    modules it instantiates behind a guard (`example.v` includes `timer.v`); every change of
    `timer` was "defined through a header example.v includes and in timer.v". A stale copy
    beside it (a header no file includes that defines it too) still fails closed."""
    timer = (
        "`ifndef _timer_\n`define _timer_\n" + M.replace("module m", "module timer") + "`endif\n"
    )
    top = (
        '`include "timer.v"\nmodule a_top(input a, input b, output y);\n'
        "  timer t(.a(a), .b(b), .y(y));\nendmodule\n"
    )
    (tmp_path / "timer.v").write_text(timer)
    (tmp_path / "a_top.v").write_text(top)  # sorts before timer.v
    design = load_design(tmp_path / "timer.v", "timer", ProjectConfig(), root=tmp_path)
    names = [p.name for p in build_files(design)]
    assert "timer.v" in names, names
    (tmp_path / "copy.vh").write_text(timer.replace("_timer_", "_copy_"))
    (tmp_path / "a_top.v").write_text('`include "copy.vh"\n' + top)
    design = load_design(tmp_path / "timer.v", "timer", ProjectConfig(), root=tmp_path)
    with pytest.raises(DesignError, match="defined through a header"):
        build_files(design)
