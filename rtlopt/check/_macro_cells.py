"""Module names a macro of the repository may give an instance (the captured-name rules of
:mod:`._units` and :func:`rtlopt.check._check._captured_modules` read names as words).

An instance may name its module through a macro: a body that pastes tokens
(```define CELL(x) x``_lib`` / ```CELL(AND2) u(...)`` names ``AND2_lib``, never spelled),
or a macro standing where an instance names its module (```CELL u(...)``, its body or a
build's ``-DCELL=...`` the name). A design unit a change adds under such a name captures those
instances. :func:`macro_cell_names` says, for each new name, where a macro of the base may
give it:

- a pasted token of a ```define`` body in a module-name position (the end of the body, or
  before an instance name and ``(``): its fixed fragments (neither a formal argument nor
  another macro) fit the name as prefix, middle and suffix;
- a macro used in an instance's module-name position: the name is a word of its body with
  the use's arguments in place, or, where its body is unknown here (no ```define`` in the
  repository, or one using another macro), a word of any text of the repository (a build
  script defining it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from rtlopt.evaluate._macro_instances import macro_cells
from rtlopt.harness._binary import as_text, is_binary
from rtlopt.inputs import repository_files
from rtlopt.verilog import PREPROCESSOR_DIRECTIVES, alternation, blank_comments, line_of

__all__ = ["macro_cell_names"]

#: Larger files are not read for macros (their names are judged by word elsewhere).
_SCANNED_BYTES = 4_000_000
_DEFINE = re.compile(
    r"^[ \t]*`define[ \t]+([A-Za-z_][\w$]*)(\([^)\n]*\))?[ \t]*((?:[^\n]*\\\n)*[^\n]*)", re.M
)
#: A pasted token: pieces (a word, a macro) joined by ``.
_CHAIN = re.compile(r"(?:`?[\w$]+)?(?:``(?:`?[\w$]+)?)+")
#: What follows a module name in an instance: end of the body, parameters, an instance name.
_AFTER_CELL = re.compile(r"\s*(?:$|#|[A-Za-z_][\w$]*\s*(?:\[[^\]\n]*\]\s*)*\()")
_MACRO = re.compile(rf"(?<!`)`(?!(?:{alternation(PREPROCESSOR_DIRECTIVES)})\b)[A-Za-z_]")


def _pattern(chain: str, formals: set[str]) -> re.Pattern[str]:
    parts = [".*" if p.startswith("`") or p in formals else re.escape(p) for p in chain.split("``")]
    return re.compile("".join(parts), re.S)


def macro_cell_names(base: Path, names: Iterable[str]) -> dict[str, str]:
    """``name -> where`` (file:line and the macro) for each of ``names`` a macro of the
    repository at ``base`` may give an instance as its module name (see the module's
    docstring); names the base declares are other rules'."""
    wanted = set(names)
    if not wanted:
        return {}
    defines: dict[str, list[tuple[list[str], str]]] = {}
    pasted: list[tuple[str, str, re.Pattern[str]]] = []
    uses: list[tuple[str, str, list[str]]] = []
    words: set[str] = set()
    for f in repository_files(base):
        try:
            if f.stat().st_size > _SCANNED_BYTES:
                continue
            data = f.read_bytes()
        except OSError:
            continue
        if is_binary(data[:8192]) or (
            b"`" not in data and not any(n.encode() in data for n in wanted)
        ):
            continue
        rel, text = f.relative_to(base).as_posix(), as_text(data)
        code = blank_comments(text)
        words |= set(re.findall(r"[A-Za-z_][\w$]*", code)) & wanted
        if "`" not in code:
            continue
        for d in _DEFINE.finditer(code):
            formals = [a.split("=")[0].strip() for a in (d.group(2) or "()")[1:-1].split(",")]
            body = d.group(3).replace("\\\n", " ")
            defines.setdefault(d.group(1), []).append((formals, body))
            where = f"{rel}:{line_of(text, d.start())}: the macro `{d.group(1)}"
            for c in _CHAIN.finditer(body):
                if "``" in c.group(0).strip("`") and _AFTER_CELL.match(body, c.end()):
                    pasted.append((where, c.group(0), _pattern(c.group(0), set(formals))))
        for at, _end, macro, args in macro_cells(code):
            uses.append((f"{rel}:{line_of(text, at)}: the macro `{macro}", macro, args))
    out: dict[str, str] = {}
    for name in sorted(wanted):
        for where, chain, pattern in pasted:
            if pattern.fullmatch(name):
                out[name] = f"{where} pastes tokens into a name that may be {name} ({chain})"
                break
        if name in out:
            continue
        for where, macro, args in uses:
            if _may_give(name, defines.get(macro), args, name in words):
                out[name] = f"{where} stands where an instance names its module and may give {name}"
                break
    return out


def _may_give(
    name: str, bodies: list[tuple[list[str], str]] | None, args: list[str], spelled: bool
) -> bool:
    """Whether a macro used with ``args`` as an instance's module name may expand to
    ``name``: a word of a body with the arguments in place, or, where a body is unknown
    (none here, another macro in it), ``spelled`` (the name is a word of the repository)."""
    if not bodies:
        return spelled
    for formals, text in bodies:
        body = _substituted(text, {f: a for f, a in zip(formals, args, strict=False) if f})
        if re.search(rf"(?<![\w$`]){re.escape(name)}(?![\w$])", body):
            return True
        if _MACRO.search(body) and spelled:
            return True
    return False


def _substituted(body: str, given: dict[str, str]) -> str:
    """``body`` with each formal argument of ``given`` replaced by its actual text (in one
    pass) and its pastes joined."""
    if given:
        alternation = "|".join(re.escape(f) for f in sorted(given, key=len, reverse=True))

        def actual(m: re.Match[str]) -> str:
            return given[m.group(0)]

        body = re.sub(rf"(?<![\w$`])(?:{alternation})(?![\w$])", actual, body)
    return body.replace("``", "")
