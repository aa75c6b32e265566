"""The x sources inside a target, for the x-faithfulness proof (:mod:`rtlopt.formal.xfaith`).

A simulation reads x not only where the repository feeds an input x: the target makes x
itself, and the proof models it the same way (registers start x, ``-set-init-undef``; x
constants stay x; what nothing drives is x, ``setundef -undriven -undef``):

* a register without an initial value (x until its first write; the proof's reset makes
  those with a reset defined from the next step on, the others stay x until written): one
  with a reset is x before the first reset all the same (:func:`early_registers`, what the
  proof from power-up with the resets free covers);
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

__all__ = ["REGISTERS", "UNDRIVEN", "early_registers", "source_bits", "x_sources"]

#: How a net nothing drives is named (it is z in simulation: ``===`` tells it from x).
UNDRIVEN = ", which nothing drives"

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


def _unused(cell: Mapping[str, Any], pin: str) -> bool:
    """Whether ``pin`` of ``cell`` is one Yosys leaves x because nothing reads it: the clock
    of a memory's asynchronous read port."""
    kind = str(cell.get("type", ""))
    return kind.startswith("$memrd") and pin in ("CLK", "EN") and not _param(cell, "CLK_ENABLE")


def _write_only(mod: Mapping[str, Any]) -> set[Any]:
    """The bits only the address and data pins of memory writes read: where ``proc`` puts
    an x for the cycles the write is disabled (its enable is 0 then)."""
    write: set[Any] = set()
    other: set[Any] = set()
    for cell in mod.get("cells", {}).values():
        dirs = cell.get("port_directions", {})
        mem = str(cell.get("type", "")).startswith("$memwr")
        for pin, conn in cell.get("connections", {}).items():
            if dirs.get(pin) != "output":
                (write if mem and pin in ("ADDR", "DATA") else other).update(conn)
    for port in mod.get("ports", {}).values():
        if port.get("direction") == "output":
            other.update(port.get("bits", []))
    return write - other


def _param(cell: Mapping[str, Any], name: str) -> int:
    value = cell.get("parameters", {}).get(name, 0)
    try:
        return int(value, 2) if isinstance(value, str) else int(value)
    except ValueError:
        return 0


def _in_range(cell: Mapping[str, Any]) -> bool:
    """Whether a ``$shiftx`` (a select at a variable index) never reads past its range:
    every value of its unsigned index selects bits that exist."""
    if _param(cell, "B_SIGNED") or not _param(cell, "Y_WIDTH"):
        return False
    span = (1 << min(_param(cell, "B_WIDTH"), 32)) - 1
    return span + _param(cell, "Y_WIDTH") <= _param(cell, "A_WIDTH")


def _reset(mod: Mapping[str, Any], cell: Mapping[str, Any], resets: Mapping[str, int]) -> bool:
    """Whether the register ``cell`` takes a defined value when one of ``resets`` (a reset
    input of the target -> its active level) is active: its asynchronous reset pin is that
    input, or every bit of its data is a ``$mux`` that input selects, with a constant there."""
    ports = mod.get("ports", {})
    level = {b: v for r, v in resets.items() for b in ports.get(r, {}).get("bits", [])}
    conn = cell.get("connections", {})
    if cell.get("type") in ("$adff", "$adffe") and conn.get("ARST", [None])[0] in level:
        return True
    if cell.get("type") not in ("$dff", "$dffe"):
        return False
    drivers: dict[Any, tuple[Mapping[str, Any], int]] = {}
    for other in mod.get("cells", {}).values():
        for i, b in enumerate(other.get("connections", {}).get("Y", [])):
            drivers[b] = (other, i)
    for b in conn.get("D", []):
        mux, i = drivers.get(b, ({}, 0))
        pins = mux.get("connections", {})
        if mux.get("type") != "$mux":
            return False
        sel = _condition(pins.get("S", [None])[0], drivers, level)
        if sel is None:
            return False
        # the branch the mux takes while the reset is active holds a constant
        if pins.get("B" if sel else "A", [None] * (i + 1))[i] not in ("0", "1"):
            return False
    return bool(conn.get("D"))


