"""An added or edited file as a build reads it, for the gate's screen: the headers it includes
inlined where it includes them (resolved by path suffix among the repository's files: every
file a name can mean), and the macros it and its headers define expanded.

A new file that includes an existing, unchanged header brings that header's text into the
build as much as its own: its ``define``s, ``force``s and hierarchical writes count as the
file's. Each line of the text built here remembers where it comes from, so a finding names
the file's own line (the ```include``) and the header's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from rtlopt.verilog import blank_comments

__all__ = ["Inlined", "expansions", "inline_headers", "made_directives", "verilog_view"]

_INCLUDE = re.compile(r"`include\s*(?:\"([^\"\n]*)\"|<([^>\n]*)>|(`))")
_DEFINE = re.compile(
    r"^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)(\([^)\n]*\))?((?:[^\n]*\\\n)*[^\n]*)", re.M
)
#: At most this many headers deep, and this many variants of a text's macros.
_DEPTH = 16
_VARIANTS = 4


@dataclass
class Inlined:
    """A file's text with its headers inlined: ``origin[i]`` is where line ``i + 1`` comes
    from, ``(line of the file, header or "", line of the header)``."""

    text: str
    origin: list[tuple[int, str, int]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)  # every header inlined: its text
    unresolved: list[tuple[int, str]] = field(default_factory=list)  # (line, why)

    def where(self, line: int) -> tuple[int, str, int]:
        if 1 <= line <= len(self.origin):
            return self.origin[line - 1]
        return (line, "", 0)


def inline_headers(text: str, resolve: Callable[[str], dict[str, str]]) -> Inlined:
    """``text`` with each ```include`` replaced by the text of every file ``resolve`` maps its
    name to (path -> text), recursively (a header already open is not inlined again)."""
    out = Inlined("")
    lines: list[str] = []
    _inline(text, "", resolve, out, lines, [], 0)
    out.text = "\n".join(lines)
    return out


def _inline(
    text: str,
    here: str,
    resolve: Callable[[str], dict[str, str]],
    out: Inlined,
    lines: list[str],
    stack: list[str],
    top_line: int,
) -> None:
    code = blank_comments(text, strings=False)
    raw, clean = text.split("\n"), code.split("\n")
    for i, line in enumerate(raw):
        at = i + 1 if not here else top_line
        m = _INCLUDE.search(clean[i]) if i < len(clean) else None
        if m is None:
            lines.append(line)
            out.origin.append((at, here, i + 1 if here else 0))
            continue
        lines.append(line[: m.start()] + " " * (m.end() - m.start()))
        out.origin.append((at, here, i + 1 if here else 0))
        name = m.group(1) or m.group(2) or ""
        if m.group(3):
            out.unresolved.append((at, "includes a file whose name a macro gives"))
        elif len(stack) >= _DEPTH:
            out.unresolved.append((at, f"includes {name} more than {_DEPTH} headers deep"))
        else:
            found = resolve(name)
            if not found:
                out.unresolved.append((at, f"includes {name}, which is no file of the repository"))
            for path, body in sorted(found.items()):
                if path in stack:
                    continue
                out.headers.setdefault(path, body)
                _inline(body, path, resolve, out, lines, [*stack, path], at)
        rest = line[m.end() :]
        if rest.strip():
            lines.append(rest)
            out.origin.append((at, here, i + 1 if here else 0))


def expansions(text: str) -> list[str]:
    """``text`` (comments blanked) with the macros it defines expanded at their uses (lines
    kept: a use over several lines keeps its line breaks after the body): one variant per
    definition of the macro defined most often (at most four), so each definition is seen."""
    defs: dict[str, list[tuple[list[str] | None, str]]] = {}
    for m in _DEFINE.finditer(text):
        formals = None
        if m.group(2):
            formals = [f.split("=")[0].strip() for f in m.group(2)[1:-1].split(",")]
        body = " ".join(m.group(3).replace("\\\n", " ").split())
        defs.setdefault(m.group(1), []).append((formals, body))
    if not defs:
        return [text]
    count = min(_VARIANTS, max(len(d) for d in defs.values()))
    return [
        _expand(text, {n: d[min(k, len(d) - 1)] for n, d in defs.items()}) for k in range(count)
    ]


def made_directives(code: str) -> str:
    """``code`` (comments blanked) with each use of a macro it defines whose expansion holds a
    compiler directive (followed through the macros it defines:
    :func:`rtlopt.verilog_macros.directive_in_expansion`) expanded, lines kept: ```MK(FAST,
    1)`` with ```define MK(n, v) `define n v`` reads as the ```define FAST 1`` a preprocessor
    makes there, for the rules that read directives. Unchanged where there is none."""
    from rtlopt.verilog_macros import directive_in_expansion

    defs: dict[str, tuple[list[str] | None, str]] = {}
    bodies: dict[str, str] = {}
    for m in _DEFINE.finditer(code):
        formals = None
        if m.group(2):
            formals = [f.split("=")[0].strip() for f in m.group(2)[1:-1].split(",")]
        body = " ".join(m.group(3).replace("\\\n", " ").split())
        defs[m.group(1)] = (formals, body)
        bodies[m.group(1)] = bodies.get(m.group(1), "") + " " + body
    makers = {n: d for n, d in defs.items() if directive_in_expansion(n, bodies)}
    return _expand(code, makers) if makers else code


def _expand(text: str, defs: dict[str, tuple[list[str] | None, str]]) -> str:
    """``text`` with each use of a macro of ``defs`` replaced by its body (nested uses too,
    a few rounds), definitions left as they are."""
    names = "|".join(re.escape(n) for n in sorted(defs, key=len, reverse=True))
    use = re.compile(rf"`({names})(?![\w$])")
    for _ in range(4):
        out: list[str] = []
        pos = 0
        changed = False
        # a use inside a definition is expanded where that macro is used
        bodies = [(d.start(), d.end()) for d in _DEFINE.finditer(text)]
        for m in use.finditer(text):
            if m.start() < pos or _in_definition(text, m.start(), m.group(1)):
                continue
            if any(a <= m.start() < b for a, b in bodies):
                continue
            formals, body = defs[m.group(1)]
            end = m.end()
            if formals is not None:
                args, end = _arguments(text, m.end())
                if args is None:
                    continue
                for f, a in zip(formals, args, strict=False):
                    body = re.sub(rf"(?<![\w$]){re.escape(f)}(?![\w$])", _literal(a), body)
            body = body.replace("``", "").replace('`"', '"')
            out += [text[pos : m.start()], body, "\n" * text.count("\n", m.start(), end)]
            pos, changed = end, True
        text = "".join([*out, text[pos:]])
        if not changed:
            break
    return text


