"""A name a build's tool may resolve to another file of the repository than rtlopt reads.

rtlopt reads one file per ```include`` name (the including file's folder first, then the
include folders) and one definition per module; a build's tool may read another: Icarus
searches the working folder, then its ``-I`` folders (the including file's folder only with
``-grelative-include``), other tools the including file's folder first; a library folder or
file (``-y dir``, ``-v file``, ``-l file``) supplies a module the command line does not
define, whichever other file of the repository defines it too. So where a text of the
hierarchies holding the target includes a name that several files of the repository end with
(with different contents), or instantiates a module several files define (with different
texts) while a build of the repository names a library folder or file (a computed one: any),
the file the build reads cannot be told: the change is unchecked (fail closed; both x
analysis and parameter configurations read those texts).

Every folder counts but git's and rtlopt's own (a build may name a dot folder: ``-y .lib``,
``-I.gen``); a library file may have any suffix (``-v cells.lib``, ``-l mid.txt``), and a
library named relative to the build file's folder counts there too. Two definitions read the
same only where the file-level text in front of each (```define``, ```timescale``,
```default_nettype``, ```include``, declarations outside units) is the same too. An
```include `NAME`` is followed through the values the repository's ```define`` and the builds'
``+define+`` / ``-D`` give ``NAME`` (a build naming it otherwise gives a value rtlopt cannot
read); a name with no value or several leaves the change unchecked. A file defining a module
of the hierarchies under ```unconnected_drive pull0/1`` leaves it unchecked too: its open
inputs read a pull no proof models.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rtlopt.frontend.model import Design
from rtlopt.inputs import STATE_NAMES

__all__ = ["decoy_reason", "include_decoy", "library_decoy", "macro_values"]

_INCLUDE = re.compile(r'`include\s*(?:[<"]([^">\n]+)[">]|`([A-Za-z_][\w$]*))')
#: a library folder or file on a command line (``-y dir``, ``-ydir``, ``-v file``, ``-l file``
#: of any suffix), in a Makefile, a script or a ``.f`` file
_LIBRARY = re.compile(
    r"""(?:^|[\s"'(=])-(?:y\s*|[vl]\s+)(?!-)((?:\$\([^)\s]*\)|[^\s"');])+)""", re.M
)
#: a macro's value in a text (```define N v``) or a build (``+define+N=v``, ``-DN=v``)
_DEFINED = re.compile(r"`define[ \t]+([A-Za-z_][\w$]*)(?![\w$(])[ \t]*(.*)$", re.M)
_BY_MACRO = re.compile(r"`include\s*`([A-Za-z_][\w$]*)")
_DIRECTIVE = re.compile(r"`(?:(?:define|undef|ifn?def|elsif)[ \t]+)?[A-Za-z_][\w$]*")
#: The value of a macro a build sets in a way rtlopt does not read.
UNREAD = "(a value a build sets)"
_GIVEN = re.compile(r"""(?:\+define\+|(?:^|[\s"'])-D\s*)([A-Za-z_]\w*)=([^\s;+]*)""", re.M)
_HOW = (
    "rtlopt reads one of them, a build's tool may read another (Icarus: the working folder, "
    "then -I folders, the including file's folder only with -grelative-include; other tools "
    "the including file's folder first)"
)


def _files(root: Path, own: Path | None) -> list[str]:
    """The repository's files, relative posix paths (git's and rtlopt's folders and ``own``
    skipped: a dot folder is the repository's)."""
    out: list[str] = []
    skip = own.resolve() if own is not None else None
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if x not in STATE_NAMES]
        if skip is not None and Path(d).resolve() == skip:
            dirs[:] = []
            continue
        rel = Path(d).relative_to(root).as_posix()
        out += [n if rel == "." else f"{rel}/{n}" for n in names]
    return out


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _norm(path: str) -> str:
    """``path`` relative to the repository root as written: ``./`` and trailing ``/`` gone
    (a leading dot of a folder's name kept)."""
    out = os.path.normpath(path.strip()).replace(os.sep, "/")
    return "" if out == "." else out


