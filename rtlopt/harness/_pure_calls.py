"""User functions an assertion may call: those that provably write nothing outside themselves.

The SystemVerilog view drops an assertion with everything it calls, while every simulator
runs it (:mod:`rtlopt.harness._dropped`): a call is harmless only when the function cannot
change the design. A function declaration is *pure* when all of these hold:

* it is ``function automatic`` (its variables are its call's own: no static state another
  call reads) and declares no ``static`` variable;
* every argument is an input (no ``output``, ``inout`` or ``ref``);
* every assignment or increment writes a name the function declares: its own name (the
  return value), a port, a variable declared in its body (in front of the write), a loop's
  or a block's own variable within that loop or block; through selects (``v[0]``) only;
* it calls only pure functions (by this rule, visible where it calls them) and system
  functions that read (:data:`rtlopt.harness._vocabulary.ALLOWED_SYSTEM_FUNCTIONS`, the
  assertion functions ``$past`` ...) or tasks that report (``$error``, ``$display``: they
  write no signal, as an assertion's action may);
* it holds no dotted (possibly hierarchical) name, no ``disable``, no event trigger, no
  procedural ``assign``/``force``, no ``fork``.

A name is pure at a call only when every subroutine declaration of that name in the tree is
a pure function (a task, a DPI import, a class or extern prototype of that name is not), one
of them is a member of a scope around the call (the nearest such declaration is the one the
call reads), and no scope between the call and that one imports a package. Anything else may
write: the rule fails closed.
"""

from __future__ import annotations

from typing import Any

from rtlopt.harness._nodes import _children, _kind, _span, _walk

__all__ = ["pure_functions", "visible_pure"]

#: Syntax that makes a function do more than compute: it may write or stop another process.
_FORBIDDEN = frozenset(
    {
        "OutputKeyword",
        "InOutKeyword",
        "RefKeyword",
        "StaticKeyword",
        "DisableStatement",
        "DisableForkStatement",
        "BlockingEventTriggerStatement",
        "NonblockingEventTriggerStatement",
        "ProceduralAssignStatement",
        "ProceduralForceStatement",
        "ProceduralDeassignStatement",
        "ProceduralReleaseStatement",
        "ParallelBlockStatement",
        "WaitForkStatement",
        "PackageImportDeclaration",
        "TaskDeclaration",
        "FunctionDeclaration",
        "ClassDeclaration",
    }
)
_BLOCKS = frozenset({"SequentialBlockStatement", "ForLoopStatement"})
_NAMES = frozenset({"IdentifierName", "IdentifierSelectName"})


def _name(node: Any) -> str:
    """The simple name of a subroutine prototype, or "" (a scoped or dotted one)."""
    n: Any = getattr(node, "name", None)
    if n is None or _kind(n) != "IdentifierName":
        return ""
    return str(n.identifier.valueText)


def _declared(node: Any) -> list[tuple[str, int]]:
    """The names ``node``'s declarators declare, with the offset of each."""
    return [
        (str(d.name.valueText), _span(d)[0])
        for d in _walk(node)
        if _kind(d) == "Declarator" and getattr(d, "name", None) is not None
    ]


def _own_names(decl: Any) -> list[tuple[str, int]]:
    """The names a function declares for its whole body: its own, its ports, the variables
    of its top-level items (each from its own offset on)."""
    proto = decl.prototype
    out = [(_name(proto), -1)]
    ports = getattr(proto, "portList", None)
    out += [(n, -1) for n, _ in _declared(ports)] if ports is not None else []
    for item in _children(decl):
        if _kind(item) in ("DataDeclaration", "PortDeclaration"):
            out += [
                (n, -1 if _kind(item) == "PortDeclaration" else at) for n, at in _declared(item)
            ]
    return out


def _local_names(block: Any) -> list[tuple[str, int]]:
    """The variables a ``begin``-``end`` block or a ``for`` loop declares for itself."""
    if _kind(block) == "ForLoopStatement":
        return [
            (n, -1)
            for i in _children(block)
            if _kind(i) == "ForVariableDeclaration"
            for n, _ in _declared(i)
        ]
    return [n for i in _children(block) if _kind(i) == "DataDeclaration" for n in _declared(i)]


def _target_ok(target: Any, names: list[tuple[str, int]], at: int) -> bool:
    """An assignment's target is a name of ``names`` declared in front of ``at`` (through
    selects), or a concatenation of such."""
    k = _kind(target)
    if k == "ParenthesizedExpression":
        return _target_ok(target.expression, names, at)
    if k == "ConcatenationExpression":
        return all(
            _target_ok(e, names, at) for e in _children(target.expressions) if _kind(e) != "Comma"
        )
    if k == "ElementSelectExpression":
        return _target_ok(target.left, names, at)
    if k not in _NAMES:
        return False
    word = str(target.identifier.valueText)
    return any(n == word and d < at for n, d in names)


