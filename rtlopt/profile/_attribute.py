"""From a hierarchical netlist and OpenSTA's reports to per-module area, power and timing.

Pure functions over text and JSON (no tool runs), so that every attribution rule is tested
on its own: area from each module's own library cells times the liberty's cell areas, power
from OpenSTA's per-instance report summed by the instance that holds each cell, timing from
the cells of the worst paths.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rtlopt.profile._model import PathProfile, base_name

__all__ = [
    "Hierarchy",
    "InstancePower",
    "module_of_instance",
    "parse_paths",
    "parse_power",
    "parse_top_area",
    "read_hierarchy",
]


@dataclass(frozen=True)
class Hierarchy:
    """The elaborated, mapped design as a tree of instances.

    Attributes:
        top: The top's Yosys module name.
        own_area: Yosys module -> area of its own library cells (one instance).
        own_cells: Yosys module -> number of its own library cells.
        nodes: Instance path ("" for the top, "u_a/u_b" below) -> Yosys module name.
        unmapped: Yosys module -> cell types that are neither library cells nor modules
            (black boxes).
    """

    top: str
    own_area: Mapping[str, float]
    own_cells: Mapping[str, int]
    nodes: Mapping[str, str]
    unmapped: Mapping[str, tuple[str, ...]]

    def instances(self) -> Counter[str]:
        """Yosys module -> how many instances of it the tree holds."""
        return Counter(self.nodes.values())

    def total_area(self, path: str = "") -> float:
        """Area of the instance at ``path`` with everything below it."""
        prefix = path + "/" if path else ""
        return sum(
            self.own_area.get(mod, 0.0)
            for p, mod in self.nodes.items()
            if p == path or (p.startswith(prefix) if path else True)
        )


def _clean(name: str) -> str:
    """An instance name as OpenSTA prints it, without escapes."""
    return name.lstrip("\\").replace("\\", "")


def read_hierarchy(
    netlist: Mapping[str, object], top: str, cell_area: Mapping[str, float]
) -> Hierarchy:
    """The instance tree of a Yosys ``write_json`` netlist mapped to a liberty.

    Raises:
        ValueError: the netlist has no module ``top``, or its hierarchy has a cycle.
    """
    modules = netlist.get("modules")
    if not isinstance(modules, dict):
        raise ValueError("the netlist JSON has no modules")
    by_base = {base_name(k): k for k in modules}
    top_key = top if top in modules else by_base.get(base_name(top))
    if top_key is None:
        raise ValueError(f"the netlist has no module {top!r}")
    own_area: dict[str, float] = {}
    own_cells: dict[str, int] = {}
    children: dict[str, list[tuple[str, str]]] = {}
    unmapped: dict[str, tuple[str, ...]] = {}
    for name, mod in modules.items():
        area = 0.0
        cells = 0
        kids: list[tuple[str, str]] = []
        odd: set[str] = set()
        for cname, cell in (mod.get("cells") or {}).items():
            kind = str(cell.get("type", ""))
            if kind in modules:
                kids.append((_clean(cname), kind))
            elif kind in cell_area:
                area += cell_area[kind]
                cells += 1
            else:
                odd.add(kind)
        own_area[name] = area
        own_cells[name] = cells
        children[name] = kids
        if odd:
            unmapped[name] = tuple(sorted(odd))
    nodes: dict[str, str] = {}
    stack: list[tuple[str, str, tuple[str, ...]]] = [("", top_key, (top_key,))]
    while stack:
        path, mod, seen = stack.pop()
        nodes[path] = mod
        for inst, kind in children.get(mod, []):
            if kind in seen:
                raise ValueError(f"module {base_name(kind)} instantiates itself")
            stack.append((f"{path}/{inst}" if path else inst, kind, (*seen, kind)))
    return Hierarchy(top_key, own_area, own_cells, dict(sorted(nodes.items())), unmapped)


def module_of_instance(cell_path: str, nodes: Mapping[str, str]) -> str:
    """The Yosys module holding the leaf cell at ``cell_path`` (``u_a/u_b/_12_``)."""
    parts = _clean(cell_path).split("/")
    for cut in range(len(parts) - 1, 0, -1):
        parent = "/".join(parts[:cut])
        if parent in nodes:
            return nodes[parent]
    return nodes[""]


@dataclass(frozen=True)
class InstancePower:
    """One leaf cell's power from ``report_power -instances`` (watts)."""

    path: str
    internal: float
    switching: float
    leakage: float
    total: float


_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_POWER_ROW = re.compile(rf"^\s*({_NUM})\s+({_NUM})\s+({_NUM})\s+({_NUM})\s+(\S+)\s*$", re.M)


def parse_power(text: str) -> list[InstancePower]:
    """Rows of OpenSTA's ``report_power -instances`` (the header and totals skipped)."""
    return [
        InstancePower(m.group(5), *(float(m.group(i)) for i in range(1, 5)))
        for m in _POWER_ROW.finditer(text)
    ]


_AREA_TOP = re.compile(r"Chip area for top module '\\?([^']+)':\s*(" + _NUM + ")")


def parse_top_area(text: str) -> float:
    """Yosys's ``stat -liberty`` area of the top module (0 when absent)."""
    m = _AREA_TOP.search(text)
    return float(m.group(2)) if m else 0.0


_PATH_START = re.compile(r"^Startpoint:\s*(\S+)", re.M)
_PATH_END = re.compile(r"^Endpoint:\s*(\S+)", re.M)
_PATH_ROW = re.compile(rf"^\s*({_NUM})\s+({_NUM})\s+[\^v]\s+(\S+)\s+\(([^)]+)\)\s*$", re.M)
_ARRIVAL = re.compile(rf"^\s*({_NUM})\s+data arrival time", re.M)


def parse_paths(text: str, nodes: Mapping[str, str], lib_cells: Iterable[str]) -> list[PathProfile]:
    """The paths of ``report_checks -format full``, each with the delay spent per module,
    the latest arrival first.

    A row's delay is the delay up to that pin; rows on a cell's output pin carry the cell's
    delay, rows on input pins the wire's, and both go to the module holding the cell. Rows of
    ports (no cell) are left out.
    """
    cells = set(lib_cells)
    out: list[PathProfile] = []
    for block in re.split(r"(?=^Startpoint:)", text, flags=re.M):
        start = _PATH_START.search(block)
        end = _PATH_END.search(block)
        arrival = _ARRIVAL.search(block)
        if not (start and end and arrival):
            continue
        # the data path ends at "data arrival time"; rows after it are the required side
        data = block[: arrival.start()]
        spent: dict[str, float] = defaultdict(float)
        for m in _PATH_ROW.finditer(data):
            kind = m.group(4)
            if kind not in cells:
                continue
            pin = m.group(3)
            instance = pin.rsplit("/", 1)[0] if "/" in pin else pin
            mod = base_name(module_of_instance(instance, nodes))
            spent[mod] += max(0.0, float(m.group(1)))
        order = sorted(spent.items(), key=lambda kv: -kv[1])
        out.append(PathProfile(start.group(1), end.group(1), float(arrival.group(1)), tuple(order)))
    # OpenSTA lists the paths by path group (a design with asynchronous resets gets its
    # recovery checks in a group of their own, maybe first): latest arrival first
    return sorted(out, key=lambda p: -p.arrival_ns)
