"""Cell areas and output pins read from a liberty text (the area breakdown's input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtlopt.pdk import CellInfo, _liberty, liberty_cells
from rtlopt.pdk._liberty import cell_infos, file_md5

LIB = """\
library (tiny) {
  /* cell (FAKE_X1) { area : 99; } is a comment, not a cell */
  cell (NAND2_X1) {
    area : 1.5;
    pin (A) { direction : input; }
    pin (B) { direction : input; }
    pin (ZN) { direction : output; function : "!(A & B)"; }
  }
  cell ("DFF_X1") {
    area : "4.25";
    ff (IQ, IQN) { next_state : "D"; clocked_on : "CK"; }
    pin (D) { direction : input; }
    pin (CK) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; }
    pin (QN) { direction : "output"; function : "IQN"; }
  }
  cell (TAP) { }
}
"""


def test_cell_infos_reads_areas_and_output_pins_and_skips_comments() -> None:
    cells = cell_infos(LIB)
    assert cells == {
        "NAND2_X1": CellInfo(1.5, frozenset({"ZN"})),
        "DFF_X1": CellInfo(4.25, frozenset({"Q", "QN"})),
        "TAP": CellInfo(0.0, frozenset()),
    }


def test_liberty_cells_rereads_a_changed_file(tmp_path: Path) -> None:
    lib = tmp_path / "tiny.lib"
    lib.write_text(LIB)
    assert liberty_cells(lib)["NAND2_X1"].area == 1.5
    lib.write_text(LIB.replace("area : 1.5;", "area : 2.75;  "))  # another size: not the cache
    assert liberty_cells(lib)["NAND2_X1"].area == 2.75


def test_liberty_cells_kept_on_disk_by_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second process reads the table from the cache, without parsing the liberty."""
    monkeypatch.setenv("RTLOPT_LIBERTY_CACHE", str(tmp_path / "cache"))
    lib = tmp_path / "tiny.lib"
    lib.write_text(LIB)
    first = dict(liberty_cells(lib))
    tables = list((tmp_path / "cache" / "cells").glob("*.json"))
    assert len(tables) == 1 and tables[0].name.startswith(file_md5(lib))
    _liberty._liberty_cells.cache_clear()  # as in a new process

    def no_parse(text: str) -> dict[str, CellInfo]:
        raise AssertionError("the liberty was parsed again")

    monkeypatch.setattr(_liberty, "cell_infos", no_parse)
    assert dict(liberty_cells(lib, file_md5(lib))) == first
    # the same bytes at another path: the same table (keyed by content, not path)
    other = tmp_path / "copy.lib"
    other.write_text(LIB)
    assert dict(liberty_cells(other)) == first


def test_liberty_cells_rewrites_a_damaged_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RTLOPT_LIBERTY_CACHE", str(tmp_path / "cache"))
    lib = tmp_path / "tiny.lib"
    lib.write_text(LIB)
    liberty_cells(lib)
    (table,) = (tmp_path / "cache" / "cells").glob("*.json")
    table.write_text('{"NAND2_X1": ')  # truncated
    _liberty._liberty_cells.cache_clear()
    assert liberty_cells(lib)["DFF_X1"] == CellInfo(4.25, frozenset({"Q", "QN"}))
    assert json.loads(table.read_text())["NAND2_X1"] == [1.5, ["ZN"]]
