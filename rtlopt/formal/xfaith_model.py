"""Where Yosys's undef model may decide otherwise than a 4-valued simulator, for the
x-faithfulness proof (:mod:`rtlopt.formal.xfaith`).

That proof reads both sides with ``proc -ifx`` and proves with ``sat -enable_undef``; it is
sound only where that model gives, for every input with x bits, the value iverilog gives (a
reference value Yosys leaves x is a value nothing compares; a candidate value Yosys makes
defined where iverilog gives x is a difference nothing sees). The differential test
``tests/integration/test_xfaith_fidelity.py`` simulates each construct with every 0/1/x/z
input in iverilog and compares with ``sat -enable_undef``; what it found faithful is what
this module lets through, and everything else in the cone of the x-fed inputs makes the
proof refuse (unchecked):

* :data:`FAITHFUL`: the cell types (after ``proc -ifx; flatten``) found faithful. Any other
  type in the cone (a memory, a latch with a reset or a set, ``$shift`` from a write at a
  variable index, where Yosys gives x and iverilog leaves the bits as they were, ``$pow``)
  is refused.
* a register whose clock, reset or enable pin the cone reaches (an x edge: iverilog takes
  an edge from or to x as an edge), or a latch whose enable it reaches (not measured); a
  latch's data pin is faithful (``$dlatch``, measured over every 3-step sequence of a 0/1
  enable and 0/1/x data, after ``async2sync`` and ``clk2fflogic``:
  ``tests/integration/test_xfaith_latch.py``);
* a ``case`` item with x or z bits (Yosys reads them as wildcards, iverilog compares them);
* ``casex`` (iverilog matches an x selector bit anywhere);
* where an input may be z (unconnected or undriven: Yosys reads z as x): ``casez`` (z
  selector bits match anything) and ``===``/``!==`` (z and x differ).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rtlopt.formal.xfaith_sources import source_bits
from rtlopt.verilog import blank_comments

__all__ = [
    "FAITHFUL",
    "cone_refusal",
    "rtlil_refusal",
    "same_registers",
    "text_refusal",
    "two_state",
]

#: Cell types whose undef model the differential test found to give iverilog's values.
FAITHFUL = frozenset(
    {
        # what proc -ifx builds for if/case (an x condition takes the else branch/default)
        "$eqx",
        "$mux",
        "$pmux",
        # operators
        "$not",
        "$pos",
        "$neg",
        "$and",
        "$or",
        "$xor",
        "$xnor",
        "$reduce_and",
        "$reduce_or",
        "$reduce_xor",
        "$reduce_xnor",
        "$reduce_bool",
        "$logic_not",
        "$logic_and",
        "$logic_or",
        "$eq",
        "$ne",
        "$nex",
        "$lt",
        "$le",
        "$gt",
        "$ge",
        "$add",
        "$sub",
        "$mul",
        "$div",
        "$mod",
        "$shl",
        "$shr",
        "$sshl",
        "$sshr",
        "$shiftx",
        # registers: through their data pin only (see :data:`_CONTROL_PINS`); a latch with
        # a defined enable holds or passes its data's x as iverilog does (after async2sync
        # or clk2fflogic: tests/integration/test_xfaith_latch.py)
        "$dff",
        "$adff",
        "$dlatch",
    }
)

#: The registers and latches x may reach through their data pin only.
_REGISTER_KINDS = frozenset({"$dff", "$adff", "$dlatch"})
#: Pins of a register an x must not reach (an x edge or an x reset; a latch's x enable).
_CONTROL_PINS = frozenset({"CLK", "ARST", "SET", "CLR", "EN", "SRST", "AD", "ALOAD"})


def cone_refusal(
    json_file: Path, modules: Sequence[str], ports: Iterable[str], clocks: Iterable[str] = ()
) -> str:
    """Why the cone of ``ports`` and of the x sources inside ``modules``
    (:mod:`rtlopt.formal.xfaith_sources`: registers before their first write, x constants,
    undriven bits...; the design after ``proc -ifx; flatten`` as Yosys JSON) holds a
    construct whose undef model is not known to be iverilog's, or "". ``clocks``: x-fed
    inputs that are the target's clocks, left out of the cone where each is only the clock
    of every register, on one edge, on both sides (:mod:`rtlopt.formal.xfaith_clock`), else
    the reason."""
    from rtlopt.formal.xfaith_clock import clock_only

    try:
        data = json.loads(json_file.read_text(errors="replace"))
        mods = data["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return "the design after proc -ifx could not be read"
    wanted = set(ports)
    for clock in clocks:
        if not clock_only(mods, modules, clock):
            return (
                f"the x-fed input {clock} is a clock read otherwise than as the clock of every "
                "register on one edge (iverilog takes an x edge)"
            )
        wanted.discard(clock)
    for name in modules:
        mod = mods.get(name.lstrip("\\"))
        if not isinstance(mod, dict):
            return f"module {name} is missing after proc -ifx"
        why = _module_refusal(mod, wanted)
        if why:
            return why
    return ""


def _module_refusal(mod: Mapping[str, Any], ports: set[str]) -> str:
    """:func:`cone_refusal` in one flattened module."""
    bits, consts = source_bits(mod)
    for pname, port in mod.get("ports", {}).items():
        if pname in ports and port.get("direction") != "output":
            bits |= {b for b in port.get("bits", []) if isinstance(b, int)}
    readers: dict[Any, list[tuple[str, str, Mapping[str, Any]]]] = {}
    for cname, cell in mod.get("cells", {}).items():
        dirs = cell.get("port_directions", {})
        for pin, conn in cell.get("connections", {}).items():
            if dirs.get(pin) != "output":
                for b in conn:
                    readers.setdefault(b, []).append((cname, pin, cell))
    seen: set[str] = set()
    cells = mod.get("cells", {})
    todo: list[Any] = [*bits, *(("const", c) for c in consts)]
    while todo:
        bit = todo.pop()
        hit = [(bit[1], "", cells[bit[1]])] if isinstance(bit, tuple) else readers.get(bit, [])
        for cname, pin, cell in hit:
            kind = str(cell.get("type", ""))
            if kind not in FAITHFUL:
                return f"{_kind(kind)} ({kind}) reads x (an x-fed input or an x of the target)"
            if kind in _REGISTER_KINDS and pin in _CONTROL_PINS:
                return f"x reaches the {pin} pin of a register ({kind})"
            if kind in _REGISTER_KINDS and isinstance(bit, tuple):
                pins = cell.get("connections", {})
                if any(b in ("x", "z") for p in _CONTROL_PINS for b in pins.get(p, [])):
                    return f"an x constant reaches a control pin of a register ({kind})"
            if cname in seen:
                continue
            seen.add(cname)
            dirs = cell.get("port_directions", {})
            for p, conn in cell.get("connections", {}).items():
                if dirs.get(p) == "output":
                    todo += [b for b in conn if isinstance(b, int) and b not in bits]
                    bits |= {b for b in conn if isinstance(b, int)}
    return ""


_KINDS = {
    "$shift": "a write at a variable index (Yosys makes the bits x, iverilog keeps them)",
    "$pow": "a power",
    "$dlatch": "a latch",
    "$adlatch": "a latch",
    "$dlatchsr": "a latch",
    "$sr": "a latch",
    "$tribuf": "a tri-state driver",
}


def _kind(kind: str) -> str:
    if kind.startswith(("$mem", "$meminit")):
        return "a memory"
    return _KINDS.get(kind, "a construct the differential test does not cover")


_CASE = re.compile(r"^[ \t]*case[ \t]+(.*)$", re.M)
_CELL = re.compile(r"^\s*cell\s+(\$eqx|\$nex)\s", re.M)
_CONST = re.compile(r"\d+'([01xzm-]+)")


def rtlil_refusal(rtlil: str, *, z: bool) -> str:
    """Why the design before ``proc`` (RTLIL) holds a ``case`` item with x or z bits, or
    (``z``: an input may be z) a ``===``/``!==``, or ""."""
    for m in _CASE.finditer(rtlil):
        for const in _CONST.findall(m.group(1)):
            if "x" in const or "z" in const:
                return "a case item with x or z bits (Yosys reads them as wildcards)"
    if z and _CELL.search(rtlil):
        return "=== or !== where an input may be z (Yosys reads z as x)"
    return ""


def text_refusal(texts: Iterable[str], *, z: bool) -> str:
    """Why the preprocessed texts use ``casex`` (or, ``z``, ``casez``), or ""."""
    for text in texts:
        code = blank_comments(text)
        if re.search(r"\bcasex\b", code):
            return "casex (iverilog matches an x selector bit with any item bit)"
        if z and re.search(r"\bcasez\b", code):
            return "casez where an input may be z (iverilog matches a z selector bit)"
        why = two_state(code)
        if why:
            return why
    return ""


_TWO_STATE = re.compile(r"\b(bit|byte|shortint|int|longint)\b(\s*')?")
_CONSTANT_DECL = re.compile(r"\b(parameter|localparam|genvar)\s+(\w+\s+)?$|\bfor\s*\(\s*$")


def two_state(code: str) -> str:
    """Why ``code`` (comments blanked) holds a 2-state type (a variable, a port, a function
    or its result, a cast) that may hold an x: iverilog turns x into 0 where it assigns a
    2-state variable, Yosys keeps x; or "". Parameters, ``genvar``s and loop variables
    declared in a ``for`` are constants or defined and pass."""
    for m in _TWO_STATE.finditer(code):
        line = code[code.rfind("\n", 0, m.start()) + 1 : m.start()]
        if not m.group(2) and _CONSTANT_DECL.search(line):
            continue
        return (
            f"a 2-state type ({m.group(1)}{' cast' if m.group(2) else ''}): iverilog turns "
            "x into 0 where it assigns one, Yosys keeps x"
        )
    return ""


_REGISTERS = frozenset({"$dff", "$adff", "$dffe", "$adffe", "$sdff", "$sdffe", "$dffsr", "$aldff"})


def same_registers(json_file: Path, modules: Sequence[str]) -> list[str]:
    """The registers both ``modules`` (reference, candidate; the design after ``proc -ifx;
    flatten`` as Yosys JSON) hold under one name with one width: the wires every bit of
    which a register's output drives."""
    try:
        mods = json.loads(json_file.read_text(errors="replace"))["modules"]
        sides = [_registers(mods[m.lstrip("\\")]) for m in modules]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    return sorted(n for n, w in sides[0].items() if all(s.get(n) == w for s in sides[1:]))


def _registers(mod: Mapping[str, Any]) -> dict[str, int]:
    """Name -> width of the visible wires of ``mod`` whose bits registers drive."""
    q: set[Any] = set()
    for cell in mod.get("cells", {}).values():
        if cell.get("type") in _REGISTERS:
            q |= set(cell.get("connections", {}).get("Q", []))
    out: dict[str, int] = {}
    for name, net in mod.get("netnames", {}).items():
        bits = net.get("bits", [])
        if not net.get("hide_name") and bits and all(b in q for b in bits):
            out[name] = len(bits)
    return out
