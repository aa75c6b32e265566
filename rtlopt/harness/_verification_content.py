"""Whether a branch only a build defining ``FORMAL`` takes holds verification code alone.

No text search finds every build that defines ``FORMAL`` (a Makefile's ``-DFOR''MAL``, a
variable, a header of any name, a continuous-integration setting outside the repository), so
:mod:`rtlopt.harness._verification_only` drops such a branch only where its content could
not change a value even in a build that defines the macro: it declares its own names and
writes only those, states assertions, assumptions and covers whose actions only report, and
calls no task or function but the report tasks and the sampled-value functions. It holds no
macro or directive but nested conditionals (each of whose branches is judged so; what a macro
expands to is not read here), no instance, no ``force``, no
``disable``, no event trigger, and does not end the simulation (``$finish``, ``$fatal``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["verification_content"]

#: System tasks and functions a verification branch may call: they report or read.
_READING_SYSTEM = frozenset(
    {
        "$display", "$displayb", "$displayh", "$displayo", "$write", "$writeb", "$writeh",
        "$writeo", "$strobe", "$monitor", "$error", "$warning", "$info", "$past", "$rose",
        "$fell", "$stable", "$changed", "$sampled", "$initstate", "$isunknown", "$onehot",
        "$onehot0", "$countones", "$bits", "$signed", "$unsigned", "$clog2", "$time",
        "$realtime", "$stime", "$size", "$global_clock", "$past_gclk", "$rose_gclk",
        "$fell_gclk", "$stable_gclk", "$changed_gclk", "$anyconst", "$anyseq", "$allconst",
        "$allseq",
    }
)  # fmt: skip
#: Syntax kinds that may reach what the branch does not declare.
_FORBIDDEN = re.compile(
    r"Instantiation|FunctionDeclaration|TaskDeclaration|Force|Release|ProceduralAssign|"
    r"ProceduralDeassign|DefParam|Bind|Disable|EventTrigger|ClassDeclaration|Port|"
    r"ModuleDeclaration|Interface|Program|Package|Generate|Dpi|Let|Checker"
)
_WRAPS = (
    ("module rtlopt_formal;\n", "\nendmodule\n"),
    ("module rtlopt_formal;\ninitial begin\n", "\nend\nendmodule\n"),
)


def verification_content(code: str) -> bool:
    """Whether ``code`` (a branch's text, comments blanked) is verification code alone (see the
    module's docstring); read as module items, else as statements."""
    from pyslang import syntax

    from rtlopt.harness._reporting import only_reporting_assertions

    if not code.strip():
        return True
    # nested conditionals: every branch is judged (their directives blanked), and a name is
    # the branch's own where it is declared outside them (in every reading), or, for a write
    # inside a nested branch, in that branch or one around it (held-out gate trial 53:
    # wbuart32's ufifo declares and writes its properties' state in a nested `ifdef UFIFO)
    flat, outer = _readings(code)
    if "`" in flat or not only_reporting_assertions(flat):
        return False
    for head, tail in _WRAPS:
        tree = syntax.SyntaxTree.fromText(head + flat + tail)
        if any(d.isError() for d in tree.diagnostics):
            continue
        if outer == flat:
            return _own_writes_only(tree.root, tree.root)
        own = syntax.SyntaxTree.fromText(head + outer + tail)
        regions = _branches(code, head, tail)
        return not any(d.isError() for d in own.diagnostics) and _own_writes_only(
            tree.root, own.root, len(head), regions
        )
    return False


def _branches(code: str, head: str, tail: str) -> list[tuple[int, int, set[str]]]:
    """Each branch of the nested conditionals of ``code``: its span in ``code`` and the names
    declared in it directly (not in a conditional nested in
    it); a branch that does not read as module items alone declares none."""
    from pyslang import syntax

    out: list[tuple[int, int, set[str]]] = []
    stack: list[int] = []  # each open conditional: where its current branch starts
    for m in _DIRECTIVE.finditer(code):
        if m.group(1) in ("ifdef", "ifndef"):
            stack.append(m.end())
            continue
        if not stack:
            return []
        start = stack.pop()
        body = _readings(code[start : m.start()])[1]
        tree = syntax.SyntaxTree.fromText(head + body + tail)
        if not any(d.isError() for d in tree.diagnostics):
            names = _declared(tree.root)
            if names:
                out.append((start, m.start(), names))
        if m.group(2) != "endif":
            stack.append(m.end())  # the next branch of the same conditional
    return out


_DIRECTIVE = re.compile(r"`(?:(ifdef|ifndef|elsif)[ \t]+[A-Za-z_][\w$]*|(else|endif)\b)")


def _readings(code: str) -> tuple[str, str]:
    """``code`` with its conditional directives blanked (every branch kept), and with every
    conditional blanked whole (what each reading holds)."""
    flat, outer = list(code), list(code)
    depth, start = 0, 0
    for m in _DIRECTIVE.finditer(code):
        for k in range(m.start(), m.end()):
            flat[k] = " "
        if m.group(1) in ("ifdef", "ifndef"):
            if depth == 0:
                start = m.start()
            depth += 1
        elif m.group(2) == "endif":
            depth -= 1
            if depth < 0:
                return code, code  # unbalanced: read as written (the directive refuses it)
            if depth == 0:
                for k in range(start, m.end()):
                    if outer[k] != "\n":
                        outer[k] = " "
    if depth:
        return code, code
    return "".join(flat), "".join(outer)


def _nodes(root: object) -> list[object]:
    from rtlopt.harness._nodes import _children

    out: list[object] = []
    stack = [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(c for c in _children(node) if not hasattr(c, "valueText"))
    return out


def _declared(root: object) -> set[str]:
    """The names the tree ``root`` (a wrap of :data:`_WRAPS`) declares in the branch's own
    scope (variables and nets): the wrapper module's items, or the items of the one block the
    statements are read in. A block's local (``begin : blk reg y; ... end``) is no name of
    the branch: a write of ``y`` elsewhere is the module's (red-team round 126)."""
    from rtlopt.harness._nodes import _children, _kind

    scope: list[object] = []
    for node in _nodes(root):
        if _kind(node) == "ModuleDeclaration":
            members = [c for c in _children(node) if not hasattr(c, "valueText")]
            scope = [m for m in _flat(members) if _kind(m) != "ModuleHeader"]
            blocks = [m for m in scope if _kind(m) == "InitialBlock"]
            if len(scope) == 1 and blocks:  # the statements' wrap: its block's items
                body = getattr(blocks[0], "statement", None)
                scope = _flat([c for c in _children(body) if not hasattr(c, "valueText")])
            break
    return {
        d.name.valueText
        for n in scope
        if _kind(n) in ("DataDeclaration", "NetDeclaration")
        for d in n.declarators  # type: ignore[attr-defined]
        if hasattr(d, "name")  # the list's commas are tokens
    }


def _flat(nodes: list[object]) -> list[object]:
    """``nodes`` with each syntax list replaced by its elements (a module's members, a
    block's items), one level."""
    from rtlopt.harness._nodes import _children, _kind

    out: list[object] = []
    for n in nodes:
        if _kind(n) in ("SyntaxList", "") or type(n).__name__.endswith("List"):
            out += [c for c in _children(n) if not hasattr(c, "valueText")]
        else:
            out.append(n)
    return out


def _own_writes_only(
    root: object,
    declaring: object,
    offset: int = 0,
    regions: Sequence[tuple[int, int, set[str]]] = (),
) -> bool:
    """Whether the tree ``root`` writes only names the tree ``declaring`` declares, or, for
    a write within one of ``regions`` (spans of ``root``'s text with the names declared in
    each), those too, and holds nothing :data:`_FORBIDDEN` nor a call of the design's."""
    from rtlopt.harness._nodes import _kind

    nodes = _nodes(root)
    declared = _declared(declaring)

    def names_at(node: object) -> set[str]:
        if not regions:
            return declared
        at = node.sourceRange.start.offset - offset  # type: ignore[attr-defined]
        return declared.union(*(n for a, b, n in regions if a <= at < b))

    for i, node in enumerate(nodes):
        kind = _kind(node)
        if i > 1 and _FORBIDDEN.search(kind) and kind != "ModuleHeader":
            return False
        if kind.endswith("AssignmentExpression"):
            if not _own(str(node.left), names_at(node)):  # type: ignore[attr-defined]
                return False
        elif "crement" in kind:  # ++ / --, before or after
            if not _own(str(node.operand), names_at(node)):  # type: ignore[attr-defined]
                return False
        elif kind == "SystemName":
            if str(node).strip() not in _READING_SYSTEM:
                return False
        elif kind == "InvocationExpression" and _kind(node.left) != "SystemName":  # type: ignore[attr-defined]
            return False  # a task or function of the design: it may write anything
    return True


def _own(target: str, declared: set[str]) -> bool:
    """Whether an assignment's left side ``target`` writes names of ``declared`` only (selects
    and concatenations of them; no hierarchical or package name)."""
    depth, plain = 0, []
    for c in target:
        depth += c == "["
        if not depth:
            plain.append(c)
        depth -= c == "]" and depth > 0
    parts = [p.strip() for p in re.split(r"[{},]", "".join(plain)) if p.strip()]
    return bool(parts) and all(p in declared for p in parts)
