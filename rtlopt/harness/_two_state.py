"""2-state variables: the power-up value IEEE 1800 gives them.

A variable of a 2-state type (``bit``, ``byte``, ``shortint``, ``int``, ``longint``, an enum
without a base type or with a 2-state one, a struct or union with a 2-state member, a
``real``) starts at 0 in every simulator (IEEE 1800 6.8) and turns x and z into 0 on every
write; a 4-state one starts at x. The view the SystemVerilog path writes declares them
``reg``, and the proof starts every register from any value, so neither sees that power-up
value: :func:`two_state_variables` names them, and the power-up rules read each as a
register with the value :data:`TWO_STATE` (one declared with an initializer states that).
A variable that is only ever a loop index (every use inside a ``for`` loop whose initializer
assigns it a constant first, no timing control in that loop: ``int i; ... for (i = 0; i < N;
i++)``) never shows its power-up value, nor an x: it is not named. A type this text does not
define (a class, a type from a file the reading does not hold) or
a ``type(...)`` reference is not known here: read as 2-state (fail closed).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["TWO_STATE", "UNKNOWN_STATE", "two_state_variables", "type_names"]

#: The power-up value of a 2-state variable (a Verilog constant, then why).
TWO_STATE = "'0 (2-state)"
#: The value of a variable whose type is not known here (it may be 2-state).
UNKNOWN_STATE = "'0 (2-state?: its type is not known here)"

_TWO_STATE_KINDS = frozenset(
    {
        "BitType",
        "ByteType",
        "ShortIntType",
        "IntType",
        "LongIntType",
        "RealType",
        "ShortRealType",
        "RealTimeType",
    }
)
_FOUR_STATE_KINDS = frozenset({"LogicType", "RegType", "IntegerType", "TimeType", "ImplicitType"})
#: Types that hold no power-up value a design reads (not synthesizable, or no value).
_NO_VALUE_KINDS = frozenset(
    {"StringType", "CHandleType", "EventType", "VoidType", "VirtualInterfaceType"}
)
_DECLARATIONS = frozenset({"DataDeclaration"})
_PORTS = frozenset({"ImplicitAnsiPort", "PortDeclaration"})
_HEADERS = frozenset({"VariablePortHeader"})

TypeNames = dict[str, list[Any]]


def type_names(root: Any) -> TypeNames:
    """Every type name ``root`` defines (a ``typedef``, a type parameter's default), by its
    own name (a package's ``p::t`` is ``t``): name -> the type syntax nodes."""
    from rtlopt.harness._nodes import _kind, _walk

    out: TypeNames = {}
    for node in _walk(root):
        k = _kind(node)
        if k == "TypedefDeclaration":
            out.setdefault(node.name.valueText, []).append(node.type)
        elif k == "TypeParameterDeclaration":
            for d in node.declarators:
                if d.assignment is not None:
                    out.setdefault(d.name.valueText, []).append(d.assignment.type)
    return out


def _state(ty: Any, names: TypeNames, seen: frozenset[str] = frozenset()) -> str:
    """``"2"``, ``"4"``, ``"?"`` (not known here: may be 2-state) or ``""`` (no value) for the
    type syntax ``ty``: 2-state where any part of it is."""
    from rtlopt.harness._nodes import _kind

    k = _kind(ty)
    if k in _TWO_STATE_KINDS:
        return "2"
    if k in _FOUR_STATE_KINDS:
        return "4"
    if k in _NO_VALUE_KINDS:
        return ""
    if k == "EnumType":  # no base type: int
        return "2" if ty.baseType is None else _state(ty.baseType, names, seen)
    if k in ("StructType", "UnionType"):
        states = {_state(m.type, names, seen) for m in ty.members}
        return "2" if "2" in states else "?" if "?" in states else "4" if states else ""
    if k == "NamedType":
        name = ty.name
        while _kind(name) == "ScopedName":  # p::t -> t
            name = name.right
        label = getattr(getattr(name, "identifier", None), "valueText", "")
        defs = names.get(label, [])
        if not label or label in seen or not defs:
            return "?"
        states = {_state(d, names, seen | {label}) for d in defs}
        return "2" if "2" in states else "?" if "?" in states else "4" if "4" in states else ""
    return "?"  # a type reference, a class, anything else: not known here


def two_state_variables(scope: Any, names: TypeNames) -> Iterator[tuple[str, Any, str]]:
    """``(name, declarator, value)`` of every variable of ``scope`` (as the power-up rules
    read its initializers: nested units, functions, tasks and nets aside) whose type is
    2-state (``value`` :data:`TWO_STATE`) or not known here (:data:`UNKNOWN_STATE`),
    declared without an initializer."""
    from rtlopt.harness._nodes import _NOT_POWER_UP, _children, _kind

    stack = list(_children(scope))
    while stack:
        node = stack.pop()
        k = _kind(node)
        if k in _NOT_POWER_UP:
            continue
        ty = None
        if k in _DECLARATIONS:
            ty = node.type
        elif k in _PORTS and _kind(getattr(node, "header", None)) in _HEADERS:
            ty = node.header.dataType
        if ty is not None:
            state = _state(ty, names)
            if state in ("2", "?"):
                value = TWO_STATE if state == "2" else UNKNOWN_STATE
                for decl in _declared(node):  # not an enum type's members: constants
                    if _kind(decl) != "Declarator" or decl.initializer is not None:
                        continue
                    if not _loop_index_only(scope, decl.name.valueText):
                        yield decl.name.valueText, decl, value
        stack.extend(_children(node))


def _declared(node: Any) -> list[Any]:
    """The declarators of a data or port declaration ``node`` (its variables' names)."""
    one = getattr(node, "declarator", None)
    return [one] if one is not None else list(getattr(node, "declarators", None) or [])


#: Statements that suspend a process (another process may run between two of its steps).
_SUSPENDING = frozenset(
    {"TimingControlStatement", "WaitStatement", "WaitForkStatement", "WaitOrderStatement"}
)


def _loop_index_only(scope: Any, name: str) -> bool:
    """Every use of ``name`` in ``scope`` is inside a ``for`` loop whose initializer assigns
    it a constant, with no timing control in the loop: its power-up value is never read."""
    from rtlopt.harness._nodes import _is_constant, _kind, _walk

    tokens = uses = 0
    for node in _walk(scope):
        if getattr(node, "valueText", None) == name:
            tokens += 1
        if _kind(node) not in ("IdentifierName", "IdentifierSelectName"):
            continue
        if node.identifier.valueText != name:
            continue
        uses += 1
        loop = node.parent
        while loop is not None and not (
            _kind(loop) == "ForLoopStatement" and _initializes(loop, name, _is_constant)
        ):
            loop = loop.parent
        if loop is None or any(_kind(n) in _SUSPENDING for n in _walk(loop)):
            return False
    # every other token of the name (its declaration aside) is a use read above
    return uses > 0 and tokens == uses + 1


def _initializes(loop: Any, name: str, constant: Any) -> bool:
    from rtlopt.harness._nodes import _kind

    for init in loop.initializers:
        if _kind(init) != "AssignmentExpression" or _kind(init.left) != "IdentifierName":
            continue
        if init.left.identifier.valueText == name and constant(init.right):
            return True
    return False