def macro_values(
    texts: Iterable[str], builds: Iterable[str] = (), given: Mapping[str, str] | None = None
) -> dict[str, set[str]]:
    """The values each macro is given: by a ```define`` of ``texts`` (comments blanked,
    anywhere on a line: the rest of the line is its value), a ``+define+N=v`` or ``-DN=v`` of
    ``builds`` (quotes and their escapes dropped), ``given`` (the configured defines). A macro
    a text includes by (```include `N``) that a build names otherwise too (``DEFS += N=...``,
    a script's dictionary) is given a value rtlopt cannot read (:data:`UNREAD`)."""
    texts, builds = list(texts), list(builds)
    out: dict[str, set[str]] = {k: {v.strip()} for k, v in (given or {}).items()}
    for t in texts:
        for m in _DEFINED.finditer(t):
            out.setdefault(m.group(1), set()).add(m.group(2).strip())
    included = {n for t in texts for n in _BY_MACRO.findall(t)}
    for t in builds:
        found = list(_GIVEN.finditer(t))
        for m in found:
            out.setdefault(m.group(1), set()).add(m.group(2).replace("\\", "").strip("'"))
        setting = _DIRECTIVE.sub(" ", t)  # a directive's name (`define N) sets nothing here
        for n in included:
            named = len(re.findall(rf"(?<![\w$]){re.escape(n)}(?![\w$])", setting))
            if named > sum(m.group(1) == n for m in found):
                out.setdefault(n, set()).add(UNREAD)
    return out


def _named_by(macro: str, values: dict[str, set[str]]) -> tuple[str, str]:
    """The header name ```include `macro`` reads, or ("", why it cannot be told); a value
    written with or without its quotes (a build's ``-D`` may drop them) names one header."""
    seen = {macro}
    while True:
        got = values.get(macro, set())
        m = re.fullmatch(r"`([A-Za-z_][\w$]*)", next(iter(got))) if len(got) == 1 else None
        if m is None or m.group(1) in seen:
            break
        macro = m.group(1)
        seen.add(macro)
    names = {_unquoted(v) for v in got}
    if len(names) == 1 and "" not in names:
        return names.pop(), ""
    return "", f"the values {sorted(got)}" if got else "no value rtlopt finds"


def _unquoted(v: str) -> str:
    if len(v) > 1 and (v[0], v[-1]) in (('"', '"'), ("<", ">")):
        return v[1:-1].strip()
    return v if re.fullmatch(r"[\w./+-]+", v) else ""


def include_decoy(
    root: Path, texts: dict[str, str], files: list[str], values: dict[str, set[str]] | None = None
) -> str:
    """The first ```include`` of ``texts`` (relative path -> text), followed into every
    header it may read, whose name several files of ``files`` end with in different
    contents, or that names a macro (``values``: :func:`macro_values`) whose header cannot be
    told, as a reason; ""."""
    from rtlopt.verilog import blank_comments

    left, seen = list(texts.items()), set(texts)
    while left:
        rel, text = left.pop(0)
        code = blank_comments(text, strings=False)
        for m in _INCLUDE.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            written, why = m.group(1), ""
            if written is None:
                written, why = _named_by(m.group(2), values or {})
            if why:
                return (
                    f"{rel}:{line}: `include `{m.group(2)} names a header rtlopt cannot tell "
                    f"({why}): a build may read any file; the change is unchecked: include "
                    "the header by its name"
                )
            name = _norm(written)
            hits = [f for f in files if f == name or f.endswith("/" + name)]
            contents = {f: _read(root / f) for f in hits}
            if len({c for c in contents.values()}) > 1:
                return (
                    f'{rel}:{line}: `include "{written}" may read any of '
                    f"{', '.join(sorted(hits))}, which differ: {_HOW}; the change is "
                    "unchecked: give the headers distinct names, or remove all but one"
                )
            for f, c in contents.items():
                if f not in seen and c is not None:
                    seen.add(f)
                    left.append((f, c.decode(errors="replace")))
    return ""


def library_decoy(
    held: Iterable[str],
    definitions: dict[str, dict[str, str]],
    builds: Iterable[str | tuple[str, str]],
) -> str:
    """Why a module of ``held`` defined otherwise in several files (``definitions``: module
    -> file -> what it means there) may be read from a library a build names (``builds``: the
    texts of the repository's build files, or ``(the file's folder, its text)``), or "". A
    computed library names any file whose path holds what follows its last computed part
    (``$(OUT)/sim.log``: a ``sim.log``; ``$(LIB)``: any file)."""
    libraries: list[str] = []
    folders: set[str] = set()
    tails: set[str] = set()  # what follows the last computed part of a computed library
    for b in builds:
        where, text = ("", b) if isinstance(b, str) else b
        for m in _LIBRARY.finditer(text):
            lib = m.group(1)
            libraries.append(lib)
            if _COMPUTED.search(lib):
                tails.add(_COMPUTED.split(lib)[-1].strip("/"))
            elif lib.startswith(("/", "~")):  # another machine's root: its last part
                tails.add(_norm(lib).rsplit("/", 1)[-1])
            else:
                folders |= {_norm(lib), _norm(f"{where}/{lib}") if where else _norm(lib)}
    if not libraries:
        return ""
    for name in sorted(held):
        files = definitions.get(name, {})
        if len(set(files.values())) < 2:
            continue
        named = [
            f for f in files if any(_under(f, d) for d in folders) or any(t in f for t in tails)
        ]
        if named:
            return (
                f"module {name} is defined otherwise in {', '.join(sorted(files))}, and a "
                f"build reads a library ({', '.join(sorted(set(libraries)))}) that may supply "
                "it instead of the file rtlopt reads; the change is unchecked: give the "
                "modules distinct names, or remove all but one"
            )
    return ""


