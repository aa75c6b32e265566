"""A changed variable that an unchanged setting line reads, for the gate.

A build can spell a define, a parameter override, an include folder or a source list through
a variable (``VARIANT := FAST`` with an unchanged recipe ``iverilog -D$(VARIANT)_INV``): the
changed line then holds no setting form and no configuration word, yet it selects another
design. So a changed line that assigns a variable (Make ``=``, ``:=``, ``?=``, ``+=``,
``override``, ``export``; shell ``NAME=``; Tcl ``set NAME``; CMake ``set(NAME``; Python
``NAME =``; a YAML or TOML key) is a finding when any line of the repository's texts that
reads the variable (``$(NAME)``, ``${NAME}``, ``$NAME``, ``{NAME}``) holds a setting form
(:mod:`rtlopt.check._build_options`) or a configuration word of the design, or assigns
another variable that does (followed a few levels). A line that only runs a C compiler
(``gcc $(CFLAGS) -Iinc``) sets nothing of the design. A conditional line (``ifeq
($(VARIANT),fast)``, ``ifdef VARIANT``, ``if VARIANT == "fast":``) is a setting: the names it
reads choose setting lines (:mod:`rtlopt.check._conditionals`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from rtlopt.check._code_view import code_view
from rtlopt.check._conditionals import CONDITIONAL, condition_names

__all__ = [
    "assigned",
    "read_by_settings",
    "repository_lines",
    "repository_texts",
    "variable_problems",
]

_NAME = r"[A-Za-z_][\w.-]*"
#: An assignment of a variable at a line's start in any of the build syntaxes.
_ASSIGN = re.compile(
    r"^\s*(?:-\s*)?(?:(?:override|export|local|declare|readonly|setenv)\s+)*"
    rf"(?:set\s+(?P<tcl>{_NAME})\b|set\s*\(\s*(?P<cmake>{_NAME})\b|"
    rf"[\"']?(?P<plain>{_NAME})[\"']?\s*(?:::=|:=|\?=|\+=|!=|=(?!=)|:(?!:)(?=\s|$)))"
)
#: A read of a variable: ``$(NAME)``, ``${NAME}``, ``$NAME``, ``{NAME}`` (a format field),
#: ``$::NAME``, ``[get NAME]``-like Tcl forms are words after ``$``.
_READ = re.compile(
    r"\$\(\s*(?:value\s+)?([A-Za-z_][\w]*)|\$\{\s*([A-Za-z_][\w]*)|\$(?:::)?([A-Za-z_][\w]*)"
    r"|(?<![$\w]){([A-Za-z_][\w]*)(?:![rsa])?}|\benv\.([A-Za-z_]\w*)|getenv\(\s*[\"']"
    r"([A-Za-z_]\w*)|environ(?:\.get\(|\[)\s*[\"']([A-Za-z_]\w*)"
)
#: A line that runs only a C/C++ compiler or linker: its ``-I``/``-D`` set nothing of the design.
_C_TOOL = re.compile(
    r"(?:^|[\s;&|(@)}])(?:\$[({](?:CC|CXX|LD|AS|CPP|OBJCOPY|OBJDUMP)[)}]|[\w./-]*-?(?:gcc|g\+\+|"
    r"clang|clang\+\+|cc|c\+\+|cpp|ld|as|objcopy|objdump))(?=\s|$)"
)
#: C flags variables: what they hold reaches a C compiler only.
#: What a Verilog tool hands its C++ compiler or linker (``verilator -CFLAGS "$(CFLAGS)"``).
_C_ARGUMENT = re.compile(r"-(?:CFLAGS|LDFLAGS|cflags|ldflags)\s+(?:\"[^\"]*\"|'[^']*'|\S+)")
#: A string literal (its words are no variables) and a bare name (Python reads one
#: without a ``$``: ``defines={VARIANT + "_INV": 1}``).
_STRING = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'")
_JOINED_OPTION = re.compile(r"(?:-[DIGP]|\+define\+|\+incdir\+)[\"'](?!\w)")
_BARE = re.compile(r"(?<![\w$.\-])[A-Za-z_]\w*(?![\w(])")
_TEXT_SKIP = re.compile(r"(?:^|/)\.git(?:/|$)")
_MAX_BYTES = 4_000_000
_LEVELS = 6
#: Tcl texts: ``{NAME}`` is a literal word there (a waiver's rule name), no read.
_TCL = frozenset({".tcl", ".do", ".sdc", ".xdc", ".ys", ".vbl", ".waiver", ".waivers", ".tm"})
_TCL_LITERAL = re.compile(r"(?<![$\w]){([A-Za-z_]\w*)}")


def assigned(line: str) -> str | None:
    """The variable a line assigns, or None."""
    m = _ASSIGN.match(line)
    if not m:
        return None
    name = m.group("tcl") or m.group("cmake") or m.group("plain")
    return name.split(".")[-1] if name else None


def _assigns(line: str, settings: Mapping[str, str]) -> list[str]:
    """The variables of ``settings`` a line assigns: at its start, after a Make target
    (``sim: V := FAST``), on a command line (``make V=FAST``), in the environment."""
    name = assigned(line)
    out = [name] if name and name in settings else []
    code = line  # a code line: comments blanked by the file's lexer (code_view)
    for m in _ANYWHERE.finditer(code):
        n = next(g for g in m.groups() if g)
        if n in settings and n not in out:
            out.append(n)
    return out


#: An assignment anywhere on a line: ``NAME=``, ``NAME :=``, ``set NAME``, ``environ["NAME"]``.
_ANYWHERE = re.compile(
    r"(?<![\w$.\-])([A-Za-z_]\w*)\s*(?:::=|:=|\?=|\+=|!=|=(?!=))|\bset(?:env)?\s*\(?\s*"
    r"([A-Za-z_]\w*)|environ\[\s*[\"']([A-Za-z_]\w*)[\"']\s*\]\s*="
)


def _reads(line: str) -> set[str]:
    """The variables a line reads: ``$``-forms and format fields, and on a line that sets
    defines, parameters or sources by a keyword (``defines=``, ``parameters +=``) every bare
    name after it outside strings (Python reads variables so; a YAML value is a literal), and
    on a line joining an option to a value (``"-D" + V``) every bare name outside strings."""
    from rtlopt.check._build_options import _SETTING

    line = _C_ARGUMENT.sub(" ", line)
    out = {next(g for g in m.groups() if g) for m in _READ.finditer(line)}
    out |= condition_names(line)  # a conditional reads a setting (rtlopt.check._conditionals)
    m = next((k for k in _SETTING.finditer(line) if line[: k.start()][-1:] != "-"), None)
    joined = _JOINED_OPTION.search(line)  # "-D" + name: the name is a value read here
    if joined is not None or (m is not None and m.group(0).endswith("=")):
        rest = _STRING.sub('""', line if joined else line[m.end() :])  # type: ignore[union-attr]
        out |= set(_BARE.findall(rest))
    return out


def repository_lines(root: Path, texts: list[tuple[str, str]] | None = None) -> list[str]:
    """Every line of the repository's non-Verilog texts (a binary or huge file gives none;
    a NUL byte inside a text does not hide its other lines); ``texts``: those already read
    (:func:`repository_texts`)."""
    out: list[str] = []
    for rel, text in repository_texts(root) if texts is None else texts:
        # a continued line is one line (a recipe's variable beside the tool on the line above)
        lines = re.sub(r"\\\r?\n", " ", text).split("\n")
        if Path(rel).suffix.lower() in _TCL:  # a braced word is a literal there, ${name} a read
            lines = [_TCL_LITERAL.sub(r"\1", ln) for ln in lines]
        out += lines
    return out


def repository_texts(root: Path) -> list[tuple[str, str]]:
    """``(path, code)`` of each non-Verilog text of the repository, its comments blanked as
    its language reads them (:func:`rtlopt.check._code_view.code_view`); a binary or huge
    file gives none, a NUL byte inside a text is a space."""
    out: list[tuple[str, str]] = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if _TEXT_SKIP.search(rel) or rel.endswith((".v", ".sv", ".vh", ".svh")) or not p.is_file():
            continue
        try:
            if p.stat().st_size > _MAX_BYTES:
                continue
            data = p.read_bytes()
        except OSError:
            continue
        if data.count(b"\0") > len(data) // 16:
            continue  # binary
        out.append((rel, code_view(rel, data.replace(b"\0", b" ").decode(errors="replace"))))
    return out


def _is_setting(line: str, words: Mapping[str, str]) -> bool:
    from rtlopt.check._build_options import _options

    code = line  # a code line: comments blanked by the file's lexer (code_view)
    if any(tok in words for tok in re.findall(r"[A-Za-z_][\w$]*", code)):
        return True
    from rtlopt.check._build_options import _TOOLS

    if _TOOLS.search(code):
        return True  # a Verilog tool's line: any variable there may name a top, a file, a flag
    return bool(_options(code, build_file=True)) and not _C_TOOL.search(code)


def read_by_settings(lines: Iterable[str], words: Mapping[str, str]) -> dict[str, str]:
    """variable -> the setting line that reads it (directly or through the variables it
    assigns, a few levels)."""
    from rtlopt.check._build_options import _SETTING

    lines = [
        ln
        for ln in lines
        if re.search(r"[${]|env", ln)
        or _SETTING.search(ln)
        or _JOINED_OPTION.search(ln)
        or CONDITIONAL.match(ln)
    ]
    out: dict[str, str] = {}
    feeds: dict[str, set[str]] = {}  # variable -> the variables its assignments read
    for line in lines:
        used = _reads(line)
        if not used:
            continue
        target = assigned(line)
        if target is not None:
            feeds.setdefault(target, set()).update(used - {target})
        if _is_setting(line, words):
            for name in used:
                out.setdefault(name, line.strip()[:120])
    for _ in range(_LEVELS):
        grown = False
        for target, used in feeds.items():
            if target in out:
                for name in used - out.keys():
                    out[name] = f"{out[target]} (through {target})"
                    grown = True
        if not grown:
            break
    return out


def variable_problems(
    rel: str, old: str | None, new: str, settings: Mapping[str, str]
) -> list[tuple[int, str]]:
    """``(line, finding)`` for each changed stretch of ``new`` assigning a variable that a
    setting line reads (``settings``: :func:`read_by_settings`)."""
    from rtlopt.check._config_words import DOCUMENTATION, code_stretches

    if not settings or DOCUMENTATION.search(rel):
        return []
    out: list[tuple[int, str]] = []
    for line, added, removed in code_stretches(rel, old, new):
        names = [n for ln in added + removed for n in _assigns(ln, settings)]
        if not names:
            continue
        name = names[0]
        out.append(
            (
                line,
                f"a changed line assigns {name}, which a build line reads in a setting "
                f"({settings[name]!r}): the value selects defines, parameters, include folders "
                f"or sources the gate does not judge in {rel}; set them in rtlopt.toml "
                "([project] defines) or a filelist it names, or review this change in a "
                "commit of its own",
            )
        )
    return out
