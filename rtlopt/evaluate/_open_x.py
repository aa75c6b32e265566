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
    from rtlopt.evaluate._param_open import _NUDGES, _open_macros
    from rtlopt.frontend._open_inputs import _judged, fed_ports, open_inputs

    try:
        found: list[Any] = []
        skip = set(fed_ports(open_inputs(design))[0])  # known fed x: not asked again
    except RuntimeError:
        return []  # no elaboration at all: the caller's own analysis fails closed
    steps = cast("tuple[Callable[[int], int], ...]", _NUDGES)
    tops, macros = _top_values(design), _open_macros(design)
    for step in steps if tops or macros else ():
        # every top's parameters and every overridable macro nudged together, once a step
        nudged = tuple(f"{k.split('.', 1)[1]}={step(v)}" for k, v in tops.items())
        other = _with_defines(
            design, {**design.defines, **{m: str(step(v)) for m, v in macros.items()}}
        )
        got = _walked(functools.partial(_judged, other, (), nudged, frozenset(skip)), str(nudged))
        skip |= set(fed_ports(got)[0])
        found += got
    tested = _undefined_tested(design)
    if tested:
        other = _with_defines(design, {**design.defines, **dict.fromkeys(tested, "1")})
        what = f"{sorted(tested)} defined"
        found += _walked(functools.partial(_judged, other, (), (), frozenset(skip)), what)
    return found


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
