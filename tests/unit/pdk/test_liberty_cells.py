"""Cell areas and output pins read from a liberty text (the area breakdown's input)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.pdk import CellInfo, liberty_cells
from rtlopt.pdk._liberty import cell_infos

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
