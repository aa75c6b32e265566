"""A quick read of a repository's sources for ``rtlopt init``: the files that do not parse
with the detected include folders and defines (a testbench needing a build's ``-D``), and
the module names more than one file defines (a testbench's model beside the design's)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["SourceScan", "scan_sources"]


@dataclass
class SourceScan:
    """What :func:`scan_sources` found, paths relative to the repository root."""

    #: ``(file, line, first error)`` of each file that does not parse
    unparsed: list[tuple[str, int, str]] = field(default_factory=list)
    #: module name -> the files defining it, where more than one does
    duplicates: dict[str, list[str]] = field(default_factory=dict)


def scan_sources(
    root: Path, sources: Iterable[Path], include_dirs: Sequence[Path], defines: Mapping[str, str]
) -> SourceScan:
    """Parse each of ``sources`` on its own (slang's syntax, with the folder of the file and
    ``include_dirs`` searched for headers, ``defines`` predefined)."""
    import pyslang
    from pyslang import syntax

    from rtlopt.frontend._slang import node_kind, preprocessor

    out = SourceScan()
    where: dict[str, list[str]] = {}
    for path in sources:
        rel = path.relative_to(root).as_posix()
        sm, popts = preprocessor([path.parent, *include_dirs], defines)
        try:
            tree = syntax.SyntaxTree.fromFile(str(path), sm, pyslang.Bag([popts]))
        except Exception as exc:  # noqa: BLE001 - pyslang raises plain exceptions
            out.unparsed.append((rel, 0, str(exc).splitlines()[0] if str(exc) else "unreadable"))
            continue
        errors = [d for d in tree.diagnostics if d.isError()]
        if errors:
            line = sm.getLineNumber(errors[0].location) if errors[0].location else 0
            out.unparsed.append((rel, line, str(errors[0].code).rsplit("(", 1)[-1].rstrip(")")))
        for member in getattr(tree.root, "members", None) or ():
            if node_kind(member) == "ModuleDeclaration":
                where.setdefault(str(member.header.name.valueText), []).append(rel)
    out.duplicates = {n: fs for n, fs in sorted(where.items()) if len(set(fs)) > 1}
    return out
