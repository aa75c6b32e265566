"""Verilog source text without a parser: the one place every layer reads text from.

Ground floor (imports nothing of rtlopt). One small lexer (:func:`scan`) finds comments,
string literals and escaped identifiers, so that ``//`` or ``"`` inside an escaped identifier,
``/*`` inside a string, a second ``/*`` inside a block comment and attributes ``(* *)`` are all
read the way a Verilog compiler reads them. Everything else builds on it:

* blanking: :func:`blank_comments` (comments, and by default string contents, become spaces;
  offsets and line numbers stay), :func:`blank_spans`, :func:`comments`, :func:`line_of`;
* modules: :func:`module_spans` / :func:`find_span` / :func:`splice_module` (where a module
  sits, to the character), :func:`module_declarations` (names, also of unfinished modules),
  :func:`first_module_start` (where an answer's Verilog starts), :func:`header_comment`;
* renaming: :func:`module_name_sites`, :func:`rename_modules`, :func:`rename_declaration`;
* hashes: :func:`source_hash` (the exact bytes: a candidate's identity and cache key) and
  :func:`normalized_hash` (comments and spacing ignored: only to skip duplicates);
* compiler directives: the one list of directive words (:data:`DIRECTIVES` and its groups)
  every reader builds its patterns from (:func:`alternation`).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

__all__ = [
    "skip_parens",
    "directive_line_end",
    "CONDITIONAL_DIRECTIVES",
    "DIRECTIVES",
    "ESCAPED_IDENTIFIER",
    "IDENTIFIER",
    "MACRO_DIRECTIVES",
    "OTHER_DIRECTIVES",
    "PARAMETER_SCAN_DIRECTIVES",
    "PASS_THROUGH_DIRECTIVES",
    "PASS_THROUGH_TOKEN",
    "PREPROCESSOR_DIRECTIVES",
    "WHITESPACE",
    "ModuleSpan",
    "BEFORE_DELAY",
    "alternation",
    "blank_comments",
    "blank_spans",
    "comments",
    "find_span",
    "first_module_start",
    "header_comment",
    "line_of",
    "module_declarations",
    "module_name_sites",
    "module_spans",
    "normalize_source",
    "normalized_hash",
    "pass_through_word",
    "plain_name",
    "rename_declaration",
    "rename_modules",
    "scan",
    "source_hash",
    "splice_module",
]

IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_$]*"
_IDENT = re.compile(IDENTIFIER)
#: IEEE 1364/1800 white space: space, tab, newline, carriage return, form feed. It ends an
#: escaped identifier, as in iverilog; Python's ``\s`` would also end one at a vertical tab,
#: ``\x1c``-``\x1f`` or a Unicode space, which iverilog and Yosys read as part of the name.
#: (Yosys 0.23 does not end one at a carriage return or form feed either: the screen rejects
#: an escaped identifier ended by those.)
WHITESPACE = " \t\n\r\f"
ESCAPED_IDENTIFIER = r"\\[^ \t\n\r\f]+"
_ESCAPED = re.compile(ESCAPED_IDENTIFIER)

#: Keywords a delay follows (``always #5``, ``initial #1``, ``assign #2``, ``else #1``); after
#: another name a ``#`` opens an instance's parameter list (``inv #(.W(8)) u``).
BEFORE_DELAY = frozenset(
    "always initial forever begin else repeat wait fork join join_any join_none end assign "
    "final do".split()
)

# ------------------------------------------------------------------------ compiler directives

#: The conditional directives (```ifdef M`` ... ```endif``).
CONDITIONAL_DIRECTIVES = ("ifdef", "ifndef", "elsif", "else", "endif")
#: The directives that set or clear text macros.
MACRO_DIRECTIVES = ("define", "undef", "undefineall")
#: What a preprocessor acts on and leaves out of its output: conditionals, macros, includes.
PREPROCESSOR_DIRECTIVES = (*CONDITIONAL_DIRECTIVES, *MACRO_DIRECTIVES, "include")
#: The directives a preprocessor passes through: the state (time unit, implicit net type, cell
#: marking, unconnected-port pull) the text after them is compiled in.
PASS_THROUGH_DIRECTIVES = (
    "timescale",
    "default_nettype",
    "celldefine",
    "endcelldefine",
    "unconnected_drive",
    "nounconnected_drive",
    "resetall",
)
#: A pass-through directive as the preprocessor reads it: a token anywhere on its line (after
#: code too: ``endmodule `default_nettype none``), with its arguments only (a ``timescale``'s
#: ``unit / precision``, a ``default_nettype``'s or ``unconnected_drive``'s word; an argument
#: of another shape: the rest of the line); :func:`pass_through_word` gives its word. Read
#: it on text with comments blanked (a backtick in a string or escaped identifier counts:
#: fail closed).
PASS_THROUGH_TOKEN = re.compile(
    r"`(?:(timescale)\b(?:[ \t]*[0-9.]+[ \t]*[a-z]+[ \t]*/[ \t]*[0-9.]+[ \t]*[a-z]+\b|[^\n]*)"
    r"|(default_nettype|unconnected_drive)\b(?:[ \t]+[A-Za-z_]\w*\b|[^\n]*)"
    r"|(nounconnected_drive|endcelldefine|celldefine|resetall)\b)"
)


def pass_through_word(m: re.Match[str]) -> str:
    """The directive word of a :data:`PASS_THROUGH_TOKEN` match."""
    return next(g for g in m.groups() if g)


#: The other IEEE 1364/1800 directives the readers know (``__FILE__``/``__LINE__`` expand to
#: the place they are written at).
OTHER_DIRECTIVES = ("line", "pragma", "begin_keywords", "end_keywords", "__FILE__", "__LINE__")
#: Every compiler directive: a backtick word that is none of these is a text macro's use.
DIRECTIVES = frozenset(PREPROCESSOR_DIRECTIVES + PASS_THROUGH_DIRECTIVES + OTHER_DIRECTIVES)
#: The directives the parameter-dependence readers (``frontend._param_deps``,
#: ``evaluate._params``) pass over. The five left out count as a macro's use there, which only
#: asks for more checks (a macro's body may name any parameter), never for fewer.
PARAMETER_SCAN_DIRECTIVES = DIRECTIVES - {
    "undefineall",
    "unconnected_drive",
    "nounconnected_drive",
    "__FILE__",
    "__LINE__",
}


def alternation(words: Iterable[str]) -> str:
    """``words`` as a regular-expression alternation ``a|b|c``: escaped, longest first (a word
    is never cut short by a shorter one it begins with), the same for the same set."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=lambda w: (-len(w), w)))


