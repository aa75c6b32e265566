"""Where the area goes: per library cell type and per submodule instance of a mapped netlist.

Read from files the flow already wrote (no extra tool run): the netlist Yosys mapped
(``write_verilog -noattr -noexpr``) and the liberty (cell areas, output pins). The design is
flattened before synthesis, so cells keep no hierarchy; Yosys does keep the hierarchical names
of the nets that survive (``u_sub.q``). A cell is charged to the instance whose named net it
drives; a cell that drives only unnamed nets (``_123_``) is charged to the instance of the cells
it feeds (majority), repeatedly; what is left is the target's own logic, ``(top)``. This is an
attribution, not a hierarchical synthesis: logic that Yosys shared across a boundary goes to one
side.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from pathlib import Path

from rtlopt.pdk import CellInfo, liberty_cells
from rtlopt.results import AreaShare, CriticalPath, PpaDetails

__all__ = ["area_breakdown", "parse_netlist_cells", "ppa_details"]

TOP = "(top)"
_MAX_ROWS = 12

_INSTANCE = re.compile(
    r"^[ \t]*([A-Za-z_][\w$]*)[ \t]+(\\\S+|[A-Za-z_][\w$]*)[ \t]*\((.*?)\);", re.M | re.S
)
_CONNECTION = re.compile(r"\.([\w$]+)\s*\(\s*(.*?)\s*\)\s*(?:,|$)", re.S)
_ANON = re.compile(r"^_\d+_$")
_KEYWORDS = {"module", "input", "output", "inout", "wire", "reg", "assign", "endmodule"}


def _net_name(expr: str) -> str:
    """``\\u_sub.q [1]`` -> ``u_sub.q[1]``; constants and concatenations stay as written."""
    e = expr.strip()
    if e.startswith("\\"):
        e = e[1:]
    return re.sub(r"\s+\[", "[", e)


def parse_netlist_cells(netlist_text: str) -> list[tuple[str, str, dict[str, str]]]:
    """``(cell type, instance, {pin: net})`` of every cell instance in a Yosys netlist."""
    out: list[tuple[str, str, dict[str, str]]] = []
    for m in _INSTANCE.finditer(netlist_text):
        ctype, inst, body = m.group(1), m.group(2), m.group(3)
        if ctype in _KEYWORDS:
            continue
        pins = {p: _net_name(n) for p, n in _CONNECTION.findall(body)}
        out.append((ctype, inst.lstrip("\\").strip(), pins))
    return out


def _scope(net: str) -> str | None:
    """The instance path of a named net (``u_a.u_b.sig[3]`` -> ``u_a.u_b``), ``(top)`` for a
    net of the target itself, None for an unnamed one."""
    base = net.split("[", 1)[0]
    if not base or _ANON.match(base) or base.startswith(("1'", "0'", "{")):
        return None
    return base.rsplit(".", 1)[0] if "." in base else TOP


def area_breakdown(
    netlist_text: str, cells: Mapping[str, CellInfo]
) -> tuple[tuple[AreaShare, ...], tuple[AreaShare, ...]]:
    """Area per cell type and per instance (largest first, at most 12 rows each; the rest of
    each list is summed into an ``(other)`` row)."""
    insts = parse_netlist_cells(netlist_text)
    by_type: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    owner: list[str | None] = []
    consumers: dict[str, list[int]] = defaultdict(list)
    outputs: list[list[str]] = []
    for idx, (ctype, _inst, pins) in enumerate(insts):
        info = cells.get(ctype, CellInfo(0.0, frozenset()))
        row = by_type[ctype]
        row[0] += info.area
        row[1] += 1
        outs = [n for p, n in pins.items() if p in info.outputs]
        ins = [n for p, n in pins.items() if p not in info.outputs]
        outputs.append(outs)
        for n in ins:
            consumers[n].append(idx)
        scopes = [s for s in (_scope(n) for n in outs) if s is not None]
        owner.append(Counter(scopes).most_common(1)[0][0] if scopes else None)
    for _ in range(64):  # charge unnamed logic to what it feeds, back from the named nets
        changed = False
        for idx, own in enumerate(owner):
            if own is not None:
                continue
            fed = [owner[c] for n in outputs[idx] for c in consumers.get(n, ())]
            votes = Counter(o for o in fed if o is not None)
            if votes:
                owner[idx] = votes.most_common(1)[0][0]
                changed = True
        if not changed:
            break
    by_inst: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for idx, (ctype, _inst, _pins) in enumerate(insts):
        row = by_inst[owner[idx] or TOP]
        row[0] += cells.get(ctype, CellInfo(0.0, frozenset())).area
        row[1] += 1
    return _rows(by_type), _rows(by_inst)


def _rows(table: Mapping[str, list[float]]) -> tuple[AreaShare, ...]:
    ordered = sorted(table.items(), key=lambda kv: (-kv[1][0], kv[0]))
    rows = [AreaShare(k, round(v[0], 6), int(v[1])) for k, v in ordered[:_MAX_ROWS]]
    rest = ordered[_MAX_ROWS:]
    if rest:
        rows.append(
            AreaShare(
                "(other)", round(sum(v[0] for _, v in rest), 6), int(sum(v[1] for _, v in rest))
            )
        )
    return tuple(rows)


def ppa_details(
    netlist: Path,
    liberty: Path,
    critical_path: CriticalPath | None,
    liberty_md5: str | None = None,
) -> PpaDetails:
    """The details of one measurement: the critical path OpenSTA reported and the area split.

    ``liberty_md5`` (the liberty's content hash, when known) finds the cell table kept on disk
    without hashing the file again.

    Raises:
        OSError: the netlist or liberty cannot be read.
    """
    cells = liberty_cells(liberty, liberty_md5)
    by_cell, by_inst = area_breakdown(netlist.read_text(errors="replace"), cells)
    return PpaDetails(critical_path=critical_path, area_by_cell=by_cell, area_by_instance=by_inst)
