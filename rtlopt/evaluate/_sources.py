"""Source sets for a candidate: the candidate file plus the repository modules it may use.

A candidate replaces the target module. It may define helper modules of its own (which then
shadow repository modules of the same name) and may instantiate any module of the repository.
Files are copied into the candidate's scratch directory with the replaced modules blanked out
(newlines kept, so tool messages keep their line numbers).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.frontend._files import source_problem
from rtlopt.frontend.model import Design, Module
from rtlopt.verilog import blank_spans


def module_closure(names: Iterable[str], modules: Mapping[str, Module]) -> list[str]:
    """Every repository module reachable from ``names`` through instantiations."""
    seen: list[str] = []
    stack = [n for n in names if n in modules]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.append(n)
        stack.extend(i for i in modules[n].instances if i in modules and i not in seen)
    return seen


@dataclass(frozen=True)
class CandidateSources:
    """Files to compile a candidate with, in order (library first, candidate last)."""

    files: tuple[Path, ...]
    candidate: Path
    library: tuple[Path, ...]


def library_files(
    design: Design, defined: Sequence[str], used: Sequence[str], outdir: Path
) -> tuple[Path, ...]:
    """Repository files a candidate needs, with the target and shadowed modules blanked.

    The design's prelude (its elaboration context: headers a filelist lists first) comes
    first, so candidate and reference are compiled with the same macros.

    Args:
        design: The design.
        defined: Module names the candidate defines (they shadow repository modules).
        used: Module names the candidate instantiates.
        outdir: Where blanked copies are written.
    """
    wanted = [n for n in module_closure(used, design.modules) if n not in defined]
    by_file: dict[Path, list[Module]] = {}
    for name in wanted:
        mod = design.modules[name]
        by_file.setdefault(mod.file, [])
    out: list[Path] = []
    # Keep closure order (dependencies first) for files that are needed.
    order = [f for f in design.closure if f in by_file] + [
        f for f in by_file if f not in design.closure
    ]
    outdir.mkdir(parents=True, exist_ok=True)
    for idx, f in enumerate(order):
        text = f.read_text(errors="replace")
        drop = [
            m
            for m in design.modules.values()
            if m.file == f and (m.name in defined or m.name == design.target.name)
        ]
        if drop:
            copy = outdir / f"lib{idx}_{f.name}"
            copy.write_text(blank_spans(text, [(m.start, m.end) for m in drop]))
            out.append(copy)
        else:
            out.append(f)
    return (*design.prelude, *(f for f in out if f not in design.prelude))


def _file_digest(path: Path) -> str:
    why = source_problem(path, None)
    if why is not None:  # a FIFO or device in an include folder is never opened
        return "not read: " + why
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


def _repository_digest(design: Design) -> str:
    """Hash of every repository file a candidate could compile with (path and bytes)."""
    files: set[Path] = set(design.sources.files) | set(design.closure) | set(design.prelude)
    files |= {m.file for m in design.modules.values()}
    for inc in design.include_dirs:
        for pattern in ("*.vh", "*.svh", "*.v", "*.sv", "*.h", "*.inc"):
            files.update(inc.glob(pattern))
    h = hashlib.sha256()
    for f in sorted(files):
        h.update(_where(f, design.root).encode("utf-8", "surrogateescape"))
        h.update(b"\0" + _file_digest(f).encode() + b"\n")
    return h.hexdigest()


def _where(path: Path, root: Path) -> str:
    """A path for the fingerprint: relative to the repository root when inside it, so that
    the same repository content checked out elsewhere (``rtlopt check`` exports the base
    revision to a fresh temporary folder each time) finds its cached results."""
    try:
        return "<root>/" + path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
