"""Input ports a module drives itself, by slang's driver analysis.

A module that drives its own input port (``assign a[0] = 0``, an instance or gate output on
it, a ``wor``/``wand`` port with an extra driver) changes the net of whoever instantiates it:
a simulator joins the port's net with the connected one, and Yosys ties the driver to the
input, so a miter that shares its inputs between the two designs is constrained by it (a
proof over only some input values) while the synthesized module ignores what drives the port.
"""

from __future__ import annotations

from pathlib import Path

from rtlopt.frontend._slang import compilation_options, preprocessor
from rtlopt.frontend.model import SourceSet

__all__ = ["driven_inputs"]


def driven_inputs(text: str, top: str, sources: SourceSet | None = None) -> list[tuple[str, int]]:
    """``(port, line)`` for each driver inside ``top`` (a module of ``text``) of one of its
    input ports; empty when there is none or the text does not elaborate (the compile stage
    says why)."""
    import pyslang
    from pyslang import analysis, ast, syntax

    path = Path("candidate.v")
    sm, popts = preprocessor(
        sources.include_dirs if sources else (), sources.defines if sources else {}
    )
    bag = pyslang.Bag([popts])
    try:
        bufs = [sm.readSource(str(p)) for p in (sources.prelude if sources else ())]
        bufs.append(sm.assignText(str(path), text))
        tree = syntax.SyntaxTree.fromBuffers(bufs, sm, bag)
    except Exception:  # pyslang raises plain exceptions for unreadable files
        return []
    copts = compilation_options()
    copts.topModules = {top}
    comp = ast.Compilation(pyslang.Bag([popts, copts]))
    comp.addSyntaxTree(tree)
    comp.getAllDiagnostics()
    manager = analysis.AnalysisManager()
    manager.analyze(comp)
    found: list[tuple[str, int]] = []
    for inst in comp.getRoot().topInstances:
        if inst.body.definition.name != top:
            continue
        for port in inst.body.portList:
            sym = getattr(port, "internalSymbol", None)
            if sym is None or getattr(port, "direction", None) != ast.ArgumentDirection.In:
                continue
            for drv in manager.getDrivers(sym):
                if not drv.isInputPort:
                    found.append((port.name, sm.getLineNumber(drv.sourceRange.start)))
    return sorted(set(found))
