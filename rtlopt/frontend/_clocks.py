"""Clock and reset inference shared by every frontend.

Rules, in order:

1. A port in a ``posedge``/``negedge`` event of an always block is a clock, unless the block's
   first ``if`` tests it: then it is an asynchronous reset, active low when the test is ``!x``,
   ``~x`` or ``x == 0`` (or, without a usable test, when the event is ``negedge``).
2. A 1-bit input tested by an ``if`` at the top of a clocked block is a synchronous reset when
   that branch forces the registers it reaches to constants (the frontends' ``forces_constants``:
   only constants assigned there, no later statement giving those registers data, the signal
   read nowhere else in the block; ``clear``, ``RES``, ...), whatever its name, and no clocked
   block reads it as data (a start or load input such as a divider's ``i_wr`` forces one
   register to zero and loads operands elsewhere: it is data, so the stimulus drives it). A name
   alone never makes a reset: the miter and the testbench force a reset in the first cycles,
   and an input the design uses as data (``q <= d ^ {8{rst}}``) must be compared as data.
3. Ports connected to a submodule's clock/reset ports inherit the role (and polarity).
4. Names are hints: without any clocked logic found, a 1-bit input named like a clock (clk,
   clock, clk_i, ...) is taken as a clock only when the module instantiates a module rtlopt
   cannot see into (a combinational module with an unused clock port stays combinational); in
   a clocked module, a 1-bit input named like a reset that reaches only ports of such opaque
   instances (used nowhere else) is a reset with polarity from its name (``_n``/``n``/``_b``/
   ``_l`` suffix: active low): the structure says it drives pins rtlopt cannot see, the name
   breaks the tie between reset and data.

``harness.clocks`` / ``harness.resets`` in rtlopt.toml override all of this for the target
(:func:`override_roles`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from rtlopt.errors import ConfigError
from rtlopt.frontend._base import ClockedBlock, InstanceConnections
from rtlopt.frontend.model import Module, Port
from rtlopt.verilog import blank_comments

__all__ = [
    "infer_clocks_resets",
    "is_clock_name",
    "is_reset_name",
    "override_roles",
    "resolve_hierarchy",
]

_RESET_RE = re.compile(
    r"^(?:[a-z0-9]+_)?(?:a?s?rst|a?s?reset|arst|srst)(?:_?(?:n|b|l|ni|i|in|x))?"
    r"(?:_[a-z0-9]+)?$",
    re.IGNORECASE,
)
_CLOCK_RE = re.compile(r"^(?:[a-z0-9]+_)?(?:clk|clock|ck)(?:_?(?:i|in|p|\d+))?$", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
_DECL_RE = re.compile(r"\b(?:input|output|inout|wire|logic|tri)\b[^;=]*;")
_LOW_SUFFIX_RE = re.compile(r"(?:_n|n|_b|_l|_ni|_x)$", re.IGNORECASE)


def is_reset_name(name: str) -> bool:
    """Whether a signal name looks like a reset (rst, reset, rst_n, resetn, areset, arst_n)."""
    return bool(_RESET_RE.match(name))


def is_clock_name(name: str) -> bool:
    """Whether a signal name looks like a clock (clk, clock, clk_i, sys_clk)."""
    return bool(_CLOCK_RE.match(name)) and not is_reset_name(name)


#: A name ending like a clock (``clk_in``, ``forever_cpuclk``, ``sys_clock``); a hint only.
_CLOCKISH_RE = re.compile(r"(?:clk|clock|ck)(?:_?(?:i|in|p|\d+))?$", re.IGNORECASE)


def _actuals(sub: Module, inst: InstanceConnections) -> dict[str, str]:
    """Formal port name -> the parent's plain signal, named and positional connections."""
    out = dict(inst.named)
    for port, actual in zip(sub.ports, inst.ordered, strict=False):
        if actual is not None:
            out.setdefault(port.name, actual)
    return out


def _name_active_low(name: str) -> bool:
    return bool(_LOW_SUFFIX_RE.search(name))


def _opaque_only(
    inputs: Mapping[str, object],
    connections: Sequence[InstanceConnections],
    submodule: Callable[[str], Module | None],
    text: str,
) -> list[str]:
    """1-bit inputs connected to an opaque instance and named nowhere else in ``text``."""
    out: list[str] = []
    opaque = [c for c in connections if submodule(c.module) is None]
    if not opaque or not text:
        return out
    # the body without the header and the declarations: what is left are uses
    body = blank_comments(text)
    body = body[body.find(";") + 1 :]
    body = _DECL_RE.sub(" ", body)
    words = _WORD.findall(body)
    for name, port in inputs.items():
        if getattr(port, "width", 0) != 1:
            continue
        hits = sum(
            1 for c in opaque for actual in (*c.named.values(), *c.ordered) if actual == name
        )
        if hits and sum(1 for w in words if w == name) == hits:
            out.append(name)
    return out


