"""Registers with an asynchronous reset, set or load at simulation time 0, for the x proofs
(:mod:`rtlopt.formal.xfaith`).

``always_ff @(posedge clk or negedge rst_n)`` runs only on an event. A reset held at its
active level from time 0 without one (a testbench's ``logic rst_n = 0;``: under ``-g2012`` a
declaration initializer makes no event; a top's port driven so) leaves the register at its
power-up value (x, or its initial value) until the first clock edge, where the block runs
and resets it. Yosys's ``async2sync`` (and ``clk2fflogic``) show the reset value at once, so
a candidate reading the reset into an output (``y = q & rst_n`` for ``y = q``) was proven
though the repository's simulation gives x where it gives 0.

:func:`held_rewrite` rewrites both sides (RTLIL after ``proc; flatten; memory``, before
``async2sync``) so that every such register reads its power-up value while it may not have
run yet: its output becomes ``(first & held) ? power-up : q``, where

* ``first`` is a register with initial value 1 and next value 0 on the register's own clock
  (1 in the first step only under ``async2sync``; until the clock's first edge under
  ``clk2fflogic``), and
* ``held`` is the AND of free miter inputs, one per input port the asynchronous pins read
  (``rtlopt_held_<port>``; one more for pins no input port drives): whether that input was
  held without an event. They are free, so both readings are compared (an ``initial
  rst_n = 0`` makes an event: the block runs and the register reads the reset value); the
  two sides share them (one miter input each).

The reset itself keeps its value for every other reader, and the register's next state is
``async2sync``'s (the block runs at the first edge with the reset active). Only behaviours
are added to the model: in the induction step ``first`` is free in its first step, which
can cost a proof, never make one.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["HELD_PREFIX", "Unread", "held_inputs", "held_rewrite"]

#: The name of the miter inputs that choose a held (event-free) asynchronous input.
HELD_PREFIX = "rtlopt_held_"
#: The choice for asynchronous pins no input port of the module drives.
OTHER = HELD_PREFIX + "_"

#: Cell type -> its asynchronous control pins (edge-triggered registers only: a latch's
#: ``always_latch`` runs at time 0).
_ASYNC = {
    "$adff": ("ARST",),
    "$adffe": ("ARST",),
    "$aldff": ("ALOAD",),
    "$aldffe": ("ALOAD",),
    "$dffsr": ("SET", "CLR"),
    "$dffsre": ("SET", "CLR"),
}

#: Single-bit registers with asynchronous pins (a design instantiating Yosys's gate cells):
#: not rewritten, the proof fails closed.
_GATE_ASYNC = re.compile(r"\$_(?:DFF_[NP][NP][01]|DFFE_[NP][NP][01][NP]|DFFSRE?_|ALDFFE?_)")

_MODULE = re.compile(r"^module (\S+)\n(.*?)^end\n", re.M | re.S)
_CELL = re.compile(r"^(  cell (\S+) (\S+)\n(.*?)^  end\n)", re.M | re.S)
_WIRE = re.compile(r"^((?:  attribute .*\n)*)  wire ((?:\S+ )*)(\S+)\n", re.M)
_CONNECT = re.compile(r"^    connect \\?(\S+) (.*)$", re.M)
_PARAM = re.compile(r"^    parameter \\?(\S+) (.*)$", re.M)
_TOKEN = re.compile(r"\{|\}|\[\d+(?::\d+)?\]|\d+'[01xzm-]*|-?\d+|\\\S+|\$\S+")


class Unread(ValueError):
    """A register with asynchronous pins whose connections the rewrite does not read (the
    proof fails closed)."""


@dataclass
class _Wire:
    name: str
    width: int
    offset: int
    port: str  # "input", "output", "inout" or ""
    init: str  # MSB first, "" where none


def held_rewrite(text: str, modules: tuple[str, str]) -> tuple[str, list[str]]:
    """``text`` (RTLIL) with the registers of ``modules`` (reference, candidate) that have
    asynchronous pins reading their power-up value while ``first & held`` (see the module's
    text), and the names of the choice inputs added to both modules (sorted; none where no
    such register exists: ``text`` unchanged).

    Raises:
        Unread: Such a register's connections could not be read.
    """
    found = {m.group(1): m for m in _MODULE.finditer(text)}
    modules = tuple(n if n[:1] in "\\$" else "\\" + n for n in modules)  # type: ignore[assignment]
    if any(name not in found for name in modules):
        return text, []
    needed: set[str] = set()
    bodies: dict[str, str] = {}
    for name in modules:
        body, used = _rewrite_module(found[name].group(2))
        bodies[name] = body
        needed |= used
    if not needed:
        return text, []
    choices = sorted(needed)
    out, last = [], 0
    for m in sorted((found[n] for n in modules), key=lambda m: m.start()):
        body = _add_ports(bodies[m.group(1)], choices)
        out += [text[last : m.start()], f"module {m.group(1)}\n{body}end\n"]
        last = m.end()
    out.append(text[last:])
    return "".join(out), choices


def held_inputs(cex: Mapping[str, str], resets: Mapping[str, int]) -> tuple[str, ...]:
    """The inputs a sequential counterexample (:func:`rtlopt.formal.logparse
    .parse_counterexample`) holds without an event from time 0 where it differs in the first
    step with every reset of ``resets`` (name -> active level) active then: a run from
    reset; "" names asynchronous pins no input drives."""
    if cex.get("cycle") != "1" or any(cex.get(f"{r}@1") != str(v) for r, v in resets.items()):
        return ()
    return tuple(
        dict.fromkeys(
            k[len(HELD_PREFIX) : -2].rsplit("__", 1)[0].strip("_")
            for k, v in cex.items()
            if k.startswith(HELD_PREFIX) and k.endswith("@1") and v == "1"
        )
    )


def _wires(body: str) -> dict[str, _Wire]:
    out: dict[str, _Wire] = {}
    for m in _WIRE.finditer(body):
        words = m.group(2).split()
        opts = {w: words[i + 1] for i, w in enumerate(words[:-1]) if words[i + 1].isdigit()}
        init = re.search(r"attribute \\init (\d+)'([01xzm-]*)", m.group(1))
        width = int(opts.get("width", "1"))
        port = next((w for w in ("input", "output", "inout") if w in opts), "")
        bits = init.group(2).rjust(width, "0")[-width:] if init else ""
        out[m.group(3)] = _Wire(m.group(3), width, int(opts.get("offset", "0")), port, bits)
    return out


def _bits(spec: str, wires: dict[str, _Wire]) -> list[tuple[str, int] | str] | None:
    """The bits of an RTLIL signal ``spec``, LSB first: (wire, index) or a constant digit;
    None where it is not read."""
    toks = _TOKEN.findall(spec)
    if "".join(toks) != re.sub(r"\s+", "", spec):
        return None
    chunks: list[list[tuple[str, int] | str]] = []
    depth = 0
    for tok in toks:
        if tok in "{}":
            depth += 1 if tok == "{" else -1
            continue
        if tok.startswith("["):
            if not chunks:
                return None
            hi, _, lo = tok[1:-1].partition(":")
            base = chunks[-1]
            chunks[-1] = base[int(lo or hi) : int(hi) + 1]
        elif "'" in tok:
            width, _, digits = tok.partition("'")
            chunks.append(list(reversed(digits.rjust(int(width), "0")[-int(width) :])))
        elif tok.lstrip("-").isdigit():
            chunks.append(list(reversed(format(int(tok) & 0xFFFFFFFF, "032b"))))
        elif tok in wires:
            w = wires[tok]
            chunks.append([(tok, i) for i in range(w.width)])
        else:
            return None
    if depth:
        return None
    if spec.strip().startswith("{"):  # a concatenation lists its parts MSB first
        chunks.reverse()
    return [b for c in chunks for b in c]


def _choice(bit: tuple[str, int] | str, wires: dict[str, _Wire]) -> str:
    """The choice of one bit a pin reads: per bit of the wire driving it (an input port's,
    shared by both sides by name; an inner net's, where its writer decides whether it makes
    an event at time 0, shared only where both sides name it alike), named without
    collisions (``rst__`` and ``rst_$``); a constant's: the shared :data:`OTHER`."""
    if not isinstance(bit, tuple):
        return OTHER
    name = bit[0].lstrip("\\")
    tag = hashlib.sha256(name.encode()).hexdigest()[:6]
    word = re.sub(r"\W", "_", name)
    return f"{HELD_PREFIX}{word}__{tag}_b{bit[1]}"


