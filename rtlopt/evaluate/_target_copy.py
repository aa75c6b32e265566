"""A design whose target file holds another text: the copy the parameter and configuration
checks evaluate (a specialized reference, the unit under another configuration)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rtlopt.frontend.model import Design

__all__ = ["design_with_target_text"]


def design_with_target_text(
    design: Design,
    text: str,
    folder: Path,
    prelude: tuple[Path, ...] = (),
    *,
    parameter_check: Path | None = None,
    x_fed: tuple[str, ...] = (),
) -> Design:
    """``design`` with its target's file replaced by ``text`` (written into ``folder``; the
    original folder still searched for includes) and ``prelude`` read before everything;
    ``parameter_check``: built by a parameter check of ``design`` whose evaluation's scratch
    root it is (:attr:`Design.parameter_check`, :attr:`Design.origin`); ``x_fed``: its inputs
    standing for 4-state parameters, fed x by the proofs (:attr:`Design.x_fed`)."""
    from rtlopt.frontend import parse_text
    from rtlopt.frontend.model import Origin

    d, t = design, design.target
    path = folder / t.file.name
    path.write_text(text, errors="surrogateescape")
    mods = {m.name: m for m in parse_text(path.read_text(), str(path), sources=d.sources)}
    target = dataclasses.replace(
        mods[t.name], clocks=t.clocks, resets=t.resets, reset_active_low=t.reset_active_low
    )
    # a module only the copy defines (a parameter split's copy of an instance's module, after
    # the target and before what it instantiates): below the target, submodules first
    added = {n: m for n, m in mods.items() if n not in d.modules and n != t.name}
    # the original folder first: the copy's relative includes name the headers beside the
    # repository's file (-grelative-include), never a header of that name in an include folder
    sources = dataclasses.replace(
        d.sources,
        include_dirs=(t.file.parent, *(i for i in d.sources.include_dirs if i != t.file.parent)),
        prelude=(*prelude, *d.sources.prelude),
    )
    return dataclasses.replace(
        d,
        target=target,
        modules={**added, **d.modules, t.name: target},
        submodules=(*reversed(added), *d.submodules),
        closure=tuple(path if f == t.file else f for f in d.closure),
        sources=sources,
        parameter_check=(
            d.parameter_check
            if d.parameter_check is not None or parameter_check is None
            else tuple(p.name for p in t.ports)
        ),
        origin=(
            d.origin
            if d.origin is not None or parameter_check is None
            else Origin(d, parameter_check)
        ),
        x_fed=x_fed,
    )
