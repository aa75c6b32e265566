"""Other configurations of a design's macros on the SystemVerilog view path.

The view path reads one slang view per side, elaborated with the project's defines (and
``SYNTHESIS``): the configuration proven. A design whose conditionals test other macros (the
target's file, the candidate, its submodules' files and packages, and the macros whose
definition a conditional selects) is also built in other configurations. As on the Verilog
path (``evaluate/_configs.py``), each assignment of those macros in which the candidate reads
differently from the reference is proven like the defaults by ``evaluate/_config_check.py``
(the configuration's ```define`` / ```undef`` lines first in the unit and in front of the
module, both sides elaborated by slang from them), within the verdict's one time budget.

The configuration the view itself proves is known only when no file the view reads sets a
tested macro (a header may define one under a condition, as ``prim_assert.sv`` does
``INC_ASSERT``): otherwise that assignment is proven too, so that no configuration is taken
for proven on a guess of which one the view read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rtlopt.evaluate._candidate import Candidate
from rtlopt.frontend.model import Design

__all__ = ["view_configurations"]

_SETS = re.compile(r"`(?:define|undef)[ \t]+([A-Za-z_][\w$]*)")


def view_configurations(design: Design, c: Candidate, found: Iterable[str]) -> str:
    """Leave in ``c.macros`` / ``c.other_configs`` the assignments of the tested macros
    ``found`` (the flow's own aside) that must be proven besides the view's own; why they
    cannot be listed (too many macros, a header named by a macro, another build), or ""."""
    from rtlopt.evaluate._configs import differing_configurations, tested_macros
    from rtlopt.harness._verification_only import hardware_reading

    t = design.target
    # a build defining FORMAL alone is no configuration to prove (harness/_verification_only)
    ref = hardware_reading(design, _module(t.file.read_text(errors="replace"), t.name, t.line))
    cand = hardware_reading(design, _module(c.text, t.name))
    own = tested_macros(ref) | tested_macros(cand)
    external = frozenset(m for m in found if m not in own)
    defined = frozenset([*design.defines, "SYNTHESIS"])
    macros, configs, why = differing_configurations(ref, cand, defined, external=external)
    if why:
        return why
    here = frozenset(m for m in macros if m in defined)
    if macros and here not in configs and _set_by_sources(design, macros):
        configs.append(here)  # which assignment the view read is not known: prove it too
    c.macros, c.other_configs = macros, configs
    return ""


def _module(text: str, name: str, line: int = 0) -> str:
    """The text of module ``name`` (the one at ``line`` when there are several; the whole
    text when there is none), comments blanked."""
    from rtlopt.verilog import blank_comments, module_spans

    spans = [m for m in module_spans(text) if m.name == name]
    span = next((m for m in spans if m.line == line), spans[0] if spans else None)
    return blank_comments(text if span is None else text[span.start : span.end], strings=False)


def _set_by_sources(design: Design, macros: Iterable[str]) -> bool:
    """Whether a file the view reads (the prelude, the sources, the closure, the headers they
    include) defines or undefines one of ``macros``."""
    from rtlopt.evaluate._configs import read_files

    wanted = set(macros)
    known = dict.fromkeys([*design.prelude, *design.sources.files, *design.closure])
    return any(
        m in wanted
        for _, code in read_files(known, design.include_dirs)
        for m in _SETS.findall(code)
    )
