"""Parameters of an instantiated target that a value the repository leaves open reaches.

The configurations the repository elaborates an instantiated target in are the guarantee
(:mod:`._params`). A value an instance passes it may itself be open: a top's parameter (a
top's parameters are its interface: whoever builds it sets them; ``top #(parameter P = 8)``
passing ``.W(P)``) or a macro a build may define otherwise (`` `ifndef WIDTH `define WIDTH
8`` in a parent: ``+define+WIDTH=100``). Such a parameter of the target is part of the
interface too: a change that depends on it is checked as for a module nothing instantiates
(freed, split and probed) after the repository's configurations (red-team round 103).

A top without ports (a testbench) is no interface: it is only a simulation's root, and the
builds that set its parameters are read (:mod:`._foreign_params`). Found by elaboration: the
repository is elaborated with every other top's integral parameters nudged (one up, one down,
one past twice), then with every macro the repository defines to an integer under a condition
(:func:`._macros.overridable_macros`) nudged so; a target parameter whose value moves in an
instance under a nudge is open. A nudge under which the repository does not build the same
instances of the target says nothing; when none does, every parameter of the target is open.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from typing import Any

from rtlopt.frontend._slang import node_kind
from rtlopt.frontend.model import Design

__all__ = ["open_parameters"]

log = logging.getLogger(__name__)

#: ```define NAME <body>``: a macro whose body is an integer literal (``12``, ``'d8``,
#: ``8'h10``) or a constant of digits, ``+ - *`` and parentheses (``(8)``, ``4 * 2``); its value
#: nudged is written as a decimal.
_INTEGER_MACRO = re.compile(
    r"^[ \t]*`define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]*?)[ \t]*(?://.*)?$", re.M
)
_BASES = {"d": 10, "h": 16, "o": 8, "b": 2}

_OPEN: dict[int, tuple[object, dict[str, str]]] = {}


def open_parameters(design: Design) -> dict[str, str]:
    """Each parameter of the target an open value reaches, with what reaches it (``top.P``,
    ```WIDTH``); once per design object."""
    hit = _OPEN.get(id(design))
    if hit is not None and hit[0] is design:
        return hit[1]
    try:
        out = _open(design)
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        log.info("open parameters of %s not found: %s", design.target.name, exc)
        out = {}
    if len(_OPEN) > 8:
        _OPEN.clear()
    _OPEN[id(design)] = (design, out)
    return out


def _open(design: Design) -> dict[str, str]:
    from rtlopt.frontend._params import _compile

    name = design.target.name
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    root = _compile(files, {}, design).getRoot()
    base = _target_values(root, name)
    if not base:
        return {}
    out: dict[str, str] = {}
    tops: dict[str, int] = {}
    for top in root.topInstances:
        # a top without ports (a testbench) is only ever a simulation's root: its values
        # come from the builds' command lines, which the settings rtlopt reads cover
        design_top = top.name != name and len(top.body.portList) > 0
        for p in top.body.parameters if design_top else ():
            value = None if getattr(p, "isLocalParam", True) else _integer(p)
            if value is not None:
                tops[f"{top.name}.{p.name}"] = value
    for p, top in _named(root, name).items():
        out[p] = f"a parameter of the top {top} (its interface)"
    if tops:

        def by_tops(step: Any) -> dict[str, dict[str, str]]:
            nudged = [f"{k.split('.', 1)[1]}={step(v)}" for k, v in tops.items()]
            return _target_values(_compile(files, {}, design, overrides=nudged).getRoot(), name)

        for p, where in _moved(base, by_tops).items():
            out.setdefault(p, f"a parameter of the top {where.split('.', 1)[0]} (its interface)")
    macros = _open_macros(design)
    if macros:

        def by_macros(step: Any) -> dict[str, dict[str, str]]:
            defines = {**design.defines, **{m: str(step(v)) for m, v in macros.items()}}
            sources = dataclasses.replace(design.sources, defines=defines)
            other = dataclasses.replace(design, sources=sources)
            return _target_values(_compile(files, {}, other).getRoot(), name)

        for p, where in _moved(base, by_macros).items():
            named = ", `".join(sorted(macros)[:3])
            out.setdefault(p, f"a macro a build may define otherwise (`{named}) in {where}")
    return out


def _named(root: Any, name: str) -> dict[str, str]:
    """Each parameter of the target whose value an instance chain computes from a parameter
    of a top with ports, read from the texts: the override's names, a localparam's
    initializer, a parameter's default naming another, a generate loop's value (any
    parameter of the unit holding the loop), up to the top (``.W(P / 64 * 96 + 4)`` moves
    under no small nudge: red-team round 104)."""
    from rtlopt.frontend._param_agree import _walk

    out: dict[str, str] = {}
    for chain in _walk(root, [], []):
        inst = chain[-1]
        if inst.body.definition.name != name or len(chain) < 2:
            continue
        for p in inst.body.parameters:
            if node_kind(p) == "Parameter" and not p.isLocalParam and p.name not in out:
                top = _reaching(chain, str(p.name), set())
                if top:
                    out[str(p.name)] = top
    return out


def _reaching(chain: list[Any], param: str, seen: set[tuple[str, str]]) -> str:
    """The top with ports whose parameter reaches ``param`` of ``chain[-1]``, or ""."""
    from rtlopt.frontend._param_agree import _overrides_of

    inst = chain[-1]
    key = (str(inst.hierarchicalPath), param)
    if key in seen or len(seen) > _MAX_NAMES:
        return ""
    seen.add(key)
    if len(chain) == 1:
        return str(inst.name) if len(inst.body.portList) > 0 else ""
    given = dict(_overrides_of(inst)).get(param)
    if given is None:  # its default, over the unit's own names
        sym = inst.body.lookupName(param)
        init = getattr(getattr(sym, "syntax", None), "initializer", None)
        words = _words(init.expr) if init is not None else set()
        return _names_reaching(chain, inst.body, words, seen)
    expr = getattr(given, "expr", None)
    return _names_reaching(chain[:-1], inst.parentScope, _words(expr), seen)


def _names_reaching(
    chain: list[Any], scope: Any, words: set[str], seen: set[tuple[str, str]]
) -> str:
    """The top with ports whose parameter reaches one of the names ``words`` read in
    ``scope`` of the unit ``chain[-1]``, or ""."""
    unit = chain[-1]
    for w in sorted(words):
        try:
            sym = scope.lookupName(w) if scope is not None else None
        except RuntimeError:  # a name slang does not take as one
            continue
        if sym is not None and node_kind(sym) == "TypeAlias":  # a type parameter's type
            typed = [q for q in unit.body.parameters if str(q.name) == w]
            sym = typed[0] if typed and node_kind(typed[0]) == "TypeParameter" else None
        if sym is None or node_kind(sym) not in ("Parameter", "TypeParameter"):
            continue  # a type parameter counts too: `.W($bits(T))` (red-team round 105)
        if not sym.isLocalParam:
            top = _reaching(chain, w, seen)
        else:
            init = getattr(getattr(sym, "syntax", None), "initializer", None)
            if init is not None:  # a localparam: what its initializer names
                top = _names_reaching(chain, sym.parentScope, _words(init.expr), seen)
            else:  # a generate loop's value: its header may name any of the unit's
                names = {str(q.name) for q in unit.body.parameters if not q.isLocalParam}
                top = _names_reaching(chain, unit.body, names, seen)
        if top:
            return top
    return ""


def _words(expr: Any) -> set[str]:
    from rtlopt.frontend._param_deps import identifiers

    return identifiers(str(expr)) if expr is not None else set()


#: How many (instance, parameter) pairs one target's search reads at most.
_MAX_NAMES = 4096

#: The nudges tried, each one elaboration: a value moved by one either way and one past twice
#: it (a ratio the texts require between two of them survives doubling; ``P / 2`` does not
#: move under +1 alone).
_NUDGES = (lambda v: v + 1, lambda v: v - 1, lambda v: 2 * v + 1)


def _moved(base: dict[str, dict[str, str]], elaborate: Any) -> dict[str, str]:
    """The target's parameters whose value differs from ``base`` in some instance under one
    of :data:`_NUDGES`, with the first such instance's path. A nudge under which the
    repository does not build the same instances of the target says nothing; when none does,
    every parameter of the target is open (fail closed)."""
    moved: dict[str, str] = {}
    built = False
    for step in _NUDGES:
        try:
            got = elaborate(step)
        except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
            log.info("nudged elaboration failed: %s", exc)
            continue
        if set(got) != set(base):
            continue
        built = True
        for w, vals in base.items():
            for p, v in vals.items():
                if got[w].get(p) != v:
                    moved.setdefault(p, w)
    if not built:
        log.info("no nudged elaboration builds the same instances of the target: all open")
        return {p: w for w, vals in base.items() for p in vals}
    return moved


def _target_values(root: Any, name: str) -> dict[str, dict[str, str]]:
    """The non-local parameter values of every instance of module ``name`` by its path."""
    from rtlopt.frontend._params import _instances, _values

    out: dict[str, dict[str, str]] = {}
    for top in root.topInstances:
        if top.name == name:
            continue
        for where, inst in _instances(top, ""):
            if inst.body.definition.name == name:
                pz = _values(inst)
                out[where] = dict(pz.values) if pz is not None else {}
    return out


def _integer(p: Any) -> int | None:
    """The value of an integral parameter symbol (None for a real, a string, a type)."""
    from rtlopt.frontend._param_special import _number

    try:
        return int(_number(p.value))
    except (ValueError, AttributeError, TypeError):
        return None


def _open_macros(design: Design) -> dict[str, int]:
    """Macros the repository defines to a decimal integer that a build may define otherwise
    (:func:`._macros.overridable_macros`), with their value."""
    from rtlopt.evaluate._macros import overridable_macros
    from rtlopt.evaluate._sources import files_read

    found: dict[str, int] = {}
    try:
        files: Sequence[Any] = sorted(files_read(design))
    except Exception:  # noqa: BLE001 - no file list: no macro nudged
        return {}
    for f in files:
        try:
            text = f.read_text(errors="replace")
        except OSError:
            continue
        for m in _INTEGER_MACRO.finditer(text):
            value = _literal(m.group(2))
            if m.group(1) not in design.defines and value is not None:
                found.setdefault(m.group(1), value)
    if not found:
        return {}
    kept = set(overridable_macros(design, list(found)))
    return {m: v for m, v in found.items() if m in kept}


def _literal(text: str) -> int | None:
    """The value of a Verilog integer literal (``12``, ``'d8``, ``8'h10``) or of a constant
    of digits, ``+ - *`` and parentheses (``(8)``), or None."""
    from rtlopt.frontend._param_special import _folded

    body = text.replace("_", "").strip()
    while body.startswith("(") and body.endswith(")") and "'" in body:
        body = body[1:-1].strip()
    if "'" not in body and not body.isdigit():
        return _folded(body)
    if "'" not in body:
        return int(body) if body.isdigit() else None
    digits = body.split("'", 1)[1].lstrip("sS")
    try:
        return int(digits[1:], _BASES[digits[0].lower()])
    except (KeyError, ValueError, IndexError):
        return None
