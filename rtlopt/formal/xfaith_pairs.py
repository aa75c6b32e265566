"""Register pairs for the x-faithfulness proof's induction (:mod:`rtlopt.formal.xfaith`).

A sequential target's x proof is a temporal induction; it closes only when the reference's
and the candidate's registers are known to hold the same values (x included) in every
reached state. Pairing by name finds nothing in a rewrite that renames or re-encodes its
registers, so the pairs come from the 0/1 proofs' pairing by next-state function as well
(:mod:`rtlopt.formal.regcorr`: random simulation finds the register bits that are
inductively equal), on the gate-level netlist of the very design the x proof reads.

A pair only strengthens the induction: each is proven (``sat -prove``), never assumed, so a
wrong pair fails the proof (undecided, rejected) and cannot make it lie. Bits paired with a
complement are left out (``-prove`` compares signals, not expressions); so are bits without
a name the user gave.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rtlopt.formal.netlist import MiterSpec, Netlist, NotModelled, user_name
from rtlopt.formal.regcorr import correspondence, match_classes, pairs_of

log = logging.getLogger(__name__)

__all__ = ["GATES_JSON", "gate_lines", "function_pairs"]

#: The gate-level netlist of both sides, written by :func:`gate_lines`.
GATES_JSON = "gates.json"


def gate_lines(path: str) -> list[str]:
    """Yosys commands that write both sides as single-bit gates to ``path`` and leave the
    design as it was (after ``memory``, flattened, registers synchronous)."""
    return [
        "design -save xfaith_words",
        "dffunmap",
        "techmap",
        "opt_clean",
        f"write_json {path}",
        "design -load xfaith_words",
    ]


def function_pairs(
    json_file: Path,
    modules: tuple[str, str],
    clocks: Sequence[str],
    *,
    seconds: float,
) -> list[tuple[str, str]]:
    """(reference bit, candidate bit) names of register bits with one next-state function,
    e.g. ``("acc[3]", "sum_q[3]")``; empty when the netlist cannot be read or modelled.

    Args:
        json_file: The gate-level netlist (:func:`gate_lines`).
        modules: The reference's and the candidate's module names in it.
        clocks: The target's clock inputs (not data).
        seconds: The time pairing may take (refinement stops then: coarser, as sound).
    """
    try:
        mods: Mapping[str, Any] = json.loads(json_file.read_text(errors="replace"))["modules"]
        gmod, tmod = (mods[m.lstrip("\\")] for m in modules)
        spec = MiterSpec(modules[0], modules[1], True, clocks=tuple(clocks))
        gold = Netlist(gmod, "reference", spec)
        gate = Netlist(tmod, "candidate", spec)
        deadline = time.monotonic() + max(0.1, seconds)
        classes = match_classes(gold, gate, correspondence(gold, gate, deadline=deadline))
    except (OSError, ValueError, KeyError, TypeError, NotModelled) as exc:
        log.debug("x proof: no pairing by next-state function: %s", exc)
        return []
    out: list[tuple[str, str]] = []
    for golds, source in pairs_of(classes):
        if source is None:
            continue
        (_, tbit), phase = source
        tname = user_name(gate.names, tbit)
        for (_, gbit), ph in golds:
            gname = user_name(gold.names, gbit)
            if ph == phase and gname and tname:
                out.append((gname, tname))
    return out
