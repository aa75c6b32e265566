"""Code no reading takes: the conditional branches every reading of a design skips.

The readings of :mod:`rtlopt.harness._powered` (synthesis, a simulator without ``SYNTHESIS``,
each tool's own macros) see what those builds read. A branch none of them takes (another
build's ``+define+``, a tool not enumerated) is read by some other build: where its text may
state a power-up value or hold an assertion, the comparison fails closed.

A line is skipped by no reading only where every reading that opens its file skips it: the
readings are intersected line by line, not branch by branch (a nested ```ifdef`` is skipped
at the outer directive by one reading and at the inner one by another), and a header only
some readings include is judged by those. The text judged is each run of such lines, joined
(a declaration over two lines, after a generate block's label, a struct's braces).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.harness._reporting import _NESTED_MACRO as _NESTED_MACRO
from rtlopt.harness._reporting import _WRAPS as _WRAPS
from rtlopt.harness._reporting import only_reporting_assertions as only_reporting_assertions

__all__ = [
    "ASSERTION_TEXT",
    "POWER_UP_TEXT",
    "Skipped",
    "only_assertions",
    "only_reporting_assertions",
    "never_taken",
    "raise_dormant",
    "reports_only",
    "skipped",
]

#: Words that start no declaration (``[attributes] type [ranges] name =``).
_KEYWORDS = (
    r"(?:assign|parameter|localparam|typedef|defparam|genvar|wire|for|if|else|return|case\w*|"
    r"while|assert|assume|cover|begin|end\w*|generate|always\w*|initial|module|function|task|"
    r"fork|join\w*|default|force|release|deassign|repeat|forever|do)\b"
)
#: Arguments of a report task that write nothing: no call, assignment, ``++``/``--``.
_REPORT_ARGS = r"(?:\((?:(?!\+[ \t]*\+|-[ \t]*-)[^()=;\n])*\))?"

#: Text of a branch that may state a power-up value: an ``initial`` procedure (one report task
#: aside: see :data:`rtlopt.harness._semantics.REPORT_ONLY`), an ``always`` that starts
#: without a timing control (it runs at time 0 as an ``initial`` does), a statement declaring
#: something with an initializer (``[attributes] type [ranges] name [ranges] =``, whatever the
#: type's name, a struct's braces too; not an ``assign``, a parameter or a loop header), a
#: ```define`` whose body assigns or uses another macro (what it expands to is not known here).
POWER_UP_TEXT = re.compile(
    r"\binitial\b(?![ \t]*\$(?:display|write|strobe|info|warning|dumpfile|dumpvars|timeformat)"
    rf"[ \t]*{_REPORT_ARGS}[ \t]*;)"
    r"|\balways\b[ \t]*(?![@#\s])"
    r"|`define\s+\w+(?:\([^)]*\))?[^\n]*`\w"
    r"|`define[ \t]+\w+(?:\([^)\n]*\))?[^\n]*?(?<![=!<>])=(?![=>])"
    # a declaration: [attributes] type [#(...)] [ranges] name [ranges] =
    r"|(?:^|[;)]|`define[ \t]+\w+(?:\([^)\n]*\))?)[ \t]*(?:\(\*.*?\*\)[ \t]*)*"
    rf"(?:(?!{_KEYWORDS})[A-Za-z_]\w*\b[ \t]*(?:::[ \t]*\w+\b[ \t]*)?"
    r"(?:#[ \t]*\([^;\n]*?\)[ \t]*)?(?:\[[^\]\n]*\][ \t]*)*){2,}"
    r"(?:\[[^\]\n]*\][ \t]*)*=(?!=)"
    # a struct, union or enum variable: ``struct packed {...} c = 8'h5a``
    r"|\b(?:struct|union|enum)\b.*?\}[ \t]*[A-Za-z_]\w*[ \t]*(?:\[[^\]\n]*\][ \t]*)*=(?!=)"
    # a further declarator of a list: ``logic [7:0] pad, r = 8'd0``
    r"|,[ \t]*[A-Za-z_]\w*[ \t]*(?:\[[^\]\n]*\][ \t]*)*=(?!=)",
    re.M,
)

#: Text of a branch that may hold an assertion (whose action the view drops), or a macro
#: whose body uses another.
ASSERTION_TEXT = re.compile(
    r"\b(?:assert|assume|cover|expect|restrict)\b|`define\s+\w+(?:\([^)]*\))?[^\n]*`\w"
)

#: Syntax kinds a run of assertions may hold besides the assertions themselves: the module
#: wrapper, ``initial``/``final`` procedures, blocks and their labels.
_ASSERTION_FRAME = frozenset(
    {
        "CompilationUnit",
        "ModuleDeclaration",
        "ModuleHeader",
        "InitialBlock",
        "FinalBlock",
        "SequentialBlockStatement",
        "NamedBlockClause",
        "ConcurrentAssertionMember",
        "ImmediateAssertionMember",
        "ProceduralAssertionStatement",
        # a generate block choosing among assertions (its condition is constant)
        "GenerateRegion",
        "GenerateBlock",
        "ElseClause",
    }
)
#: Declarations only assertions read (judged by :func:`only_reporting_assertions`: a
#: sequence's local assignment writes).
_ASSERTION_DECLS = frozenset({"PropertyDeclaration", "SequenceDeclaration"})


def only_assertions(code: str) -> bool:
    """Whether a skipped run (comments blanked) holds assertions that only report and nothing
    else: ``initial``/``final`` blocks and module items made of them (``initial begin :
    p_check assert (W > 0) else $error(...); end``, cv32e40p's parameter checks), the
    property and sequence declarations they read, and ``if`` generate blocks choosing among
    them (cv32e40p_sleep_unit's ``CV32E40P_ASSERT_ON`` block). Such a run states no power-up
    value: no assignment, declaration or call outside an assertion."""
    from pyslang import syntax

    from rtlopt.harness._call_kinds import ASSERTION_STATEMENTS
    from rtlopt.harness._nodes import _children, _kind

    if not only_reporting_assertions(code):
        return False
    text = _WRAPS[0][0] + code + _WRAPS[0][1]
    tree = syntax.SyntaxTree.fromText(text)
    if any(d.isError() for d in tree.diagnostics):
        return False
    stack = [tree.root]
    while stack:
        node = stack.pop()
        kind = _kind(node)
        if kind in ASSERTION_STATEMENTS or kind in _ASSERTION_DECLS:
            continue  # its actions only report (only_reporting_assertions)
        if kind == "IfGenerate":  # its condition is an elaboration-time constant
            parts = (getattr(node, "block", None), getattr(node, "elseClause", None))
            stack += [c for c in parts if c is not None]
            continue
        if kind not in _ASSERTION_FRAME and not hasattr(node, "valueText"):
            if kind:  # a syntax node of another kind: a statement, a declaration, ...
                return False
        stack.extend(c for c in _children(node) if not hasattr(c, "valueText"))
    return True


#: Tasks that end a simulation: how a build's simulation ends is not proven.
_ENDS = re.compile(r"\$(?:fatal|finish|stop)\b")


def reports_only(code: str) -> bool:
    """Whether ``code`` (comments blanked) holds nothing but assertions that report
    (:func:`only_assertions`), none ending the simulation (``$fatal``, ``$finish``,
    ``$stop``) and no directive or macro, or ``initial`` procedures that are one report task
    each (``initial $display("timeout %d", W);``): a block of it changes no value in any
    build and states no power-up value (cv32e40p's ``initial begin : p_assertions assert (...) else
    $error(...); end``)."""
    if not code.strip() or "`" in code or _ENDS.search(code):
        return False
    rest = _REPORT_INITIAL.sub(" ", code)  # ``initial $display("...", W);``: one report
    return not rest.strip() or only_assertions(rest)


#: An ``initial`` procedure that is one report task whose arguments hold no call, assignment,
#: increment or decrement, nor parenthesis (:data:`rtlopt.harness._semantics.REPORT_ONLY`,
#: white space free).
_REPORT_INITIAL = re.compile(
    r"\binitial\s+\$(?:display|write|strobe|info|warning)\s*"
    r"(?:\((?:(?!\+\s*\+|-\s*-)[^()=;])*\))?\s*;"
)


#: What separates statements once a run's lines are joined: conditional directives, block
#: keywords with their labels.
_SEPARATORS = re.compile(
    r"`(?:ifdef|ifndef|elsif)[ \t]+\w+|`(?:else|endif)\b"
    r"|\b(?:begin|end\w*|generate)\b(?:[ \t]*:[ \t]*[A-Za-z_]\w*)?"
)
_DEFINE_LINE = re.compile(r"^[ \t]*`define\b.*$", re.M)


@dataclass
class Skipped:
    """What one reading skipped: the text of each skipped line by ``(file, line)``, and the
    files it opened (with their text)."""

    lines: dict[tuple[str, int], str] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)


def skipped(tree: Any, sm: Any) -> Skipped:
    """The lines the reading of ``tree`` skipped (every disabled token of its directives)."""
    from pyslang import parsing

    out = Skipped()
    for buf in sm.getAllBuffers():
        name = str(sm.getFullPath(buf))
        if name:
            out.files.setdefault(name, str(sm.getSourceText(buf)))
    stack: list[Any] = [tree.root]
    while stack:
        node = stack.pop()
        if isinstance(node, parsing.Token):
            for tr in node.trivia:
                if tr.kind != parsing.TriviaKind.Directive:
                    continue
                for tok in getattr(tr.syntax(), "disabledTokens", None) or ():
                    at = tok.location
                    key = (str(sm.getFullPath(at.buffer)), int(sm.getLineNumber(at)))
                    out.lines[key] = out.lines.get(key, "") + str(tok)
            continue
        stack.extend(c for c in node if c is not None)
    return out


def never_taken(
    readings: Sequence[Skipped],
    pattern: re.Pattern[str],
    allowed: Callable[[str], bool] | None = None,
    *,
    hardware: bool = False,
) -> set[tuple[str, int]]:
    """``(file, line)`` where a run of lines that every reading opening the file skips starts,
    for each run whose text matches ``pattern`` (comments aside; joined, and each line alone)
    and that ``allowed`` (given the run's text) does not clear. ``hardware``: no build but
    the formal one defines ``FORMAL``; the lines only it reads are verification code
    (:mod:`rtlopt.harness._verification_only`), not judged."""
    from rtlopt.harness._verification_only import hardware_source
    from rtlopt.verilog import blank_comments

    by_file: dict[str, dict[int, str]] = {}
    read: dict[str, list[str]] = {}
    for r in readings:
        for (name, line), text in r.lines.items():
            if hardware and name not in read:
                read[name] = hardware_source(r.files.get(name, "")).split("\n")
            if hardware and line <= len(read[name]) and not read[name][line - 1].strip():
                continue  # only a build defining FORMAL reads it
            if all((name, line) in o.lines for o in readings if name in o.files):
                by_file.setdefault(name, {}).setdefault(line, text)
    out: set[tuple[str, int]] = set()
    for name, lines in by_file.items():
        source = next((r.files[name] for r in readings if name in r.files), "").split("\n")
        for start, text in _runs(lines, source):
            code = blank_comments(text, strings=False)
            if pattern.search(code) or pattern.search(_joined(code)):
                if allowed is None or not allowed(code):
                    out.add((name, start))
    return out


def _runs(lines: dict[int, str], source: list[str]) -> list[tuple[int, str]]:
    """``(first line, text)`` of each run of skipped lines: two skipped lines belong to one
    run where the lines between them hold nothing but white space and comments."""
    from rtlopt.verilog import blank_comments

    out: list[tuple[int, str]] = []
    last = -1
    for line in sorted(lines):
        between = "\n".join(source[last : line - 1]) if last > 0 else ""
        if out and not blank_comments(between, strings=False).strip():
            out[-1] = (out[-1][0], out[-1][1] + "\n" + lines[line])
        else:
            out.append((line, lines[line]))
        last = line
    return out


def _joined(code: str) -> str:
    """``code`` on one line: ```define`` lines dropped (judged on their own), conditional
    directives and block keywords read as statement ends, white space collapsed."""
    code = _DEFINE_LINE.sub(" ", code)
    return " ".join(_SEPARATORS.sub(" ; ", code).split())


def raise_dormant(dormant: set[tuple[str, int]], what: str) -> None:
    """Raise where a branch no reading took may ``what`` (another build's macros select it)."""
    if dormant:
        name, line = min(dormant)
        raise RuntimeError(
            f"{Path(name).name}:{line}: a conditional branch these readings do not take may "
            f"{what} (another tool's or build's macros select it)"
        )
