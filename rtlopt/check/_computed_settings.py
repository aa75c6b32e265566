"""Changed build texts that may feed a setting line the gate cannot follow, for the gate.

A value reaches a tool's defines, parameters, include folders or sources by paths no reader
of every build language follows: a Make variable handed to a script as a positional argument
(``sh run_sim.sh $(VARIANT)``, the script running ``iverilog -D"$1"_INV``), a Make ``define``
block, a data file read by ``$(shell cat variant.cfg)``, a pattern rule's stem
(``sim-%:`` running ``iverilog -D$*_INV``), a fragment picked by ``include cfg/$(V).mk``.
So the gate fails closed: where a setting line of the repository (a Verilog tool's line, or a
line of a setting form or option that sets defines, parameters, include folders or sources)
is not fully literal (it holds a variable, a substitution, a positional argument, a pattern
stem, a command substitution or a name a language reads as a variable), a changed line of
any build, script or data text (neither documentation nor Verilog) is a finding naming that
setting line, unless its code is unchanged (comments and white space only, as its language
reads them). A changed ``include`` / ``-include`` / ``source`` / ``.`` line, and a changed
file such a line may include (a variable in its path read as any name), is a finding even
where every setting line is literal. ``--trust-config`` turns the rule off.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from rtlopt.check._build_options import _MORE_TOOLS
from rtlopt.check._conditionals import CONDITIONAL
from rtlopt.harness._opaque import run_time_spelling

__all__ = ["computed_settings", "fed_problems", "include_lines"]

#: A line that includes or sources another text: Make ``include``/``-include``/``sinclude``,
#: a shell's ``source``/``.``, Tcl's ``source``, CMake's ``include(``.
_INCLUDE = re.compile(
    r"^\s*(?:-include|sinclude|include|source|\.)(?:\s+|\s*\(\s*)(?P<paths>[^;\n]*\S)"
)
#: A computed part of a line: a ``$`` form (variable, positional argument, pattern stem,
#: command substitution), a backquoted command, a Make pattern.
_COMPUTED = re.compile(r"[$`%]")
#: A variable reference of any syntax, as a glob: any name.
_VARIABLE = re.compile(r"\$\([^()]*(?:\([^()]*\)[^()]*)*\)|\$\{[^}]*\}|\$\w+|\$.")
#: What a computed line holds somewhere (a quick filter before the full reading).
_MAYBE = re.compile(r"[$`%{\[+]|env")
_PY_KEYWORDS = frozenset(
    "False None True and as assert async await break class continue def del elif else except "
    "finally for from global if import in is lambda nonlocal not or pass raise return try "
    "while with yield".split()
)
_STRING = re.compile(r"[rbuRBU]?\"(?:[^\"\\]|\\.)*\"|[rbuRBU]?'(?:[^'\\]|\\.)*'")
_NAME = re.compile(r"(?<![\w.$])[A-Za-z_]\w*(?![\w(]|\s*=(?!=))")


def computed(rel: str, line: str) -> bool:
    """Whether a setting line is not fully literal: it holds a variable, substitution,
    positional argument, pattern stem or command substitution (``$``, a backquote, ``%``),
    a format field, a Tcl command substitution, or, in Python, a name read as a variable."""
    from rtlopt.check._setting_variables import _reads

    if _COMPUTED.search(line) or _reads(line):
        return True
    suffix = posixpath.splitext(rel)[1].lower()
    if suffix in (".tcl", ".do", ".sdc", ".xdc", ".ys") and "[" in line:
        return True
    if suffix == ".py" or re.search(r"\bf[\"']", line):
        names = set(_NAME.findall(_STRING.sub('""', line))) - _PY_KEYWORDS
        return bool(names) or bool(re.search(r"\bf[\"'][^\"']*\{", line))
    return False


def _setting(line: str, words: Mapping[str, str]) -> bool:
    """A tool's line, or a line whose setting forms or options set defines, parameters,
    include folders or sources (a C compiler's line aside)."""
    from rtlopt.check._build_options import _TOOLS, _options
    from rtlopt.check._setting_variables import _C_TOOL

    if _TOOLS.search(line) or _MORE_TOOLS.search(line):
        return True
    if any(tok in words for tok in re.findall(r"[A-Za-z_][\w$]*", line)):
        return True
    return bool(_options(line, build_file=True)) and not _C_TOOL.search(line)


def computed_settings(
    texts: Iterable[tuple[str, str]], words: Mapping[str, str]
) -> list[tuple[str, int, str]]:
    """``(file, line, text)`` of each setting line of ``texts`` (``(path, code)``, comments
    blanked: :func:`rtlopt.check._setting_variables.repository_texts`) that is not fully
    literal; documentation aside."""
    from rtlopt.check._build_options import _logical
    from rtlopt.check._config_words import DOCUMENTATION

    out: list[tuple[str, int, str]] = []
    for rel, code in texts:
        if DOCUMENTATION.search(rel):
            continue
        for ln, line in _logical(code):
            quick = _MAYBE.search(line) or rel.endswith(".py") or CONDITIONAL.match(line)
            if quick and _setting(line, words) and computed(rel, line):
                out.append((rel, ln, " ".join(line.split())[:120]))
    return out


def include_lines(texts: Iterable[tuple[str, str]]) -> list[tuple[str, int, str]]:
    """``(file, line, glob)`` for each path an include or source line of ``texts`` names, a
    variable in it read as any name (``cfg/$(V).mk``: ``cfg/*.mk``)."""
    from rtlopt.check._config_words import DOCUMENTATION

    out: list[tuple[str, int, str]] = []
    for rel, code in texts:
        if DOCUMENTATION.search(rel):
            continue
        for ln, line in enumerate(code.split("\n"), 1):
            m = _INCLUDE.match(line)
            if m is None:
                continue
            for word in _VARIABLE.sub("*", m.group("paths")).split():
                word = word.strip("\"'()")
                if word:
                    out.append((rel, ln, word))
    return out


def _included(rel: str, src: str, pattern: str) -> bool:
    """Whether ``rel`` may be the file ``pattern`` names in ``src`` (relative to the
    including file's folder, to the folder a build runs in, or to any folder)."""
    here = posixpath.normpath(posixpath.join(posixpath.dirname(src), pattern))
    bare = pattern.lstrip("./") or pattern
    return any(fnmatch.fnmatchcase(rel, p) for p in (here, pattern, "*/" + bare))


def fed_problems(
    rel: str,
    old: str | None,
    new: str,
    settings: list[tuple[str, int, str]],
    includes: list[tuple[str, int, str]],
) -> list[tuple[int, str]]:
    """``(line, finding)``: a changed include line of ``rel``; ``rel`` itself a file an
    include line may include; else a changed line of code where ``settings`` (the
    repository's computed setting lines, :func:`computed_settings`) holds any."""
    from rtlopt.check._config_words import DOCUMENTATION, code_stretches

    if DOCUMENTATION.search(rel):
        return []
    changed = [
        (ln, added, removed)
        for ln, added, removed in code_stretches(rel, old, new)
        if [" ".join(x.split()) for x in added if x.strip()]
        != [" ".join(x.split()) for x in removed if x.strip()]
    ]
    if not changed:
        return []
    fix = "review this build change in a commit of its own, or pass --trust-config"
    out: list[tuple[int, str]] = []
    for ln, added, removed in changed:
        if any(_INCLUDE.match(x) for x in added + removed):
            out.append(
                (
                    ln,
                    f"a changed include or source line: the texts it reads set what "
                    f"the build compiles, which the gate does not follow in {rel}; {fix}",
                )
            )
            break
    by = next(((s, n, p) for s, n, p in includes if s != rel and _included(rel, s, p)), None)
    if by is not None:
        out.append(
            (
                changed[0][0],
                f"{rel} may be included by {by[0]}:{by[1]} (include of "
                f"{by[2]!r}): what it sets reaches the build, which the gate does not "
                f"follow; {fix}",
            )
        )
    opaque = run_time_spelling(Path(rel), new) if new else None
    if opaque is not None:
        out.append(
            (
                changed[0][0],
                f"{rel} computes characters at run time (line {opaque[0]}: {opaque[1]!r}): "
                f"what it hands a build cannot be read, which the gate does not follow; {fix}",
            )
        )
    if out or not settings:
        return out
    own = [s for s in settings if s[0] == rel]
    src, sln, text = (own or settings)[0]
    more = f" (one of {len(settings)} such lines)" if len(settings) > 1 else ""
    out.append(
        (
            changed[0][0],
            f"a changed line of {rel} may feed {src}:{sln} ({text!r}){more}, "
            "a setting line that is not fully literal (a variable, substitution, argument "
            "or pattern stem sets its defines, parameters, include folders or sources): "
            f"the gate cannot show the change does not reach it; {fix}",
        )
    )
    return out
