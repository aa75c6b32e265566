"""The repository's files as the one build the configuration reads, for slang's elaborations.

The frontend scans every file of the repository (a testbench wrapper is a top too), so a
module two files define, one build's version and another's (cv32e40p's latch register file
beside the flip-flop one its manifest lists), is found twice, and an elaboration of every file
keeps one of them by its own rule. :func:`build_files` keeps, of every module, the definition
the build compiles (:mod:`rtlopt.frontend._build_order`: the target's file first, then a
module an included header defines counts as its includer's, a ``-y`` folder's file counts for
the module it is named after, then the configuration's order, ``sources.files``: the
filelists' files first, in their order, then the repository's other files), and leaves out a
file that keeps none: another build's version.
"""

from __future__ import annotations

from pathlib import Path

from rtlopt.frontend._build_order import BuildRank, declared, header_conflict
from rtlopt.frontend.model import Design
from rtlopt.verilog import module_declarations

__all__ = ["build_files"]


def build_files(design: Design) -> list[Path]:
    """The repository's source files (``sources.files`` then ``closure``, each once) that
    define a module the build compiles from them, or no module at all (packages,
    interfaces); the target's file always.

    Raises:
        DesignError: which of two files the build compiles a module from cannot be told
            (:meth:`BuildRank.conflict`).
    """
    sources = design.sources
    target = design.target.file.resolve()
    rank = BuildRank(sources)
    files = list(dict.fromkeys([*sources.files, *design.closure]))
    names = {f: declared(f, sources.include_dirs) for f in files}
    best: dict[str, tuple[tuple[int, int, int], Path]] = {}
    for f in files:
        for n in names[f]:
            key = (0 if f.resolve() == target else 1, *rank(f, n))
            if n not in best or key < best[n][0]:
                best[n] = (key, f)
    direct = {f: _direct(f) for f in files}
    place = {f: i for i, f in enumerate(files)}
    for n, (_, f) in best.items():
        definers = {g: (n not in direct[g], place[g]) for g in files if n in names[g]}
        problem = rank.conflict(n, f) or header_conflict(n, definers, f)
        if problem is not None:
            raise problem
    kept = {f for _, f in best.values()}
    return [f for f in files if f in kept or not names[f] or f.resolve() == target]


def _direct(path: Path) -> set[str]:
    """The modules ``path``'s own text defines (not through a header)."""
    try:
        return {n for n, _ in module_declarations(path.read_text(errors="replace"))}
    except OSError:
        return set()
