"""The rules of the candidate screen that need no base, on every file a change adds or edits
that a build may compile, whatever it holds.

A new module has no base to compare with, so the gate judges none of its behaviour; but the
text around it, or inside it, can change what the design's other modules mean without
touching them: a directive left in force after the file (a build that compiles the files in
one unit, a glob in any order, reads it in every later file), a macro another file reads (its
value then depends on which file the build compiles first), ``defparam``, ``force``,
``release``, ``bind`` and writes through hierarchical names (they reach into any instance),
and declarations or statements outside modules (the compilation unit's scope). Each is a
finding naming the file and line. For an edited file only what its base version does not
already hold counts.
"""

from __future__ import annotations

import re

from rtlopt.check._directives import STATEFUL
from rtlopt.check._hier_refs import hierarchical_writes
from rtlopt.frontend._depgraph import DesignGraph
from rtlopt.verilog import blank_comments, line_of, module_spans
from rtlopt.verilog_delays import has_delay

_DIRECTIVE = re.compile(r"`\s*([A-Za-z_][A-Za-z0-9_]*)")
_DEFINED = re.compile(r"`\s*(?:define|undef)\s+([A-Za-z_][A-Za-z0-9_$]*)")
# directives that change every later file and that a file cannot take back
_NEVER = {
    "resetall": "resets every directive in force for the files compiled after it",
    "undefineall": "undefines every macro for the files compiled after it",
    "default_decay_time": "sets the decay time of every later file's trireg nets",
    "default_trireg_strength": "sets the strength of every later file's trireg nets",
    "delay_mode_distributed": "sets the delay mode of every later file",
    "delay_mode_path": "sets the delay mode of every later file",
    "delay_mode_unit": "sets the delay mode of every later file",
    "delay_mode_zero": "sets the delay mode of every later file",
    "pragma": "is read by each tool its own way",
    "line": (
        "sets the file name and line number (`__FILE__`, `__LINE__`, messages) of the text "
        "after it, which a later file's macros may read: remove it (a generator's `line in "
        "the base version of an edited file is kept)"
    ),
}
# compiler directives a file may hold outside its modules (the others are findings, and a
# macro used there may expand to anything)
_OUTSIDE_OK = {
    "define",
    "undef",
    "ifdef",
    "ifndef",
    "elsif",
    "else",
    "endif",
    "include",
    "timescale",
    "line",
    *STATEFUL,
}
_KEYWORD = re.compile(r"(?<![\w$`\\.])\b(defparam|force|release|bind|deassign)\b")
_SEGMENT = r"[A-Za-z_][A-Za-z0-9_$]*(?:\s*\[[^\]\[;]*\])*"
_BLOCKS = re.compile(
    r"\b(package|interface|primitive|program|class|config)\b.*?\bend\1\b(?:\s*:\s*\w+)?", re.S
)


def _declared(code: str, name: str) -> bool:
    """Whether ``name`` is declared in ``code`` as a variable, net or port of a type (a
    struct or an interface: ``s.field = ...`` writes no other module)."""
    n = re.escape(name)
    return bool(
        re.search(rf"\b[A-Za-z_]\w*(?:\s*\[[^\]]*\])*\s+{n}\s*(?:\[[^\]]*\]\s*)*[;,=)]", code)
    )


def directive_problems(text: str) -> list[tuple[int, str]]:
    """Directives the file leaves in force after its end, or that no file can take back."""
    from rtlopt.check._directives import directives_in_force

    never = [
        (line_of(text, m.start()), f"`{m.group(1)} {_NEVER[m.group(1)]}")
        for m in _DIRECTIVE.finditer(blank_comments(text))
        if m.group(1) in _NEVER
    ]
    return never + directives_in_force(text)


_NAMES: dict[tuple[str, int], tuple[DesignGraph, set[str]]] = {}


def outside_names(rel: str, graph: DesignGraph) -> set[str]:
    """Names a hierarchical name of ``rel`` can start with to leave the file's own instances:
    every module of the design and every instance another file declares (once per graph)."""
    hit = _NAMES.get((rel, id(graph)))
    if hit is not None and hit[0] is graph:
        return hit[1]
    if len(_NAMES) > 64:
        _NAMES.clear()
    names = _outside_names(rel, graph)
    _NAMES[(rel, id(graph))] = (graph, names)
    return names


def _outside_names(rel: str, graph: DesignGraph) -> set[str]:
    modules = {m for node in graph.files.values() for m in node.modules}
    if not modules:
        return set()
    kinds = "|".join(re.escape(m) for m in sorted(modules, key=len, reverse=True))
    inst = re.compile(
        rf"(?<![\w$.`])(?:{kinds})\s*(?:#\s*\((?:[^()]|\([^()]*\))*\))?\s*"
        r"([A-Za-z_][A-Za-z0-9_$]*)\s*(?:\[[^\]]*\]\s*)?\("
    )
    names = set(modules)
    for other in graph.files:
        if other == rel or not modules & graph.files[other].words:
            continue
        code = blank_comments((graph.root / other).read_text(errors="replace"))
        names |= set(inst.findall(code))
    return names


