"""Modules defined nowhere that the active configuration never instantiates.

Real repositories keep vendor primitives (``RAM16X1D``, ``BUFGCE``) in generate branches or in
wrapper modules that their parameters turn off. Simulation and synthesis elaborate from the
top and never meet them, but the proof's Yosys scripts read every file of the closure and
``hierarchy -check`` without a top checks every module read, so a wrapper nothing
instantiates failed the proof with "Module RAM16X1D referenced ... is not part of the design".

When the reference's modules instantiate a module type defined nowhere, :func:`hierarchy_lines`
elaborates from the two compared modules only: a throw-away module instantiating both is the
top of ``hierarchy -check``, so Yosys removes what neither reaches and still stops on an
undefined module that one of them does reach (an active vendor primitive stays a reason for
"unknown", never a guess). Designs without undefined module types get the same lines (fewer
modules for every later pass).
"""

from __future__ import annotations

from rtlopt.frontend.model import Design

__all__ = ["BOTH", "hierarchy_lines", "undefined_modules"]

#: The throw-away top instantiating the reference and the candidate (deleted right after).
BOTH = "rtlopt_both_tops"


def undefined_modules(design: Design) -> list[str]:
    """Module types the design's modules instantiate that no file of the design defines."""
    closure = set(design.closure)
    used = {
        inst
        for m in design.modules.values()
        if m.file in closure or m.name == design.target.name
        for inst in m.instances
    }
    return sorted(n for n in used if n not in design.modules and not n.startswith("$"))


def hierarchy_lines(design: Design, gold: str, gate: str) -> list[str]:
    """The script lines checking the hierarchy of the two compared modules (Yosys ids).

    Always from the two compared modules, also without undefined module types: Yosys then
    removes every module neither reaches (a wrapper's parameterized copy of the core, the
    file's other modules), which nothing compared depends on, so the later passes and the
    netlists hold the two designs only (picorv32.v: the AIG netlist run 14 -> 3.5 CPU s, its
    JSON 105 -> 29 MB)."""
    del design  # the same lines whatever the design holds
    return [
        f"read_verilog <<RTLOPT_EOT\nmodule {BOTH}; {gold} gold_i (); {gate} gate_i (); endmodule"
        "\nRTLOPT_EOT",
        f"hierarchy -check -top {BOTH}",
        f"delete {BOTH}",
    ]
