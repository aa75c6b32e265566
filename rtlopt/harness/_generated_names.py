"""Module names a repository's scripts build at run time: a generator that writes
``f"module {cell}(...)"`` into ``build/`` (found by ``iverilog -y build``) defines a module
no text of the repository spells, so a candidate's helper of that name would, written back,
replace the generated cell for its every instance, which no proof compares.

Read from every text file of the repository but prose (a ``.md``/``.rst``/... page):

* ``module`` followed by a built part (``{cell}``, ``%s``, ``$name``, ``${N}``,
  ``{{ name }}``, ``<%= n %>``, ``@NAME@``, a macro ```NAME``, a closing quote joined to a
  variable): the names it may build, its literal pieces kept (``{p}_fifo``: any name ending
  in ``_fifo``; ``{cell}``: any name);
* a text other than a Verilog source holding more ``endmodule`` than ``module`` words: a
  module it declares with the keyword in pieces (``"mod" + "ule"``), under a name rtlopt
  cannot read: any name.

* a module name of a text (a template's ``module TEMPLATE (``) that a script substitutes
  (``sed s/TEMPLATE/helper/``, ``.replace("TEMPLATE", cell)``, ``string map {TEMPLATE x}``):
  the name it puts there, any name where a variable gives it;
* a library folder or file a build names (``-y build``, ``+libdir+gen``, ``-v gen/cells.v``)
  that the repository does not hold, or names through a variable: written at run time, its
  modules are unknown: any name.

Fail closed: a name such a pattern may build is a name the repository may define."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from rtlopt.inputs import repository_files
from rtlopt.verilog import line_of

__all__ = ["generated_module_names"]

#: Prose no build runs as a script (its ``module`` words are English).
_PROSE = frozenset(".md .markdown .rst .adoc .asciidoc .html .htm .tex .org .pdf .rtf".split())
#: Verilog sources: their ``module NAME`` declarations are read as modules elsewhere.
_VERILOG = frozenset(".v .sv .vh .svh .vp .svp .verilog .vlib".split())
#: Larger files are judged by a byte search for ``endmodule``.
_SCANNED_BYTES = 4_000_000

#: A built part of a name: a format field, a variable, a template or macro marker.
_BUILT = (
    r"\{\{[^{}\n]*\}\}|\{[^{}\s]*\}|%[-+#0 \d.]*[a-zA-Z]|\$\{[^{}\s]*\}|\$\([^()\s]*\)|\$\w+"
    r"|\[[^\[\]\n]*\]"
    r"|<%=?[^%\n]*%>|@\w+@|`\w+"
)
#: Where a keyword starts: after no word character, or after a string's ``\n`` / ``\t``.
_START = r"(?:(?<![\w$`.])|(?<=\\[ntr]))"
#: ``module`` and the name after it: a plain word, or pieces of which one at least is built;
#: or the word closing a string that a variable or another string joins (``"module " + name``,
#: ``print("module", n)``, ``"module " f"{n}"``, Lua's ``..``, Perl's ``.``, ``%``).
_DECL = re.compile(
    rf"{_START}module\b[ \t]*(?:((?:{_BUILT}|[A-Za-z_0-9$])+)"
    r"|([\"'])[ \t]*(?:\+|\.\.?(?![\w/])|%|,|[A-Za-z]{0,2}[\"']))"
)
#: In a Verilog source only a macro builds a name (``$`` and ``{`` are no variables there).
_DECL_VERILOG = re.compile(r"(?<![\w$`.])module\b[ \t]*((?:`\w+|[A-Za-z_0-9$])+)")
_PLAIN = re.compile(r"[A-Za-z_][\w$]*")
_WORD = re.compile(rf"{_START}module(?![\w$])")
_END = re.compile(rf"{_START}endmodule(?![\w$])")


#: A library folder (``-y dir``, ``-ydir``, ``+libdir+dir``) or file (``-v cells.v``) a
#: build reads modules from by the names instantiated.
_LIBRARY = re.compile(
    r"""(?:(?<![\w-])-y[ \t]*|\+libdir\+|(?<![\w-])-v[ \t]+(?=[^\s;'"`)]*\.s?v\b))"""
    r"""([^\s;'"`)+]+)"""
)


#: A command before an option on its line whose ``-y`` is no library folder (``yes``).
_NOT_A_BUILD = re.compile(
    r"\b(?:apt|apt-get|yum|dnf|conda|mamba|pip3?|npm|brew|pacman|zypper|apk|choco|snap|"
    r"add-apt-repository|rm|docker|podman)\b"
)


def _missing_libraries(root: Path, path: Path, text: str) -> list[tuple[re.Pattern[str], str]]:
    """A library folder or file ``text`` names that is not in the repository (generated at
    run time) or that a variable names: its modules may have any name."""
    out: list[tuple[re.Pattern[str], str]] = []
    for m in _LIBRARY.finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        if _NOT_A_BUILD.search(text[start : m.start()]):  # apt-get install -y iverilog
            continue
        lib = m.group(1)
        here = [root / lib, path.parent / lib]
        if re.search(r"[$%{`*?]", lib) or not any(p.exists() for p in here):
            out.append((re.compile(".*"), f"line {line_of(text, m.start())}: {m.group(0)!r}"))
    return out


def _scan(path: Path, text: str) -> list[tuple[re.Pattern[str], str]]:
    """The names ``text`` (the file ``path``) may build, as patterns, with where and how."""
    out: list[tuple[re.Pattern[str], str]] = []
    verilog = path.suffix.lower() in _VERILOG
    for m in (_DECL_VERILOG if verilog else _DECL).finditer(text):
        name = m.group(1) or ""
        if not name:  # a quote after the word: built only where it closes a string
            q = m.group(2)
            if text.count(q, text.rfind("\n", 0, m.start()) + 1, m.start()) % 2 == 0:
                continue
        # a literal name; in a script a `$` starts a variable (round 126: `module cell_$N`)
        if (verilog and "`" not in name) or (_PLAIN.fullmatch(name) and "$" not in name):
            continue
        parts = re.split(rf"({_BUILT})", name) if name else ["", "*", ""]
        rx = "".join(".*" if i % 2 else re.escape(p) for i, p in enumerate(parts))
        shown = " ".join(text[m.start() : m.end() + 1].split())
        out.append((re.compile(rx or ".*"), f"line {line_of(text, m.start())}: {shown!r}"))
    ends = len(_END.findall(text))
    if not verilog and ends > len(_WORD.findall(text)):
        out.append((re.compile(".*"), f"{ends} endmodule, fewer module words"))
    return out


#: A file holds none of these: nothing to read in it.
_WORDS = (b"module", b"-y", b"-v", b"libdir", b"s/", b"replace", b"sub", b"map", b"s|", b"s#")

#: A module declaration with a plain name (a header follows).
_DECLARED = re.compile(r"(?<![\w$`.])module[ \t]+([A-Za-z_][\w$]*)[ \t]*(?:[(#;]|\\n|$)", re.M)
#: A substitution of a word: sed/perl ``s/A/B/``, ``.replace("A", B)``, ``re.sub("A", B``,
#: Tcl ``string map {A B}``.
_SUBSTITUTIONS = (
    re.compile(r"(?<![\w$])s([/|#,:@!])([A-Za-z_][\w$]*)\1([^\n]*?)\1"),
    re.compile(r"""\b(?:replace|sub|gsub)\s*\(\s*r?()["']([A-Za-z_][\w$]*)["']\s*,\s*([^,)\n]*)"""),
    re.compile(r"string\s+map\s+()\{\s*([A-Za-z_][\w$]*)\s+([^\s}]+)"),
)


def _substitutions(text: str) -> list[tuple[str, str, str]]:
    """``(word, what replaces it, where)`` of each substitution of ``text`` (a function's
    argument: a literal only where quoted; an unquoted word there is a variable)."""
    out = []
    for k, rx in enumerate(_SUBSTITUTIONS):
        for m in rx.finditer(text):
            new = m.group(3).strip()
            new = new if k != 1 or new[:1] in "\"'" else "$" + new
            out.append((m.group(2), new, f"line {line_of(text, m.start())}"))
    return out


def _substituted(
    declared: set[str], subs: list[tuple[str, str, str, str]]
) -> list[tuple[re.Pattern[str], str]]:
    """The names the substitutions ``subs`` (word, replacement, file, where) put in place of
    a declared module name: the replacement, quotes aside; any name where it is no literal
    (a variable, a back reference)."""
    out = []
    for word, new, rel, where in subs:
        if word not in declared:
            continue
        plain = re.fullmatch(r"""["']?([A-Za-z_][\w$]*)["']?""", new)
        rx = re.compile(re.escape(plain.group(1)) if plain else ".*")
        out.append((rx, f"{rel} {where}: {word} replaced by {new[:30]!r}"))
    return out


@functools.lru_cache(maxsize=8)
def _patterns(root: Path, stamp: tuple[tuple[str, int], ...]) -> list[tuple[re.Pattern[str], str]]:
    out: list[tuple[re.Pattern[str], str]] = []
    declared: set[str] = set()
    subs: list[tuple[str, str, str, str]] = []
    for rel, _ in stamp:
        f = root / rel
        if f.suffix.lower() in _PROSE:
            continue
        try:
            data = f.read_bytes()
        except OSError:
            continue
        if b"\0" in data[:8192] or not any(w in data for w in _WORDS):
            continue
        if len(data) > _SCANNED_BYTES:  # too large to read: a generator, for all we know
            out.append((re.compile(".*"), f"{rel}: too large to read"))
            continue
        text = data.decode(errors="replace")
        found = _scan(f, text) + _missing_libraries(root, f, text)
        out += [(rx, f"{rel} {why}") for rx, why in found]
        declared.update(_DECLARED.findall(text))
        if f.suffix.lower() not in _VERILOG:
            subs += [(a, b, rel, where) for a, b, where in _substitutions(text)]
    return out + _substituted(declared, subs)


def generated_module_names(root: Path) -> list[tuple[re.Pattern[str], str]]:
    """``(pattern, where)`` for each module name a text of the repository under ``root``
    may build at run time (see the module's docstring): a new module whose name a pattern
    fully matches may be one the repository defines."""
    try:
        files = repository_files(root)
        stamp = tuple(sorted((f.relative_to(root).as_posix(), f.stat().st_mtime_ns) for f in files))
    except (OSError, ValueError):
        return [(re.compile(".*"), f"{root}: the repository's files cannot be listed")]
    return _patterns(root, stamp)
