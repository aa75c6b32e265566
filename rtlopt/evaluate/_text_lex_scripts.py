"""The lexers of :mod:`._text_lex` for the shell, Make, Tcl, YAML and Hjson: the languages
whose comments depend on where a word starts or on the line's context. Each raises
:class:`._text_lex.Unsure` on a construct it cannot follow."""

from __future__ import annotations

import re

from rtlopt.evaluate._text_lex_base import Lexed, Unsure, quoted_end

__all__ = ["_hjson", "_make", "_shell", "_tcl", "_yaml"]

_HEREDOC = re.compile(r"<<(-?)[ \t]*(?:'([^'\n]+)'|\"([^\"\n]+)\"|\\?([\w.-]+))")


def _shell(text: str) -> Lexed:
    """A POSIX shell or bash script: ``#`` starts a comment where a word starts (the start
    of the text, after a blank or a newline that no backslash continues) outside quotes,
    ``${...}`` and here-documents; a shebang line is none. A command substitution inside
    double quotes, a backquote, a ``${...}`` holding quotes: unsure."""
    comments, strings = [], []
    i, n = 0, len(text)
    pending: list[tuple[bool, str]] = []
    while i < n:
        c = text[i]
        if c == "\n":
            i += 1
            for strip, delimiter in pending:
                i = _heredoc_end(text, i, delimiter, strip)
            pending = []
        elif c == "\\":
            i += 2
        elif c == "'":
            j = text.find("'", i + 1)
            if j < 0:
                raise Unsure("an unterminated single-quoted string")
            i = j + 1
        elif text.startswith("$'", i):
            i = quoted_end(text.replace("\n", " "), i + 1, "'")
        elif c == '"':
            j = _shell_double_end(text, i)
            if "\n" not in text[i:j]:
                strings.append((i, j))
            i = j
        elif c == "`":
            raise Unsure("a backquoted command")
        elif text.startswith("${", i):
            i = _parameter_end(text, i)
        elif c == "#" and (i == 0 or _blank_before(text, i) or _line_start(text, i)):
            j = text.find("\n", i)
            j = n if j < 0 else j
            if i > 0 or not text.startswith("#!"):
                comments.append((i, j))
            i = j
        elif text.startswith("<<<", i):
            i += 3
        elif text.startswith("<<", i):
            m = _HEREDOC.match(text, i)
            if m is None:
                raise Unsure("a here-document whose delimiter is not read")
            pending.append((m.group(1) == "-", m.group(2) or m.group(3) or m.group(4)))
            i = m.end()
        else:
            i += 1
    if pending:
        raise Unsure("a here-document with no body")
    return comments, strings


def _blank_before(text: str, i: int) -> bool:
    """Whether a blank no backslash escapes is before ``i`` (``a\\ #b`` is one word)."""
    return text[i - 1] in " \t" and (i < 2 or text[i - 2] != "\\")


def _line_start(text: str, i: int) -> bool:
    """Whether ``i`` starts a line no backslash continues (after a continued line's
    backslash-newline, the shell reads the words of the lines as one)."""
    return text[i - 1] == "\n" and (i < 2 or text[i - 2] != "\\")


def _heredoc_end(text: str, i: int, delimiter: str, strip_tabs: bool) -> int:
    """The offset past the line that ends a here-document whose body starts at ``i``."""
    while i < len(text):
        k = text.find("\n", i)
        k = len(text) if k < 0 else k
        line = text[i:k].rstrip("\r")
        if (line.lstrip("\t") if strip_tabs else line) == delimiter:
            return k + 1
        i = k + 1
    raise Unsure("an unterminated here-document")


def _shell_double_end(text: str, i: int) -> int:
    """The offset past a double-quoted shell string at ``i``."""
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
        elif c == '"':
            return j + 1
        elif c == "`" or text.startswith("$(", j):
            raise Unsure("a command substitution inside a double-quoted string")
        elif text.startswith("${", j):
            j = _parameter_end(text, j)
        else:
            j += 1
    raise Unsure("an unterminated double-quoted string")


