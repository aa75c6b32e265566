"""A third-party PDK plugin for rtlopt: sky130hd's typical liberty under the name tinylib."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class TinyLib:
    """What rtlopt's ``Pdk`` Protocol asks of a PDK."""

    name: str = "tinylib"
    description: str = "test plugin: sky130hd typical liberty under another name"
    liberty_files: tuple[str, ...] = ("sky130_fd_sc_hd__tt_025C_1v80.lib",)
    corner: str = "tinylib-tt"
    tie_hi: tuple[str, str] | None = ("sky130_fd_sc_hd__conb_1", "HI")
    tie_lo: tuple[str, str] | None = ("sky130_fd_sc_hd__conb_1", "LO")
    dont_use: tuple[str, ...] = ()
    default_clock_period_ns: float = 10.0

    def download(self, dest: Path) -> Path:
        raise RuntimeError("tinylib is a test plugin: put its liberty on RTLOPT_PDK_PATH")


def tinylib() -> TinyLib:
    """The entry point: a zero-argument factory."""
    return TinyLib()