def _rewrite_module(body: str) -> tuple[str, set[str]]:
    """``body`` with its asynchronous registers rewritten, and the choices they read."""
    wires = _wires(body)
    used: set[str] = set()
    extra: list[str] = []
    firsts: dict[tuple[str, str], str] = {}
    inits: dict[str, list[str]] = {}
    used_cells: list[str] = []
    decls: list[str] = []

    def cell(m: re.Match[str]) -> str:
        kind, name, inner = m.group(2), m.group(3), m.group(4)
        if _GATE_ASYNC.match(kind):
            raise Unread(f"{kind} {name}")
        if kind not in _ASYNC:
            return m.group(1)
        conns = dict(_CONNECT.findall(inner))
        params = dict(_PARAM.findall(inner))
        q = _bits(conns.get("Q", ""), wires)
        pins = [_bits(conns.get(p, ""), wires) for p in _ASYNC[kind]]
        qbits = [b for b in q or [] if isinstance(b, tuple)]
        if q is None or any(p is None for p in pins) or len(qbits) != len(q) or not q:
            raise Unread(f"{kind} {name}")
        choices = sorted({_choice(b, wires) for p in pins for b in p or []})
        used.update(choices)
        n = len(used_cells)
        used_cells.append(name)
        clk = (conns.get("CLK", "1'0"), params.get("CLK_POLARITY", "1'1"))
        if clk not in firsts:
            firsts[clk] = f"\\rtlopt_first_{len(firsts)}"
            extra.append(_first_cell(firsts[clk], *clk))
            decls.append(f"  attribute \\init 1'1\n  wire {firsts[clk]}\n")
        raw, gate = f"\\rtlopt_async_q_{n}", f"\\rtlopt_async_read_{n}"
        power_up = []
        for w, i in qbits:
            digits = inits.setdefault(w, list(wires[w].init or "x" * wires[w].width))
            power_up.append(digits[wires[w].width - 1 - i] if wires[w].init else "x")
            if wires[w].init:
                digits[wires[w].width - 1 - i] = "x"
        width = len(q)
        pu = f"{width}'" + "".join(reversed(power_up)).replace("z", "x").replace("-", "x")
        extra.append(_read_cells(n, raw, gate, width, [firsts[clk], *choices], pu, conns["Q"]))
        init = f"  attribute \\init {pu}\n" if set(pu.split("'")[1]) != {"x"} else ""
        decls.append(f"{init}  wire width {width} {raw}\n  wire {gate}\n")
        q_line = f"    connect \\Q {conns['Q']}\n"
        return m.group(1).replace(q_line, f"    connect \\Q {raw}\n")

    body = _CELL.sub(cell, body)
    if not extra:
        return body, used
    body = _moved_inits(body, wires, inits)
    return "".join(decls) + body + "".join(extra), used


