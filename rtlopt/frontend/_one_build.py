"""The repository's files as the one build the configuration reads, for slang's elaborations.

The frontend scans every file of the repository (a testbench wrapper is a top too), so a
module two files define, one build's version and another's (cv32e40p's latch register file
beside the flip-flop one its manifest lists), is found twice, and an elaboration of every file
keeps one of them by its own rule. :func:`build_files` keeps the first file that defines a
module, in the configuration's order (``sources.files``: the filelists' files first, in their
order, then the repository's other files), and leaves out a later file whose every module an
earlier one defines: another build's version.
"""

from __future__ import annotations

from pathlib import Path

from rtlopt.frontend.model import Design
from rtlopt.verilog import module_declarations

__all__ = ["build_files"]


def build_files(design: Design) -> list[Path]:
    """The repository's source files (``sources.files`` then ``closure``, each once) without
    those whose every module an earlier file defines (the target's file counts first)."""
    target = design.target.file.resolve()
    defined = _modules(design.target.file)  # the target's own version first
    out: list[Path] = []
    for path in dict.fromkeys([*design.sources.files, *design.closure]):
        names = _modules(path)
        if path.resolve() != target and names and names <= defined:
            continue  # another build's version of modules an earlier file defines
        defined |= names
        out.append(path)
    return out


def _modules(path: Path) -> set[str]:
    try:
        return {n for n, _ in module_declarations(path.read_text(errors="replace"))}
    except OSError:
        return set()