def reach_problems(text: str, names: set[str] | None = None) -> list[tuple[int, str]]:
    """``defparam``, ``force``, ``release``, ``bind``, ``deassign`` and references through a
    hierarchical name that starts at ``names`` (:func:`outside_names`; None: any) or
    ``$root`` where they are not only read (:mod:`rtlopt.check._hier_refs`): each can change
    a module of the design from outside its text."""
    code = blank_comments(text)
    out = []
    for m in _KEYWORD.finditer(code):
        if m.group(1) in ("force", "release", "defparam"):
            target = _HIER_TARGET.match(code, m.end())
            if target and not _leaves(code, target.group(1), names):
                continue
        out.append(
            (line_of(text, m.start()), f"{m.group(1)} reaches into other modules from outside them")
        )
    out += [
        (line, f"write to the hierarchical name {path}: it reaches into another module")
        for line, path in hierarchical_writes(code, names)
    ]
    return out


_HIER_TARGET = re.compile(rf"\s*((?:\$root\s*\.\s*)?{_SEGMENT}(?:\s*\.\s*{_SEGMENT})*)")


def _leaves(code: str, name: str, names: set[str] | None) -> bool:
    """Whether the (hierarchical) ``name`` reaches out of the file's own scope."""
    if name.startswith("$root"):
        return True
    if "." not in name:
        return False
    first = re.split(r"[\s.\[]", name, maxsplit=1)[0]
    if _declared(code, first):
        return False
    return names is None or first in names


def outside_problems(text: str) -> list[tuple[int, str]]:
    """Text outside the file's modules (and packages, interfaces, primitives) that is not a
    known compiler directive: a declaration, an import or a statement of the compilation
    unit, or a macro that may expand to one, reaches every file compiled after it."""
    code = blank_comments(text)
    chars = list(code)
    for span in [*module_spans(text)]:
        chars[span.start : span.end] = re.sub(r"[^\n]", " ", code[span.start : span.end])
    code = "".join(chars)
    code = _BLOCKS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)
    # an attribute instance before a module belongs to it
    code = re.sub(r"\(\*.*?\*\)", lambda m: re.sub(r"[^\n]", " ", m.group(0)), code, flags=re.S)
    out: list[tuple[int, str]] = []
    lines = code.split("\n")
    raw = text.split("\n")  # a continued line may end in a comment: ``// note \``
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        d = _DIRECTIVE.match(stripped)
        if d and d.group(1) in _OUTSIDE_OK:
            while raw[i].rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1  # a define's continued body
            i += 1
            continue
        if stripped:
            out.append((i + 1, f"text outside modules ({stripped[:40]!r}) reaches later files"))
            break
        i += 1
    return out


def timescale_problems(rel: str, text: str, graph: DesignGraph) -> list[tuple[int, str]]:
    """A `timescale in the file, when a file of the design with modules and delays states
    none of its own: that file takes this one's whenever a build compiles it later."""
    code = blank_comments(text)
    m = re.search(r"`\s*timescale\b", code)
    if m is None:
        return []
    for other in sorted(graph.files):
        node = graph.files[other]
        if other == rel or not node.modules:
            continue
        other_code = blank_comments((graph.root / other).read_text(errors="replace"))
        if not re.search(r"`\s*timescale\b", other_code) and has_delay(other_code):
            return [
                (
                    line_of(text, m.start()),
                    f"`timescale here is in force in {other} (which states none) whenever a "
                    "build compiles it after this file",
                )
            ]
    return []


def _definitions(text: str) -> dict[str, list[str]]:
    """Each macro name the text defines or undefines: its `define / `undef lines (with their
    continuations), in order; a use of the text's own macro that makes one counts as the
    line it makes (:func:`rtlopt.check._closure.made_directives`)."""
    from rtlopt.check._closure import made_directives

    code = made_directives(blank_comments(text))
    out: dict[str, list[str]] = {}
    for m in _DEFINED.finditer(code):
        end = m.end()
        while True:
            eol = code.find("\n", end)
            if eol < 0 or not code[end:eol].rstrip().endswith("\\"):
                break
            end = eol + 1
        body = code[m.start() : eol if eol >= 0 else len(code)]
        out.setdefault(m.group(1), []).append(" ".join(body.split()))
    return out


def _same_file(graph: DesignGraph, a: str, b: str) -> bool:
    """Whether two paths of the tree are one file (a symlink to the other)."""
    return a == b or (graph.root / a).resolve() == (graph.root / b).resolve()


