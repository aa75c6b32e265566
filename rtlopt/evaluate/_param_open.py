"""Parameters of an instantiated target that a value the repository leaves open reaches.

The configurations the repository elaborates an instantiated target in are the guarantee
(:mod:`._params`). A value an instance passes it may itself be open: a top's parameter (a
top's parameters are its interface: whoever builds it sets them; ``top #(parameter P = 8)``
passing ``.W(P)``) or a macro a build may define otherwise (`` `ifndef WIDTH `define WIDTH
8`` in a parent: ``+define+WIDTH=100``). Such a parameter of the target is part of the
interface too: a change that depends on it is checked as for a module nothing instantiates
(freed, split and probed) after the repository's configurations (red-team round 103).

Found by elaboration: the repository is elaborated with every top's integral parameters one
past their values, then with every macro the repository defines to an integer under a
condition (:func:`._macros.overridable_macros`) one past its value; a target parameter whose
value moves in an instance is open. A nudge under which the repository does not elaborate the
instance is tried one below; failing too, it opens nothing (logged).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from typing import Any

from rtlopt.frontend.model import Design

__all__ = ["open_parameters"]

log = logging.getLogger(__name__)

#: ```define NAME 12``: a macro holding a decimal integer.
_INTEGER_MACRO = re.compile(r"^[ \t]*`define[ \t]+([A-Za-z_]\w*)[ \t]+(\d+)[ \t]*(?://.*)?$", re.M)

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
        for p in top.body.parameters if top.name != name else ():
            value = None if getattr(p, "isLocalParam", True) else _integer(p)
            if value is not None:
                tops[f"{top.name}.{p.name}"] = value
    if tops:

        def by_tops(step: int) -> dict[str, dict[str, str]]:
            nudged = [f"{k.split('.', 1)[1]}={v + step}" for k, v in tops.items()]
            return _target_values(_compile(files, {}, design, overrides=nudged).getRoot(), name)

        for p, where in _moved(base, by_tops).items():
            out[p] = f"a parameter of the top {where.split('.', 1)[0]} (its interface)"
    macros = _open_macros(design)
    if macros:

        def by_macros(step: int) -> dict[str, dict[str, str]]:
            defines = {**design.defines, **{m: str(v + step) for m, v in macros.items()}}
            sources = dataclasses.replace(design.sources, defines=defines)
            other = dataclasses.replace(design, sources=sources)
            return _target_values(_compile(files, {}, other).getRoot(), name)

        for p, where in _moved(base, by_macros).items():
            named = ", `".join(sorted(macros)[:3])
            out.setdefault(p, f"a macro a build may define otherwise (`{named}) in {where}")
    return out


def _moved(base: dict[str, dict[str, str]], elaborate: Any) -> dict[str, str]:
    """The target's parameters whose value differs from ``base`` in some instance, nudged
    one up (one down where the instances do not elaborate so), with the first such
    instance's path."""
    for step in (1, -1):
        try:
            got = elaborate(step)
        except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
            log.info("nudged elaboration failed: %s", exc)
            continue
        if set(got) != set(base):
            continue
        moved: dict[str, str] = {}
        for w, vals in base.items():
            for p, v in vals.items():
                if got[w].get(p) != v:
                    moved.setdefault(p, w)
        return moved
    log.info("no nudged elaboration keeps every instance of the target: none opened")
    return {}


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
            if m.group(1) not in design.defines:
                found.setdefault(m.group(1), int(m.group(2)))
    if not found:
        return {}
    kept = set(overridable_macros(design, list(found)))
    return {m: v for m, v in found.items() if m in kept}
