"""Drivers per net bit, counted in the elaborated design before any optimization.

Yosys's ``check`` misses a net that a constant drives beside a signal (``assign t = 1'b0;
assign t = hit;``): it counts cell outputs only, and ``opt_clean`` then keeps the constant and
drops the other driver, so the miter proves a model in which ``t`` is 0 while simulation and
the chip see something else. This module counts the drivers itself, on the RTLIL that the
proof scripts write from a copy of the design after ``proc -noopt; flatten`` (before any
clean-up: ``proc``'s own ``opt_expr`` already replaces such a cell's output by the constant):

* module-level ``connect`` statements join wire bits into nets (no direction is needed); a
  constant 0, 1 or x joined to a net drives it (Yosys reads ``z`` as ``x`` outside tri-state
  buffers, a value synthesis may replace by any other; a ``z`` left as such does not drive);
* every output (or inout) port of a cell drives the bits it is connected to (internal cells by
  Yosys's port names, other cells by their module's port declarations);
* every input (or inout) port of the module is driven from outside.

A net driven only through a ``case`` or an ``always`` block is a ``$mux``, ``$pmux``,
``$dff`` or ROM cell's output after ``proc``, so it counts as driven once (Yosys's ``check``
after ``memory`` calls the data wire of a case turned into a ROM "used but has no driver").
:func:`extra_drivers` compares the candidate's nets with the reference's by their wires'
names: a candidate net with more drivers than the reference's net of the same name (0 when
there is none) is reported, named, and so are more nets that are read but never driven.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

__all__ = ["ModuleDrivers", "extra_drivers", "module_drivers", "parse_rtlil"]

#: Output ports of Yosys's internal cells (``$memrd``'s ``DATA`` is handled apart).
_OUT_PORTS = frozenset({"Y", "Q", "X", "CO", "RD_DATA", "CTRL_OUT"})

#: A constant of a sigspec: ``4'01xz`` (most significant bit first).
_CONST = re.compile(r"(\d+)'([01xzm-]*)$")

#: A wire bit: (wire name, bit index).
WireBit = tuple[str, int]


@dataclass
class _Module:
    """What the counting needs of one RTLIL module."""

    widths: dict[str, int] = field(default_factory=dict)
    ports: dict[str, str] = field(default_factory=dict)  # name -> input/output/inout
    connects: list[tuple[str, str]] = field(default_factory=list)
    cells: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)


def parse_rtlil(text: str) -> dict[str, _Module]:
    """The modules of an RTLIL dump (``write_rtlil``), by name (without the leading ``\\``)."""
    mods: dict[str, _Module] = {}
    mod: _Module | None = None
    cell: dict[str, str] | None = None
    for raw in text.split("\n"):
        line = raw.strip()
        if not line or line.startswith(("attribute ", "parameter ")):
            continue
        word, _, rest = line.partition(" ")
        if word == "module":
            mod = mods.setdefault(_name(rest), _Module())
        elif mod is None:
            continue
        elif word == "wire":
            _wire(mod, rest)
        elif word == "cell":
            cell = {}
            kind, _, name = rest.partition(" ")
            mod.cells.append((kind, name.strip(), cell))
        elif word == "connect":
            lhs, rhs = _split_connect(rest)
            if cell is not None:
                cell[lhs] = rhs
            else:
                mod.connects.append((lhs, rhs))
        elif word == "end":
            if cell is not None:
                cell = None
            elif raw.startswith("end"):
                mod = None
    return mods


def _name(token: str) -> str:
    token = token.strip()
    return token[1:] if token.startswith("\\") else token


def _wire(mod: _Module, rest: str) -> None:
    toks = rest.split()
    width = int(toks[toks.index("width") + 1]) if "width" in toks else 1
    name = toks[-1]
    mod.widths[name] = width
    for kind in ("input", "output", "inout"):
        if kind in toks:
            mod.ports[name] = kind


def _split_connect(rest: str) -> tuple[str, str]:
    """The two sigspecs of ``connect A B`` (either may be a ``{ ... }`` concatenation or carry
    a ``[i]`` / ``[i:j]`` select)."""
    toks = _tokens(rest)
    depth = 0
    for i, tok in enumerate(toks):
        depth += tok == "{"
        depth -= tok == "}"
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if depth == 0 and not nxt.startswith("["):
            return " ".join(toks[: i + 1]), " ".join(toks[i + 1 :])
    return rest, ""


def _tokens(text: str) -> list[str]:
    return text.replace("{", " { ").replace("}", " } ").split()


def _bits(sig: str, widths: Mapping[str, int]) -> list[WireBit | str]:
    """The bits of a sigspec, least significant first: a wire bit, or a constant's
    character (``0``, ``1``, ``x``, ``z``)."""
    out: list[WireBit | str] = []
    for item in _items(_tokens(sig), widths):
        out = item + out  # a concatenation lists its most significant part first
    return out


def _items(toks: list[str], widths: Mapping[str, int]) -> Iterator[list[WireBit | str]]:
    i = 0
    while i < len(toks):
        tok = toks[i]
        i += 1
        if tok in ("{", "}"):
            continue
        const = _CONST.match(tok)
        if const is not None and not tok.startswith(("\\", "$")):
            yield _const_bits(int(const.group(1)), const.group(2))
            continue
        if tok.lstrip("-").isdigit():  # a plain integer: 32 bits
            yield [str((int(tok) >> k) & 1) for k in range(32)]
            continue
        lo, hi = 0, widths.get(tok, 1) - 1
        if i < len(toks) and toks[i].startswith("["):
            sel = toks[i].strip("[]").split(":")
            i += 1
            hi, lo = int(sel[0]), int(sel[-1])
        yield [(tok, k) for k in range(lo, hi + 1)]


def _const_bits(width: int, digits: str) -> list[WireBit | str]:
    """The bits of an RTLIL constant, least significant first; Yosys writes ``5'x`` for five
    x bits: missing high bits repeat an x or z at the top, else they are 0."""
    bits: list[WireBit | str] = list(reversed(digits[-width:] if width else ""))
    top = bits[-1] if bits and bits[-1] in ("x", "z") else "0"
    return bits + [top] * (width - len(bits))


@dataclass(frozen=True)
class ModuleDrivers:
    """Drivers per net of one module: each net's wire bits, its driver count and whether
    something reads it (a cell input or an output port)."""

    nets: list[tuple[list[WireBit], int, bool]]
    #: Cell output bits tied to a constant (what ``opt_expr`` makes of a net that a constant
    #: drives beside the cell, should a dump come after it), by cell.
    tied: dict[str, int] = field(default_factory=dict)

    def by_name(self) -> dict[WireBit, int]:
        """Driver count of the net of each public wire bit."""
        return {b: n for bits, n, _ in self.nets for b in bits if b[0].startswith("\\")}

    def undriven(self) -> list[WireBit]:
        """A wire bit of every net that is read but has no driver (public names first)."""
        return [_first(bits) for bits, n, read in self.nets if read and n == 0]


class _Nets:
    """Union-find of wire bits, with the drivers counted per bit."""

    def __init__(self) -> None:
        self.parent: dict[WireBit, WireBit] = {}
        self.count: dict[WireBit, int] = {}

    def find(self, b: WireBit) -> WireBit:
        root = b
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        while b != root:
            self.parent[b], b = root, self.parent.get(b, b)
        return root

    def drive(self, b: WireBit) -> None:
        self.count[b] = self.count.get(b, 0) + 1

    def join(self, a: WireBit | str, b: WireBit | str) -> None:
        if isinstance(a, str) and isinstance(b, str):
            return
        if isinstance(a, str) or isinstance(b, str):
            const, wire = (a, b) if isinstance(a, str) else (b, a)
            assert isinstance(const, str) and not isinstance(wire, str)
            if const in "01x":  # a constant drives the net; z leaves it to the other drivers
                self.drive(wire)
            return
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


def module_drivers(mods: Mapping[str, _Module], name: str) -> ModuleDrivers | None:
    """The nets of module ``name`` of :func:`parse_rtlil`'s result with their driver counts
    (None when the module is not there)."""
    mod = mods.get(name)
    if mod is None:
        return None
    uf = _Nets()
    for lhs, rhs in mod.connects:
        for a, b in zip(_bits(lhs, mod.widths), _bits(rhs, mod.widths), strict=False):
            uf.join(a, b)
    tied: dict[str, int] = {}
    read: list[WireBit] = []
    for kind, cell, conns in mod.cells:
        for port, sig in conns.items():
            drives = _drives(mods, kind, port)
            for b in _bits(sig, mod.widths):
                if not isinstance(b, str):
                    if drives:
                        uf.drive(b)
                    else:
                        read.append(b)
                elif drives and b in "01x":
                    where = f"{kind} {_source(cell)}".strip()
                    tied[where] = tied.get(where, 0) + 1
    for wire, direction in mod.ports.items():
        bits = [(wire, k) for k in range(mod.widths[wire])]
        for b in bits:
            if direction in ("input", "inout"):
                uf.drive(b)
            else:
                read.append(b)
    nets: dict[WireBit, list[WireBit]] = {}
    total: dict[WireBit, int] = {}
    for wire, width in mod.widths.items():
        for k in range(width):
            nets.setdefault(uf.find((wire, k)), []).append((wire, k))
    for b, n in uf.count.items():
        root = uf.find(b)
        total[root] = total.get(root, 0) + n
    used = {uf.find(b) for b in read}
    return ModuleDrivers(
        [(bits, total.get(root, 0), root in used) for root, bits in nets.items()], tied
    )


def _drives(mods: Mapping[str, _Module], kind: str, port: str) -> bool:
    """Whether ``port`` of a cell of type ``kind`` drives what it connects to."""
    if kind.startswith("$"):
        if kind.startswith("$memrd"):
            return port == "\\DATA"
        return port.lstrip("\\") in _OUT_PORTS
    sub = mods.get(_name(kind))
    if sub is None:  # a module the dump does not hold: every port may drive
        return True
    return sub.ports.get(port, "") in ("output", "inout")


def extra_drivers(gold: ModuleDrivers, gate: ModuleDrivers, *, limit: int = 3) -> str:
    """The candidate's nets with more drivers than the reference's net of the same name
    ("" when there are none): e.g. ``t (2 drivers, the reference has 1)``."""
    allowed = gold.by_name()
    found: list[str] = []
    for bits, n, _ in gate.nets:
        if n < 2:
            continue
        public = [b for b in bits if b[0].startswith("\\")] or bits
        ref = max((allowed.get(b, 0) for b in public), default=0)
        if n > ref:
            found.append(f"{_show(public[0])} ({n} drivers, the reference has {ref or 'none'})")
    if sum(gate.tied.values()) > sum(gold.tied.values()):
        found.append(f"the output of {', '.join(sorted(gate.tied)[:limit])} (and a constant)")
    out = []
    if found:
        more = f" and {len(found) - limit} more" if len(found) > limit else ""
        out.append("more drivers than the reference on net " + ", ".join(found[:limit]) + more)
    lone, ref_lone = gate.undriven(), gold.undriven()
    if len(lone) > len(ref_lone):
        names = ", ".join(_show(b) for b in lone[:limit])
        out.append(
            f"{len(lone)} used nets without a driver (the reference has {len(ref_lone)}): {names}"
        )
    return "; ".join(out)


def _source(cell: str) -> str:
    """Where an automatically named cell comes from (``$and$m.v:5$5`` -> ``at m.v:5``)."""
    parts = cell.split("$")
    return f"at {parts[2]}" if len(parts) > 3 and ":" in parts[2] else ""


def _first(bits: list[WireBit]) -> WireBit:
    return next((b for b in bits if b[0].startswith("\\")), bits[0])


def _show(bit: WireBit) -> str:
    return f"{_name(bit[0])}[{bit[1]}]"
