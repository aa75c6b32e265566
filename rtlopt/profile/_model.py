"""The result of a profile: every module of a design with its share of area, power and timing."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["ModuleProfile", "PathProfile", "Profile", "base_name"]


def base_name(yosys_name: str) -> str:
    """The source module name of a Yosys module name.

    ``\\alu`` -> ``alu``; ``$paramod$6ce0...\\picorv32`` -> ``picorv32``;
    ``$paramod\\fifo\\DEPTH=8`` -> ``fifo``.
    """
    name = yosys_name.lstrip("\\")
    if name.startswith("$paramod"):
        parts = name.split("\\")
        return parts[1] if len(parts) > 1 else name
    return name


@dataclass(frozen=True)
class ModuleProfile:
    """One source module, over every instance and parameterization of it in the design.

    Attributes:
        name: Source module name.
        variants: Yosys module names (one per parameterization).
        instances: How many times it occurs in the elaborated design.
        cells: Library cells of one instance of it, without its submodules (summed over
            variants, each weighted by its instance count, divided by ``instances``).
        own_area: Cell area of all its instances, without submodules (um^2).
        total_area: Cell area of all its instances with their submodules (um^2).
        area_share: ``own_area`` / the top's area.
        power_mw: Power of its own cells over every instance (internal + switching + leakage).
        leakage_mw: Leakage of its own cells.
        switching_mw: Switching power of its own cells.
        internal_mw: Internal power of its own cells.
        power_share: ``power_mw`` / the top's power.
        paths: Of the worst paths reported, how many pass through its cells.
        worst_path_share: Share of the worst path's cell delay spent in its cells.
        on_critical_path: It holds a cell of the worst path.
        file: The file that defines it ("" when the frontend does not know it).
        line: Its line in that file.
        evaluable: ``rtlopt optimize`` can take it.
        why_not: Why it cannot, when it cannot.
    """

    name: str
    variants: tuple[str, ...]
    instances: int
    cells: int
    own_area: float
    total_area: float
    area_share: float
    power_mw: float = 0.0
    leakage_mw: float = 0.0
    switching_mw: float = 0.0
    internal_mw: float = 0.0
    power_share: float = 0.0
    paths: int = 0
    worst_path_share: float = 0.0
    on_critical_path: bool = False
    file: str = ""
    line: int = 0
    evaluable: bool = True
    why_not: str = ""


@dataclass(frozen=True)
class PathProfile:
    """One of the worst timing paths: its end points, arrival, and the modules it crosses."""

    startpoint: str
    endpoint: str
    arrival_ns: float
    modules: tuple[tuple[str, float], ...]  # (module, delay spent in its cells, ns)


@dataclass(frozen=True)
class Profile:
    """A whole design, profiled from one top.

    Attributes:
        top: The top module.
        area_um2: The top's total cell area.
        yosys_area_um2: The same, as Yosys's ``stat -liberty`` reports it (a cross-check).
        power_mw: The top's total power (OpenSTA, vectorless).
        arrival_ns: Worst arrival time.
        modules: Every module, largest own area first.
        tree: Instance tree: ``(path, module, own_area)`` per instance, parents first.
        paths: The worst paths (worst first).
        provenance: Tool versions, liberty, settings, seconds per step.
    """

    top: str
    area_um2: float
    yosys_area_um2: float
    power_mw: float
    arrival_ns: float
    modules: tuple[ModuleProfile, ...]
    tree: tuple[tuple[str, str, float], ...]
    paths: tuple[PathProfile, ...] = ()
    provenance: dict[str, Any] = field(default_factory=dict)

    def module(self, name: str) -> ModuleProfile:
        for m in self.modules:
            if m.name == name:
                return m
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(d: dict[str, Any]) -> Profile:
        return Profile(
            top=d["top"],
            area_um2=d["area_um2"],
            yosys_area_um2=d["yosys_area_um2"],
            power_mw=d["power_mw"],
            arrival_ns=d["arrival_ns"],
            modules=tuple(
                ModuleProfile(**{**m, "variants": tuple(m["variants"])}) for m in d["modules"]
            ),
            tree=tuple((str(p), str(m), float(a)) for p, m, a in d["tree"]),
            paths=tuple(
                PathProfile(
                    p["startpoint"],
                    p["endpoint"],
                    p["arrival_ns"],
                    tuple((str(n), float(s)) for n, s in p["modules"]),
                )
                for p in d.get("paths", [])
            ),
            provenance=dict(d.get("provenance", {})),
        )
