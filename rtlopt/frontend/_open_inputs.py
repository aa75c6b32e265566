"""Inputs of the target that the repository's design leaves x or z.

Every proof and rtlopt's own simulation drive the target's inputs with 0 and 1 only. An
instance of the target in the repository that leaves an input unconnected (``.b()``, a named
connection left out, fewer ordered connections than ports, an implicit ``.*`` that finds no
net) feeds it z, which the target reads as x; one that connects a value with x or z bits
(``.b(1'bx)``, ``.c({a, 1'bz})``, ``'z``, a parameter holding x) feeds it x. Simulators
decide on x in ways the proofs never see (``if (b)`` takes the ``else`` branch on x, ``b ? a :
0`` merges both bit by bit), so a change to the target is not checked in that design.

:func:`open_inputs` reads the instances the way :func:`rtlopt.frontend._params.parameterizations`
finds the repository's parameterizations: slang elaborates the repository from its tops (every
connection form resolved, ordered and implicit ones included) and every instance of the target
below them is judged, once per design.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.frontend._slang import node_kind
from rtlopt.frontend.model import Design

__all__ = ["OpenInput", "open_inputs", "open_inputs_reason"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class OpenInput:
    """An input (or inout) port of the target that one instance feeds x or z.

    Attributes:
        instance: The instance's hierarchical name (``top.u``).
        port: The port's name.
        file: The file holding the instance.
        line: The instance's line in ``file``.
        value: The connected value with x/z bits as written; "" when the port is unconnected.
    """

    instance: str
    port: str
    file: Path
    line: int
    value: str = ""

    def message(self, module: str, root: Path) -> str:
        try:
            where = str(self.file.resolve().relative_to(root.resolve()))
        except (ValueError, OSError):
            where = str(self.file)
        fed = (
            f"ties input '{self.port}' to {self.value}, a value with x/z bits"
            if self.value
            else f"leaves input '{self.port}' unconnected (z, read as x)"
        )
        return (
            f"the repository's instance {self.instance} of {module} ({where}, line {self.line}) "
            f"{fed}: the proofs and rtlopt's simulation drive every input with 0 or 1 only, "
            f"so a change in how {module} reads x is not checked; connect '{self.port}' of "
            f"{self.instance} to a defined value in {where}"
        )


def _x_value(expr: Any, root: Any) -> str:
    """The first part of ``expr`` (itself included) that is a constant with an x or z bit,
    as slang prints it, or ""."""
    from pyslang import ast

    found: list[str] = []

    def each(node: Any) -> bool:
        if found:
            return False
        try:
            value = node.eval(ast.EvalContext(root))
            if value is not None and value.hasUnknown():
                found.append(str(value))
                return False
        except Exception:  # noqa: BLE001, S110 - pyslang raises plain exceptions: not constant
            pass
        return True

    each(expr)
    if not found:
        expr.visit(each)
    return found[0] if found else ""


def _location(inst: Any, sm: Any) -> tuple[Path, int]:
    try:
        # slang names a file relative to the working folder when it can
        path = Path.cwd() / str(sm.getFileName(inst.location))
        return path, int(sm.getLineNumber(inst.location))
    except Exception:  # noqa: BLE001 - no location known
        return Path("?"), 0


def _judged(design: Design) -> list[OpenInput]:
    """Every input of every instance of the target below the repository's tops that is
    unconnected or connected to a value with x/z bits.

    Raises:
        RuntimeError: slang cannot elaborate the repository.
    """
    from rtlopt.frontend._params import _compile, _instances

    name = design.target.name
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    try:
        comp = _compile(files, {}, design)
        root = comp.getRoot()
        sm = comp.sourceManager
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        raise RuntimeError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
    out: list[OpenInput] = []
    for top in root.topInstances:
        for where, inst in _instances(top, ""):
            if inst.body.definition.name != name:
                continue
            for conn in inst.portConnections:
                port = conn.port
                direction = str(getattr(port, "direction", "")).rsplit(".", 1)[-1]
                if node_kind(port) != "Port" or direction not in ("In", "InOut"):
                    continue
                expr = conn.expression
                value = "" if expr is None else _x_value(expr, root)
                if expr is None or value:
                    out.append(OpenInput(where, str(port.name), *_location(inst, sm), value))
    return out


_FOUND: dict[int, tuple[Design, list[OpenInput] | str]] = {}


def open_inputs(design: Design) -> list[OpenInput]:
    """The target's inputs that an instance of the repository leaves x or z (once per
    design).

    Raises:
        RuntimeError: slang cannot elaborate the repository.
    """
    hit = _FOUND.get(id(design))
    if hit is None or hit[0] is not design:
        if len(_FOUND) > 8:
            _FOUND.clear()
        try:
            found: list[OpenInput] | str = _judged(design)
        except RuntimeError as exc:
            found = str(exc) or "it cannot be elaborated"
        hit = _FOUND[id(design)] = (design, found)
    if isinstance(hit[1], str):
        raise RuntimeError(hit[1])
    return hit[1]


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
        return found[0].message(design.target.name, design.root)
    return ""
