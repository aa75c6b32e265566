"""Verification-only code: the branches that only a build defining ``FORMAL`` reads.

SymbiYosys defines ``FORMAL`` for ``read -formal``, and many repositories (ZipCPU's, mor1kx)
keep their properties in the module itself, inside ```ifdef FORMAL ... `endif``. That build
checks properties and never makes hardware. rtlopt's guarantee covers the builds that make or
simulate hardware; code only the ``FORMAL`` build reads is verification code, which rtlopt
need not prove equivalent *if it cannot change what those builds read*.

Soundness. A conditional branch is read by a build only when its condition holds there. When
no hardware build defines ``FORMAL``, every hardware build reads a text exactly as it reads
that text with the branches taken only under ``FORMAL`` removed (:func:`hardware_text`): an
```ifdef FORMAL`` / ```elsif FORMAL`` branch is never taken, an ```ifndef FORMAL`` branch
always is (with its ```else`` never), and every other conditional is kept as written, its
branches judged by the rules as before. So every rule that compares or scans texts may read
the hardware text in place of the written one without losing a hardware build; what it no
longer sees (the properties, their own nested conditionals and macros) is read by no such
build. The premise is checked, not assumed: :func:`formal_build` fails closed (the macro is
then another configuration, as any) when this build's defines hold ``FORMAL`` or any text of
the repository or of the files the design reads may define it: a Verilog ```define FORMAL``,
or the word ``FORMAL`` in any other file (a filelist's ``+define+FORMAL``, ``-DFORMAL`` in a
Makefile or script, ``defines = ["FORMAL"]`` in ``rtlopt.toml``, a FuseSoC parameter) except
SymbiYosys' ``.sby`` files (the formal build itself), documentation and waveform views.
Within a text, a ```define FORMAL`` outside the removed branches makes :func:`hardware_text`
leave the text as written (the screen refuses a candidate's directive the reference lacks).
Only the exact macro ``FORMAL`` is treated so: ``RISCV_FORMAL``, ``FORMAL_VERIFICATION`` or a
vendor's macro name real builds (picorv32's ``RISCV_FORMAL`` adds ports and logic).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.verilog import directive_line_end

if TYPE_CHECKING:
    from rtlopt.frontend.model import Design

__all__ = [
    "NOT_JUDGED",
    "VERIFICATION_MACRO",
    "formal_build",
    "formal_defined_in",
    "hardware_reading",
    "hardware_source",
    "hardware_text",
    "unjudged",
    "verification_only",
]

#: The one macro whose branches are verification code.
VERIFICATION_MACRO = "FORMAL"

#: What a verdict says of the branches it does not judge.
NOT_JUDGED = "the `ifdef FORMAL block (verification only) is not judged"

_VERILOG_SUFFIXES = frozenset({".v", ".sv", ".vh", ".svh", ".inc", ".h", ".vinc", ".vlog"})
#: Files no build reads: SymbiYosys scripts (the formal build), documentation, waveform views.
_NOT_BUILDS = frozenset(
    {".sby", ".md", ".rst", ".adoc", ".html", ".htm", ".tex", ".pdf", ".gtkw", ".vcd", ".fst"}
)
_SCANNED_BYTES = 4_000_000
_SKIPPED_FOLDERS = frozenset({".git", ".rtlopt"})

#: The macro's name as a word, or glued to a compiler's ``-D``.
_WORD = re.compile(r"(?:(?<![\w$])|(?<=-D))FORMAL(?![\w$])")
_TEST = re.compile(r"`(?:ifdef|ifndef|elsif)[ \t]+FORMAL(?![\w$])")
_DEFINES = re.compile(r"`define[ \t]+FORMAL(?![\w$])")
_CONDITIONAL = re.compile(r"`(ifdef|ifndef|elsif|else|endif|define)\b[ \t]*([A-Za-z_][\w$]*)?")


#: :func:`formal_build` per design object (at most 8; a design's files do not change while it
#: is evaluated).
_FOUND: dict[int, tuple[object, str]] = {}


def formal_build(design: Design) -> str:
    """Where a build may define ``FORMAL`` for hardware or simulation (then the macro is a
    configuration like any other), or "" when only the formal build does (once per design)."""
    hit = _FOUND.get(id(design))
    if hit is not None and hit[0] is design:
        return hit[1]
    files = [*design.sources.files, *design.sources.prelude]
    for folder in design.include_dirs:
        try:
            files += sorted(f for f in Path(folder).iterdir() if f.is_file())
        except OSError:
            continue
    found = formal_defined_in(design.root, design.defines, files)
    if len(_FOUND) > 8:
        _FOUND.clear()
    _FOUND[id(design)] = (design, found)
    return found


def formal_defined_in(root: Path, defines: Iterable[str] = (), files: Iterable[Path] = ()) -> str:
    """:func:`formal_build` of the tree ``root`` built with ``defines``, ``files`` (outside
    it) read too: where a build may define ``FORMAL``, or ""."""
    if VERIFICATION_MACRO in set(defines):
        return "this build's defines hold FORMAL"
    root = root.resolve()
    try:
        found = [
            f
            for f in sorted(root.rglob("*"))
            if not _SKIPPED_FOLDERS & set(f.relative_to(root).parts) and f.is_file()
        ]
        return _defines_in(dict.fromkeys(Path(f).resolve() for f in [*files, *found]), root)
    except OSError as exc:
        return f"the repository could not be read ({exc})"


def verification_only(design: Design) -> bool:
    """No hardware or simulation build of ``design``'s repository defines ``FORMAL``."""
    return not formal_build(design)


