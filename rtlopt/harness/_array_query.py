"""Array queries a candidate adds: constants the simulator reads otherwise than both proofs.

iverilog 11 evaluates ``$bits`` (and the other array queries) of a net or variable inside a
constant expression as 0, while slang and Yosys read the width: a candidate's
``localparam ONE = $bits(a) - 23;`` is 1 to both proofs and ``-23`` to the simulator the
repository builds with. Whether a query's argument is a type or a signal, and whether its
statement is a constant context, is not judged from the text: a statement of the candidate
that holds an array query must be a statement of the reference (whitespace aside), except a
query that surely is no constant the simulator reads otherwise (:func:`_select_queries`): the
index of a select in a continuous assignment or a procedural block, of a name the module
declares once as a plain packed vector (``q[$high(q):1]``: iverilog 11 reads it as slang and
Yosys do, measured for every query and packed shape in assignments, procedural and generate
blocks; it misreads ``$left``, ``$right`` and ``$bits`` of an unpacked array, any query of a
scalar (x), and ``$bits`` in a parameter's value or a generate condition).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rtlopt.verilog import blank_comments, line_of

__all__ = ["array_query_problems"]

#: The array query system functions.
QUERY = re.compile(
    r"\$(?:bits|size|left|right|high|low|increment|dimensions|unpacked_dimensions)\b"
)


def array_query_problems(code: str, references: Callable[[], list[str]]) -> list[tuple[int, str]]:
    """Each statement of ``code`` (comments blanked) holding an array query that no
    reference text (``references``) holds."""
    found = list(QUERY.finditer(code))
    if not found:
        return []
    known = {s for t in references() for s in _statements(blank_comments(t))}
    exempt = _select_queries(code)
    out: list[tuple[int, str]] = []
    for m in found:
        if m.start() in exempt:
            continue
        start = code.rfind(";", 0, m.start()) + 1
        end = code.find(";", m.end())
        stmt = _squeeze(code[start : end if end >= 0 else len(code)])
        if stmt in known:
            continue
        out.append(
            (
                line_of(code, m.start()),
                f"{m.group(0)} in a statement the reference does not have: iverilog evaluates "
                "an array query of a net or variable in a constant expression otherwise than "
                "slang and Yosys (as 0), so the proofs would not read what the simulator "
                "builds (write the width as a number or a parameter)",
            )
        )
    return out


def _statements(code: str) -> set[str]:
    return {_squeeze(s) for s in code.split(";")}


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


#: The queries measured in selects (``$increment``, ``$dimensions`` were not).
_MEASURED = frozenset({"$high", "$low", "$left", "$right", "$size", "$bits"})
#: Where a select's index is read at run time: a continuous assignment (a net's declaration
#: with a value is one) or a procedural block.
_RUN_TIME = frozenset(
    {"ContinuousAssign", "NetDeclaration", "AlwaysBlock", "AlwaysCombBlock", "AlwaysFFBlock"}
    | {"AlwaysLatchBlock", "InitialBlock", "FinalBlock"}
)
#: Syntax between a select and its statement: expressions, names, statements, blocks.
_PASSING = re.compile(
    r"Expression$|Select$|SelectName$|ElementSelect$|^IdentifierName$|EqualsValueClause$|"
    r"^Declarator$|Statement$|^ArgumentList$|Argument$|^TimingControlStatement$"
)
#: Words a plain packed vector's type may start with (or a packed range, or nothing).
_PLAIN_TYPE = frozenset({"logic", "reg", "bit", "wire", "signed", "unsigned", "var"})
_DIRECTIONS = frozenset({"input", "output", "inout", "wire", "var", "tri", "uwire"})


def _select_queries(code: str) -> set[int]:
    """The offsets in ``code`` of the array queries (one argument, a name) that are the index
    of a select in a continuous assignment or procedural block, of a name declared once in
    ``code`` as a plain packed vector (no unpacked dimension, a ``logic``/``reg``/``bit``/net
    or implicit type): none where ``code`` does not parse."""
    from pyslang import syntax

    from rtlopt.harness._nodes import _kind

    tree = syntax.SyntaxTree.fromText(code)
    if any(d.isError() for d in tree.diagnostics):
        return set()
    nodes = _all(tree.root)
    plain: dict[str, bool] = {}
    for n in nodes:
        if _kind(n) == "Declarator":
            name = n.name.valueText  # type: ignore[attr-defined]
            plain[name] = name not in plain and _plain_vector(n)
    out: set[int] = set()
    for n in nodes:
        if _kind(n) != "InvocationExpression" or str(n.left).strip() not in _MEASURED:  # type: ignore[attr-defined]
            continue
        args = n.arguments  # type: ignore[attr-defined]
        words = str(args).strip().strip("()").strip() if args is not None else ""
        if not re.fullmatch(r"[A-Za-z_][\w$]*", words) or not plain.get(words):
            continue
        if _in_run_time_select(n):
            out.add(int(n.sourceRange.start.offset))  # type: ignore[attr-defined]
    return out


def _all(root: object) -> list[object]:
    from pyslang import syntax

    out: list[object] = []
    stack = [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(c for c in node if isinstance(c, syntax.SyntaxNode))  # type: ignore[attr-defined]
    return out


def _plain_vector(declarator: object) -> bool:
    """Whether a declarator declares a plain packed vector: a packed range and no unpacked
    dimension, in a variable, net or port declaration whose type is ``logic``/``reg``/``bit``,
    a net type or implicit."""
    from rtlopt.harness._nodes import _kind

    if len(declarator.dimensions):  # type: ignore[attr-defined]
        return False
    parent = declarator.parent  # type: ignore[attr-defined]
    kind = _kind(parent)
    if kind in ("DataDeclaration", "NetDeclaration"):
        words = str(parent.type).split()
    elif kind == "ImplicitAnsiPort":
        words = [w for w in str(parent.header).split() if w not in _DIRECTIONS]
    else:
        return False
    packed = any(w.startswith("[") for w in words)  # a scalar's queries are x in iverilog
    return packed and (words[0] in _PLAIN_TYPE or words[0].startswith("["))


def _in_run_time_select(node: object) -> bool:
    """Whether ``node`` (an expression) is inside the index of a select (the first bracket
    around it), through expressions and statements only, up to a continuous assignment or a
    procedural block (:data:`_RUN_TIME`)."""
    from rtlopt.harness._nodes import _kind

    cur = node.parent  # type: ignore[attr-defined]
    selected = False
    while cur is not None:
        kind = _kind(cur)
        if kind in _RUN_TIME:
            return selected
        if kind == "ElementSelect":
            selected = True
        elif not _PASSING.search(kind):
            return False
        cur = cur.parent
    return False
