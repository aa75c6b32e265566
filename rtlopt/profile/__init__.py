"""Which module first: the area, power and timing of a whole design, attributed to its modules.

Public API:
    profile_design(design, pdk, workdir, settings=None) -> Profile
    suggestions(profile, *, count=3, pdk="sky130hd") -> list[Suggestion]
    find_tops(modules) -> list[str]
    measure_in_context(design, pdk, flow, sandbox, rewrites, workdir) -> ContextResult
    Profile, ModuleProfile, PathProfile, ProfileSettings

The profile synthesizes the design from its top with Yosys, modules kept (no ``flatten``),
maps it to the PDK's liberty, and reads OpenSTA's per-instance power and worst paths on the
hierarchical netlist. Areas come from each module's own cells and the liberty's cell areas, so
they sum to the top's area exactly; the report cross-checks Yosys's own ``stat`` total.
"""

from __future__ import annotations

from rtlopt.profile._context import CLAIM, ContextResult, ModuleGain, measure_in_context
from rtlopt.profile._flow import ProfileSettings, profile_cache_dir, profile_design
from rtlopt.profile._model import ModuleProfile, PathProfile, Profile, base_name
from rtlopt.profile._suggest import Suggestion, find_tops, suggestions

__all__ = [
    "CLAIM",
    "ContextResult",
    "ModuleGain",
    "measure_in_context",
    "ModuleProfile",
    "PathProfile",
    "Profile",
    "ProfileSettings",
    "Suggestion",
    "base_name",
    "find_tops",
    "profile_cache_dir",
    "profile_design",
    "suggestions",
]
