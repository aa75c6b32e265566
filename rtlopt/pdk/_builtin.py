"""First-party PDK plugins: SkyWater sky130hd and Nangate45 (typical corners)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rtlopt.pdk._download import download_static

# The OpenSTA repository ships both typical-corner files under examples/ (Apache-2.0).
_OPENSTA_RAW = (
    "https://raw.githubusercontent.com/The-OpenROAD-Project/OpenSTA/"
    "d1b2b3962cd47539c748bb163da5de2bd5d2f85f/examples/"
)


@dataclass(frozen=True)
class StaticPdk:
    """A PDK described by constants; ``download`` fetches its liberty from a URL.

    Attributes:
        name: Plugin name, also the folder name on the search path.
        description: One line for ``rtlopt pdk list``.
        liberty_files: Accepted liberty file names, first preferred (``.gz`` variants are
            tried too).
        corner: Process corner of the liberty.
        tie_hi: (cell, pin) driving constant 1.
        tie_lo: (cell, pin) driving constant 0.
        dont_use: Cell name patterns kept away from ABC by default.
        default_clock_period_ns: Clock period used unless configured.
        url: Where ``rtlopt pdk download`` fetches the (gzip'd) liberty from.
        ciel_pdk: open_pdks family name for ``ciel`` (None: ciel not applicable).
        ciel_lib_path: Liberty path inside a ciel-enabled PDK root.
        license: License of the liberty file.
    """

    name: str
    description: str
    liberty_files: tuple[str, ...]
    corner: str
    tie_hi: tuple[str, str] | None
    tie_lo: tuple[str, str] | None
    dont_use: tuple[str, ...] = ()
    default_clock_period_ns: float = 10.0
    url: str | None = None
    ciel_pdk: str | None = None
    ciel_lib_path: str | None = None
    license: str = ""
    recommended_dont_use: tuple[str, ...] = field(default=())

    def download(self, dest: Path) -> Path:
        """Fetch the liberty into ``dest`` (the PDK's folder); see ``rtlopt.pdk.download_pdk``."""
        return download_static(self, dest)


def sky130hd() -> StaticPdk:
    """SkyWater 130 nm high-density standard cells, tt_025C_1v80."""
    return StaticPdk(
        name="sky130hd",
        description="SkyWater 130nm sky130_fd_sc_hd, typical corner tt_025C_1v80 (Apache-2.0)",
        liberty_files=("sky130_fd_sc_hd__tt_025C_1v80.lib",),
        corner="tt_025C_1v80",
        tie_hi=("sky130_fd_sc_hd__conb_1", "HI"),
        tie_lo=("sky130_fd_sc_hd__conb_1", "LO"),
        # Empty by default: the TTT-RTL paper's C910 reference (3,402,207 um^2*ps) was measured
        # with every cell allowed, lpflow isolation cells included.
        dont_use=(),
        recommended_dont_use=("*lpflow*", "*probe*", "*dlclkp*", "*sdlclkp*"),
        default_clock_period_ns=10.0,
        url=_OPENSTA_RAW + "sky130hd_tt.lib.gz",
        ciel_pdk="sky130",
        ciel_lib_path="sky130A/libs.ref/sky130_fd_sc_hd/lib/sky130_fd_sc_hd__tt_025C_1v80.lib",
        license="Apache-2.0",
    )


def nangate45() -> StaticPdk:
    """Nangate 45 nm Open Cell Library, typical corner."""
    return StaticPdk(
        name="nangate45",
        description="Nangate45 Open Cell Library, typical corner (research use; Apache-2.0 text)",
        liberty_files=("NangateOpenCellLibrary_typical.lib",),
        corner="typical",
        tie_hi=("LOGIC1_X1", "Z"),
        tie_lo=("LOGIC0_X1", "Z"),
        dont_use=(),
        default_clock_period_ns=10.0,
        url=_OPENSTA_RAW + "nangate45_typ.lib.gz",
        license="Apache-2.0 (Nangate Open Cell Library)",
    )
