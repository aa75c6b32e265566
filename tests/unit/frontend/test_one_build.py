"""The walk's elaboration reads the build the configuration lists: of two files defining a
module, the filelist's (read first) wins over a stale copy elsewhere in the repository, whatever
the file names (round 48: a copy named so that it sorted first hid the filelist's ``top``)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design
from rtlopt.frontend._one_build import build_files
from rtlopt.frontend._open_inputs import open_inputs

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