def _first_cell(name: str, clk: str, polarity: str) -> str:
    return (
        f"  cell $dff {name}_reg\n    parameter \\CLK_POLARITY {polarity}\n"
        f"    parameter \\WIDTH 1\n    connect \\CLK {clk}\n    connect \\D 1'0\n"
        f"    connect \\Q {name}\n  end\n"
    )


def _read_cells(n: int, raw: str, gate: str, width: int, ins: list[str], pu: str, q: str) -> str:
    """The raw output wire, the AND of ``ins`` and the multiplexer onto ``q``."""
    a = " ".join(f"\\{i}" if not i.startswith("\\") else i for i in reversed(ins))
    return (
        f"  cell $reduce_and $rtlopt_held_and_{n}\n    parameter \\A_SIGNED 0\n"
        f"    parameter \\A_WIDTH {len(ins)}\n    parameter \\Y_WIDTH 1\n"
        f"    connect \\A {{ {a} }}\n    connect \\Y {gate}\n  end\n"
        f"  cell $mux $rtlopt_held_mux_{n}\n    parameter \\WIDTH {width}\n"
        f"    connect \\A {raw}\n    connect \\B {pu}\n    connect \\S {gate}\n"
        f"    connect \\Y {q}\n  end\n"
    )


def _moved_inits(body: str, wires: dict[str, _Wire], inits: dict[str, list[str]]) -> str:
    """``body`` with the initial values the raw registers took off the wires they drove
    (the rest kept; none left: the attribute dropped)."""

    def wire(m: re.Match[str]) -> str:
        name = m.group(3)
        if name not in inits or not wires[name].init:
            return m.group(0)
        attrs = [a for a in m.group(1).splitlines(True) if not a.startswith("  attribute \\init ")]
        left = "".join(inits[name])
        if set(left) != {"x"}:
            attrs.append(f"  attribute \\init {len(left)}'{left}\n")
        return "".join(attrs) + f"  wire {m.group(2)}{name}\n"

    return _WIRE.sub(wire, body)


def _add_ports(body: str, choices: list[str]) -> str:
    """``body`` with the choice inputs declared (numbered after its ports)."""
    nums = [int(n) for n in re.findall(r"^  wire .*?(?:input|output|inout) (\d+) ", body, re.M)]
    first = max(nums, default=0) + 1
    decl = "".join(f"  wire input {first + i} \\{c}\n" for i, c in enumerate(choices))
    return decl + body