#: a computed part of a path (a variable, a macro, a glob): a library ``$(LOG)/sim.log`` may
#: only be a file whose path holds ``sim.log``; ``$(LIB)`` any
_COMPUTED = re.compile(r"\$\([^)]*\)?|\$\{[^}]*\}?|\$\w*|`\w*|%\w*%?|[*?{}\[\]]")


def _under(f: str, lib: str) -> bool:
    return f == lib or f.startswith(lib + "/") or lib == "" and "/" not in f


_CACHE: dict[Any, tuple[object, str]] = {}


def decoy_reason(design: Design, own: Path | None = None) -> str:
    """Why the change is unchecked because a text of the hierarchies holding the target names
    a header or a library module a build may resolve to another file (see the module's
    docstring), or "" (once per design)."""
    from rtlopt.evaluate._memo import per_design

    key = own.resolve() if own is not None else None
    return per_design(_CACHE, design, lambda: _judged(design, own), key)


def _judged(design: Design, own: Path | None) -> str:
    from rtlopt.evaluate import _tb_x_bodies as tb
    from rtlopt.evaluate import _tb_x_forms as tf
    from rtlopt.evaluate._repo_texts import other_texts, repository_texts
    from rtlopt.verilog import blank_comments

    root = Path(design.root).resolve()
    others, _ = other_texts(design, own)
    texts = dict([*repository_texts(design), *others])
    every = {p: tf.lexed(t) for p, t in texts.items()}
    codes = {p: c for p, c in every.items() if tf.units(c)}
    per_file = tb.all_bodies(codes, every, texts)
    held = tb.hierarchy(per_file, every, tb.ancestors(per_file, every, design.target.name))

    def rel(p: Path) -> str:
        try:
            return p.resolve().relative_to(root).as_posix()
        except ValueError:
            return p.as_posix()

    mine = {rel(p): texts[p] for p, c in codes.items() if set(tf.units(c)) & held}
    builds = [(p, t) for p, t in texts.items() if p not in codes]
    values = macro_values(
        [blank_comments(t, strings=False) for t in texts.values()],
        [t for p, t in builds if p.name != "rtlopt.toml"],  # its defines: design.defines
        design.defines,
    )
    why = include_decoy(root, mine, _files(root, own), values) or _pulled(mine)
    if why:
        return why
    definitions: dict[str, dict[str, str]] = {}
    for p, bodies in per_file.items():
        for b in bodies:
            if b.name is not None:
                definitions.setdefault(b.name, {})[rel(p)] = _meaning(every[p], b, bodies)
    folders = [(os.path.dirname(rel(p)), t) for p, t in builds]
    return library_decoy(held, definitions, folders)


_PULLED = re.compile(r"`unconnected_drive[ \t]+pull[01]\b")


def _pulled(texts: dict[str, str]) -> str:
    """Why a text of ``texts`` (relative path -> text: the files defining a module of the
    hierarchies, any copy) pulls the unconnected inputs of the modules it defines
    (```unconnected_drive pull1``), which no proof of rtlopt models (Yosys refuses the
    directive, the views read such an input as z), or ""."""
    from rtlopt.verilog import blank_comments

    for rel, text in sorted(texts.items()):
        code = blank_comments(text, strings=False)
        m = _PULLED.search(code)
        if m:
            line = code.count("\n", 0, m.start()) + 1
            return (
                f"{rel}:{line}: {m.group(0)} makes the unconnected inputs of the modules "
                "defined after it read a pull, which rtlopt's proofs do not model (they read "
                "such an input as z); the change is unchecked: connect the inputs instead"
            )
    return ""


def _meaning(code: str, body: Any, bodies: list[Any]) -> str:
    """What ``body`` of ``code`` means in its file: the file-level text in front of it (the
    directives in force, declarations outside units; other units left out) and its text,
    white space collapsed."""
    front, at = [], 0
    for b in sorted(bodies, key=lambda b: b.start):
        if b.start >= body.start:
            break
        if b.name is not None:
            front.append(code[at : b.start])
            at = max(at, b.end)
    front.append(code[at : body.start])
    return " ".join(" ".join(front).split()) + " | " + " ".join(code[body.start : body.end].split())
