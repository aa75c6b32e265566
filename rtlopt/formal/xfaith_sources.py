"""The x sources inside a target, for the x-faithfulness proof (:mod:`rtlopt.formal.xfaith`).

A simulation reads x not only where the repository feeds an input x: the target makes x
itself, and the proof models it the same way (registers start x, ``-set-init-undef``; x
constants stay x; what nothing drives is x, ``setundef -undriven -undef``):

* a register without an initial value (x until its first write; the proof's reset makes
  those with a reset defined from the next step on, the others stay x until written);
* a constant with x or z bits (``default: y = 'x``);
* a bit nothing drives;
* a select or an index that may be past its range (``$shiftx``), a division or a modulo by
  a value that may be 0, a memory's read (its words start x).

:func:`x_sources` names them in the design after ``proc -ifx; flatten`` (Yosys JSON);
:func:`source_bits` gives their bits, where the cone check
(:func:`rtlopt.formal.xfaith_model.cone_refusal`) starts besides the x-fed inputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["REGISTERS", "source_bits", "x_sources"]

#: Register cell types after ``proc`` (and their enabled forms).
REGISTERS = frozenset(
    {"$dff", "$adff", "$dffe", "$adffe", "$sdff", "$sdffe", "$sdffce", "$dffsr", "$dffsre"}
    | {"$aldff", "$aldffe"}
)

#: Cells whose output may be x with every input defined.
_MAKERS = {
    "$shiftx": "a select that may be past its range",
    "$div": "a division by a value that may be 0",
    "$mod": "a modulo by a value that may be 0",
    "$divfloor": "a division by a value that may be 0",
    "$modfloor": "a modulo by a value that may be 0",
}


def _initialized(mod: Mapping[str, Any]) -> set[Any]:
    """The bits of ``mod`` an ``init`` attribute gives a defined value."""
    out: set[Any] = set()
    for net in mod.get("netnames", {}).values():
        init = str(net.get("attributes", {}).get("init", ""))
        bits = net.get("bits", [])
        if not init or not set(init) <= {"0", "1"}:
            continue
        # the init string is MSB first, bits LSB first
        for bit, value in zip(bits, reversed(init.rjust(len(bits), "0")), strict=False):
            if value in "01":
                out.add(bit)
    return out


def _names(mod: Mapping[str, Any]) -> dict[Any, str]:
    """A visible name of each bit (the first found)."""
    out: dict[Any, str] = {}
    for name, net in mod.get("netnames", {}).items():
        if net.get("hide_name"):
            continue
        for i, b in enumerate(net.get("bits", [])):
            if isinstance(b, int):
                width = len(net.get("bits", []))
                out.setdefault(b, f"{name}[{i}]" if width > 1 else name)
    return out


def _found(mod: Mapping[str, Any]) -> tuple[set[Any], set[str], list[str]]:
    """The x source bits of ``mod``, the cells whose inputs hold a constant x or z bit, and
    what they are (the words of :func:`x_sources`)."""
    bits: set[Any] = set()
    cells: set[str] = set()
    said: list[str] = []
    names = _names(mod)
    init = _initialized(mod)
    driven: set[Any] = set()
    for port in mod.get("ports", {}).values():
        if port.get("direction") == "input":
            driven |= {b for b in port.get("bits", []) if isinstance(b, int)}
    for cname, cell in mod.get("cells", {}).items():
        kind = str(cell.get("type", ""))
        dirs = cell.get("port_directions", {})
        for pin, conn in cell.get("connections", {}).items():
            if dirs.get(pin) == "output":
                driven |= {b for b in conn if isinstance(b, int)}
            elif any(b in ("x", "z") for b in conn):
                cells.add(cname)
                said.append("an x or z constant")
        outs = [
            b
            for p, c in cell.get("connections", {}).items()
            if dirs.get(p) == "output"
            for b in c
            if isinstance(b, int)
        ]
        if kind in REGISTERS:
            q = [b for b in cell.get("connections", {}).get("Q", []) if b not in init]
            if q:
                bits |= set(q)
                reg = next((names[b].split("[")[0] for b in q if b in names), "a register")
                said.append(f"{reg} before its first write")
        elif kind in _MAKERS:
            bits |= set(outs)
            said.append(_MAKERS[kind])
        elif kind.startswith("$memrd"):
            bits |= set(outs)
            said.append("a memory's words before their first write")
    for pname, port in mod.get("ports", {}).items():
        if port.get("direction") == "output":
            if any(b in ("x", "z") for b in port.get("bits", [])):
                said.append(f"an x or z constant driving {pname}")
    for name, net in mod.get("netnames", {}).items():
        loose = [b for b in net.get("bits", []) if isinstance(b, int) and b not in driven]
        if loose:
            bits |= set(loose)
            if not net.get("hide_name"):
                said.append(f"{name}, which nothing drives")
    return bits, cells, said


def source_bits(mod: Mapping[str, Any]) -> tuple[set[Any], set[str]]:
    """The bits of ``mod`` (one flattened module) that may be x with every input defined,
    and the cells that read an x or z constant."""
    bits, cells, _ = _found(mod)
    return bits, cells


def x_sources(mods: Mapping[str, Any], modules: list[str]) -> list[str]:
    """What makes x inside ``modules`` (reference, candidate) of ``mods`` (the ``modules``
    of the design after ``proc -ifx; flatten`` as Yosys JSON), once each, in order."""
    out: dict[str, None] = {}
    for name in modules:
        mod = mods.get(name.lstrip("\\"))
        if isinstance(mod, dict):
            out |= dict.fromkeys(_found(mod)[2])
    return list(out)