def _parameter_end(text: str, i: int) -> int:
    """The offset past ``${...}`` at ``i`` (no quote, no nesting, one line: else unsure)."""
    j = text.find("}", i)
    if j < 0 or any(ch in text[i + 2 : j] for ch in "\"'`${\n"):
        raise Unsure("a parameter expansion the lexer does not follow")
    return j + 1


_DEFINE = re.compile(r"[ \t]*(?:(?:override|export|private)[ \t]+)*define\b")
_ENDEF = re.compile(r"[ \t]*endef\b")


def _make(text: str) -> Lexed:
    """A Makefile: on a line that is no recipe line (a tab starts those: the shell reads
    them), no line a backslash continues and no ``define`` body, the first ``#`` no
    backslash escapes outside a variable reference or function call, with no ``;`` before
    it (a recipe on a rule's line), starts a comment. ``.RECIPEPREFIX``: unsure."""
    if ".RECIPEPREFIX" in text:
        raise Unsure("another recipe prefix")
    comments: list[tuple[int, int]] = []
    pos, continued, depth = 0, False, 0
    for raw in text.split("\n"):
        start, pos = pos, pos + len(raw) + 1
        line = raw.rstrip("\r")
        was_continued = continued
        continued = (len(line) - len(line.rstrip("\\"))) % 2 == 1
        if depth:
            depth += 1 if _DEFINE.match(line) else -1 if _ENDEF.match(line) else 0
            continue
        if _DEFINE.match(line):
            depth = 1
            continue
        if was_continued or line.startswith("\t"):
            continue
        k = _make_hash(line)
        if k >= 0 and ";" not in line[:k]:
            comments.append((start + k, start + len(line)))
    return comments, []


def _make_hash(line: str) -> int:
    """Where the first ``#`` that starts a Makefile comment on ``line`` is, or -1."""
    i = 0
    while i < len(line):
        c = line[i]
        if line.startswith("$$", i):
            i += 2
        elif line.startswith("$(", i) or line.startswith("${", i):
            opener, closer = line[i + 1], ")" if line[i + 1] == "(" else "}"
            count, i = 1, i + 2
            while i < len(line) and count:
                count += (line[i] == opener) - (line[i] == closer)
                i += 1
            if count:
                return -1
        elif c == "#" and not (i and line[i - 1] == "\\"):
            return i
        else:
            i += 1
    return -1


def _tcl(text: str) -> Lexed:
    """Tcl, by its word rules: ``#`` where a command's first word starts (top level or in
    a ``[...]`` substitution) starts a comment to the end of the line (a backslash-newline
    continues it); a braced word is data (no comment, no string inside it); a quoted word
    is a string. An unterminated word or a character glued after a closing quote or
    brace: unsure."""
    comments: list[tuple[int, int]] = []
    strings: list[tuple[int, int]] = []
    _tcl_script(text, 0, "", comments, strings)
    return comments, strings


def _tcl_script(
    text: str, i: int, close: str, comments: list[tuple[int, int]], strings: list[tuple[int, int]]
) -> int:
    """Lex the commands from ``i`` to ``close`` (``]`` in a substitution, "" for the end of
    the text); the offset past it."""
    n, first = len(text), True
    while i < n:
        c = text[i]
        if close and c == close:
            return i + 1
        if c in " \t\r" or text.startswith("\\\n", i):
            i += 1 if c != "\\" else 2
        elif c in "\n;":
            first, i = True, i + 1
        elif first and c == "#":
            j = i
            while True:
                j = text.find("\n", j)
                if j < 0 or _backslashes(text, j) % 2 == 0:
                    break
                j += 1
            j = n if j < 0 else j
            comments.append((i, j))
            i = j
        else:
            first = False
            i = _tcl_word(text, i, close, comments, strings)
    if close:
        raise Unsure("an unterminated command substitution")
    return i


def _backslashes(text: str, j: int) -> int:
    """How many backslashes end ``text[:j]``."""
    k = j
    while k > 0 and text[k - 1] == "\\":
        k -= 1
    return j - k


