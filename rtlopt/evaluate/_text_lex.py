"""Comments and one-line double-quoted strings of a repository's text, by a lexer of the
language its name certainly gives (:func:`lexed`), for :mod:`._param_mentions`.

Each lexer is exact for the constructs it knows and fails closed on the others: where it
meets a construct it cannot follow (an unterminated string or comment, a here-document it
cannot delimit, a command substitution inside a shell string, a Makefile's
``.RECIPEPREFIX``), it returns None and the caller treats nothing of the file as a comment or
a string. A language it does not know (by the file's name) has no lexer: None too.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from rtlopt.evaluate._text_lex_base import Lexed, Unsure, quoted_end
from rtlopt.evaluate._text_lex_scripts import _hjson, _make, _shell, _tcl, _yaml

__all__ = ["Lexed", "Unsure", "lexed", "plain_comment", "quoted_end"]


#: Verilog by name (not ``.inc`` or ``.h``: a Makefile's or C's include is named so too).
_VERILOG = frozenset({".v", ".sv", ".vh", ".svh", ".vt", ".vinc", ".svi", ".vi", ".sva", ".vlt"})
_MAKE_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile"})
_MAKE = frozenset({".mk", ".mak", ".make"})
_SHELL = frozenset({".sh", ".bash"})
_TCL = frozenset({".tcl", ".sdc", ".xdc"})
_YAML = frozenset({".yaml", ".yml"})


def lexed(path: Path, text: str) -> Lexed | None:
    """The comments and one-line double-quoted strings of ``text`` by the lexer of the
    language ``path``'s name gives, or None (no such language, or a construct the lexer
    cannot follow)."""
    suffix = path.suffix.lower()
    lexer = {
        ".py": _python,
        ".hjson": _hjson,
        ".json5": _json5,
        ".toml": _toml,
        **dict.fromkeys(_VERILOG, _verilog),
        **dict.fromkeys(_SHELL, _shell),
        **dict.fromkeys(_TCL, _tcl),
        **dict.fromkeys(_YAML, _yaml),
        **dict.fromkeys(_MAKE, _make),
    }.get(suffix)
    if path.name in _MAKE_NAMES:
        lexer = _make
    if suffix == ".core" and text.startswith("CAPI=2:"):
        lexer = _yaml  # a FuseSoC core of the second format is YAML
    if lexer is None:
        return None
    try:
        return lexer(text)
    except (Unsure, tokenize.TokenError, SyntaxError, IndentationError, ValueError):
        return None


def _python(text: str) -> Lexed:
    """Python by :mod:`tokenize`: its COMMENT tokens (a shebang line is none: it runs a
    program with arguments) and its plain one-line ``"..."`` STRING tokens (a docstring, a
    triple-quoted or prefixed string is no comment and no plain string)."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    comments, strings = [], []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        (r0, c0), (r1, c1) = tok.start, tok.end
        at, end = starts[r0 - 1] + c0, starts[r1 - 1] + c1
        if tok.type == tokenize.COMMENT and not (r0 == 1 and tok.string.startswith("#!")):
            comments.append((at, end))
        s = tok.string
        if tok.type == tokenize.STRING and r0 == r1 and s[:1] == '"' and s[:3] != '"""':
            strings.append((at, end))
    return comments, strings


def _clike(text: str, quotes: str, escaped_names: bool) -> Lexed:
    """``//`` and ``/* */`` comments and quoted strings (``\\`` escapes, no raw newline)
    of a C-like text; ``escaped_names``: Verilog's ``\\name`` runs to a whitespace."""
    comments, strings = [], []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            comments.append((i, j))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise Unsure("an unterminated block comment")
            comments.append((i, j + 2))
            i = j + 2
        elif c in quotes:
            j = quoted_end(text, i, c)
            if c == '"' and "\n" not in text[i:j]:
                strings.append((i, j))
            i = j
        elif c == "\\" and escaped_names:
            m = re.compile(r"\S*").match(text, i + 1)
            i = m.end() if m else i + 1
        else:
            i += 1
    return comments, strings


def _verilog(text: str) -> Lexed:
    """Verilog, SystemVerilog and Verilator's configuration files (``.vlt``)."""
    if '`\\`"' in text:
        raise Unsure("an escaped quote of a macro's string (the pairs of quotes may shift)")
    return _clike(text, '"', True)


def _json5(text: str) -> Lexed:
    """JSON5: C comments, strings in either quote."""
    return _clike(text, "\"'", False)


def _toml(text: str) -> Lexed:
    """TOML: ``#`` outside its four kinds of string (basic and literal, one-line and
    multi-line), which are the only quoted constructs it has."""
    comments, strings = [], []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            comments.append((i, j))
            i = j
        elif text.startswith('"""', i) or text.startswith("'''", i):
            j = text.find(text[i : i + 3], i + 3) if c == "'" else _ml_basic_end(text, i + 3)
            if j < 0:
                raise Unsure("an unterminated multi-line string")
            while text.startswith(c, j + 3):
                j += 1  # up to two quotes of the delimiter's kind end its content
            i = j + 3
        elif c == '"':
            j = quoted_end(text, i, c)
            strings.append((i, j))
            i = j
        elif c == "'":
            j = text.find("'", i + 1)
            if j < 0 or "\n" in text[i:j]:
                raise Unsure("an unterminated literal string")
            i = j + 1
        else:
            i += 1
    return comments, strings


def _ml_basic_end(text: str, i: int) -> int:
    """Where the closing ``\"\"\"`` of a multi-line basic string that starts at ``i`` is
    (``\\`` escapes a character), or -1."""
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text.startswith('"""', i):
            return i
        else:
            i += 1
    return -1


#: The first word of a comment a tool reads: a pragma, a lint or synthesis directive, a
#: batch scheduler's option (``#SBATCH`` is caught by the space rule: no space after ``#``).
_DIRECTIVES = frozenset(
    {
        "synopsys", "synthesis", "pragma", "verilator", "cadence", "ambit", "xilinx",
        "altera", "intel", "quartus", "vivado", "spyglass", "lint_checking", "coverage",
        "vcs", "questa", "modelsim", "translate_off", "translate_on", "rtl_synthesis",
        "sbatch", "pbs", "bsub", "slurm", "cocotb", "yosys", "iverilog",
    }
)  # fmt: skip


def plain_comment(text: str, at: int) -> bool:
    """Whether the comment whose marker starts at ``at`` is prose, not a tool's directive:
    after its marker (``#``, ``//``, ``/*``, the marker's character repeated) comes a blank
    or the end of its line (``#SBATCH``, ``#!``, ``//synopsys`` are directives), and its
    first word is no tool's name or directive."""
    m = re.compile(r"(?:#+|//+|/\*+)([^\n]*)").match(text, at)
    if m is None:
        return False
    body = m.group(1)
    if body and body[0] not in " \t\r":
        return False
    words = body.split()
    first = re.sub(r"[^\w$]", "", words[0]).lower() if words else ""
    return first not in _DIRECTIVES and not first.startswith("$")