def _condition(
    bit: Any, drivers: Mapping[Any, tuple[Mapping[str, Any], int]], level: Mapping[Any, int]
) -> bool | None:
    """The value of the 1-bit ``bit`` while its reset input (``level``: bit -> its active
    level) is active, where ``bit`` is that input, its inverse or its compare with a
    constant (what ``proc -ifx`` makes of ``if (rst)`` and ``if (!rst_n)``); else None."""
    for _ in range(8):
        if bit in level:
            return bool(level[bit])
        cell, _i = drivers.get(bit, ({}, 0))
        pins = cell.get("connections", {})
        kind = cell.get("type")
        if kind in ("$not", "$logic_not") and len(pins.get("A", [])) == 1:
            inner = _condition(pins["A"][0], drivers, level)
            return None if inner is None else not inner
        if kind in ("$or", "$logic_or", "$and", "$logic_and", "$reduce_bool"):
            # ``if (rst || clear)``: true while the reset is, whatever the other input
            ins = [b for p in ("A", "B") for b in pins.get(p, [])]
            seen = [_condition(b, drivers, level) for b in ins if b not in ("0", "1")]
            decides = kind not in ("$and", "$logic_and")
            return decides if decides in seen else None
        if kind in ("$eqx", "$eq") and len(pins.get("A", [])) == 1:
            const = pins.get("B", [None])[0]
            if const not in ("0", "1"):
                return None
            inner = _condition(pins["A"][0], drivers, level)
            return None if inner is None else inner == (const == "1")
        return None
    return None


def _found(
    mod: Mapping[str, Any],
    resets: Mapping[str, int] | None = None,
    early: list[str] | None = None,
) -> tuple[set[Any], set[str], list[str]]:
    """The x source bits of ``mod``, the cells whose inputs hold a constant x or z bit, and
    what they are (the words of :func:`x_sources`: registers a reset of ``resets`` sets
    are not named, their x is before the reset the proof starts from; their bits go to
    ``early``)."""
    bits: set[Any] = set()
    cells: set[str] = set()
    said: list[str] = []
    names = _names(mod)
    init = _initialized(mod)
    disabled = _write_only(mod)
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
            elif any(b in ("x", "z") for b in conn) and not _unused(cell, pin):
                if kind == "$mux" and set(cell["connections"].get("Y", [])) <= disabled:
                    continue
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
                if not _reset(mod, cell, resets or {}):
                    said.append(f"{reg} before its first write")
                elif early is not None:
                    early += [_bit(names, b, reg) for b in q]
        elif kind == "$shiftx" and _in_range(cell):
            pass
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
            said.append(f"{'a net' if net.get('hide_name') else name}{UNDRIVEN}")
    return bits, cells, said


def _bit(names: Mapping[Any, str], bit: Any, reg: str) -> str:
    """``bit``'s name with its index (``r[0]``, as the X-policy proof names bits)."""
    name = names.get(bit, reg)
    return name if "[" in name else f"{name}[0]"


def source_bits(mod: Mapping[str, Any]) -> tuple[set[Any], set[str]]:
    """The bits of ``mod`` (one flattened module) that may be x with every input defined,
    and the cells that read an x or z constant."""
    bits, cells, _ = _found(mod)
    return bits, cells


def x_sources(
    mods: Mapping[str, Any], modules: list[str], resets: Mapping[str, int] | None = None
) -> list[str]:
    """What makes x inside ``modules`` (reference, candidate) of ``mods`` (the ``modules``
    of the design after ``proc -ifx; flatten`` as Yosys JSON) after the reset the proof
    starts from (``resets``: the target's reset inputs -> their active level), once each,
    in order."""
    out: dict[str, None] = {}
    for name in modules:
        mod = mods.get(name.lstrip("\\"))
        if isinstance(mod, dict):
            out |= dict.fromkeys(_found(mod, resets)[2])
    return list(out)


def early_registers(
    mods: Mapping[str, Any], modules: list[str], resets: Mapping[str, int]
) -> list[str]:
    """The register bits of ``modules`` (reference, candidate; as for :func:`x_sources`)
    that a reset of ``resets`` sets and no initial value defines: x from power-up until
    their first write, reset or data, which the proofs' forced reset hides (``r[0]``, once
    each, in order)."""
    out: list[str] = []
    if not resets:
        return out
    for name in modules:
        mod = mods.get(name.lstrip("\\"))
        if isinstance(mod, dict):
            _found(mod, resets, out)
    return list(dict.fromkeys(out))
