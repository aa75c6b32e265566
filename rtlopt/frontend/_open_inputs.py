"""Inputs of the target that the repository's design leaves x or z.

Every proof and rtlopt's own simulation drive the target's inputs with 0 and 1 only. An
instance of the target in the repository that leaves an input unconnected (``.b()``, a named
connection left out, fewer ordered connections than ports, an implicit ``.*`` that finds no
net) feeds it z, which the target reads as x; one that connects a value with x or z bits
(``.b(1'bx)``, ``.c({a, 1'bz})``, ``'z``, a parameter holding x) feeds it x, and so does an
instance connecting an input of its own parent that the parent's instance leaves so (at any
depth: ``mid`` passes its ``b`` on, ``top`` leaves ``mid``'s ``b`` open). Simulators
decide on x in ways the proofs never see (``if (b)`` takes the ``else`` branch on x, ``b ? a :
0`` merges both bit by bit): the ports go to the x-faithfulness proof
(:mod:`rtlopt.formal.xfaith`, through :func:`fed_ports`), which a change must pass too.

:func:`open_inputs` reads the instances the way
:func:`rtlopt.frontend._params.parameterizations` finds the repository's parameterizations:
slang elaborates the repository from its tops (every connection form resolved, ordered and
implicit ones included) and every instance of the target below them is judged, once per design.
So is a net or variable an input of the target (or of a parent passing it on) is connected to:
one that nothing in the elaborated design drives (``wire w; m u(.b(w));``, a ``reg`` never
assigned) feeds it z, and one that only values with x/z bits drive (``assign w = 1'bx;``,
``wire w = 'z;``, ``initial w = 1'bx;`` alone) feeds it x
(:class:`rtlopt.frontend._net_drivers.Drivers`: any assignment, initializer and gate counts as
a driver; a port of an instance of a module the repository does not define, a vendor cell,
drives a value not known, x where nothing else drives the bits;
an assignment through a hierarchical name from another module, a testbench's, is judged like a
local one). Drivers are counted per bit: an input connected to ``w[4]`` of a ``w`` whose bits
``[7:4]`` nothing drives is fed z, and a select whose index is not constant drives no bit for
sure. An output (or inout) of an instance of a module the repository defines drives only what
that module's body drives the port with (followed down, once per instance and port, up to 64
levels; a body driving nothing, x only or some bits only leaves the net undriven), and the
judged instance's own inout connected to the same net drives nothing for its input.

A connection or a driver whose value defined operands can make x at run time counts as x too
(:mod:`rtlopt.frontend._run_x`: a select or array index that can leave the declared range, a
``/`` or ``%`` by what is not a nonzero constant, a call of a function that leaves its result
unassigned on some path; :mod:`rtlopt.frontend._two_drivers`: a net two drivers drive, which
reads x where they disagree), whatever other drivers of the bits do; so does an assignment
of a value with x/z bits to a net or variable that defined drivers write too (``default: y
= 'x;``: x wherever no other assignment overwrites it). A system task's output
(:mod:`rtlopt.frontend._sys_x`: entries ``$readmemh`` may leave unloaded, a variable
``$value$plusargs`` or ``$sscanf`` may leave unwritten) is x on the bits no defined driver
(an initializer included) writes too. A conditional whose condition is a parameter reads
only the branch it takes, and a generate branch the parameters turn off drives nothing.

Each connected net's fan-in cone is judged the same way (:meth:`_Walk._cone`): every net or
variable a driver reads (its value, the indices of its left side, and what the ``always``
block holding it reads) is judged with the rules above, transitively and once per signal,
through a submodule's output into its body and through an input of the module out to its
parent's instance (``assign w = r; always @* r = 1'bx; m u(.b(w));`` is found at ``r``). A
register's next value is followed like any variable's; its clock (the event control) is
not. A register without reset or initial value (:mod:`rtlopt.frontend._powerup`) reads x
from power-up until its first write: it is an x source of the cone (:attr:`OpenInput.kind`
"powerup", the message says it "powers up x"). A gate with a control or a switch ("switch":
z while off), a user-defined primitive ("udp") and a delay ("delay": on a continuous
assignment, a net or a gate, or before every write of a variable without an initial value)
are x sources too (:mod:`rtlopt.frontend._x_drivers`); a gate without either is followed
through to its inputs. So are a variable a block may leave x (an inferred latch, an
``always`` nothing wakes up, an ``initial`` writing it on some paths only:
:mod:`rtlopt.frontend._partial`) and an input in a combinational loop (through the target's
own outputs, or a net driving itself: :mod:`rtlopt.frontend._comb_loop`). An index of a
procedural ``for`` loop is judged by the loop's bounds (:mod:`rtlopt.frontend._loops`),
and an x arm of a ``?:`` chain or an x ``default`` of a ``case`` that no 0/1 value of the
selectors reaches is no x source (:mod:`rtlopt.frontend._reach`). Past 10,000 signals
judged for one target the walk fails closed.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from rtlopt.frontend._comb_loop import CombLoops
from rtlopt.frontend._elaboration import compiled, errors_by_file, raw_errors
from rtlopt.frontend._known_bits import KnownBits
from rtlopt.frontend._net_bits import pieces, width
from rtlopt.frontend._net_drivers import Drivers, Port, key, x_value
from rtlopt.frontend._open_input import OpenInput
from rtlopt.frontend._partial import Partials
from rtlopt.frontend._per_design import PerDesign
from rtlopt.frontend._run_x import MayBeX, run_x
from rtlopt.frontend._slang import CONSTANT_KINDS, input_connections, node_kind
from rtlopt.frontend._z_cone import ZCone, may_be_z
from rtlopt.frontend.model import Design

__all__ = [
    "OpenInput",
    "bench_inputs",
    "fed_ports",
    "file_errors",
    "open_inputs",
    "open_inputs_reason",
    "unparsed_hint",
]

log = logging.getLogger(__name__)


#: The signals one target's walk judges at most (the fan-in cones of its instances' inputs).
_CONE_LIMIT = 10_000
# what :meth:`_Walk._undriven` finds: the value driving (x/z, "" nothing) and the bits
Found = tuple[str, list[tuple[int, int]]]

#: The last name of a dotted name (``t.bw``, ``gen[0].r``; not a port connection ``.b(``).
_DOTTED = re.compile(r"[\w$\]]\s*\.\s*([A-Za-z_][\w$]*)")
#: Symbols a connection may name whose value is a constant: no driver to look for.
#: A specparam is no constant here: its value is not judged for x bits (round 50), so a cone
#: through one fails closed (``_undriven``: any other symbol).
_CONSTANTS = CONSTANT_KINDS - {"Specparam"}
_inputs = input_connections


def _location(inst: Any, sm: Any) -> tuple[Path, int]:
    try:
        # slang names a file relative to the working folder when it can
        path = Path.cwd() / str(sm.getFileName(inst.location))
        return path, int(sm.getLineNumber(inst.location))
    except Exception:  # noqa: BLE001 - no location known
        return Path("?"), 0


def _too_many(sym: Any, sm: Any) -> MayBeX:
    return MayBeX.make(
        f"its fan-in cone holds more than {_CONE_LIMIT} nets and variables ({{0}}, "
        f"'{sym.name}' not judged): not followed, so not known to be defined",
        (_location(sym, sm),),
        fix="the walk's bound is reached: this design is not checked",
        z=True,
    )


def _bit_names(sym: Any, missing: list[tuple[int, int]]) -> str:
    """``missing`` (bit offsets from the least significant) as indices of ``sym``'s
    declared range when it is a plain vector (``7:4``), else as offsets."""
    rng = getattr(getattr(sym.type, "canonicalType", None), "fixedRange", None)
    plain = rng is not None and int(rng.width) == width(sym)
    names = []
    for lo, hi in missing:
        ends = [lo, hi - 1]
        if rng is not None and plain:
            ends = [rng.lower + e if rng.isDescending else rng.upper - e for e in ends]
        a, b = max(ends), min(ends)
        if rng is not None and plain and not rng.isDescending:
            a, b = b, a
        names.append(str(a) if a == b else f"{a}:{b}")
    return ", ".join(names)


def _kind(value: str) -> str:
    """:attr:`OpenInput.kind` of what feeds an input (``value``: an x/z constant, a
    :class:`MayBeX`, or "" nothing)."""
    if isinstance(value, MayBeX):
        return value.kind or "run"
    return "x" if value else "z"


class _Walk:
    """The repository's elaboration: every instance by hierarchical name, and what feeds an
    input of one of them x or z (through the ports of its parents too)."""

    def __init__(self, comp: Any) -> None:
        from rtlopt.frontend._params import _instances

        self.root = comp.getRoot()
        self.sm = comp.sourceManager
        self.instances = {
            str(inst.hierarchicalPath): inst
            for top in self.root.topInstances
            for _, inst in _instances(top, "")
        }
        self.drivers: Drivers | None = None  # the whole design's, when needed
        self.known = KnownBits(self)  # selectors the design ties to one value
        self.local: dict[str, Drivers] = {}  # an instance's own, by its name
        self.partials = Partials()  # the blocks' partial writes, shared by every walk
        self.ports: dict[tuple[str, str], str | None] = {}  # what a body drives a port with
        # what :meth:`open` found, by instance and port
        self.opened: dict[tuple[str, str], list[OpenInput]] = {}
        # a signal's own drivers judged (:meth:`_undriven`), by (name, bits, excluded instance)
        self.judged: dict[tuple[str, Any, Any, str], Found | None] = {}
        self.dotted: frozenset[str] | None = None  # :meth:`_hierarchical`'s names
        self.zcone = ZCone(self)

    def _hierarchical(self, sym: Any) -> bool:
        """Whether a hierarchical name may write ``sym``: some text of the design (an
        included file, a macro's body too) names it after a dot; any escaped identifier
        after a dot makes every name count."""
        if self.dotted is None:
            names: set[str] = set()
            for buf in self.sm.getAllBuffers():
                text = str(self.sm.getSourceText(buf))
                if re.search(r"\.\s*\\", text):
                    names.add("")  # ``t.\bw `` : not read here
                names.update(_DOTTED.findall(text))
            self.dotted = frozenset(names)
        return "" in self.dotted or str(sym.name) in self.dotted

    def open(
        self, inst: Any, depth: int = 0, skip: frozenset[str] = frozenset()
    ) -> list[OpenInput]:
        """The inputs of ``inst`` fed x or z (but those named in ``skip``): unconnected, tied
        to x/z bits, connected to a net some bits of which nothing drives or only x/z values
        drive, or connected to an input of its parent that the parent's own instance feeds x
        or z (at any depth)."""
        where = str(inst.hierarchicalPath)
        return [
            # judged first through another input's cone (depth > 0), it may not say yet
            o if o.reaches or o.instance == where else replace(o, reaches=f"{where}.{port.name}")
            for port, expr in _inputs(inst)
            if str(port.name) not in skip
            for o in self._input(inst, port, expr, depth)
        ]

    def _input(self, inst: Any, port: Any, expr: Any, depth: int) -> list[OpenInput]:
        """What :meth:`open` finds for one input ``port`` of ``inst`` connected to ``expr``
        (once per instance and port; while it is being judged, a cone reaching it again
        adds nothing: the judgement under way follows what it reads)."""
        where = str(inst.hierarchicalPath)
        memo = (where, str(port.name))
        if memo in self.opened:
            return self.opened[memo]
        self.opened[memo] = []
        loc = _location(inst, self.sm)
        mod = str(inst.body.definition.name)
        out: list[OpenInput] = []
        value = "" if expr is None else self._x(expr)
        if expr is None or value:
            kind = "unconnected" if expr is None else _kind(value)
            out.append(OpenInput(where, str(port.name), *loc, value, mod, kind=kind))
        for sym, lo, hi in [] if out or depth >= 64 else pieces(expr, self.root, reading=True):
            hit = self._cone(sym, (lo, hi), where, depth)
            if isinstance(hit, list):  # through an input of the parent
                out += [
                    o if o.reaches or depth else replace(o, reaches=f"{where}.{port.name}")
                    for o in hit
                ]
            elif hit is not None:
                up, (x, missing) = hit
                net, line = _location(up, self.sm)
                whole = missing == [(0, width(up))]
                bits = "" if whole else _bit_names(up, missing)
                via = "" if up is sym else str(sym.name)
                out.append(
                    OpenInput(
                        where, str(port.name), *loc, x, mod, "", str(up.name), net, line,
                        bits, via, _kind(x),
                    )
                )  # fmt: skip
        self.opened[memo] = out
        return out

    def _cone(
        self, sym: Any, bits: tuple[int | None, int | None], where: str, depth: int
    ) -> list[OpenInput] | tuple[Any, Found] | None:
        """The first net or variable of the fan-in cone of ``bits`` of ``sym`` (itself
        first) whose drivers :meth:`_undriven` finds x or z, with what it found; or what the
        parent's instance feeds an input port of the cone's module (:meth:`open`); or None.
        The cone is followed through every driver's reads (:meth:`Drivers.reads`), each
        signal once; past :data:`_CONE_LIMIT` signals judged it fails closed."""
        stack: list[tuple[Any, int | None, int | None]] = [(sym, *bits)]
        seen: set[tuple[str, Any, Any]] = set()
        while stack:
            s, lo, hi = stack.pop()
            memo = (key(s), lo, hi)
            if memo in seen or node_kind(s) in _CONSTANTS:
                continue
            seen.add(memo)
            parent = self._parent_input(s)
            if parent is not None:
                found = [
                    o
                    for port, expr in _inputs(parent[0])
                    if str(port.name) == parent[1]
                    for o in self._input(parent[0], port, expr, depth + 1)
                ]
                if found:
                    return found
                continue
            hit = self._judge(s, lo, hi, where if s is sym else "")
            if hit is not None:
                return s, hit
            stack += self._reads(s, (lo, hi))
        return None

    def _judge(self, sym: Any, lo: int | None, hi: int | None, exclude: str) -> Found | None:
        """:meth:`_undriven` once per signal, bits and excluded instance; past
        :data:`_CONE_LIMIT` signals judged it fails closed."""
        judged = (key(sym), lo, hi, exclude)
        if judged not in self.judged:
            if len(self.judged) >= _CONE_LIMIT:
                return _too_many(sym, self.sm), [(0, width(sym))]
            self.judged[judged] = self._undriven(sym, (lo, hi), exclude)
        return self.judged[judged]

    def _reads(self, sym: Any, bits: tuple[int | None, int | None]) -> list[Any]:
        """What the drivers of ``bits`` of ``sym`` in the body of the instance declaring
        it read (:meth:`Drivers.reads`)."""
        scope = self._scope(sym)
        if not scope:
            return []
        # the design's walk once built: a hierarchical name's write is a driver too
        drivers = self.drivers or self._local(scope)
        return drivers.reads(sym, bits, self.known.decide)

    def _scope(self, sym: Any) -> str:
        """The hierarchical name of the instance declaring ``sym`` ("" none)."""
        path = str(getattr(sym, "hierarchicalPath", ""))
        scope = ""
        while "." in path and not scope:
            path = path.rpartition(".")[0]
            scope = path if path in self.instances else ""
        return scope

    def _local(self, scope: str) -> Drivers:
        if scope not in self.local:
            self.local[scope] = Drivers(
                self.instances[scope].body, self.root, local=True, partials=self.partials
            )
        return self.local[scope]

    def _x(self, expr: Any) -> str:
        """A constant with x/z bits in ``expr``, or a part of it that may be x at run time
        (:func:`rtlopt.frontend._run_x.run_x`), or ""."""
        return x_value(expr, self.root) or run_x(expr, self.root, self.sm)

    def _undriven(
        self, sym: Any, bits: tuple[int | None, int | None] = (None, None), exclude: str = ""
    ) -> tuple[str, list[tuple[int, int]]] | None:
        """:meth:`Drivers.undriven` of a net or variable of the design (None for anything
        else: a parameter or enum value; any other symbol fails closed), in a walk of the
        whole design (every net and variable of it, since any may be in a fan-in cone): a
        write through a hierarchical name from another module (a testbench's ``initial
        t.r = 1'bx;``) is judged like a local one, and a second driver of a net makes it x.
        A variable no text names after a dot (:meth:`_hierarchical`) whose drivers in the
        body of the instance declaring it are defined needs no walk of the whole design."""
        kind = node_kind(sym)
        if kind in _CONSTANTS:
            return None
        if kind not in ("Net", "Variable"):
            return "", [(0, 1)]  # a symbol whose drivers are not followed: fail closed
        scope = self._scope(sym)
        if kind == "Variable" and scope and not self._hierarchical(sym):
            found = self._local(scope).undriven(sym, bits, self._port_state, exclude)
            if found is None:
                return None  # no other module's text names it: its own drivers say
        if self.drivers is None:
            # any net of the design may be in the fan-in cone of an input of the target
            self.drivers = Drivers(self.root, self.root, partials=self.partials)
        return self.drivers.undriven(sym, bits, self._port_state, exclude)

    def _port_state(self, port: Port) -> str | None:
        """What the body of a module the repository defines drives ``port`` with: None a
        defined value on every bit, "" nothing on some bit (or the body is too deep to
        follow), else an x/z value (once per instance and port)."""
        memo = (port.path, port.port)
        if memo in self.ports:
            return self.ports[memo]
        # while it is being followed, a cone reaching it again adds nothing (the
        # judgement under way follows what the port is driven with)
        self.ports[memo] = None
        state: str | None = None
        inner = None
        for p in port.instance.body.portList:
            if str(getattr(p, "name", "")) == port.port:
                inner = getattr(p, "internalSymbol", None)
        if inner is None or node_kind(inner) not in ("Net", "Variable"):
            state = ""  # a port expression (``.o({a, b})``) is not followed: fail closed
        elif port.path.count(".") > 64:
            state = ""
        else:
            hit = self._cone(inner, (None, None), "", 0)
            if isinstance(hit, list):
                state = hit[0].value or "" if hit else None
            else:
                state = None if hit is None else hit[1][0]
        self.ports[memo] = state
        return state

    def _parent_input(self, sym: Any) -> tuple[Any, str] | None:
        """``(instance, port name)`` when ``sym`` is an input, inout or ref port of the
        instance it is declared in (what feeds it is outside: the parent's instance, or for a
        top the environment, whose inputs are defined)."""
        path = str(getattr(sym, "hierarchicalPath", ""))
        parent = self.instances.get(path.rpartition(".")[0])
        if parent is None:
            return None
        for port in parent.body.portList:
            inner = getattr(port, "internalSymbol", None)
            direction = str(getattr(port, "direction", "")).rsplit(".", 1)[-1]
            if direction in ("In", "InOut", "Ref") and str(
                getattr(inner, "name", getattr(port, "name", ""))
            ) == str(sym.name):
                return parent, str(port.name)
        return None


def _judged(
    design: Design,
    tops: tuple[str, ...] = (),
    sets: tuple[str, ...] = (),
    skip: frozenset[str] = frozenset(),
    strict: frozenset[Path] = frozenset(),
    allowed: frozenset[Path] = frozenset(),
    known: frozenset[str] = frozenset(),
) -> list[OpenInput]:
    """Every input of every instance of the target below the repository's tops (``tops``
    with the parameters ``sets``, ``W=37``, where given) that is unconnected or connected
    to a value with x/z bits, directly or through its parents' input ports (those named in
    ``skip``, known fed x already, not asked).

    Raises:
        RuntimeError: slang cannot elaborate the repository, or its elaboration cannot be
            read (a form pyslang does not expose): nothing is known, so nothing is checked.
    """

    name = design.target.name
    try:
        comp = compiled(design, tops, sets)
        raw = raw_errors(comp)
        if strict:
            errors = errors_by_file(raw, known)
            for path in sorted(strict & set(errors) - allowed):
                raise RuntimeError(errors[path])
        elif not (tops or sets):
            _FILE_ERRORS[id(design)] = (design, raw)
        walk = _Walk(comp)
        if strict and not _reached(walk, name, strict):
            raise RuntimeError(f"no instance of {name} below a top the testbench defines")
        out: list[OpenInput] = []
        loops = CombLoops(walk)
        for inst in walk.instances.values():
            if inst.body.definition.name == name:
                # a loop through the target is named first (what else makes x on the way
                # is the loop itself: the block reading its own output back)
                where, loc = str(inst.hierarchicalPath), _location(inst, walk.sm)
                looped = []
                for port, _ in _inputs(inst):
                    if str(port.name) in skip:
                        continue
                    if why := loops.input(inst, port.name):
                        looped.append(
                            OpenInput(where, str(port.name), *loc, why, name, kind="loop")
                        )
                done = {f"{where}.{o.port}" for o in looped}
                out += [
                    o
                    for o in walk.open(inst, skip=skip)
                    if (o.reaches or f"{o.instance}.{o.port}") not in done
                ]
                out += looped
        # x only where found: a z may still pass on from elsewhere in the cone (asked
        # until one may be z: the proof's flag is one for the design)
        for i, o in enumerate(out):
            if any(may_be_z(p.value) or p.z for p in out):
                break
            at, _, port = o.reaches.rpartition(".") if o.reaches else (o.instance, "", o.port)
            out[i] = replace(o, z=walk.zcone.input(walk.instances[at], port))
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        log.debug("open inputs of %s not read", name, exc_info=True)
        raise RuntimeError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
    return out


_FILE_ERRORS: dict[int, tuple[Design, list[tuple[Path, str, str]]]] = {}


def file_errors(design: Design, known: frozenset[str] | None = None) -> dict[Path, str]:
    """The first error slang reports in each file of the repository's elaboration
    (:func:`open_inputs`' own; none where it cannot elaborate); ``known``: see
    :func:`._elaboration.errors_by_file`."""
    try:
        open_inputs(design)
    except RuntimeError:
        return {}
    hit = _FILE_ERRORS.get(id(design))
    if hit is None or hit[0] is not design:  # the record was dropped: elaborated again
        hit = (design, raw_errors(compiled(design, (), ())))
    if len(_FILE_ERRORS) > 16:
        _FILE_ERRORS.clear()
        _FILE_ERRORS[id(design)] = hit
    return errors_by_file(hit[1], known)


def _reached(walk: _Walk, name: str, files: frozenset[Path]) -> bool:
    """Whether an instance of module ``name`` stands below a top instance whose module one
    of ``files`` defines."""
    tops = {
        str(t.name)
        for t in walk.root.topInstances
        if _location(t.body.definition, walk.sm)[0].resolve() in files
    }
    return any(
        inst.body.definition.name == name and path.split(".", 1)[0] in tops
        for path, inst in walk.instances.items()
    )


def bench_inputs(
    design: Design,
    files: frozenset[Path],
    allowed: frozenset[Path] = frozenset(),
    known: frozenset[str] = frozenset(),
) -> list[OpenInput]:
    """:func:`open_inputs` of a testbench's own build (``evaluate/_tb_x_benches.py``), whose
    ``files`` (resolved) must elaborate without an error but in ``allowed`` files (an
    unknown module no text defines, ``known`` being the names some text defines, is a
    vendor cell), and reach an instance of the target from a top they define.

    Raises:
        RuntimeError: slang reports an error in one of ``files``, no instance of the target
            stands below a top of theirs, or nothing elaborates.
    """
    return _judged(design, strict=files, allowed=allowed, known=known)


def open_inputs(design: Design) -> list[OpenInput]:
    """The target's inputs that an instance of the repository leaves x or z (once per
    design).

    Raises:
        RuntimeError: slang cannot elaborate the repository.
    """
    return _JUDGED(design)


def open_inputs_reason(design: Design) -> str:
    """Why a change to the target is unchecked because the repository feeds it x or z
    (the first such input, :class:`OpenInput`), or ""; a repository slang cannot elaborate
    is unchecked too (fail closed)."""
    try:
        found = open_inputs(design)
    except RuntimeError as exc:
        return (
            "the repository's instances of the target cannot be read to see whether one "
            f"leaves an input unconnected ({exc})"
        )
    if found:
        log.info("%s: %d input(s) fed x or z by the repository", design.target.name, len(found))
        return found[0].message(design.target.name, design.root) + unparsed_hint(found, design)
    return ""


def unparsed_hint(found: list[OpenInput], design: Design) -> str:
    """A note when x ``found`` comes from a file that does not parse with the configuration's
    defines (held-out trial 49: biriscv's icarus testbench reads an undefined `TRACE, so
    slang keeps no write of its reset): what rtlopt reads of it is partial and is judged
    fail closed; the fix is the file's defines, or excluding it when no build uses it."""
    import pyslang
    from pyslang import syntax

    from rtlopt.frontend._slang import preprocessor

    files = dict.fromkeys(f for o in found for f in (o.net_file, o.file) if f is not None)
    for path in files:
        sm, popts = preprocessor(design.include_dirs, design.defines)
        try:
            tree = syntax.SyntaxTree.fromFile(str(path), sm, pyslang.Bag([popts]))
        except Exception:  # noqa: BLE001 - pyslang raises plain exceptions
            continue
        errors = [d for d in tree.diagnostics if d.isError()]
        if errors:
            line = sm.getLineNumber(errors[0].location) if errors[0].location else 0
            rel = path.relative_to(design.root) if path.is_relative_to(design.root) else path
            return (
                f" ({rel} does not parse with this configuration's defines, line {line}: "
                "its writes are read in part, so its nets count as x; give the defines its "
                "build passes in project.defines, so that it is read whole; excluded, a "
                "testbench still counts, as one rtlopt does not elaborate)"
            )
    return ""


def fed_ports(found: list[OpenInput]) -> tuple[tuple[str, ...], bool]:
    """The target's input ports ``found`` feeds x or z (once each, in order), and whether
    one may be z (unconnected, a net nothing drives, a value with z bits, a switch: a source
    found that may be z, :attr:`MayBeX.z`, or one past it in the fan-in cone,
    :attr:`OpenInput.z`): the ports the x-faithfulness proof lets be x
    (:mod:`rtlopt.formal.xfaith`), which then refuses ``===``/``!==`` anywhere."""
    ports: dict[str, None] = {}
    z = False
    for o in found:
        inner = o.reaches.rpartition(".")[2] if o.reaches else o.port
        ports[inner] = None
        z = z or o.z or may_be_z(o.value)
    return tuple(ports), z


_JUDGED: PerDesign[list[OpenInput]] = PerDesign(_judged)
