"""The register trigger of the X-policy proof (:mod:`rtlopt.formal.xpolicy`): candidate
registers that stay x until the first reset where the reference's do not.

Every proof but the X-policy proof forces the resets in the first step, so what a design
does between power-up and its first reset is never compared. Some registers stay x there
whatever the inputs do (``if (rst) v <= 1;``: it holds; ``c <= c + 1``: it counts from x; a
ring of registers feeding each other): **never defined** before the first reset, a least
fixed point of "may be defined" over the netlist with the resets inactive. One that data
writes (``q <= d``, also behind an enable) may be defined after a clock.

:func:`new_held_registers` reads both sides (``proc -ifx -noopt; flatten`` as Yosys JSON)
and names the candidate's never-defined register bits that reach an output whose reference
cone holds no never-defined register bit of that name: a candidate that keeps the
reference's registers (by name) and their reach is not held to the proof; one that adds,
renames or newly routes such a register to an output is (the proof decides it with the
resets free from power-up). Not covered (a known gap): a register that some input sequence
makes defined, but later than the reference's (``v`` set by reset or by a rare input).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["held_by_output", "new_held_registers"]

_REGISTERS = frozenset({"$dff", "$adff", "$dffe", "$adffe", "$sdff", "$sdffe", "$aldff"})


def new_held_registers(
    gold: Mapping[str, Any], gate: Mapping[str, Any], resets: Mapping[str, int]
) -> list[str]:
    """Names (``v[0]``) of the held register bits of ``gate`` (the candidate) that reach an
    output whose cone in ``gold`` (the reference) holds no held register bit of that name."""
    if not resets:
        return []
    theirs = held_by_output(gold, resets)
    out: list[str] = []
    for port, names in held_by_output(gate, resets).items():
        out += [n for n in sorted(names) if n not in theirs.get(port, set()) and n not in out]
    return out


def held_by_output(mod: Mapping[str, Any], resets: Mapping[str, int]) -> dict[str, set[str]]:
    """Output port -> names of the held register bits in its (sequential) cone."""
    inactive: dict[Any, str] = {}
    for r, active in resets.items():
        for b in mod.get("ports", {}).get(r, {}).get("bits", []):
            inactive[b] = "0" if active else "1"
    drivers = _drivers(mod)
    names = _bit_names(mod)
    regs: dict[Any, Any] = {}  # Q bit -> D bit with the resets inactive
    for cell in mod.get("cells", {}).values():
        if cell.get("type") in _REGISTERS:
            conn = cell.get("connections", {})
            for d, q in zip(conn.get("D", []), conn.get("Q", []), strict=False):
                regs[q] = _inactive_value(d, drivers, inactive)
    held = _never_defined(mod, regs)
    out: dict[str, set[str]] = {}
    for pname, port in mod.get("ports", {}).items():
        if port.get("direction") == "output":
            cone = _cone(port.get("bits", []), drivers, regs)
            out[pname] = {names.get(q, str(q)) for q in cone & held}
    return out


def _deps(bit: Any, drivers: Mapping[Any, Any], regs: Mapping[Any, Any]) -> list[Any]:
    """The bits ``bit`` depends on directly (a register's Q: its D with the resets inactive)."""
    if bit in regs:
        return [regs[bit]] if isinstance(regs[bit], int) else []
    got = drivers.get(bit)
    if got is None:
        return []
    cell, _ = got
    dirs = cell.get("port_directions", {})
    return [
        b
        for pin, conn in cell.get("connections", {}).items()
        if dirs.get(pin) != "output"
        for b in conn
        if isinstance(b, int)
    ]


#: Cells whose output bit is defined when one input bit is (a controlling 0 or 1, a compare
#: whose defined bits already differ): per bit for the bitwise ones, any bit for the others.
_BITWISE_ANY = frozenset({"$and", "$or"})
_ANY = frozenset(
    {"$eq", "$ne", "$eqx", "$nex", "$logic_and", "$logic_or", "$reduce_and", "$reduce_or"}
    | {"$reduce_bool", "$mul"}
)


def _never_defined(mod: Mapping[str, Any], regs: Mapping[Any, Any]) -> set[Any]:
    """The register Q bits no input sequence makes defined while the resets stay inactive
    (from power-up, every register x): the complement of the least fixed point of "may be
    defined" (inputs and 0/1 constants may; a multiplexer's bit when its select and one
    data bit may; an and/or bit, a compare or a logic operator when one input bit may;
    any other cell when all its input bits may; a register when its next value may).
    It errs towards "may" (a compare of partly x operands), never towards "never"."""
    may: set[Any] = set()
    for port in mod.get("ports", {}).values():
        if port.get("direction") != "output":
            may |= {b for b in port.get("bits", []) if isinstance(b, int)}
    cells = [c for c in mod.get("cells", {}).values() if c.get("type") not in _REGISTERS]

    def ok(b: Any) -> bool:
        return b in ("0", "1") or b in may

    changed = True
    while changed:
        changed = False
        for cell in cells:
            kind, conn = cell.get("type"), cell.get("connections", {})
            dirs = cell.get("port_directions", {})
            outs = [b for p, c in conn.items() if dirs.get(p) == "output" for b in c]
            ins = [b for p, c in conn.items() if dirs.get(p) != "output" for b in c]
            if kind == "$mux":
                s = ok(conn.get("S", [None])[0])
                pairs = zip(conn.get("A", []), conn.get("B", []), strict=False)
                got = [
                    y for y, (x0, x1) in zip(outs, pairs, strict=False) if s and (ok(x0) or ok(x1))
                ]
            elif kind in _BITWISE_ANY:
                pairs = zip(conn.get("A", []), conn.get("B", []), strict=False)
                got = [y for y, (x0, x1) in zip(outs, pairs, strict=False) if ok(x0) or ok(x1)]
            elif kind in _ANY:
                got = outs if any(ok(b) for b in ins) else []
            else:
                got = outs if all(ok(b) for b in ins) else []
            for y in got:
                if isinstance(y, int) and y not in may:
                    may.add(y)
                    changed = True
        for q, d in regs.items():
            if q not in may and ok(d):
                may.add(q)
                changed = True
    return {q for q in regs if q not in may}


def _cone(start: list[Any], drivers: Mapping[Any, Any], regs: Mapping[Any, Any]) -> set[Any]:
    """Every bit ``start`` depends on, through cells and registers (a register's Q through
    its D with the resets inactive)."""
    seen: set[Any] = set()
    todo = [b for b in start if isinstance(b, int)]
    while todo:
        bit = todo.pop()
        if bit in seen:
            continue
        seen.add(bit)
        todo += [b for b in _deps(bit, drivers, regs) if b not in seen]
    return seen


def _drivers(mod: Mapping[str, Any]) -> dict[Any, tuple[Mapping[str, Any], int]]:
    """Bit -> (cell driving it, offset in the driving pin), registers' Q excluded."""
    out: dict[Any, tuple[Mapping[str, Any], int]] = {}
    for cell in mod.get("cells", {}).values():
        if cell.get("type") in _REGISTERS:
            continue
        dirs = cell.get("port_directions", {})
        for pin, conn in cell.get("connections", {}).items():
            if dirs.get(pin) == "output" or (not dirs and pin == "Y"):
                for i, b in enumerate(conn):
                    if isinstance(b, int):
                        out[b] = (cell, i)
    return out


def _inactive_value(bit: Any, drivers: Mapping[Any, Any], inactive: Mapping[Any, str]) -> Any:
    """What ``bit`` is with the resets inactive, following the multiplexers whose select a
    reset decides (``if (rst)`` after ``proc -ifx``: ``$eqx``/``$eq`` of the reset with a
    constant, or the reset itself, possibly negated); ``bit`` where none decides."""
    for _ in range(256):
        got = drivers.get(bit)
        if got is None:
            return bit
        cell, i = got
        if cell.get("type") != "$mux":
            return bit
        conn = cell.get("connections", {})
        s = _select(conn.get("S", [None])[0], drivers, inactive)
        if s is None:
            return bit
        bit = conn.get("B" if s == "1" else "A", [])[i]
    return bit


def _select(bit: Any, drivers: Mapping[Any, Any], inactive: Mapping[Any, str]) -> str | None:
    """``bit``'s value ("0"/"1") with the resets inactive, or None where not decided."""
    if bit in inactive:
        return inactive[bit]
    got = drivers.get(bit)
    if got is None:
        return None
    cell, _ = got
    kind, conn = cell.get("type"), cell.get("connections", {})
    a, b = conn.get("A", []), conn.get("B", [])
    if kind in ("$not", "$logic_not") and len(a) == 1:
        v = _select(a[0], drivers, inactive)
        return None if v is None else "1" if v == "0" else "0"
    if kind in ("$eq", "$eqx", "$ne", "$nex") and len(a) == 1 and len(b) == 1:
        x, y = (a[0], b[0]) if b[0] in ("0", "1") else (b[0], a[0])
        v = _select(x, drivers, inactive)
        if v is None or y not in ("0", "1"):
            return None
        same = v == y
        return "1" if same == (kind in ("$eq", "$eqx")) else "0"
    return None


def _bit_names(mod: Mapping[str, Any]) -> dict[Any, str]:
    """Bit -> ``name[i]`` of the visible wires (the first name found)."""
    out: dict[Any, str] = {}
    for name, net in mod.get("netnames", {}).items():
        if net.get("hide_name"):
            continue
        for i, b in enumerate(net.get("bits", [])):
            out.setdefault(b, f"{name}[{i}]")
    return out
