"""Reset inputs of the target that an instance of the repository never asserts.

Every proof and rtlopt's own simulation start the target with its reset inputs at their
active level ("equivalent from reset"). That is the repository's behaviour only when the
reset reaches the target: an instance that ties a reset input to a constant at its inactive
level (``.rst(1'b0)``), or connects it to an input of its own parent that the parent's
instance ties so (at any depth), runs the target from its power-up state without any reset.
A candidate whose outputs rely on a reset having happened would be proven and then never
work there. :func:`reset_ties` finds those instances the way :mod:`._open_inputs` reads
connections (slang's elaboration of the repository from its tops, once per design); the
proofs then drop the forced reset (:func:`rtlopt.formal.plan.plan_formal`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtlopt.frontend._net_drivers import named
from rtlopt.frontend._open_inputs import _inputs, _location, _Walk
from rtlopt.frontend._slang import node_kind
from rtlopt.frontend.model import Design

__all__ = ["ResetTie", "reset_ties"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ResetTie:
    """A reset input of the target that one instance never asserts.

    Attributes:
        instance: The hierarchical name of the instance that ties it (the target's or a
            parent's).
        port: That instance's port.
        file: The file holding the instance.
        line: The instance's line.
        value: The constant, as slang prints it.
        reset: The target's reset input it reaches.
    """

    instance: str
    port: str
    file: Path
    line: int
    value: str
    reset: str

    def message(self, root: Path) -> str:
        try:
            where = str(self.file.resolve().relative_to(root.resolve()))
        except (ValueError, OSError):
            where = str(self.file)
        return (
            f"the repository's instance {self.instance} ({where}, line {self.line}) ties "
            f"'{self.port}' to {self.value}, so reset input '{self.reset}' is never asserted"
        )


def _constant(expr: Any, root: Any) -> Any:
    """The value of ``expr`` when it is a constant without x/z bits, else None."""
    from pyslang import ast

    try:
        value = expr.eval(ast.EvalContext(root))
    except Exception:  # noqa: BLE001 - pyslang raises plain exceptions: not constant
        return None
    # a net's value is "<unset>": no constant
    if value is None or value.hasUnknown() or str(value).startswith("<") or not str(value):
        return None
    return value


def _never_asserts(value: Any, active: int) -> bool:
    """Whether the constant ``value`` keeps a reset of active level ``active`` inactive."""
    try:
        on = bool(value.isTrue())
    except Exception:  # noqa: BLE001 - not a boolean-convertible value: not known to tie it
        return False
    return on != bool(active)


class _Ties:
    def __init__(self, walk: _Walk) -> None:
        self.walk = walk

    def of(
        self, inst: Any, port_name: str, active: int, reset: str, depth: int = 0
    ) -> list[ResetTie]:
        """How instance ``inst`` feeds its port ``port_name``: a constant that keeps the
        reset inactive, or its parent's input that the parent's instance ties so."""
        out: list[ResetTie] = []
        for port, expr in _inputs(inst):
            if str(port.name) != port_name or expr is None:
                continue
            value = _constant(expr, self.walk.root)
            if value is not None:
                if _never_asserts(value, active):
                    loc = _location(inst, self.walk.sm)
                    where = str(inst.hierarchicalPath)
                    out.append(ResetTie(where, port_name, *loc, str(value), reset))
            elif depth < 64:
                for sym in named(expr):
                    driven = self._net_constant(sym)
                    if driven is not None and _never_asserts(driven, active):
                        loc = _location(inst, self.walk.sm)
                        where = str(inst.hierarchicalPath)
                        value = f"{sym.name} (= {driven})"
                        out.append(ResetTie(where, port_name, *loc, value, reset))
                        continue
                    out += self._through_parent(sym, active, reset, depth)
        return out

    def _net_constant(self, sym: Any) -> Any:
        """The constant a net holds: its declaration's (``wire r = 1'b0``) or a continuous
        assignment's in its module (``assign r = 1'b0``); None when it is no such net."""
        if node_kind(sym) != "Net":
            return None
        init = getattr(sym, "initializer", None)
        if init is not None:
            return _constant(init, self.walk.root)
        path = str(getattr(sym, "hierarchicalPath", ""))
        parent = self.walk.instances.get(path.rpartition(".")[0])
        if parent is None:
            return None
        for member in parent.body:
            if node_kind(member) != "ContinuousAssign":
                continue
            try:
                left, right = member.assignment.left, member.assignment.right
            except AttributeError:
                continue
            if node_kind(left) == "NamedValue" and left.symbol == sym:
                return _constant(right, self.walk.root)
        return None

    def _through_parent(self, sym: Any, active: int, reset: str, depth: int) -> list[ResetTie]:
        path = str(getattr(sym, "hierarchicalPath", ""))
        parent = self.walk.instances.get(path.rpartition(".")[0])
        if parent is None:
            return []
        for port, _ in _inputs(parent):
            inner = getattr(port, "internalSymbol", None)
            if str(getattr(inner, "name", port.name)) == str(sym.name):
                return self.of(parent, str(port.name), active, reset, depth + 1)
        return []


def _judged(design: Design) -> list[ResetTie]:
    from rtlopt.frontend._params import _compile

    t = design.target
    files = list(dict.fromkeys([*design.sources.files, *design.closure]))
    try:
        walk = _Walk(_compile(files, {}, design))
    except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
        raise RuntimeError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
    ties = _Ties(walk)
    out: list[ResetTie] = []
    for inst in walk.instances.values():
        if inst.body.definition.name != t.name:
            continue
        for reset in t.resets:
            active = 0 if t.reset_active_low.get(reset, False) else 1
            out += ties.of(inst, reset, active, reset)
    return out


_FOUND: dict[int, tuple[Design, list[ResetTie]]] = {}


def reset_ties(design: Design) -> list[ResetTie]:
    """The target's reset inputs that an instance of the repository never asserts (once per
    design); none when the repository cannot be elaborated (the screen leaves such a
    repository's changes unchecked: :mod:`._open_inputs`)."""
    if not design.target.resets:
        return []
    hit = _FOUND.get(id(design))
    if hit is None or hit[0] is not design:
        if len(_FOUND) > 8:
            _FOUND.clear()
        try:
            found = _judged(design)
        except Exception as exc:  # noqa: BLE001 - pyslang and the sources fail in many ways
            log.info("reset connections of %s not read: %s", design.target.name, exc)
            found = []
        hit = _FOUND[id(design)] = (design, found)
    return hit[1]
