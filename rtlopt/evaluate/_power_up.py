"""Power-up values under ``harness.initial_values = "ignore"``: the same on both sides, or
unchecked.

The ASIC model drops every register's initial value (``reg [7:0] c = 0;``, an ``initial``
block of constant assignments) on both sides: the proof and the simulation start from unknown
registers. That is sound only where the candidate states the reference's values: the written
text is what every simulator and FPGA flow of the repository reads, and each keeps them, so a
candidate that adds, drops or changes a power-up value would be "proven" although every one
of them reads another design. Such a candidate is unchecked (``harness.initial_values =
"honor"`` judges power-up values) unless the formal check runs: it proves the design from
unknown registers and from the stated values (:mod:`rtlopt.formal.power_up_models`), and the
latter decides a candidate whose values differ from the reference's by register name
(renamed or regrouped registers, a value added, dropped or changed:
``Candidate.power_up_renamed``) where the reference states every register bit's value
(:mod:`rtlopt.formal.engines.stated`; else unchecked). What that proof does not read stays
a text rule: an ``initial`` block that does more than assign constants, an untimed
``always``, a value in a unit that is no module, a 2-state variable, readings (tools, builds)
that state other values, a header or text that cannot be read; without a formal check any
stated value leaves the candidate unchecked. The
comparison is on the text the tools read: the preprocessed unit on the Verilog path; on the
view path the compilation unit as slang reads it, headers and macros expanded in the design's
context (:mod:`rtlopt.harness._powered`: a header finishing a declaration, a macro its
includer's file defines), and every unit that is no module (an interface, a package,
``$unit``) counts as the hierarchy's.
"""

from __future__ import annotations

from rtlopt.evaluate._candidate import Candidate
from rtlopt.evaluate._setup import EvalSetup

__all__ = ["power_up_unchecked"]


def power_up_unchecked(s: EvalSetup, c: Candidate, text: str | None) -> str:
    """Why the candidate is unchecked for its power-up values, or "": ``text`` is its
    preprocessed text (None on the view path, where it is read here as slang reads it).
    With the formal check on, a difference in registers' plain values (renamed, regrouped,
    added, dropped or changed) is left to the proof: it is kept in ``c.power_up_renamed``."""
    from rtlopt.harness import power_up_difference, reference_modules, same_as_reference
    from rtlopt.harness._powered import tests_macros, text_power_up, unit_power_up
    from rtlopt.harness._semantics import PowerUp
    from rtlopt.harness._verification_only import hardware_reading
    from rtlopt.verilog import blank_comments

    c.power_up_renamed = ""
    if s.config.harness.initial_values != "ignore" or same_as_reference(c.text, s.design):
        return ""
    refs = reference_modules(s.design)
    unproven = not s.config.formal.enabled
    elsewhere = set(s.design.modules) - {m.name for m in refs}  # judged on their own
    deferred: list[str] | None = None if unproven else []
    try:
        hierarchy = [m.name for m in refs]
        if text is not None and s.unit is not None:  # the preprocessed unit
            why = power_up_difference(
                text,
                s.unit.unit_text(),
                elsewhere=elsewhere,
                hierarchy=hierarchy,
                unproven=unproven,
                deferred=deferred,
            )
            if why or not tests_macros(s.design):
                c.power_up_renamed = "; ".join(deferred or [])
                return why
            # one reading only: a branch another tool's or build's macros take may state a
            # value; read as the view path reads (each tool's macro; a skipped branch closed)
            cand: str | PowerUp = text_power_up(c.text, s.design)
            reference: str | PowerUp = unit_power_up(s.design)
        else:  # the view path: read as slang reads them, headers and macros expanded
            for own in [c.text, *(m.text() for m in refs)]:
                # a FORMAL branch whose own content is verification code is not read; one
                # that includes a header is not provably so (ibex's `ifdef FORMAL `include
                # "formal_tb_frag.svh"`): that header is looked for, and found nowhere it
                # leaves the change unchecked (harness/_verification_content.py)
                code = hardware_reading(s.design, blank_comments(own, strings=False))
                _included_power_up(code, s)
            cand = text_power_up(c.text, s.design)
            reference = unit_power_up(s.design)
        found: list[str] | None = None if unproven else []
        why = power_up_difference(
            cand,
            reference,
            elsewhere=elsewhere,
            hierarchy=hierarchy,
            unproven=unproven,
            deferred=found,
        )
        c.power_up_renamed = "; ".join(dict.fromkeys([*(deferred or []), *(found or [])]))
        return why
    except Exception as exc:  # noqa: BLE001 - pyslang's bindings raise plain errors
        return (
            f"the power-up values of the candidate and the reference cannot be compared "
            f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__}); under "
            'harness.initial_values = "ignore" they must be the same'
        )


def _included_power_up(code: str, s: EvalSetup) -> None:
    """Raise where an ```include`` inside the module (not expanded here) may state a power-up
    value: a header not found beside the target or in an include folder, one included by a
    macro, or one found in any folder a tool may read it from that holds a conditional or
    an ``include`` (read in a macro state not known here) or declares a register with an initial
    value or holds an ``initial``."""
    import re

    from rtlopt.harness._semantics import power_up_values
    from rtlopt.verilog import blank_comments, module_spans

    spans = [(sp.start, sp.end) for sp in module_spans(code)]
    declares = re.compile(r"\b(?:module|macromodule)\s+[\\\w`]")
    for m in re.finditer(r"`include\b\s*(\S*)", code):
        name = m.group(1)
        inside = any(a <= m.start() < b for a, b in spans)
        if not (name.startswith('"') and name.endswith('"') and len(name) > 2):
            raise RuntimeError("an `include inside the module that is not a plain file name")
        # every folder a tool may find it in: beside any file of the hierarchy, then the
        # include folders (the first the tools find is not known here)
        files = [s.design.target.file, *(f.file for f in s.design.modules.values())]
        folders = dict.fromkeys([*(f.parent for f in files), *s.design.include_dirs])
        found = [d / name[1:-1] for d in folders if (d / name[1:-1]).is_file()]
        if not found:
            raise RuntimeError(f"the header {name} included inside the module is not found")
        texts = [path.read_text(errors="replace") for path in found]
        if not inside and not any(declares.search(blank_comments(h)) for h in texts):
            # at file level (ibex's `include "prim_assert.sv"` above the module): read where
            # the tools read it, with the file, and it declares no module to hold a value
            continue
        for header in texts:
            stated = power_up_values(f"module rtlopt_h;\n{header}\nendmodule\n")
            conditional = re.search(r"`(?:ifdef|ifndef|elsif|include)\b", header)
            if conditional or any(stated.values()):  # a conditional: read in another state
                raise RuntimeError(f"the header {name} included inside the module may state one")
