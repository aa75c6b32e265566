"""The inputs of the target the repository feeds x under a value it leaves open.

The instance analysis (:func:`rtlopt.frontend._open_inputs.open_inputs`) reads the repository
as it elaborates: every top at its defaults, the configuration's defines; the builds' own
settings are read apart (:mod:`._tb_x_params`, :mod:`._tb_x_configs`). A value no build sets
is open all the same (red-team round 111): a top's parameter (a top with ports is built by
whoever instantiates it, :mod:`._param_open`), a macro a build may define otherwise (``ifndef
W `define W 8``), a macro a directive tests that no text defines (``ifdef OPEN_B``, which any
``-D`` sets). Under another value a parent may leave an input of the target unconnected (a
generate branch, a directive in the port list, a localparam in between), or select past a
net's range (``.b(en[P - 8])``): the target's input is then fed x, and a candidate that reads
x otherwise passes a proof that thinks it 0/1.

So the analysis runs once more per such value set, and what it finds is added (x-fed inputs
only make the proofs stricter): with every top's integral parameters and every overridable
integer macro nudged together (one up, one down, one past twice), and with every tested macro
no text or setting defines defined. An elaboration that fails says nothing (its value is no
configuration); the cost is up to four more walks of the repository, once per evaluation,
each asking only about the inputs not known to be fed x yet.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
from collections.abc import Callable
from typing import Any, cast

from rtlopt.frontend.model import Design

__all__ = ["open_value_inputs"]

log = logging.getLogger(__name__)

_CACHE: dict[Any, tuple[object, Any]] = {}
#: A conditional directive and the macro it tests.
_TESTED = re.compile(r"`(?:ifdef|ifndef|elsif)[ \t]+([A-Za-z_]\w*)")
_DEFINED = re.compile(r"`define[ \t]+([A-Za-z_]\w*)")


def open_value_inputs(design: Design) -> list[Any]:
    """The :class:`~rtlopt.frontend._open_inputs.OpenInput` found under the repository's
    open values (see the module's doc), once per design."""
    from rtlopt.evaluate._memo import per_design

    return per_design(_CACHE, design, lambda: _found(design))


def _found(design: Design) -> list[Any]:
    from rtlopt.evaluate._param_open import _NUDGES
    from rtlopt.frontend._open_inputs import _judged, fed_ports, open_inputs

    try:
        found: list[Any] = []
        skip = set(fed_ports(open_inputs(design))[0])  # known fed x: not asked again
    except RuntimeError:
        return []  # no elaboration at all: the caller's own analysis fails closed
    steps = cast("tuple[Callable[[int], int], ...]", _NUDGES)
    tops, macros, tested = _open_values(design)
    for step in steps if tops or macros else ():
        # every top's parameters and every overridable macro nudged together, once a step
        nudged = tuple(f"{k.split('.', 1)[1]}={step(v)}" for k, v in tops.items())
        other = _with_defines(
            design, {**design.defines, **{m: str(step(v)) for m, v in macros.items()}}
        )
        got = _walked(functools.partial(_judged, other, (), nudged, frozenset(skip)), str(nudged))
        skip |= set(fed_ports(got)[0])
        found += got
    if tested:
        other = _with_defines(design, {**design.defines, **dict.fromkeys(tested, "1")})
        what = f"{sorted(tested)} defined"
        found += _walked(functools.partial(_judged, other, (), (), frozenset(skip)), what)
    return found


_VALUES: dict[Any, tuple[object, Any]] = {}


def _open_values(design: Design) -> tuple[dict[str, int], dict[str, int], set[str]]:
    """The values the repository leaves open: every top's integral parameters, the
    overridable integer macros, the tested macros nothing defines (once per design)."""
    from rtlopt.evaluate._memo import per_design
    from rtlopt.evaluate._param_open import _open_macros

    return per_design(
        _VALUES,
        design,
        lambda: (_top_values(design), _open_macros(design), _undefined_tested(design)),
    )


def _walked(walk: Callable[[], list[Any]], what: str) -> list[Any]:
    try:
        got: list[Any] = walk()
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions: no configuration
        log.info("no elaboration with %s: %s", what, exc)
        return []
    if got:
        log.info("inputs fed x with %s: %d", what, len(got))
    return got


def _with_defines(design: Design, defines: dict[str, str]) -> Design:
    return dataclasses.replace(design, sources=dataclasses.replace(design.sources, defines=defines))


def _top_values(design: Design) -> dict[str, int]:
    """The integral parameters of every top with ports (its interface) but the target."""
    from rtlopt.evaluate._param_open import _integer
    from rtlopt.frontend._one_build import build_files
    from rtlopt.frontend._params import _compile

    try:
        root = _compile(build_files(design), {}, design).getRoot()
    except Exception:  # noqa: BLE001 - no elaboration: nothing nudged here
        return {}
    out: dict[str, int] = {}
    for top in root.topInstances:
        if top.name == design.target.name or not len(top.body.portList):
            continue
        for p in top.body.parameters:
            value = None if getattr(p, "isLocalParam", True) else _integer(p)
            if value is not None:
                out[f"{top.name}.{p.name}"] = value
    return out


def _undefined_tested(design: Design) -> set[str]:
    """The macros a conditional directive of a file the design reads tests that no file of
    the repository nor the configuration defines (any build may define them)."""
    from rtlopt.evaluate._sources import files_read
    from rtlopt.verilog import blank_comments

    tested: set[str] = set()
    defined: set[str] = set(design.defines)
    try:
        files = sorted(files_read(design))
    except Exception:  # noqa: BLE001 - no file list: nothing defined here
        return set()
    for f in files:
        try:
            text = blank_comments(f.read_text(errors="replace"), strings=False)
        except OSError:
            continue
        tested |= set(_TESTED.findall(text))
        defined |= set(_DEFINED.findall(text))
    return tested - defined


#: An empty named connection (``.b()``) and an x/z literal (``1'bz``, ``'x``, ``4'hx``).
_EMPTY = re.compile(r"\.\s*([A-Za-z_]\w*)\s*\(\s*\)")
_XZ = re.compile(r"'[sS]?[bBoOhHdD]?\s*[0-9a-fA-F_]*[xXzZ?]|'[xXzZ]\b")
#: A conditional directive opening, continuing or closing a region.
_DIRECTIVE = re.compile(r"`(ifdef|ifndef|elsif|else|endif)\b")


def branch_x(design: Design) -> tuple[tuple[str, ...], str]:
    """The target's inputs an open value may leave x through a branch no elaboration here
    takes, and where: a parent of the target (a module instantiating it, or one of those, at
    any depth) holding, in a generate ``if``/``case``/``for`` or a conditional directive's
    region (every branch, taken or not), an x/z literal or an empty connection of an input
    of the target (red-team round 112: a value no nudge reaches, a string or real parameter,
    two parameters that must differ, macros defined one way and not another). Only where the
    repository leaves a value open (a top's parameter, an overridable or undefined macro);
    every input of the target then counts (fail closed)."""
    from rtlopt.evaluate._memo import per_design

    return per_design(_BRANCH, design, lambda: _branch_x(design))


_BRANCH: dict[Any, tuple[object, Any]] = {}


def _branch_x(design: Design) -> tuple[tuple[str, ...], str]:
    from rtlopt.verilog import blank_comments

    t = design.target
    inputs = tuple(p.name for p in t.ports if p.direction != "output")
    if not inputs or not any(_open_values(design)):
        return (), ""
    parents = _ancestors(design)
    for name in sorted(parents):
        m = design.modules[name]
        try:
            whole = blank_comments(m.file.read_text(errors="replace"), strings=False)
        except OSError:
            return inputs, f"{m.file}: not read"
        text = whole[m.start : m.end]
        for a, b in [*_directive_regions(text), *_generate_regions(text)]:
            region = text[a:b]
            hit = _XZ.search(region)
            empty = [e for e in _EMPTY.finditer(region) if e.group(1) in inputs]
            if hit is None and not (empty and re.search(rf"\b{re.escape(t.name)}\b", region)):
                continue
            at = a + (hit.start() if hit is not None else empty[0].start())
            line = whole.count("\n", 0, m.start + at) + 1
            what = "an x/z value" if hit is not None else "an input of the target left unconnected"
            return inputs, (
                f"{_relative(m.file, design.root)}:{line}: {what} in a branch of {name} that a "
                "value the repository leaves open may take (a top's parameter, a macro a build "
                "may define)"
            )
    return (), ""


def _relative(path: Any, root: Any) -> str:
    from rtlopt.frontend._open_input import _relative as rel

    return rel(path, root)


def _ancestors(design: Design) -> set[str]:
    """The modules instantiating the target, at any depth."""
    found: set[str] = set()
    wanted = {design.target.name}
    while wanted:
        wanted = {
            n for n, m in design.modules.items() if n not in found and set(m.instances) & wanted
        }
        found |= wanted
    return found


def _directive_regions(text: str) -> list[tuple[int, int]]:
    """The spans from each outermost conditional directive to its ``endif``."""
    out: list[tuple[int, int]] = []
    depth, start = 0, 0
    for m in _DIRECTIVE.finditer(text):
        kind = m.group(1)
        if kind in ("ifdef", "ifndef"):
            if depth == 0:
                start = m.start()
            depth += 1
        elif kind == "endif" and depth:
            depth -= 1
            if depth == 0:
                out.append((start, m.end()))
    if depth:
        out.append((start, len(text)))
    return out


def _generate_regions(text: str) -> list[tuple[int, int]]:
    """The spans of the module's generate ``if``, ``case`` and ``for`` constructs."""
    from pyslang import syntax

    from rtlopt.harness._nodes import _kind, _walk

    try:
        tree = syntax.SyntaxTree.fromText(text)
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: the whole module
        return [(0, len(text))]
    out = []
    for node in _walk(tree.root):
        if _kind(node) in ("IfGenerate", "CaseGenerate", "LoopGenerate"):
            r = node.sourceRange
            out.append((int(r.start.offset), int(r.end.offset)))
    return out
