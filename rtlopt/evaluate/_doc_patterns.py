"""Documentation a build may read by a path it builds (round 76).

A ``.txt`` or ``.md`` is prose unless a build reads it, and a build need not spell its name:
``vsim -do scenarios/$(SCEN).txt``, ``Path("docs").glob("*.md")``, ``f"plans/{name}.md"``,
``os.listdir("docs")``, ``find docs -name ...``. So every path pattern of a text (a path
with a wildcard or a variable part, or a folder a script lists) is matched against the
documentation files of the repository: one it may match is judged like any text
(:func:`pattern_matched`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

__all__ = ["pattern_matched"]

#: A variable part of a path: Make/shell ``$(X)``, ``${X}``, ``$X``, ``$*``, ``$@``,
#: ``$<``, any brace group (a Python format field ``{x}``, a shell brace list
#: ``{config,notes}`` or range ``{1..3}``, one level nested), a C format ``%s``, Make ``%``,
#: a glob (``*``, ``**``, ``?``, a character class ``[..]``, bash's extended ``@(a|b)``), a
#: backslash inside a word (``con\fig.md``: the shell drops it), a joined variable
#: (``"dir/" + name + ".txt"``). Each stands for any name (fail closed: rtlopt does not
#: expand it): one segment, any depth where it holds a ``/``.
_VAR = (
    r"\$\([^()\s]*\)|\$\{[^{}\s]*\}|\$[\w*@<^?]+|\{(?:[^{}\s]|\{[^{}\s]*\})*\}"
    r"|[@!+*?]\([^()\s]*\)|%[-\d]*[sd]|%|\*\*?|\?|\[[^\]\s/]*\]"
    r"|(?<=[\w.\-/~])\\[^\s]"
)
_PART = rf"(?:{_VAR}|[\w.\-/~])"
_TOKEN = re.compile(rf"(?<![\w.\-/$%*?\]}}])[\w.\-/~]*(?:{_VAR}){_PART}*")
_WILD = re.compile(_VAR)
#: A word the shell joins from quoted pieces (``"docs/"config.md``, ``con'fig'.md``), or
#: strings a language joins by adjacency (``"docs/" "config.md"``): read unquoted, a name
#: no literal reading spells.
_QUOTED_WORD = re.compile(r"""(?<![\w.\-/~"'])(?:[\w.\-/~]+|"[^"\s]*"|'[^'\s]*')+""")
_ADJACENT = re.compile(r"""(?:"[^"\n]*"[ \t]*){2,}|(?:'[^'\n]*'[ \t]*){2,}""")
_JOINED = re.compile(r"""["']\s*\+\s*[\w.()\[\]]+\s*\+\s*["']""")
#: A string a variable ends or starts (``"docs/" + name``, ``name + ".md"``): its other end
#: may be any name.
_JOINED_END = re.compile(r"""(["'])\s*\+\s*[A-Za-z_][\w.()\[\]]*""")
_JOINED_START = re.compile(r"""(?<![\w"'])[A-Za-z_][\w.()\[\]]*\s*\+\s*(["'])""")
#: A Make function that builds names from pieces (``$(addsuffix .md,docs/config)``): each
#: path-like piece may be any part of a name it builds.
_MAKE_BUILD = re.compile(
    r"\$[({](?:addprefix|addsuffix|join|subst|patsubst|foreach|call)\s([^()]*)"
)
_PIECE = re.compile(r"[\w.\-/~]*[./][\w.\-/~]*")
#: A folder a script lists (every file in it may be read).
_LISTED = re.compile(
    r"""(?:Path\s*\(\s*["']([^"'\n]*)["']\s*\)\s*\.\s*(?:iterdir|glob|rglob)"""
    r"""|\b(?:listdir|scandir|walk|iterdir)\s*\(\s*["']([^"'\n]*)["']"""
    r"""|\bfind\s+([\w.\-/]+)|\bls\s+(?:-\w+\s+)*([\w.\-/]+)/?\s*[|;`)\n])"""
)
#: A listing whose folder is no literal (``os.listdir()``, ``os.scandir(root)``,
#: ``Path().iterdir()``, ``Path.cwd().glob(pat)``, ``os.walk(os.getcwd())``): the working
#: folder or a computed one, so any folder of the repository (fail closed). A glob's pattern
#: that is no literal (``glob(pat)``, ``iglob(os.path.join(d, p))``) may name any file too.
_LISTED_ANY = re.compile(
    r"""\b(?:listdir|scandir|walk|iterdir)\s*\(\s*(?!["'])"""
    r"""|\bPath\s*(?:\.\s*cwd\s*)?\(\s*(?:\)|[^"'\s)])[^\n]*?\.\s*(?:iterdir|glob|rglob)\s*\("""
    r"""|\b(?:i?glob|rglob)\s*\(\s*(?![\s"')\]\[])"""
)


def _regex(pattern: str) -> re.Pattern[str] | None:
    """A path pattern as a regex matching the end of a path (None: no wildcard in it)."""
    out, wild, last = [], False, 0
    pattern = re.sub(r"^(?:\.{1,2}/)+|^/+", "", pattern)
    for m in _WILD.finditer(pattern):
        out.append(re.escape(pattern[last : m.start()]))
        part = m.group(0)
        out.append(".*" if part == "**" or "/" in part else "[^/]*" if part != "?" else "[^/]")
        wild, last = True, m.end()
    out.append(re.escape(pattern[last:]))
    if not wild:
        return None
    body = "".join(out) or ".*"
    return re.compile(rf"(?:^|/){body}$")


#: Bazel's build files: a ``glob([...])`` declares a file set (a filegroup of the docs),
#: it reads no file; a command of a rule there (``cmd = "sed ... docs/*.md"``) is read.
_BAZEL = frozenset({"BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel"})
_GLOB_CALL = re.compile(r"\bglob\s*\(\s*\[[^\]]*\](?:\s*,\s*exclude\s*=\s*\[[^\]]*\])?")


def _joined_words(text: str) -> set[str]:
    """The names :data:`_QUOTED_WORD` and :data:`_ADJACENT` join, unquoted (leading ``./``
    dropped), that may be paths (a word character and a ``.`` or ``/``)."""
    out = set()
    words = [m.group(0) for m in _QUOTED_WORD.finditer(text) if re.search("[\"']", m.group(0))]
    words = [re.sub(r"^[fFrRbBuU]{1,2}(?=[\"'])", "", w) for w in words]  # Python's prefixes
    words = [w for w in words if not re.fullmatch(r""""[^"]*"|'[^']*'""", w)]  # one string
    for raw in [*words, *(m.group(0) for m in _ADJACENT.finditer(text))]:
        word = re.sub(r"""["'\s]""", "", raw)
        word = re.sub(r"^(?:\.{1,2}/)+|^/+", "", word)
        if re.search(r"\w", word) and re.search(r"[./]", word):
            out.add(word)
    return out


def _patterns(texts: Iterable[tuple[Path, str]]) -> list[re.Pattern[str]]:
    found: dict[str, re.Pattern[str]] = {}
    for path, text in texts:
        if path.name in _BAZEL or path.suffix == ".bzl":
            text = _GLOB_CALL.sub("glob()", text)
        text = _JOINED.sub("*", text)
        text = _JOINED_START.sub(r"\1*", _JOINED_END.sub(r"*\1", text))
        for m in _MAKE_BUILD.finditer(text):
            for piece in _PIECE.findall(m.group(1)):
                if re.search(r"\w", piece) and "\0" + piece not in found:
                    found["\0" + piece] = re.compile(rf".*{re.escape(piece)}.*")
        for m in _TOKEN.finditer(text):
            tok = m.group(0)
            if tok in found or not _WILD.search(tok):
                continue
            literal = _WILD.sub("", tok)
            if not re.search(r"\w", literal) or not re.search(r"[./]", literal):
                continue  # no path: a lone variable or wildcard, a comment's /*
            rx = _regex(tok)
            if rx is not None:
                found[tok] = rx
        for word in _joined_words(text):
            if word not in found:
                found[word] = _regex(word) or re.compile(rf"(?:^|/){re.escape(word)}$")
        if "\0*" not in found and _LISTED_ANY.search(text):
            found["\0*"] = re.compile(".*")
        for m in _LISTED.finditer(text):
            folder = next((g for g in m.groups() if g is not None), "").strip("/") or "."
            key = "\0" + folder
            if key not in found:
                deep = folder.strip("./")
                found[key] = re.compile(rf"(?:^|/){re.escape(deep)}/.*$" if deep else ".*")
    return list(found.values())


_CACHE: dict[tuple[int, ...], tuple[list[tuple[Path, str]], list[re.Pattern[str]]]] = {}


def pattern_matched(texts: list[tuple[Path, str]], documents: list[Path]) -> set[Path]:
    """The ``documents`` a path pattern of ``texts`` (the texts that are no documentation)
    may name: a wildcard or a variable part of a path standing for any name, a listed
    folder for every file in it."""
    key = tuple(id(t) for _, t in texts)
    hit = _CACHE.get(key)
    if hit is None or hit[0] != texts:
        if len(_CACHE) > 4:
            _CACHE.clear()
        hit = _CACHE[key] = (list(texts), _patterns(texts))
    patterns = hit[1]
    out = set()
    for doc in documents:
        where = doc.as_posix()
        if any(rx.search(where) for rx in patterns):
            out.add(doc)
    return out
