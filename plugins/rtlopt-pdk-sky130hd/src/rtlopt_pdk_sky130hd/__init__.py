"""rtlopt PDK plugin: SkyWater 130 nm high-density cells (sky130_fd_sc_hd), typical corner.

The liberty ``sky130_fd_sc_hd__tt_025C_1v80.lib.gz`` and the cell Verilog models
(``sky130_hd.v.gz`` with the primitives they need, ``sky130_hd_primitives.v.gz``) ship in this
package's ``data/`` folder with their license (Apache-2.0, the SkyWater PDK authors). They are
byte-identical to the files in The-OpenROAD-Project/OpenSTA @ d1b2b3962cd4, ``examples/``
(``sky130hd_tt.lib.gz``, ``sky130_hd.v``, ``sky130_hd_primitives.v``), re-compressed with
``gzip -9 -n``.

rtlopt finds this plugin through the ``rtlopt.pdks`` entry point; nothing in rtlopt names the
package. The class below satisfies rtlopt's ``Pdk`` Protocol (and ``PdkCellModels``) by its
attributes alone, so the package does not import rtlopt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CELL_MODELS", "DATA", "LIBERTY", "Sky130hd", "sky130hd"]

DATA = Path(__file__).resolve().parent / "data"
"""The package data folder (liberty, cell models, LICENSE)."""

LIBERTY = DATA / "sky130_fd_sc_hd__tt_025C_1v80.lib.gz"
"""The typical-corner liberty (12.8 MB decompressed; rtlopt decompresses it once into its
cache, since Yosys 0.23 cannot read gzip)."""

CELL_MODELS = (DATA / "sky130_hd_primitives.v.gz", DATA / "sky130_hd.v.gz")
"""Functional Verilog models of every cell, primitives first (compile with ``-DFUNCTIONAL``)."""


@dataclass(frozen=True)
class Sky130hd:
    """What rtlopt's ``Pdk`` Protocol asks of a PDK; every value but the liberty's location is
    the one of rtlopt's built-in ``sky130hd``, so results do not depend on which is installed."""

    name: str = "sky130hd"
    description: str = (
        "SkyWater 130nm sky130_fd_sc_hd, typical corner tt_025C_1v80 (Apache-2.0), bundled"
    )
    # An absolute path: rtlopt uses it as it is instead of searching RTLOPT_PDK_PATH.
    liberty_files: tuple[str, ...] = (str(LIBERTY),)
    corner: str = "tt_025C_1v80"
    tie_hi: tuple[str, str] | None = ("sky130_fd_sc_hd__conb_1", "HI")
    tie_lo: tuple[str, str] | None = ("sky130_fd_sc_hd__conb_1", "LO")
    # Empty: the TTT-RTL paper's C910 reference (3,402,207 um^2*ps) was measured with every cell
    # allowed. Flows that want them out set flow.dont_use = ["*lpflow*", "*probe*", ...].
    dont_use: tuple[str, ...] = ()
    default_clock_period_ns: float = 10.0
    cell_models: tuple[Path, ...] = field(default=CELL_MODELS)

    def download(self, dest: Path) -> Path:
        """Nothing to fetch: the liberty is bundled. Returns it."""
        return LIBERTY


def sky130hd() -> Sky130hd:
    """The entry point: a zero-argument factory returning the PDK's description."""
    return Sky130hd()
