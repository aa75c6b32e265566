"""The parameters of the units above the target that a build's setting may configure it by.

A build sets a top's parameter outside Verilog (``iverilog -Ptb.WIDE=1``, ``verilator
-GWIDE=1``, a runner's ``parameters``): the top may hand it to an instance (``#(.W(TW))``, a
``defparam``), choose a generate branch holding the target's instance (``if (WIDE) inv
#(.W(21)) dut``) or one writing x into its inputs (``if (XSTIM) initial s = 1'bx``), take a
procedural branch on it or write it as a value (round 77). So every non-local parameter of
such a top is watched (:mod:`._param_mentions`, :mod:`._foreign_params`: its settings are
read and elaborated, one rtlopt cannot read leaves the change unchecked), but one the top's
body reads only in delays (``always #(CLK / 2) clk = ~clk``; through a ``localparam`` too):
timing decides no branch the elaboration takes, no configuration, no value written.

A top is above the target where its elaboration at its defaults holds an instance of it, or
where its body names the target or a module of the design above it (a generate branch its
defaults turn off). The units between a top and the target are watched the same way (owner
that unit): a build may make one its top (``verilator --top-module wrap -GMODE=1``, Yosys's
``chparam``); a setting through a hierarchical path (``-defparam tb.u_wrap.MODE=1``) is not
elaborated and leaves the change unchecked (:func:`._foreign_params._below_top`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from typing import Any

from rtlopt.frontend.model import Design
from rtlopt.verilog import BEFORE_DELAY

__all__ = ["MAX_COMBINATIONS", "combinations", "read_outside_delays", "top_parameters"]

#: Combinations of a top's settings elaborated at most (each is one elaboration).
MAX_COMBINATIONS = 16

_MODULE = re.compile(
    r"\b(?:module|macromodule|program)\s+(?:automatic\s+|static\s+)?([A-Za-z_][\w$]*)"
)
_TOKEN = re.compile(r"[\w$.']+")
_DECLARATION = re.compile(r"\b(?:parameter|localparam)\b([^;]*);")
_WORD = re.compile(r"[A-Za-z_][\w$]*")
_NAME = re.compile(r"\b(?:module|macromodule|program|interface)\b")

_TOPS: dict[int, tuple[object, dict[str, list[str]]]] = {}


def top_parameters(design: Design) -> dict[str, list[str]]:
    """Each top of the repository above the target (a testbench the frontend leaves out
    too), then each unit between one and the target: its non-local parameters its body
    reads outside delays (see the module's docstring). Once per design object."""
    hit = _TOPS.get(id(design))
    if hit is not None and hit[0] is design:
        return hit[1]
    out = _top_parameters(design)
    if len(_TOPS) > 8:
        _TOPS.clear()
    _TOPS[id(design)] = (design, out)
    return out


def _top_parameters(design: Design) -> dict[str, list[str]]:
    from rtlopt.frontend._params import _compile, _instances

    t = design.target.name
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    out: dict[str, list[str]] = {}
    if not _may_pass(design):
        return out  # no top above the target: no elaboration needed
    alt = "|".join(re.escape(n) for n in sorted(_above(design)))
    word = re.compile(rf"(?<![\w$])(?:{alt})(?![\w$])")
    between: dict[str, Any] = {}
    try:
        tops = _compile(files, {}, design).getRoot().topInstances
        for top in tops:
            if top.name == t:
                continue
            found = dict(_instances(top, ""))
            body = _members(top)
            below = [w for w, i in found.items() if i.body.definition.name == t]
            if not word.search(body) and not below:
                continue
            out[top.name] = read_outside_delays(body, _declared(top))
            for w in below:  # the units between the top and the target
                for at in [w[: m.start()] for m in re.finditer(r"\.", w)][1:]:
                    inst = found.get(at)
                    if inst is not None:
                        between.setdefault(inst.body.definition.name, inst)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: no top known
        return out
    for name, inst in between.items():  # after the tops: a name's first owner is a top
        if name not in out:
            out[name] = read_outside_delays(_members(inst), _declared(inst))
    for name in sorted(_above(design) - {t} - set(out)):  # in a branch the defaults turn off
        m = design.modules[name]
        text = m.file.read_text(errors="replace")[m.start : m.end]
        out[name] = read_outside_delays(text, [p.name for p in m.parameters if not p.local])
    return out


def _members(inst: object) -> str:
    """The text of the body of ``inst``'s module (its header left out)."""
    return "".join(str(m) for m in inst.body.definition.syntax.members)  # type: ignore[attr-defined]


def _declared(inst: object) -> list[str]:
    """The non-local parameters of ``inst``'s module."""
    from rtlopt.frontend._slang import node_kind

    return [
        p.name
        for p in inst.body.parameters  # type: ignore[attr-defined]
        if node_kind(p) in ("Parameter", "TypeParameter") and not p.isLocalParam
    ]


def combinations(
    overrides: Iterable[Any], least: int = 1
) -> list[tuple[str, tuple[tuple[str, str], ...], str]] | str:
    """Every combination of the literal values ``overrides``
    (:class:`._foreign_params.Override`) give the parameters of a unit above the target
    (each parameter unset or set to one of its values, ``least`` of them set at least;
    several settings may make one build: ``-Ptb.A=1 -Ptb.B=1``), as ``(top, values,
    where)``; or why there are too many (more than :data:`MAX_COMBINATIONS` for a top).
    Overrides of the target's own parameters and unreadable values are left out."""
    per: dict[str, dict[str, dict[str, str]]] = {}
    for ov in overrides:
        if ov.top and all(v for _, v in ov.values):
            for k, v in ov.values:
                per.setdefault(ov.top, {}).setdefault(k, {}).setdefault(v, ov.where)
    out: list[tuple[str, tuple[tuple[str, str], ...], str]] = []
    for top, values in sorted(per.items()):
        names = sorted(values)
        options = [[None, *sorted(values[n])] for n in names]
        combos = [c for c in itertools.product(*options) if sum(v is not None for v in c) >= least]
        first = next(iter(values[names[0]].values()))
        if len(combos) > MAX_COMBINATIONS:
            return (
                f"{first}: the repository's builds set {len(names)} parameters of {top} "
                f"({', '.join(names)}) in {len(combos)} combinations, more than rtlopt "
                f"elaborates ({MAX_COMBINATIONS})"
            )
        for combo in combos:
            chosen = tuple((n, v) for n, v in zip(names, combo, strict=True) if v is not None)
            where = ", ".join(dict.fromkeys(values[n][v] for n, v in chosen))
            out.append((top, chosen, where))
    return out


def read_outside_delays(body: str, params: list[str]) -> list[str]:
    """The ``params`` the module ``body`` reads outside delays: in a statement, an instance,
    a generate construct, or the value of a parameter or ``localparam`` read so itself."""
    values: dict[str, set[str]] = {}
    rest = []
    at = 0
    for m in _DECLARATION.finditer(body):
        rest.append(body[at : m.start()])
        at = m.end()
        for item in _items(m.group(1)):
            name, _, value = item.partition("=")
            words = _WORD.findall(name)
            if words:
                values.setdefault(words[-1], set()).update(_WORD.findall(value))
    rest.append(body[at:])
    read = set(_WORD.findall(_without_delays("".join(rest))))
    grew = True
    while grew:
        grew = False
        for name, used in values.items():
            if name in read and not used <= read:
                read |= used
                grew = True
    return [p for p in params if p in read]


def _without_delays(text: str) -> str:
    """``text`` without its delays and cycle delays (``#(CLK / 2)``, ``#CLK``, ``##2``): a
    ``#`` after a keyword or a punctuation; after another name it opens an instance's
    parameter list (``inv #(.W(TW))``) and stays."""
    out: list[str] = []
    at = 0
    i = text.find("#")
    while i >= 0:
        before = text[:i].rstrip()
        word = re.search(r"[\w$]+\Z", before)
        if word and word.group(0) not in BEFORE_DELAY and not word.group(0)[0].isdigit():
            i = text.find("#", i + 1)
            continue
        j = i + 1
        while j < len(text) and (text[j] == "#" or text[j] in " \t"):
            j += 1
        if text[j : j + 1] == "(":
            depth = 0
            while j < len(text):
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
                if depth == 0:
                    break
        else:
            m = _TOKEN.match(text, j)
            j = m.end() if m else j
        out.append(text[at:i])
        out.append(" ")
        at = j
        i = text.find("#", j)
    out.append(text[at:])
    return "".join(out)


def _items(text: str) -> list[str]:
    """The comma-separated items of a declaration (commas inside brackets kept)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(c, 0)
        if c == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


def _above(design: Design) -> set[str]:
    """The target and the modules of the design whose bodies reach an instance of it."""
    mods = design.modules
    out = {design.target.name}
    grew = True
    while grew:
        grew = False
        for name, m in mods.items():
            if name not in out and out & set(m.instances):
                out.add(name)
                grew = True
    return out


def _may_pass(design: Design) -> bool:
    """Whether a top above the target may exist: a module the frontend left out (a
    testbench), or one of its modules nothing instantiates that reaches the target."""
    from rtlopt.evaluate._repo_texts import repository_texts

    mods = design.modules
    if any(
        m.group(1) not in mods
        for _, text in repository_texts(design)
        for m in _MODULE.finditer(text)
    ):
        return True
    used = {i for m in mods.values() for i in m.instances}
    for name in mods:
        seen, todo = set(), [name]
        while todo and name not in used and name != design.target.name:
            m = mods.get(todo.pop())
            if m is None or m.name in seen:
                continue
            if design.target.name in m.instances:
                return True
            seen.add(m.name)
            todo += list(m.instances)
    return False