@dataclass
class _Roles:
    """The clocks and resets found so far among a module's inputs (port order comes last)."""

    inputs: dict[str, Port]
    clocks: list[str] = field(default_factory=list)
    #: reset name -> active low
    resets: dict[str, bool] = field(default_factory=dict)

    def add_clock(self, name: str) -> None:
        """Take an input as a clock unless it already has a role."""
        if name in self.inputs and name not in self.clocks and name not in self.resets:
            self.clocks.append(name)


def _roles_from_blocks(roles: _Roles, blocks: Sequence[ClockedBlock]) -> None:
    """Rules 1 and 2: the event lists of the clocked blocks and the resets their first ``if``
    tests (asynchronous in the event list, synchronous when the branch forces constants)."""
    inputs, resets = roles.inputs, roles.resets
    for blk in blocks:
        cond = blk.condition
        edge_names = [s for _, s in blk.edges]
        for edge, sig in blk.edges:
            if cond is not None and cond.signal == sig and len(edge_names) > 1:
                if sig in inputs:
                    resets[sig] = cond.active_low
            elif cond is None and len(edge_names) > 1 and is_reset_name(sig) and sig in inputs:
                resets[sig] = edge == "negedge"
        for _, sig in blk.edges:
            if sig not in resets:
                roles.add_clock(sig)
        if (
            cond is not None
            and cond.signal not in edge_names
            and cond.signal in inputs
            and inputs[cond.signal].width == 1
            and blk.forces_constants
            and not any(cond.signal in b.data_reads for b in blocks)
        ):
            resets.setdefault(cond.signal, cond.active_low)


def _roles_from_instances(
    roles: _Roles,
    connections: Sequence[InstanceConnections],
    submodule: Callable[[str], Module | None],
) -> bool:
    """Rule 3: the roles inherited from submodules' clock and reset ports.

    Returns:
        Whether the module instantiates a module rtlopt cannot see into (vendor cell, black box).
    """
    opaque = False
    for inst in connections:
        sub = submodule(inst.module)
        if sub is None:
            opaque = True
            continue
        actual_of = _actuals(sub, inst)
        for formal in sub.clocks:
            actual = actual_of.get(formal)
            if actual is not None:
                roles.add_clock(actual)
        for formal in sub.resets:
            actual = actual_of.get(formal)
            if actual is not None and actual in roles.inputs and actual not in roles.clocks:
                active_low = bool(sub.reset_active_low.get(formal, False))
                roles.resets.setdefault(actual, active_low)
    return opaque


def _clocks_through_cells(
    roles: _Roles,
    blocks: Sequence[ClockedBlock],
    connections: Sequence[InstanceConnections],
    submodule: Callable[[str], Module | None],
) -> None:
    """A register clocked by a submodule's output (a clock-gate cell such as C910's
    gated_clk_cell): the clock is the input that instance passes through to that output; the
    cell's own clock ports when rtlopt found any, else the one 1-bit input named like a clock
    (on either side of the connection)."""
    inputs = roles.inputs
    for blk in blocks:
        for _, sig in blk.edges:
            if sig in inputs or sig in roles.resets:
                continue
            for inst in connections:
                sub = submodule(inst.module)
                if sub is None:
                    continue
                by_formal = _actuals(sub, inst)
                outs = {p.name for p in sub.ports if p.direction == "output"}
                if not any(a == sig and f in outs for f, a in by_formal.items()):
                    continue
                feeds = [
                    (f, a)
                    for f, a in by_formal.items()
                    if a in inputs
                    and inputs[a].width == 1
                    and a not in roles.resets
                    and f not in outs
                ]
                picked = [a for f, a in feeds if f in sub.clocks] or [
                    a for f, a in feeds if _CLOCKISH_RE.search(f) or _CLOCKISH_RE.search(a)
                ]
                if len(set(picked)) == 1:
                    roles.add_clock(picked[0])


def _roles_from_names(
    roles: _Roles,
    opaque: bool,
    connections: Sequence[InstanceConnections],
    submodule: Callable[[str], Module | None],
    text: str,
) -> None:
    """Rule 4: names as tie-breakers, only where the structure points at opaque instances."""
    if not roles.clocks and opaque:
        for name, port in roles.inputs.items():
            if port.width == 1 and is_clock_name(name) and name not in roles.resets:
                roles.clocks.append(name)
    if roles.clocks:
        # a reset-like name breaks the tie only for an input that reaches nothing but pins of
        # modules rtlopt cannot see into (a vendor flip-flop's reset pin): never one that
        # rtlopt's own view uses as data
        for name in _opaque_only(roles.inputs, connections, submodule, text):
            if name not in roles.resets and name not in roles.clocks and is_reset_name(name):
                roles.resets[name] = _name_active_low(name)


