"""What one preprocessed text does not show: a candidate that defines the target more than
once, leaves directives outside its module, or changes code the current defines switch off
(the preprocess stage's checks on the Verilog path, :mod:`rtlopt.evaluate._stages`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rtlopt.verilog import PREPROCESSOR_DIRECTIVES, alternation

if TYPE_CHECKING:
    from rtlopt.evaluate._candidate import Candidate
    from rtlopt.evaluate._preprocess import Preprocessed, UnitText

__all__ = ["copies", "other_configurations", "outside_directives", "switched_off_change"]


def copies(text: str, name: str) -> str:
    """Why ``text`` defines the target more than once (a copy per configuration), or ""."""
    from rtlopt.verilog import module_spans

    n = sum(1 for m in module_spans(text) if m.name == name)
    if n <= 1:
        return ""
    return (
        f"the candidate defines module {name} {n} times (a copy under conditional "
        "compilation); write one definition"
    )


_OUTSIDE = re.compile(rf"`({alternation(PREPROCESSOR_DIRECTIVES)})\b[^\n]*")


def outside_directives(text: str, reference: str, name: str) -> str:
    """Why ``text`` holds macro or conditional directives outside the target module that its
    repository file does not hold there (a ``define`` after ``endmodule`` changes what later
    files of the unit read), or ""."""
    from rtlopt.verilog import blank_comments, module_spans

    def outside(t: str) -> list[str]:
        code = blank_comments(t, strings=False)
        span = next((m for m in module_spans(code) if m.name == name), None)
        rest = code if span is None else code[: span.start] + "\n" + code[span.end :]
        return [" ".join(m.group(0).split()) for m in _OUTSIDE.finditer(rest)]

    from rtlopt.evaluate._config_check import CONFIG_CLOSE, CONFIG_OPEN

    def unset(t: str) -> str:
        at = t.find(CONFIG_OPEN)
        if at < 0 or CONFIG_CLOSE not in t[at:]:
            return t
        return t[:at] + t[t.index(CONFIG_CLOSE, at) + len(CONFIG_CLOSE) :]

    # in a configuration's evaluation (evaluate/_config_check.py) the target's copy and the
    # candidate carry the lines that set it: both are compared without them (a candidate's
    # own such block counts, as everything else, where the repository file holds none)
    if unset(reference) != reference:
        reference, text = unset(reference), unset(text)
    found = outside(text)
    if not found or found == outside(reference):
        return ""
    return (
        f"the candidate holds a compiler directive outside module {name} ({found[0][:60]!r}), "
        "which changes what other files read; write the module alone"
    )


def other_configurations(
    c: Candidate, reference: str, name: str, pp: Preprocessed, s_unit: UnitText | None
) -> str:
    """Why the candidate's other configurations cannot be checked, or "" (those in which it
    reads differently from the reference are left in ``c.other_configs`` to be proven)."""
    from rtlopt.evaluate._configs import differing_configurations
    from rtlopt.harness._verification_only import hardware_reading
    from rtlopt.verilog import blank_comments, module_spans

    span = next((m for m in module_spans(c.text) if m.name == name), None)
    module = c.text if span is None else c.text[span.start : span.end]
    assert s_unit is not None
    d = s_unit.design  # a build defining FORMAL alone is no configuration to prove
    macros, configs, why = differing_configurations(
        hardware_reading(d, blank_comments(reference, strings=False)),
        hardware_reading(d, blank_comments(module, strings=False)),
        pp.defined,
        external=s_unit.external_macros(c.text),
    )
    c.macros, c.other_configs = macros, configs
    if why:
        return why
    builds = s_unit.other_builds(c.text)
    if builds.why:
        return (
            f"another build of the repository reads the design differently ({builds.why}), and "
            'rtlopt cannot build it (set harness.other_configurations = "ignore" if only this '
            "build is built)"
        )
    c.builds = list(builds.builds)
    return ""


def switched_off_change(cand: Sequence[str], ref: Sequence[str]) -> str:
    """Why a candidate's code that the current defines switch off (or its directive lines)
    differs from the reference's, or "" when it does not: rtlopt proves only the
    configuration this compilation selects, so every other one must stay as it is."""
    if list(cand) == list(ref):
        return ""
    from rtlopt.evaluate._reporting_blocks import without_reporting_lines

    if without_reporting_lines(cand) == without_reporting_lines(ref):
        return ""  # blocks of assertions that only report: no build's values depend on them
    extra = [ln for ln in cand if ln not in ref] or [ln for ln in ref if ln not in cand]
    shown = extra[0] if extra else "their order"
    return (
        "the change touches code that this compilation's defines switch off, or a compiler "
        f"directive inside the module ({shown[:80]!r}); rtlopt proves only the configuration "
        "the defines select, so keep every switched-off branch and directive as the "
        "repository has it"
    )