def macro_problems(
    rel: str, text: str, graph: DesignGraph, old: str | None = None
) -> list[tuple[int, str]]:
    """A macro the file defines or undefines (``old``: the file at the base; then only one
    whose definitions changed) that another file reads without including this one: which
    value it sees depends on the order a build compiles the files (a glob may compile this
    file first)."""
    from rtlopt.check._closure import made_directives

    code = made_directives(blank_comments(text))
    includers = graph.includers(rel)
    before = _definitions(old) if old is not None else {}
    now = _definitions(text)
    out: list[tuple[int, str]] = []
    for name in sorted(set(now) | set(before)):
        if old is not None and before.get(name) == now.get(name):
            continue
        readers = sorted(
            r
            for r, node in graph.files.items()
            if r not in includers and name in node.macros and not _same_file(graph, r, rel)
        )
        if not readers:
            continue
        at = re.search(rf"`\s*(?:define|undef)\s+{re.escape(name)}\b", code)
        shown = ", ".join(readers[:3]) + (" ..." if len(readers) > 3 else "")
        out.append(
            (
                line_of(text, at.start()) if at else 1,
                f"the macro {name} is also read by {shown}, which does not include this "
                "file: the value it sees depends on the order a build compiles the files; "
                "define it in a header that file includes, or give it another name",
            )
        )
    return out


#: directives a macro body may expand to that change what later text means (conditionals
#: only choose text, which the rest of the body's screen sees)
_STATEFUL = (_OUTSIDE_OK - {"ifdef", "ifndef", "elsif", "else", "endif", "line"}) | set(_NEVER)


_BODIES: dict[int, tuple[DesignGraph, dict[str, list[tuple[str, str]]]]] = {}


def _all_definitions(graph: DesignGraph) -> dict[str, list[tuple[str, str]]]:
    """Each macro the tree's files define: ``(file, definition)`` pairs (once per graph)."""
    hit = _BODIES.get(id(graph))
    if hit is not None and hit[0] is graph:
        return hit[1]
    bodies: dict[str, list[tuple[str, str]]] = {}
    for other in graph.files:
        try:
            found = _definitions((graph.root / other).read_text(errors="replace"))
        except OSError:
            continue
        for name, lines in found.items():
            bodies.setdefault(name, []).extend((other, line) for line in lines)
    if len(_BODIES) > 8:
        _BODIES.clear()
    _BODIES[id(graph)] = (graph, bodies)
    return bodies


def called_problems(rel: str, text: str, graph: DesignGraph) -> list[tuple[int, str]]:
    """Macros the file calls that another file of the tree defines with a body that holds
    ``defparam``, ``force``, ``release``, ``bind``, ``deassign``, a write through a
    hierarchical name or a compiler directive (followed through the macros a body calls): the
    text the file expands to would reach into other modules unseen."""
    code = blank_comments(text)
    calls = {m.group(1): m.start() for m in reversed(list(_DIRECTIVE.finditer(code)))}
    calls = {n: at for n, at in calls.items() if n not in _OUTSIDE_OK and n not in _NEVER}
    own = set(_definitions(text))
    if not calls.keys() - own:
        return []
    bodies = {
        n: [(where, line) for where, line in found if not _same_file(graph, where, rel)]
        for n, found in _all_definitions(graph).items()
    }
    out: list[tuple[int, str]] = []
    for name, at in sorted(calls.items()):
        seen: set[str] = set()
        todo = [name] if name not in own else []
        while todo and len(seen) < 64:
            cur = todo.pop()
            if cur in seen:
                continue
            seen.add(cur)
            for where, line in bodies.get(cur, []):
                body = re.sub(r"^`\s*(?:define|undef)\s+\S+", "", line)
                inner = {m.group(1) for m in _DIRECTIVE.finditer(body)}
                if reach_problems(body) or inner & _STATEFUL:
                    out.append(
                        (
                            line_of(text, at),
                            f"the macro {name} (through {cur}, defined in {where}) expands to "
                            "a directive or a reach into other modules, which the gate does not "
                            "screen in its expansion",
                        )
                    )
                    todo = []
                    break
                todo += sorted(inner - seen)
    return out


def file_problems(rel: str, text: str, graph: DesignGraph) -> list[tuple[int, str]]:
    """Every base-independent screen finding of one file's text, by line (its macros
    aside: :func:`macro_problems`)."""
    found = [
        *directive_problems(text),
        *reach_problems(text, outside_names(rel, graph)),
        *timescale_problems(rel, text, graph),
        *called_problems(rel, text, graph),
    ]
    if not graph.includers(rel):  # an included file's text is its includer's
        found += outside_problems(text)
    return sorted(set(found))


def new_problems(
    rel: str, old: str | None, new: str, graph: DesignGraph, *, ordered: bool = False
) -> list[tuple[int, str]]:
    """The findings of ``new`` that ``old`` (the file at the base; None when added) does not
    already have (by message: a line moved is no new finding), and its new or changed
    macros that other files read. ``ordered``: the design's filelists fix the order its
    files are compiled in, and the gate judges a changed file's readers in it (with the
    macros of the files listed before them), so only a new file's macros count."""
    before = {msg for _line, msg in file_problems(rel, old, graph)} if old else set()
    found = [(ln, msg) for ln, msg in file_problems(rel, new, graph) if msg not in before]
    if old is None or not ordered:
        found += macro_problems(rel, new, graph, old)
    return sorted(set(found))