def _tcl_word(
    text: str, i: int, close: str, comments: list[tuple[int, int]], strings: list[tuple[int, int]]
) -> int:
    """The offset past the Tcl word at ``i``."""
    n, ends = len(text), " \t\r\n;" + close
    if text.startswith("{*}", i) and i + 3 < n and text[i + 3] not in ends:
        i += 3  # the expansion prefix: the word after it follows
    if text[i] == "{":
        count, j = 0, i
        while j < n:
            count += {"{": 1, "}": -1}.get(text[j], 0)
            j += 2 if text[j] == "\\" else 1
            if count == 0:
                break
        if count:
            raise Unsure("an unterminated braced word")
    elif text[i] == '"':
        j = _tcl_chars(text, i + 1, '"', comments, strings) + 1
        if "\n" not in text[i:j] and "[" not in text[i:j]:
            strings.append((i, j))
    else:
        return _tcl_chars(text, i, ends, comments, strings)
    if j < n and text[j] not in ends and not text.startswith("\\\n", j):
        raise Unsure("a character glued after a closing quote or brace")
    return j


def _tcl_chars(
    text: str, i: int, stops: str, comments: list[tuple[int, int]], strings: list[tuple[int, int]]
) -> int:
    """The offset of the first of ``stops`` from ``i`` outside backslash escapes, command
    substitutions and variable names (a quoted word's closing quote must come)."""
    while i < len(text):
        c = text[i]
        if c in stops:
            return i
        if c == "\\":
            i += 2
        elif c == "[":
            i = _tcl_script(text, i + 1, "]", comments, strings)
        elif text.startswith("${", i):
            j = text.find("}", i)
            if j < 0:
                raise Unsure("an unterminated variable name")
            i = j + 1
        elif c == "$" and (m := re.compile(r"\$[\w:]+\(").match(text, i)):
            j = text.find(")", m.end())
            if j < 0 or any(ch in text[m.end() : j] for ch in '"{}[\n'):
                raise Unsure("an array index the lexer does not follow")
            i = j + 1
        else:
            i += 1
    if stops == '"':
        raise Unsure("an unterminated quoted word")
    return i


#: A block scalar's header at a line's end (``key: |``, ``- >-``, ``--- |2``): a bar or a
#: caret after a blank, an indicator or the line's start (a plain scalar ending so is read
#: as one too: its next lines are then taken for content, never for comments).
_BLOCK_HEADER = re.compile(r"(?:^|[\s:?-])[|>][-+0-9]*[ \t]*\Z")


def _yaml(text: str) -> Lexed:
    """YAML: ``#`` after a blank or at a line's start, outside a quoted scalar and a block
    scalar's content, starts a comment. A quote opens a scalar after a blank, an indicator
    of a flow (``[{,:``) or at the line's start; one that does not close on its line (a
    multi-line quoted scalar, or a quote inside a plain scalar): unsure. A block scalar's
    content is every following line blank or indented more than its header's line (more
    than the real content needs; all the rest of the text when the header starts its line
    or follows ``---``, whose parent is on an earlier line)."""
    comments: list[tuple[int, int]] = []
    strings: list[tuple[int, int]] = []
    pos, block = 0, None
    for raw in text.split("\n"):
        start, pos = pos, pos + len(raw) + 1
        line = raw.rstrip("\r")
        indent = len(line) - len(line.lstrip(" "))
        if block is not None:
            if not line.strip() or indent > block:
                continue
            if line.startswith("\t"):
                raise Unsure("a tab in a block scalar's indentation")
            block = None
        code = _yaml_line(line, start, comments, strings)
        if _BLOCK_HEADER.search(code):
            head = code.strip()
            block = -1 if head[:1] in "|>" or head.startswith("---") else indent
    return comments, strings