def _literal(value: str) -> Callable[[re.Match[str]], str]:
    """A ``re.sub`` replacement that inserts ``value`` as it is (no escapes read)."""
    return lambda _m: value


def _in_definition(text: str, at: int, name: str) -> bool:
    """Whether the use at ``at`` is the name of a ``define``/``undef``/``ifdef`` line."""
    start = text.rfind("\n", 0, at) + 1
    head = text[start:at]
    return re.match(r"[ \t]*`(?:define|undef|ifdef|ifndef|elsif)[ \t]+$", head) is not None


def _arguments(text: str, at: int) -> tuple[list[str] | None, int]:
    """The arguments of a macro call whose ``(`` follows ``at`` (white space allowed), and
    the position past its ``)``; None where no call follows (or it does not close within
    8,000 characters)."""
    from rtlopt.evaluate._reach_paths import split_arguments

    m = re.compile(r"\s*\(").match(text, at)
    if m is None:
        return None, at
    open_at = m.end() - 1
    texts, end = split_arguments(text, open_at, _CALL_LIMIT)
    if end > min(len(text), open_at + _CALL_LIMIT):  # no ``)`` closes it within the limit
        return None, at
    return [t.strip() for t in texts], end


#: The characters a macro call's argument list is read over.
_CALL_LIMIT = 8001


#: Compiler directives a file that is no Verilog source keeps in its Verilog view: a token
#: anywhere on its line (``endmodule `default_nettype none``), kept to the line's end.
_DIRECTIVES = re.compile(
    r"`[ \t]*(?:define|undef|undefineall|ifdef|ifndef|elsif|else|endif|include|"
    r"timescale|default_nettype|unconnected_drive|nounconnected_drive|celldefine|"
    r"endcelldefine|resetall|begin_keywords|end_keywords|pragma|line|default_decay_time|"
    r"default_trireg_strength|delay_mode_\w+)\b"
)
#: A declaration or item of the compilation unit: a keyword, and a ``;`` ending the line.
_UNIT_ITEM = re.compile(
    r"^[ \t]*(?:wire|reg|logic|bit|byte|int|integer|shortint|longint|real|time|string|event|"
    r"tri\w*|supply[01]|wand|wor|uwire|var|const|static|automatic|import|export|parameter|"
    r"localparam|typedef|function|task|let|bind|genvar|specparam|nettype|interconnect|"
    r"enum|struct|union|virtual|extern|timeunit|timeprecision|chandle)\b[^\n]*;[ \t]*$"
)
_UNITS = re.compile(
    r"(?<![\w$`\\])(module|macromodule|interface|program|package|primitive|checker|class)\b"
    r".*?\bend(module|interface|program|package|primitive|checker|class)\b",
    re.S,
)


def verilog_view(text: str) -> str:
    """What a Verilog tool could read in a file that is no Verilog source (a ``.sva``, a
    ``.md`` a glob hands the simulator): its modules and other units, its compiler directives
    and the declarations of the compilation unit; the rest (prose, a build script) blanked,
    lines kept. Prose does not compile, so a build that reads the file reads these."""
    code = blank_comments(text, strings=False)
    keep = [False] * len(code)
    for m in _UNITS.finditer(code):
        for k in range(m.start(), m.end()):
            keep[k] = True
    pos = 0
    for line in code.split("\n"):
        d = _DIRECTIVES.search(line)
        start = 0 if _UNIT_ITEM.match(line) else d.start() if d is not None else len(line)
        for k in range(pos + start, pos + len(line)):
            keep[k] = True
        pos += len(line) + 1
    return "".join(c if keep[k] or c == "\n" else " " for k, c in enumerate(text))
