"""A build's include folder outside the committed tree, for :mod:`._tb_x` (round 85, case 07).

A build's ``-I dir`` / ``+incdir+dir`` names a folder its tool searches for an ```include``d
name (Icarus: the working folder, then the ``-I`` folders in order). Where such a folder is
not in the committed tree (missing: the build writes it, ``gen/``; or holding the header as
a file git does not track: generated, ignored), the header the build reads there is no text
rtlopt reads: a testbench's ```include "stim.vh"`` may read a generated comment instead of
the committed ``tb/stim.vh`` that writes ``s``. The reading of that build is unknown: the x
analysis feeds every input (fail closed, like a configuration it cannot elaborate).

Only the ```include``s of the texts of the hierarchies holding the target count (followed
into the headers of the repository they may name), of a header the repository holds (one
it holds nowhere fails the elaboration that needs it), in a build naming one of those
files; a folder written with a computed part
(``$(GEN)``), or absolute, is not judged here.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping, Sequence, Set
from pathlib import Path

__all__ = ["generated_include"]

#: an include by a literal name, or by a macro (```include `STIM``: the name is its value)
_INCLUDE = re.compile(r'`include\s*(?:[<"]([^">\n]+)[">]|`(\w+))')
#: an include folder on a command line, in a Makefile, a script or a ``.f`` file
_FOLDER = re.compile(r"""(?:^|[\s"'(=])(?:-I[ \t]*|\+incdir\+)([^\s"');]+)""", re.M)
_COMPUTED = re.compile(r"\$|`|%|[*?{}\[\]]")


def _tracked(root: Path) -> set[str] | None:
    """The files git tracks under ``root`` (relative posix paths), or None (no repository)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--full-name", "--", "."],
            capture_output=True,
            check=True,
            timeout=60,
        ).stdout
        top = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--show-toplevel"],
            capture_output=True,
            check=True,
            text=True,
            timeout=60,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    base = Path(top).resolve()
    files = {(base / f.decode(errors="replace")).resolve() for f in out.split(b"\0") if f}
    return {_rel(f, root) for f in files}


def _rel(p: Path, root: Path) -> str:
    try:
        return p.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return p.as_posix()


def _folders(text: str, path: Path, root: Path) -> list[tuple[str, list[Path]]]:
    """Each literal relative include folder of the build ``text`` in its order, as written
    and where it may be (beside the build file, at the root; inside the repository)."""
    out: list[tuple[str, list[Path]]] = []
    for m in _FOLDER.finditer(text):
        for d in m.group(1).split("+"):
            d = d.strip()
            if not d or _COMPUTED.search(d) or d.startswith(("/", "~")):
                continue
            places = [Path(os.path.normpath(b / d)) for b in dict.fromkeys([path.parent, root])]
            kept = [f for f in places if not _rel(f, root).startswith("../")]
            if kept:
                out.append((d, kept))
    return out


def _included(mine: Mapping[Path, str], texts: Mapping[Path, str]) -> list[tuple[Path, int, str]]:
    """The header names the texts ``mine`` include, followed into the repository's files
    ending with such a name: (file, line, name)."""
    from rtlopt.verilog import blank_comments

    left, seen, out = list(mine), set(mine), []
    while left:
        p = left.pop(0)
        code = blank_comments(texts[p], strings=False)
        for m in _INCLUDE.finditer(code):
            name = (m.group(1) or "`" + m.group(2)).strip()
            out.append((p, code.count("\n", 0, m.start()) + 1, name))
            for q in texts:
                if q not in seen and _ends(q, name):
                    seen.add(q)
                    left.append(q)
    return out


def generated_include(
    root: Path,
    mine: Mapping[Path, str],
    texts: Mapping[Path, str],
    builds: list[tuple[Path, str]],
    benches: Set[Path],
    unread: Sequence[Path] = (),
) -> str:
    """Where a text of ``mine`` (the files of the hierarchies holding the target; ``benches``:
    those holding their roots, a testbench's top) includes a
    header that a build may write (:mod:`._tb_x_written`), or that an include folder outside
    the committed tree may supply in a build naming one of those files, before a committed
    folder holding it (see the module's docstring): "file:line: why", or ""."""
    from rtlopt.evaluate._tb_x_written import written_header

    every = _included(mine, texts)
    names = {p.name for p in mine}
    ordered = [(b, t) for b, t in builds if any(n in t for n in names)]
    tops = {p.name for p in benches}
    compiling = [(b, t) for b, t in builds if any(n in t for n in tops)]
    written = written_header(every, texts, builds, compiling, unread)
    if written:
        p, line, why = written
        return (
            f"{_rel(p, root)}:{line}: {why} (the build's reading is unknown: feeding every input x)"
        )
    folders = [(b, f) for b, t in ordered if (f := _folders(t, b, root))]
    includes = [
        (p, line, name)
        for p, line, name in (every if folders else [])
        if (p.parent / name).is_file() or any(_ends(q, name) for q in texts)
    ]
    if not includes:
        return ""
    tracked = _tracked(root)
    made = _made_words([t for _, t in builds])
    for _, listed in folders:
        for p, line, name in includes:
            why = _first_loose(listed, name, root, tracked, made)
            if why:
                return (
                    f'{_rel(p, root)}:{line}: `include "{name}" may read a header the build '
                    f"writes: {why} (the build's reading is unknown: feeding every input x)"
                )
    return ""


def _made_words(texts: list[str]) -> set[str]:
    """The words of the build texts outside comment lines and include-folder options: a
    folder that is nowhere on disk can only be written by a build naming it there."""
    out: set[str] = set()
    for text in texts:
        for ln in text.splitlines():
            if ln.lstrip().startswith(("//", "#")):
                continue
            ln = re.sub(r"\+incdir\+\S*|(?<!\S)-I\s*\S+", " ", ln)
            out.update(re.findall(r"[\w.-]+", ln))
    return out


def _first_loose(
    listed: list[tuple[str, list[Path]]],
    name: str,
    root: Path,
    tracked: set[str] | None,
    made: set[str],
) -> str:
    """Why the first folder of ``listed`` (in a build's order) that may supply ``name`` is
    outside the committed tree, or "" where a committed header comes first. A folder nowhere
    on disk whose name no build text writes besides its include option (``+incdir+../sva``
    of a tree without it) supplies nothing."""
    for written, places in listed:
        if not any(f.exists() for f in places) and not any(
            f.name in made for f in places if f.name not in ("", ".", "..")
        ):
            continue
        kept = [f for f in places if _committed(f, root, tracked)]
        if not kept:
            return f"a build's include folder {written} is not in the committed tree"
        for f in kept:
            header = _rel(f / name, root)
            if (f / name).exists():
                if tracked is not None and header not in tracked:
                    return f"{header}, in a build's include folder {written}, is not committed"
                return ""
    return ""


def _ends(path: Path, name: str) -> bool:
    return path.as_posix().endswith("/" + name.lstrip("./"))


def _committed(folder: Path, root: Path, tracked: set[str] | None) -> bool:
    """Whether ``folder`` is a folder of the committed tree (on disk where git is absent)."""
    if not folder.is_dir():
        return False
    rel = _rel(folder, root)
    if tracked is None or rel in ("", "."):
        return True
    return any(f.startswith(rel + "/") for f in tracked)