class _Rule:
    """What a function body is judged against: the names pure so far, the write kinds, the
    subroutine names of the tree and every name the tree declares."""

    def __init__(self, root: Any, pure: set[str]) -> None:
        from rtlopt.harness._call_kinds import _PURE_CALLS, REPORTING_TASKS, _write_kinds
        from rtlopt.harness._vocabulary import ALLOWED_SYSTEM_FUNCTIONS

        self.pure = pure
        self.writes = _write_kinds()
        self.system = _PURE_CALLS | ALLOWED_SYSTEM_FUNCTIONS | REPORTING_TASKS
        self.declared: set[str] = set()  # the names visible around the function judged
        self.subroutines: set[str] = set()

    def judge(self, decl: Any) -> bool:
        """The function ``decl`` keeps to the rule."""
        self.declared = _visible_declarations(decl)
        return all(self.ok(i, _own_names(decl)) for i in _children(decl))

    def ok(self, node: Any, names: list[tuple[str, int]]) -> bool:
        """Every statement and expression under ``node`` keeps to the rule (module
        docstring)."""
        k = _kind(node)
        if k in _FORBIDDEN or k == "ScopedName":
            return False  # a dotted name may be hierarchical; a package's may be a call
        if k in _BLOCKS:
            names = names + _local_names(node)
        if k in self.writes:
            target = getattr(
                node, "left" if k.endswith("AssignmentExpression") else "operand", None
            )
            if target is None or not _target_ok(target, names, _span(node)[0]):
                return False
        if k == "InvocationExpression":
            left = node.left
            if _kind(left) == "SystemName":
                if str(left.systemIdentifier.valueText) not in self.system:
                    return False
            elif _kind(left) != "IdentifierName" or str(left.identifier.valueText) not in (
                visible_pure(node, self.pure)
            ):
                return False
        elif k in _NAMES:
            word = str(node.identifier.valueText)
            if all(n != word for n, _ in names):
                if word not in self.declared and word not in self.subroutines:
                    return False  # declared outside the text: it may be anything
                if word in self.subroutines and word not in visible_pure(node, self.pure):
                    return False  # a call without parentheses
        return all(self.ok(c, names) for c in _children(node))


def pure_functions(root: Any) -> frozenset[str]:
    """The names under ``root`` whose every subroutine declaration is a pure function
    (module docstring), the calls among them included (the largest set that keeps the rule:
    a recursion that writes nothing stays pure)."""
    decls: dict[str, list[Any]] = {}
    spoiled: set[str] = set()
    for n in _walk(root):
        k = _kind(n)
        if k.endswith("Prototype") and (word := _name(n)):
            parent = getattr(n, "parent", None)
            if _kind(parent) == "FunctionDeclaration" and k == "FunctionPrototype":
                decls.setdefault(word, []).append(parent)
            else:
                spoiled.add(word)  # a task, DPI import, extern or class prototype
    pure = {
        w
        for w, ds in decls.items()
        if w not in spoiled
        and all(any(_kind(t) == "AutomaticKeyword" for t in _children(d.prototype)) for d in ds)
    }
    rule = _Rule(root, pure)
    rule.subroutines = set(decls) | spoiled
    while True:
        bad = {w for w in pure for d in decls[w] if not rule.judge(d)}
        if not bad:
            return frozenset(pure)
        pure -= bad


#: Members of a scope that declare names it reads (ports and parameters are in its header).
_DECLARING = frozenset(
    {
        "DataDeclaration",
        "NetDeclaration",
        "ParameterDeclarationStatement",
        "TypedefDeclaration",
        "ModuleHeader",
        "GenvarDeclaration",
    }
)


def _visible_declarations(node: Any) -> set[str]:
    """The names the scopes around ``node`` declare as members (not a subroutine's or a
    nested block's own), up to the first scope that imports a package (a name it imports may
    hide an outer declaration)."""
    out: set[str] = set()
    scope = getattr(node, "parent", None)
    while scope is not None:
        members = list(_children(scope))
        for m in members:
            if _kind(m) in _DECLARING:
                out |= {n for n, _ in _declared(m)}
                if _kind(m) == "TypedefDeclaration":
                    out.add(str(m.name.valueText))
        if any(_kind(x) == "PackageImportDeclaration" for m in members for x in _walk(m)):
            break  # the scope's own names win over its imports; an outer one's may not
        scope = getattr(scope, "parent", None)
    return out


def visible_pure(node: Any, pure: set[str] | frozenset[str]) -> frozenset[str]:
    """The names of ``pure`` a call at ``node`` reads as a pure function: declared as a
    member of a scope around ``node``, no package imported in a scope nearer to it."""
    out: set[str] = set()
    hidden: set[str] = set()
    imported = False
    scope = getattr(node, "parent", None)
    while scope is not None:
        members = list(_children(scope))
        here = {
            _name(m.prototype)
            for m in members
            if _kind(m) in ("FunctionDeclaration", "TaskDeclaration")
        }
        if not imported:
            out |= {w for w in here if w in pure} - hidden
        hidden |= here  # a nearer declaration of the name is the one read
        header = getattr(scope, "header", None)
        if any(_kind(m) == "PackageImportDeclaration" for m in members) or (
            header is not None
            and any(_kind(m) == "PackageImportDeclaration" for m in _walk(header))
        ):
            imported = True
        scope = getattr(scope, "parent", None)
    return frozenset(out)
