"""The formal check's plan: how a target is compared (combinational, sequential with its
clocks and resets, or unsupported), which power-up values its texts state, and which resets
the repository never asserts."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rtlopt.frontend.model import Design
from rtlopt.verilog import blank_comments

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FormalPlan:
    """What the formal check will do for one design.

    Attributes:
        mode: ``comb`` (SAT miter), ``seq`` (induction, then bounded check), ``bmc`` (bounded
            check only, e.g. no reset), or ``unsupported``.
        reason: Why the mode was chosen when it limits the verdict.
        resets: Reset port to its active level, driven in the first cycle.
        clk2fflogic: Model clock edges explicitly (FFs on both edges of a clock).
        stated: The registers with a power-up value in the reference's hierarchy or the
            candidate (``"name in module"``): the proof from the stated power-up values
            (:mod:`rtlopt.formal.engines.stated`) runs, alone under ``honor``, beside the
            proof from unknown registers under ``ignore``.
        honor: The power-up model is ``harness.initial_values = "honor"``.
        renamed: Under ``ignore``: how the candidate's stated power-up values differ from
            the reference's by register name (the screen left that to the proof from the
            stated values, which then decides only where the reference states every one of
            its register bits: :mod:`rtlopt.formal.engines.stated`); "" where they agree.
    """

    mode: str
    reason: str = ""
    resets: Mapping[str, int] | None = None
    clk2fflogic: bool = False
    stated: tuple[str, ...] = ()
    honor: bool = False
    renamed: str = ""


def clock_edges(text: str, clocks: Sequence[str]) -> set[str]:
    code = blank_comments(text)
    found: set[str] = set()
    for kind, name in re.findall(r"\b(posedge|negedge)\s*\(?\s*([A-Za-z_][\w$]*)", code):
        if name in clocks:
            found.add(kind)
    return found


def plan_formal(
    design: Design,
    candidate_texts: Sequence[str],
    *,
    initial_values: str = "ignore",
    reference: str = "",
) -> FormalPlan:
    """Decide how to check equivalence of ``design``'s target against a candidate.

    ``initial_values`` is the power-up model (``harness.initial_values``). Where the
    reference's hierarchy or the candidate states a power-up value (:attr:`FormalPlan.stated`)
    the proof from the stated values runs: alone under ``honor``, after the proof from
    unknown registers under ``ignore`` (both must prove). ``reference``: the reference's text
    as the proof reads it (the preprocessed reference: a value a header or macro states).
    """
    plan = _clocked_plan(design, candidate_texts)
    honor = initial_values == "honor"
    found = stated_power_up(design, [reference, *candidate_texts[-1:]], unit=honor)
    two_state = [f for f in found if f.endswith(TWO_STATE_MARK)]
    if honor and two_state:
        # Yosys gives a 2-state variable no initial value: the proof from the stated values
        # would start it unknown where every simulator starts it at 0 (fail closed)
        name = two_state[0].removesuffix(TWO_STATE_MARK)
        return FormalPlan(
            "unsupported",
            f"initial values honored: {name} has a 2-state power-up value (0 in every "
            "simulator), which the proof from the stated power-up values does not model",
        )
    return replace(plan, stated=tuple(dict.fromkeys(found)), honor=honor)


#: How :func:`stated_power_up` marks a 2-state variable's power-up value (no initializer).
TWO_STATE_MARK = " (2-state)"


def stated_power_up(design: Design, texts: Sequence[str], *, unit: bool = False) -> list[str]:
    """The registers (``"name in unit"``) the texts of the reference's hierarchy or
    ``texts`` (the reference as the proof reads it, the candidate's own text) give a
    power-up value (an ``initial`` block that does more than assign constants is one); with
    ``unit`` and none there, those of the text the tools read (:func:`_read_power_up`, which
    reads the whole unit: under ``honor``)."""
    from rtlopt.harness._semantics import power_up_values

    t = design.target
    hierarchy = [t, *(design.modules[n] for n in design.submodules if n in design.modules)]
    texts = [m.text() for m in hierarchy] + [x for x in texts if x]
    from rtlopt.harness._two_state import TWO_STATE, UNKNOWN_STATE

    found = [
        f"{r} in {u}" + (TWO_STATE_MARK if set(v) & {TWO_STATE, UNKNOWN_STATE} else "")
        for x in texts
        for u, regs in power_up_values(x).items()
        for r, v in regs.items()
    ]
    if found or not unit:
        return found
    return _read_power_up(design, [m.name for m in hierarchy])


def _clocked_plan(design: Design, candidate_texts: Sequence[str]) -> FormalPlan:
    """The plan's mode, resets and clock model (see :func:`plan_formal`)."""
    t = design.target
    clocks = [c for c in t.clocks if c in {p.name for p in t.inputs}]
    if not clocks:
        return FormalPlan("comb")
    resets = {
        r: (0 if t.reset_active_low.get(r, False) else 1)
        for r in t.resets
        if r in {p.name for p in t.inputs}
    }
    tied = tied_resets(design)
    resets = {r: v for r, v in resets.items() if r not in tied}
    edges: set[str] = set()
    for m in [t, *(design.modules[n] for n in design.submodules if n in design.modules)]:
        edges |= clock_edges(m.text(), clocks)
    for text in candidate_texts:
        edges |= clock_edges(text, clocks)
    both = edges == {"posedge", "negedge"}
    # several clocks (a gated clock from outside beside a free-running one): every clock an
    # input of Yosys's clk2fflogic model, so their edges come in any order or together
    both = both or len(clocks) > 1
    if not resets and tied:
        return FormalPlan("bmc", f"no reset: {tied[next(iter(tied))]}", {}, both)
    if not resets:
        return FormalPlan("bmc", "no reset: bounded check only", {}, both)
    return FormalPlan("seq", "", resets, both)


def tied_resets(design: Design) -> dict[str, str]:
    """The target's reset inputs an instance of the repository never asserts (ties to a
    constant at the inactive level: :mod:`rtlopt.frontend._reset_ties`), each with where:
    that configuration runs from its power-up state, so the proofs do not force the reset
    first (they prove from every power-up state, the reset an input like any other)."""
    from rtlopt.frontend._reset_ties import reset_ties

    out: dict[str, str] = {}
    for tie in reset_ties(design):
        out.setdefault(tie.reset, tie.message(design.root))
    if out:
        log.info("%s: reset not forced first: %s", design.target.name, "; ".join(out.values()))
    return out


def _read_power_up(design: Design, hierarchy: Sequence[str]) -> list[str]:
    """The registers with a power-up value in the text the tools read for ``design`` (headers
    and macros expanded; interfaces, packages, ``$unit``: :mod:`rtlopt.harness._powered`) in
    a module of ``hierarchy`` or a unit that is no module; a text that cannot be read so is
    one (named by why)."""
    from rtlopt.harness._powered import unit_power_up

    try:
        read = unit_power_up(design)
    except RuntimeError as exc:
        return [f"a register (the sources cannot be read to tell: {exc})"]
    from rtlopt.harness._two_state import TWO_STATE, UNKNOWN_STATE

    units = [*hierarchy, *(u for u in read if u == "$unit" or " " in u)]
    return [
        f"{r} in {u}" + (TWO_STATE_MARK if set(v) & {TWO_STATE, UNKNOWN_STATE} else "")
        for u in units
        for r, v in read.get(u, {}).items()
    ]
