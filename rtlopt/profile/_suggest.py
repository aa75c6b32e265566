"""What to optimize first, from a profile: modules ranked by what a rewrite could save."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.frontend.model import Module
from rtlopt.profile._model import ModuleProfile, Profile

__all__ = ["Suggestion", "find_tops", "rank", "skipped", "suggestions"]


@dataclass(frozen=True)
class Suggestion:
    """An ``rtlopt optimize`` command for one module, and why it is suggested."""

    module: str
    command: str
    why: str


def find_tops(modules: Mapping[str, Module]) -> list[str]:
    """Modules no other module instantiates, the one with the most modules below it first."""
    used = {i for m in modules.values() for i in m.instances}
    tops = [n for n in modules if n not in used]

    def below(name: str) -> int:
        seen: set[str] = set()
        stack = [name]
        while stack:
            for child in modules[stack.pop()].instances:
                if child in modules and child not in seen:
                    seen.add(child)
                    stack.append(child)
        return len(seen)

    return sorted(tops, key=lambda n: (-below(n), n))


def rank(profile: Profile) -> list[ModuleProfile]:
    """Modules by what a rewrite of them can save: own area share, doubled when a module lies
    on the worst path (area and delay both count in the figures of merit)."""

    def score(m: ModuleProfile) -> float:
        return m.area_share * (2.0 if m.on_critical_path else 1.0) + m.worst_path_share

    return sorted(profile.modules, key=lambda m: (-score(m), m.name))


def suggestions(
    profile: Profile, *, count: int = 3, pdk: str = "sky130hd", root: Path | None = None
) -> list[Suggestion]:
    """The first ``count`` evaluable modules of :func:`rank` as commands (paths relative to
    ``root`` when given)."""
    out: list[Suggestion] = []
    for m in rank(profile):
        if len(out) >= count:
            break
        if not m.evaluable or not m.file:
            continue
        path = Path(m.file)
        if root is not None:
            try:
                path = path.relative_to(root)
            except ValueError:
                pass
        cmd = ["rtlopt", "optimize", str(path), "--module", m.name, "--pdk", pdk]
        why = f"{m.area_share:.1%} of the area"
        if m.on_critical_path:
            why += f", {m.worst_path_share:.0%} of the worst path's cell delay"
        out.append(Suggestion(m.name, shlex.join(cmd), why))
    return out


def skipped(profile: Profile) -> Sequence[ModuleProfile]:
    """Modules that cannot be optimized, with their reasons (largest first)."""
    return [m for m in profile.modules if not m.evaluable]