# ---------------------------------------------------------------------------------- lexing


#: Where a comment, a string literal or an escaped identifier may start.
_SCAN_START = re.compile(r'//|/\*|"|\\')
_NOT_NEWLINE = re.compile(r"[^\n]")
#: A string literal's characters up to its closing quote or the line's end (a backslash takes
#: the character after it, whatever it is).
_STRING_BODY = re.compile(r'(?:[^"\n\\]|\\[\s\S]?)*')


def scan(text: str) -> Iterator[tuple[str, int, int]]:
    """Comments, string literals and escaped identifiers of Verilog text, in order.

    Yields ``(kind, start, end)``: ``comment`` (``//`` to the end of the line, or ``/*`` to the
    first ``*/``; delimiters included; block comments do not nest), ``string`` (the characters
    between the quotes; a string ends at its closing quote or at the end of the line) or
    ``escaped`` (an escaped identifier from its backslash to the whitespace that ends it,
    which is not included). Inside an escaped identifier ``//``, ``/*`` and ``"`` are literal.
    """
    i = 0
    n = len(text)
    while i < n:
        # jump to the next character that may start one (the rest is plain text)
        m = _SCAN_START.search(text, i)
        if m is None:
            return
        i = m.start()
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            yield "comment", i, j
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            yield "comment", i, j
            i = j
        elif c == '"':
            j = _STRING_BODY.match(text, i + 1).end()  # type: ignore[union-attr]
            yield "string", i + 1, j
            i = j + 1
        elif c == "\\":
            m = _ESCAPED.match(text, i)
            if m is None:  # a lone backslash (a macro's line continuation)
                i += 1
                continue
            yield "escaped", i, m.end()
            i = m.end()


def directive_line_end(code: str, at: int) -> int:
    """The end of a directive's line from ``at`` (a ``define`` continues over lines that end
    with a backslash)."""
    while True:
        eol = code.find("\n", at)
        if eol < 0:
            return len(code)
        if not code[at:eol].rstrip().endswith("\\"):
            return eol
        at = eol + 1