#: Per file (path, change time, size): the reason it may define ``FORMAL``, or "".
_READ: dict[tuple[Path, int, int], str] = {}


def _defines_in(files: Iterable[Path], root: Path) -> str:
    """The first of ``files`` that may define ``FORMAL``, as a reason, or ""."""
    for f in files:
        if f.suffix.lower() in _NOT_BUILDS:
            continue
        try:
            st = f.stat()
        except OSError:
            continue
        key = (f, st.st_mtime_ns, st.st_size)
        if key not in _READ:
            if len(_READ) > 200_000:
                _READ.clear()
            _READ[key] = (
                _file_defines(f, root)
                if st.st_size <= _SCANNED_BYTES
                else f"{f.name} is too large to read here (it may define FORMAL)"
            )
        if _READ[key]:
            return _READ[key]
    return ""


def _file_defines(f: Path, root: Path) -> str:
    """Why file ``f`` may define ``FORMAL``, or ""."""
    from rtlopt.verilog import blank_comments

    try:
        text = f.read_text(errors="replace")
    except OSError:
        return f"{f.name} cannot be read (it may define FORMAL)"
    if "FORMAL" not in text:
        return ""
    if "\0" in text[:4096]:
        return f"{f.name} is no text file and names FORMAL"
    if f.suffix.lower() in _VERILOG_SUFFIXES:
        text = blank_comments(text, strings=False)
    found = _DEFINES.search(text) or _WORD.search(_TEST.sub(" ", text))
    if found is None:
        return ""
    line = text.count("\n", 0, found.start()) + 1
    try:
        shown = f.relative_to(root).as_posix()
    except ValueError:
        shown = str(f)
    return f"{shown}:{line} may define FORMAL for a build that is not the formal one"


def unjudged(design: Design, *texts: str) -> str:
    """:data:`NOT_JUDGED` when one of ``texts`` holds code that only a build defining
    ``FORMAL`` reads and no other build defines it (what a verdict leaves out), else ""."""
    from rtlopt.verilog import blank_comments

    codes = [blank_comments(t, strings=False) for t in texts if "FORMAL" in t]
    if any(hardware_text(c) != c for c in codes) and verification_only(design):
        return NOT_JUDGED
    return ""


