"""rtlopt PDK plugin: the Nangate 45 nm Open Cell Library, typical corner.

The liberty ``NangateOpenCellLibrary_typical.lib.gz`` ships in this package's ``data/`` folder
with its LICENSE (the Apache-2.0 text that OpenROAD-flow-scripts distributes with the library).
It is byte-identical to The-OpenROAD-Project/OpenSTA @ d1b2b3962cd4,
``examples/nangate45_typ.lib.gz`` once decompressed. The library is purposely
non-manufacturable: use it for research and benchmarking.

rtlopt finds this plugin through the ``rtlopt.pdks`` entry point. The class below satisfies
rtlopt's ``Pdk`` Protocol by its attributes alone; the package does not import rtlopt.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["DATA", "LIBERTY", "Nangate45", "nangate45"]

DATA = Path(__file__).resolve().parent / "data"
"""The package data folder (liberty, LICENSE)."""

LIBERTY = DATA / "NangateOpenCellLibrary_typical.lib.gz"
"""The typical-corner liberty (134 cells; 1 ns, 1 fF, 1 nW; areas in um^2)."""


@dataclass(frozen=True)
class Nangate45:
    """What rtlopt's ``Pdk`` Protocol asks of a PDK; every value but the liberty's location is
    the one of rtlopt's built-in ``nangate45``."""

    name: str = "nangate45"
    description: str = (
        "Nangate45 Open Cell Library, typical corner (research use; Apache-2.0 text), bundled"
    )
    liberty_files: tuple[str, ...] = (str(LIBERTY),)
    corner: str = "typical"
    tie_hi: tuple[str, str] | None = ("LOGIC1_X1", "Z")
    tie_lo: tuple[str, str] | None = ("LOGIC0_X1", "Z")
    dont_use: tuple[str, ...] = ()
    default_clock_period_ns: float = 10.0

    def download(self, dest: Path) -> Path:
        """Nothing to fetch: the liberty is bundled. Returns it."""
        return LIBERTY


def nangate45() -> Nangate45:
    """The entry point: a zero-argument factory returning the PDK's description."""
    return Nangate45()