def blank_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """Replace each [start, end) span by spaces, keeping newlines."""
    chars = list(text)
    for start, end in spans:
        end = min(end, len(chars))
        if start < end:
            chars[start:end] = _NOT_NEWLINE.sub(" ", text[start:end])
    return "".join(chars)


def blank_comments(text: str, *, strings: bool = True) -> str:
    """Replace comments (and, by default, string contents) with spaces.

    Newlines are kept so that character offsets and line numbers stay the same as in ``text``.
    String literals keep their quotes so that constructs such as ``import "DPI-C"`` can still be
    recognised by their shape. Escaped identifiers are kept.

    Args:
        text: Verilog source.
        strings: Also blank the contents of string literals.
    """
    if len(text) > _CACHED_CHARS:  # a large file is blanked each time, not kept
        return _blanked.__wrapped__(text, strings)
    return _blanked(text, strings)


#: Texts up to this size are kept blanked (at most 512 of them: 128 MB at worst).
_CACHED_CHARS = 256 * 1024


@functools.lru_cache(maxsize=512)
def _blanked(text: str, strings: bool) -> str:
    """:func:`blank_comments`, kept for the texts read again (a repository's files are blanked
    by many rules of one evaluation)."""
    kinds = ("comment", "string") if strings else ("comment",)
    out: list[str] = []
    pos = 0
    for kind, a, b in scan(text):  # in order, never overlapping
        if kind in kinds:
            out += [text[pos:a], _NOT_NEWLINE.sub(" ", text[a:b])]
            pos = b
    out.append(text[pos:])
    return "".join(out)


def comments(text: str) -> list[tuple[int, str]]:
    """Every comment of ``text`` as ``(offset, text with its delimiters)``, in order."""
    return [(a, text[a:b]) for kind, a, b in scan(text) if kind == "comment"]


def plain_name(name: str) -> str:
    """The name tools know ``name`` by: an escaped identifier of plain identifier characters
    (``\\user2``) is the plain one (``user2``: IEEE 1800 5.6.1); others stay as written."""
    if name.startswith("\\"):
        bare = name[1:].rstrip(WHITESPACE)
        if _IDENT.fullmatch(bare):
            return bare
    return name


def line_of(text: str, offset: int) -> int:
    """1-based line number of a character offset."""
    return text.count("\n", 0, offset) + 1


# ---------------------------------------------------------------------------------- hashes


def source_hash(text: str) -> str:
    """SHA-256 of the exact text (UTF-8): the identity of a candidate and its cache key.

    Two texts that differ in a comment or a space are different candidates: comments can be
    tool directives (``// synopsys translate_off``), so a verdict is never shared between them.
    """
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


_WORD_OPERATOR_SPACE = re.compile(
    r"(?<=[^\w\s$\x00]) (?=[\w$\x00])|(?<=[\w$\x00]) (?=[^\w\s$\x00])"
)


def normalize_source(text: str) -> str:
    """Text with comments removed and whitespace collapsed: equal for cosmetic variants.

    String contents and escaped identifiers (with the space that ends them) are kept as they
    are; a space between a word and punctuation is dropped, one between two punctuation
    characters is kept (it can separate two tokens).
    """
    kept: list[str] = []
    parts: list[str] = []
    last = 0
    for kind, a, b in scan(text):
        parts.append(text[last:a])
        if kind == "comment":
            parts.append(" ")
        else:
            kept.append(text[a:b] + (" " if kind == "escaped" else ""))
            parts.append(f"\x00{len(kept) - 1}\x00")
        last = b
    parts.append(text[last:])
    t = re.sub(r"\s+", " ", "".join(parts)).strip()
    # a space between a word and an operator carries no meaning; one between two operator
    # characters does (`a && b` is not `a & &b`), so it stays
    t = _WORD_OPERATOR_SPACE.sub("", t)
    return re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], t)