def infer_clocks_resets(
    module: Module,
    blocks: Sequence[ClockedBlock],
    connections: Sequence[InstanceConnections],
    submodule: Callable[[str], Module | None],
    text: str | None = None,
) -> Module:
    """The module with ``clocks``, ``resets`` and ``reset_active_low`` filled in.

    Args:
        module: The module (ports known).
        blocks: Its clocked always blocks.
        connections: Its instances' connections.
        submodule: Looks up an already-inferred submodule by name (None if unknown).
        text: The module's source text (read from its file when None).
    """
    roles = _Roles({p.name: p for p in module.ports if p.direction == "input"})
    _roles_from_blocks(roles, blocks)
    opaque = _roles_from_instances(roles, connections, submodule)
    _clocks_through_cells(roles, blocks, connections, submodule)
    if text is None:
        try:
            text = module.text()
        except OSError:
            text = ""
    _roles_from_names(roles, opaque, connections, submodule, text)
    # keep port order for stable output
    order = {p.name: i for i, p in enumerate(module.ports)}
    clocks = sorted(roles.clocks, key=lambda n: order.get(n, 0))
    reset_names = sorted(roles.resets, key=lambda n: order.get(n, 0))
    return replace(
        module,
        clocks=tuple(clocks),
        resets=tuple(reset_names),
        reset_active_low={n: roles.resets[n] for n in reset_names},
    )


def resolve_hierarchy(
    modules: Mapping[str, Module],
    blocks: Mapping[tuple[Path, str], Sequence[ClockedBlock]],
    connections: Mapping[tuple[Path, str], Sequence[InstanceConnections]],
    texts: Mapping[Path, str] | None = None,
) -> dict[str, Module]:
    """Infer clocks/resets of every module, submodules first (cycles are cut).

    Args:
        modules: The chosen definition of each module name.
        blocks: Clocked blocks by (file, name).
        connections: Instance connections by (file, name).
        texts: Source texts by file, for files not on disk (a candidate's text).
    """
    done: dict[str, Module] = {}
    visiting: set[str] = set()

    def visit(name: str) -> Module | None:
        if name in done:
            return done[name]
        if name not in modules or name in visiting:
            return None
        visiting.add(name)
        m = modules[name]
        key = (m.file, name)
        given = (texts or {}).get(m.file)
        mod = infer_clocks_resets(
            m,
            blocks.get(key, ()),
            connections.get(key, ()),
            visit,
            None if given is None else given[m.start : m.end],
        )
        visiting.discard(name)
        done[name] = mod
        return mod

    for name in modules:
        visit(name)
    return done


def override_roles(module: Module, clocks: Sequence[str], resets: Sequence[str]) -> Module:
    """The module with the clocks/resets the user named (``harness.clocks``/``resets``).

    Args:
        module: The target as inferred.
        clocks: Clock port names; empty keeps the inferred clocks.
        resets: ``NAME:low`` / ``NAME:high``; empty keeps the inferred resets.

    Raises:
        ConfigError: a name that is not a 1-bit input of the module, or a bad level.
    """
    if not clocks and not resets:
        return module
    inputs = {p.name: p for p in module.ports if p.direction == "input"}
    names = ", ".join(inputs) or "none"

    def check(name: str, key: str) -> None:
        if name not in inputs or inputs[name].width != 1:
            raise ConfigError(
                f"harness.{key}: '{name}' is not a 1-bit input of {module.name} (inputs: {names})",
                path=module.file,
                line=module.line,
                hint=f"fix harness.{key} in rtlopt.toml",
            )

    new_clocks = tuple(clocks) or module.clocks
    for c in clocks:
        check(c, "clocks")
    low: dict[str, bool] = {}
    if resets:
        for item in resets:
            name, _, level = item.partition(":")
            name, level = name.strip(), level.strip().lower()
            check(name, "resets")
            if level not in ("low", "high"):
                raise ConfigError(
                    f"harness.resets: '{item}' needs its active level",
                    path=module.file,
                    line=module.line,
                    hint=f"write '{name}:low' or '{name}:high' in rtlopt.toml",
                )
            low[name] = level == "low"
    else:
        low = {r: bool(module.reset_active_low.get(r, False)) for r in module.resets}
    both = set(new_clocks) & set(low)
    if both:
        raise ConfigError(
            f"'{sorted(both)[0]}' is named both a clock and a reset",
            path=module.file,
            line=module.line,
            hint="fix harness.clocks / harness.resets in rtlopt.toml",
        )
    return replace(module, clocks=tuple(new_clocks), resets=tuple(low), reset_active_low=low)