def hardware_text(code: str) -> str:
    """``code`` (comments blanked) as every build without ``FORMAL`` reads it: each branch
    taken only when ``FORMAL`` is defined blanked, with the directives that select it (white
    space of the same length, newlines kept: offsets and lines stay). An ```elsif M`` that
    becomes a conditional's first branch is written ```ifdef M``. ``code`` is returned as it
    is when its conditionals do not nest or it may define ``FORMAL`` where it is read."""
    return _applied(code, code)


def hardware_source(text: str) -> str:
    """:func:`hardware_text` of ``text`` with its comments (those inside a removed branch
    removed with it)."""
    from rtlopt.verilog import blank_comments

    return _applied(text, blank_comments(text, strings=False)) if "FORMAL" in text else text


def hardware_reading(design: Design, code: str, *, source: bool = False) -> str:
    """``code`` as the hardware builds read it (:func:`hardware_source` when ``source``, else
    :func:`hardware_text`) where ``design``'s repository builds ``FORMAL`` only for formal
    verification (:func:`verification_only`); ``code`` itself otherwise."""
    if "FORMAL" not in code or not verification_only(design):
        return code
    return hardware_source(code) if source else hardware_text(code)


def _applied(text: str, code: str) -> str:
    """``text`` (of the same length as ``code``, its comments blanked) with the removals
    :func:`hardware_text` finds in ``code``; ``text`` when there are none or they cannot be
    made."""
    if "FORMAL" not in code:
        return text
    chars = list(text)
    stack: list[list[tuple[str, str, int, int]]] = []  # per open conditional: its directives
    pos = 0
    try:
        for m in _CONDITIONAL.finditer(code):
            if m.start() < pos:
                continue  # inside a define's body
            kind, word, end = m.group(1), m.group(2) or "", m.end()
            if kind in ("else", "endif"):
                word, end = "", m.start() + len(kind) + 1  # the word after it is code
            if kind == "define":
                pos = directive_line_end(code, m.end())
                continue
            if kind in ("ifdef", "ifndef"):
                stack.append([(kind, word, m.start(), end)])
            elif kind in ("elsif", "else"):
                stack[-1].append((kind, word, m.start(), end))
            else:
                _resolve(chars, [*stack.pop(), ("endif", "", m.start(), end)], code)
    except IndexError:
        return text
    if stack:
        return text
    out = "".join(chars)
    from rtlopt.verilog import blank_comments

    return text if _DEFINES.search(blank_comments(out, strings=False)) else out


def _resolve(chars: list[str], chain: list[tuple[str, str, int, int]], code: str) -> None:
    """Blank the branch of one conditional (``chain``: its directives, ```endif`` last) that
    only a build defining ``FORMAL`` takes, where that changes nothing a build defining it
    reads otherwise: the branch is the conditional's last (```ifdef FORMAL`` or ```elsif
    FORMAL``, no ```else`` after it, no ```ifndef FORMAL``), so every other branch is taken
    alike with or without the macro, and it holds verification code alone
    (:func:`rtlopt.harness._verification_content.verification_content`)."""
    from rtlopt.harness._verification_content import verification_content

    formal = [i for i, (_, w, _, _) in enumerate(chain[:-1]) if w == VERIFICATION_MACRO]
    if not formal:
        return
    i = formal[0]
    kind, _, start, end = chain[i]
    if formal != [len(chain) - 2] or kind not in ("ifdef", "elsif"):
        return  # a build defining FORMAL reads another branch than the others do
    if not verification_content(code[end : chain[i + 1][2]]):
        return  # it may change a value where a build defines FORMAL
    _blank(chars, start, chain[i + 1][2])
    if i == 0:
        _blank(chars, chain[-1][2], chain[-1][3])


def _blank(chars: list[str], start: int, end: int) -> None:
    for k in range(start, end):
        if chars[k] != "\n":
            chars[k] = " "
