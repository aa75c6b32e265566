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
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rtlopt.frontend.model import Design

__all__ = ["decoy_reason", "include_decoy", "library_decoy"]

_INCLUDE = re.compile(r'`include\s*[<"]([^">\n]+)[">]')
#: a library folder or file on a command line (``-y dir``, ``-ydir``, ``-v f.v``, ``-l f.v``,
#: ``+libext+``'s company ``-Y``), in a Makefile, a script or a ``.f`` file
_LIBRARY = re.compile(r"""(?:^|[\s"'(=])-(?:y\s*|[vl]\s+(?=\S*\.s?vh?\b))([^\s"');]+)""", re.M)
_HOW = (
    "rtlopt reads one of them, a build's tool may read another (Icarus: the working folder, "
    "then -I folders, the including file's folder only with -grelative-include; other tools "
    "the including file's folder first)"
)


def _files(root: Path, own: Path | None) -> list[str]:
    """The repository's files, relative posix paths (dot folders and ``own`` skipped)."""
    out: list[str] = []
    skip = own.resolve() if own is not None else None
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
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


def include_decoy(root: Path, texts: dict[str, str], files: list[str]) -> str:
    """The first ```include`` of ``texts`` (relative path -> text), followed into every
    header it may read, whose name several files of ``files`` end with in different
    contents, as a reason; ""."""
    from rtlopt.verilog import blank_comments

    left, seen = list(texts.items()), set(texts)
    while left:
        rel, text = left.pop(0)
        code = blank_comments(text, strings=False)
        for m in _INCLUDE.finditer(code):
            name = m.group(1).strip().lstrip("./")
            hits = [f for f in files if f == name or f.endswith("/" + name)]
            contents = {f: _read(root / f) for f in hits}
            if len({c for c in contents.values()}) > 1:
                line = code.count("\n", 0, m.start()) + 1
                return (
                    f'{rel}:{line}: `include "{m.group(1)}" may read any of '
                    f"{', '.join(sorted(hits))}, which differ: {_HOW}; the change is "
                    "unchecked: give the headers distinct names, or remove all but one"
                )
            for f, c in contents.items():
                if f not in seen and c is not None:
                    seen.add(f)
                    left.append((f, c.decode(errors="replace")))
    return ""


def library_decoy(
    held: Iterable[str], definitions: dict[str, dict[str, str]], builds: Iterable[str]
) -> str:
    """Why a module of ``held`` defined otherwise in several files (``definitions``: module
    -> file -> its text) may be read from a library a build names (``builds``: the texts of
    the repository's build files), or ""."""
    libraries = [m.group(1) for t in builds for m in _LIBRARY.finditer(t)]
    if not libraries:
        return ""
    computed = any(re.search(r"[$`%{*]", lib) for lib in libraries)
    folders = {lib.strip("/").lstrip("./") for lib in libraries}
    for name in sorted(held):
        files = definitions.get(name, {})
        if len(set(files.values())) < 2:
            continue
        named = [f for f in files if computed or any(_under(f, d) for d in folders)]
        if named:
            return (
                f"module {name} is defined otherwise in {', '.join(sorted(files))}, and a "
                f"build reads a library ({', '.join(sorted(set(libraries)))}) that may supply "
                "it instead of the file rtlopt reads; the change is unchecked: give the "
                "modules distinct names, or remove all but one"
            )
    return ""


def _under(f: str, lib: str) -> bool:
    return f == lib or f.startswith(lib + "/") or lib in ("", ".") and "/" not in f


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
    why = include_decoy(root, mine, _files(root, own))
    if why:
        return why
    definitions: dict[str, dict[str, str]] = {}
    for p, bodies in per_file.items():
        for b in bodies:
            if b.name is not None:
                definitions.setdefault(b.name, {})[rel(p)] = every[p][b.start : b.end]
    builds = [t for p, t in texts.items() if p not in codes]
    return library_decoy(held, definitions, builds)