def normalized_hash(text: str) -> str:
    """SHA-256 of :func:`normalize_source`: equal for cosmetic variants.

    Only for skipping duplicate rollouts (the search's de-duplication); never to reuse a
    verdict (:func:`source_hash` is the cache key).
    """
    return hashlib.sha256(normalize_source(text).encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------------------------- modules

_MODULE_RE = re.compile(r"\b(module|macromodule|endmodule)\b")
_NAME_RE = re.compile(
    r"\s*(?:(?:static|automatic)\s+)?(" + ESCAPED_IDENTIFIER + r"|[A-Za-z_][A-Za-z0-9_$]*)"
)
_END_LABEL = re.compile(r"\s*:\s*(?:" + ESCAPED_IDENTIFIER + r"|[A-Za-z_][A-Za-z0-9_$]*)")
_DECLARATION = re.compile(rf"\b(?:module|macromodule)\s+({IDENTIFIER})")
# an answer's Verilog starts at its first `module <name>` (also when it is never finished)
_MODULE_START = re.compile(r"\bmodule\s+[A-Za-z_]")


@dataclass(frozen=True)
class ModuleSpan:
    """Where one module sits in a text.

    Attributes:
        name: Module name.
        start: Offset of the ``module`` keyword.
        end: Offset just past ``endmodule`` (and its ``: name`` label, if any).
        line: 1-based line of the ``module`` keyword.
    """

    name: str
    start: int
    end: int
    line: int


def module_spans(text: str) -> list[ModuleSpan]:
    """Every ``module``..``endmodule`` span of a text, in order (nested modules included).

    Modules inside ``ifdef`` branches are all reported; callers pick by name and line.
    """
    clean = blank_comments(text)
    spans: list[ModuleSpan] = []
    stack: list[tuple[str, int]] = []
    for m in _MODULE_RE.finditer(clean):
        # a backslash-escaped identifier or `module written as a macro name is not a keyword
        if m.start() > 0 and clean[m.start() - 1] in "`\\$":
            continue
        if m.group(1) == "endmodule":
            if stack:
                name, start = stack.pop()
                # SystemVerilog's ``endmodule : name`` label belongs to the module
                label = _END_LABEL.match(clean, m.end())
                end = label.end() if label is not None else m.end()
                spans.append(ModuleSpan(name, start, end, line_of(text, start)))
            continue
        nm = _NAME_RE.match(clean, m.end())
        if nm is None:
            continue
        stack.append((nm.group(1), m.start()))
    spans.sort(key=lambda s: s.start)
    return spans


def find_span(text: str, name: str, line: int | None = None) -> ModuleSpan | None:
    """The span of module ``name``; the one nearest ``line`` when several have that name."""
    cands = [s for s in module_spans(text) if s.name == name]
    if not cands:
        return None
    if line is None:
        return cands[0]
    return min(cands, key=lambda s: abs(s.line - line))


def splice_module(text: str, span: ModuleSpan, new_module_text: str) -> str:
    """Replace the span's ``module``..``endmodule`` with new text, keeping everything else."""
    new = new_module_text.strip()
    return text[: span.start] + new + text[span.end :]


def module_declarations(text: str) -> list[tuple[str, int]]:
    """``(name, offset of the name)`` of every ``module``/``macromodule`` declaration, in order.

    Unlike :func:`module_spans` this also finds a module that is never finished (no
    ``endmodule``); comments and strings are ignored. Plain identifiers only.
    """
    return [(m.group(1), m.start(1)) for m in _DECLARATION.finditer(blank_comments(text))]


def first_module_start(text: str) -> int | None:
    """Offset of the first ``module <name>`` of free text (an answer), or None."""
    m = _MODULE_START.search(text)
    return m.start() if m else None


def _comment_lines_above(lines: list[str], idx: int) -> list[str]:
    """Contiguous comment lines directly above line index ``idx`` (blank lines allowed between)."""
    block: list[str] = []
    i = idx - 1
    in_block = False
    while i >= 0:
        s = lines[i].strip()
        if in_block:
            block.append(lines[i])
            if "/*" in s:
                in_block = False
            i -= 1
            continue
        if s.endswith("*/"):
            block.append(lines[i])
            if "/*" not in s:
                in_block = True
            i -= 1
            continue
        if s.startswith("//"):
            block.append(lines[i])
            i -= 1
            continue
        if s == "" and block:
            # a blank line ends the block only if another blank line or code follows above
            j = i - 1
            if j >= 0 and (lines[j].strip().startswith("//") or lines[j].strip().endswith("*/")):
                i -= 1
                continue
            break
        if s == "":
            i -= 1
            continue
        break
    block.reverse()
    return block


def _leading_comments(text: str) -> str:
    """Comments at the very top of the file, before any code."""
    clean = blank_comments(text)
    stripped = clean.lstrip()
    first_code = len(clean) - len(stripped)
    return text[:first_code].strip()


def header_comment(text: str, start: int) -> str:
    """The file's leading comments plus the comment block right above ``module`` at ``start``.

    Either part may be empty; when they are the same block it appears once.
    """
    lines = text[:start].split("\n")
    # the module keyword's own line may carry text before it (rare); ignore that part
    above = "\n".join(_comment_lines_above(lines, len(lines) - 1)).strip()
    lead = _leading_comments(text)
    # leading comments that extend into code (directives like `timescale) stop at the first code
    parts: list[str] = []
    if lead and lead not in above:
        parts.append(lead)
    if above:
        parts.append(above)
    return "\n\n".join(parts)


# ---------------------------------------------------------------------------------- renaming


def _skip_ws(code: str, i: int) -> int:
    n = len(code)
    while i < n and code[i].isspace():
        i += 1
    return i


def skip_parens(code: str, i: int) -> int:
    """``code[i]`` is ``(``; return the offset just past the matching ``)`` (``len(code)``
    where none closes it)."""
    depth = 0
    n = len(code)
    while i < n:
        if code[i] == "(":
            depth += 1
        elif code[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _skip_brackets(code: str, i: int) -> int:
    while i < len(code) and code[i] == "[":
        j = code.find("]", i)
        if j < 0:
            return len(code)
        i = _skip_ws(code, j + 1)
    return i


def module_name_sites(code: str, names: Iterable[str]) -> list[tuple[int, int, str]]:
    """Where ``names`` occur as module names: declarations, instantiations, end labels.

    Args:
        code: Source with comments and strings blanked (see :func:`blank_comments`).
        names: Module names of interest.

    Returns:
        ``(start, end, name)`` spans, sorted by start.
    """
    wanted = set(names)
    sites: list[tuple[int, int, str]] = []
    if not wanted:
        return sites
    prev_word = ""
    prev_end = 0
    for m in _IDENT.finditer(code):
        word = m.group(0)
        start, end = m.start(), m.end()
        if start > 0 and code[start - 1] in "`$\\.":
            prev_word, prev_end = word, end
            continue
        if word in wanted:
            between = code[prev_end:start]
            if prev_word in ("module", "macromodule") and not between.strip():
                sites.append((start, end, word))
            elif prev_word == "endmodule" and between.strip() == ":":
                sites.append((start, end, word))
            elif _is_instantiation(code, end):
                sites.append((start, end, word))
        prev_word, prev_end = word, end
    return sites


def _is_instantiation(code: str, i: int) -> bool:
    """Does the text after a type name look like ``#(...) inst [..] (`` or ``inst (``?"""
    i = _skip_ws(code, i)
    if i < len(code) and code[i] == "#":
        i = _skip_ws(code, i + 1)
        if i < len(code) and code[i] == "(":
            i = _skip_ws(code, skip_parens(code, i))
        else:
            m = re.compile(r"[\w.]+").match(code, i)
            if not m:
                return False
            i = _skip_ws(code, m.end())
    m = _IDENT.match(code, i) or _ESCAPED.match(code, i)
    if not m:
        return False
    i = _skip_ws(code, m.end())
    i = _skip_brackets(code, i)
    return i < len(code) and code[i] == "("


def rename_modules(text: str, mapping: Mapping[str, str]) -> str:
    """Rename module declarations, instantiation type names and end labels.

    Signals, ports and instance names that happen to share a module's name are left alone.

    Args:
        text: Verilog source.
        mapping: Old module name to new module name.
    """
    code = blank_comments(text)
    sites = module_name_sites(code, mapping)
    parts: list[str] = []
    last = 0
    for start, end, name in sites:
        parts.append(text[last:start])
        parts.append(mapping[name])
        last = end
    parts.append(text[last:])
    return "".join(parts)


def rename_declaration(text: str, old: str, new: str) -> str:
    """Rename only the first declaration of module ``old`` (comments and strings ignored)."""
    for name, at in module_declarations(text):
        if name == old:
            return text[:at] + new + text[at + len(old) :]
    return text
