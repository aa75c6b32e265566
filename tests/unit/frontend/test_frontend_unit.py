"""A filelist as one compilation unit for macros (issue 16, class 1): the macro skeletons of
sources listed before the target form the prelude, in list order."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.frontend._sources import collect_sources
from rtlopt.frontend._unit import macro_skeleton, skeleton_file


def test_skeleton_keeps_defines_undefs_and_conditionals_in_order() -> None:
    text = (
        "// header\n"
        "`define W 4\n"
        "`define MIX(a, b) \\\n"
        "  ((a) ^ (b))\n"
        "module m (input a, output y); // `define NOT_THIS (a comment)\n"
        "  assign y = a;\n"
        "`ifdef SYNTHESIS\n"
        "`undef W\n"
        "`define W 8\n"
        "`endif\n"
        "endmodule\n"
    )
    skel = macro_skeleton(text)
    lines = skel.splitlines()
    assert len(lines) == len(text.splitlines())  # line numbers kept
    assert [ln for ln in lines if ln] == [
        "`define W 4",
        "`define MIX(a, b) \\",
        "  ((a) ^ (b))",
        "`ifdef SYNTHESIS",
        "`undef W",
        "`define W 8",
        "`endif",
    ]
    assert "module" not in skel and "NOT_THIS" not in skel


def test_skeleton_drops_the_include_guard_and_module_includes() -> None:
    text = (
        '`ifndef A_V\n`define A_V\n`include "defs.vh"\n`include "sub.v"\n'
        "`define K 1\nmodule a; endmodule\n`endif\n"
    )
    kept = [ln for ln in macro_skeleton(text).splitlines() if ln]
    assert kept == ["`ifndef A_V", '`include "defs.vh"', "`define K 1", "`endif"]


def test_a_file_without_macros_has_no_skeleton() -> None:
    assert macro_skeleton("// `define X in a comment\nmodule a; endmodule\n") == ""
    assert macro_skeleton('`include "sub.v"\nmodule a; endmodule\n') == ""  # module code


def test_a_header_a_file_includes_is_its_skeleton() -> None:
    """Red-team round 125: the header may define what later files read (a guard, a macro)."""
    kept = macro_skeleton('`include "x.vh"\nmodule a; endmodule\n').splitlines()
    assert [ln for ln in kept if ln] == ['`include "x.vh"']


@pytest.fixture
def unit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "a.v").write_text("`define A 1\nmodule a; endmodule\n")
    (tmp_path / "cfg.vh").write_text("`define C 1\n")
    (tmp_path / "plain.v").write_text("module plain; endmodule\n")
    (tmp_path / "t.v").write_text("module t; endmodule\n")
    (tmp_path / "late.v").write_text("`define LATE 1\nmodule late; endmodule\n")
    (tmp_path / "u.f").write_text("a.v\ncfg.vh\nplain.v\nt.v\nlate.v\n")
    return tmp_path


def test_prelude_is_the_unit_before_the_target_in_list_order(unit: Path) -> None:
    src = collect_sources(unit / "t.v", unit, ProjectConfig(filelists=("u.f",)))
    pre = [p.name for p in src.prelude]
    assert pre[0] == "synthesis_semantics.vh"
    # a.v's skeleton, then the header; plain.v has no macros; late.v is after the target
    assert len(pre) == 3 and pre[1].startswith("a-") and pre[2] == "cfg.vh", pre
    assert "`define A 1" in src.prelude[1].read_text()
    assert (unit / "a.v").resolve() in src.files  # the source itself is still a source
    # nothing written into the repository
    assert sorted(p.name for p in unit.iterdir() if p.is_file()) == [
        "a.v",
        "cfg.vh",
        "late.v",
        "plain.v",
        "t.v",
        "u.f",
    ]


def test_the_target_listed_first_sees_no_later_source(unit: Path) -> None:
    src = collect_sources(unit / "a.v", unit, ProjectConfig(filelists=("u.f",)))
    assert [p.name for p in src.prelude] == ["synthesis_semantics.vh", "cfg.vh"]


def test_skeleton_includes_resolved_from_the_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The skeleton lives in rtlopt's cache: a header beside its source is named by absolute
    path, one in the include folders stays as written, one found nowhere is left out."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "rtl").mkdir()
    (tmp_path / "inc").mkdir()
    (tmp_path / "rtl" / "near.vh").write_text("`define NEAR 1\n")
    (tmp_path / "inc" / "far.vh").write_text("`define FAR 1\n")
    src = tmp_path / "rtl" / "b.v"
    src.write_text(
        '`include "near.vh"\n`include "far.vh"\n`include "gone.svh"\n'
        "`define B 1\nmodule b; endmodule\n"
    )
    skel = skeleton_file(src, [tmp_path / "inc"])
    assert skel is not None
    kept = [ln for ln in skel.read_text().splitlines() if ln.startswith("`")]
    near = (tmp_path / "rtl" / "near.vh").resolve().as_posix()
    assert kept == [f'`include "{near}"', '`include "far.vh"', "`define B 1"], kept


def test_a_missing_header_of_an_earlier_source_does_not_stop_the_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "early.v").write_text(
        '`include "dv_only_macros.svh"\n`define EARLY 3\nmodule early; endmodule\n'
    )
    (tmp_path / "t.v").write_text(
        "module t (input [`EARLY-1:0] a, output [`EARLY-1:0] y);\n  assign y = ~a;\nendmodule\n"
    )
    (tmp_path / "u.f").write_text("early.v\nt.v\n")
    design = load_design(tmp_path / "t.v", "t", ProjectConfig(filelists=("u.f",)))
    assert {p.name: p.width for p in design.target.ports} == {"a": 3, "y": 3}