def _yaml_line(
    line: str, start: int, comments: list[tuple[int, int]], strings: list[tuple[int, int]]
) -> str:
    """Lex one YAML line outside a block scalar; its text before its comment."""
    i = 0
    while i < len(line):
        c = line[i]
        if c in "'\"" and (i == 0 or line[i - 1] in " \t[{,:"):
            j = _yaml_quoted_end(line, i)
            if c == '"':
                strings.append((start + i, start + j))
            i = j
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            comments.append((start + i, start + len(line)))
            return line[:i]
        else:
            i += 1
    return line


def _yaml_quoted_end(line: str, i: int) -> int:
    """The offset past a quoted scalar that starts at ``i`` and closes on its line."""
    j = i + 1
    while j < len(line):
        if line[i] == '"' and line[j] == "\\":
            j += 2
        elif line[j] == line[i]:
            if line[i] == "'" and line.startswith("''", j):
                j += 2
                continue
            return j + 1
        else:
            j += 1
    raise Unsure("a quoted scalar that does not close on its line")


_HJSON_KEY = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[^\s:,{}\[\]'"]+)"""
#: A multi-line string where a value starts (after a key, or an array's element).
_HJSON_ML = re.compile(rf"[ \t]*(?:{_HJSON_KEY}[ \t]*:[ \t]*)?'''")
_HJSON_QUOTED_VALUE = re.compile(
    rf"""[ \t]*(?:{_HJSON_KEY}[ \t]*:[ \t]*)?(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
    r"[ \t]*,?[ \t]*\Z"
)
#: A quoteless value (to the line's end; a ``/*`` in it is text), not a keyword or number.
_HJSON_QUOTELESS = re.compile(rf"[ \t]*{_HJSON_KEY}[ \t]*:[ \t]*(?!(?:true|false|null)\b)[A-Za-z_]")
_HJSON_REST = re.compile(r"[ \t]*[,\]}]*[ \t]*(?:(?:#|//).*)?\Z")


def _hjson(text: str) -> Lexed:
    """Hjson (dvsim's configurations): only whole-line comments (``#``, ``//``, a ``/* */``
    starting its line) count; a quoteless value runs to its line's end (a ``#`` in it is
    text), so a comment after a value is never taken. A line that opens a ``'''`` string
    makes the lines to its end data; a ``'''`` or ``/*`` anywhere else (after a number, in
    a key): unsure."""
    comments: list[tuple[int, int]] = []
    pos, state = 0, ""
    for raw in text.split("\n"):
        start, pos = pos, pos + len(raw) + 1
        line = raw.rstrip("\r")
        body = line.lstrip(" \t")
        at = start + len(line) - len(body)
        if state:
            closer, k = state, line.find(state)
            if closer == "*/":
                comments.append((start, start + (k + 2 if k >= 0 else len(line))))
            if k < 0:
                continue
            state = ""
            if not _HJSON_REST.match(line, k + len(closer)):
                raise Unsure("text after the end of a multi-line construct")
            continue
        if body.startswith(("#", "//")):
            comments.append((at, start + len(line)))
        elif body.startswith("/*"):
            k = body.find("*/", 2)
            comments.append((at, at + (k + 2 if k >= 0 else len(body))))
            if k < 0:
                state = "*/"
            elif body[k + 2 :].strip():
                raise Unsure("text after a block comment")
        else:
            state = _hjson_code(line)
    if state:
        raise Unsure("an unterminated multi-line construct")
    return comments, []


def _hjson_code(line: str) -> str:
    """The state a line of Hjson values leaves: ``'''`` inside a multi-line string, else
    "" (unsure where a ``'''`` or ``/*`` may be anything else)."""
    if "'''" in line:
        m = _HJSON_ML.match(line)
        if m is None:
            raise Unsure("a ''' where no value starts")
        k = line.find("'''", m.end())
        if k < 0:
            return "'''"
        if not _HJSON_REST.match(line, k + 3):
            raise Unsure("text after a one-line ''' string")
        return ""
    if "/*" in line and not (_HJSON_QUOTED_VALUE.match(line) or _HJSON_QUOTELESS.match(line)):
        raise Unsure("a /* after a value")
    return ""
