"""The case and if qualifiers a candidate is written with (``unique``/``unique0``/``priority``):
every tool here reads the plain statement, so a qualifier stays only where its claim is
established under every setting the guarantee covers (:mod:`rtlopt.harness._claims`)."""

from __future__ import annotations

from rtlopt.frontend.model import Design

__all__ = ["qualifier_claims"]


def qualifier_claims(text: str, design: Design) -> str:
    """``"line N: why"`` for the first qualified statement of the candidate ``text`` whose
    claim is not established (:func:`rtlopt.harness.claim_problems`: the proof reads the
    plain statement, synthesis of the written text may not), or ""."""
    from rtlopt.harness import claim_problems, same_as_reference

    if same_as_reference(text, design):
        return ""  # the reference's own text claims what the reference claims
    found = claim_problems(text, design) or _unread_settings_claims(text, design)
    return f"line {found[0][0]}: {found[0][1]}" if found else ""


def _unread_settings_claims(text: str, design: Design) -> list[tuple[int, str]]:
    """For a target with parameters no instance of the repository uses (its probes are the
    guarantee; the claims are read under the defaults and the repository's settings only):
    the qualifiers the reference does not carry alike
    (:func:`rtlopt.harness._qualified.moved_qualifiers`)."""
    from rtlopt.frontend._params import parameterizations
    from rtlopt.harness._qualified import moved_qualifiers
    from rtlopt.verilog import blank_comments

    if not any(not p.local for p in design.target.parameters):
        return []
    try:
        instantiated = any("." in w for pz in parameterizations(design) for w in pz.where)
    except Exception:  # noqa: BLE001 - not elaborated here: the stricter rule below
        instantiated = False
    if instantiated:
        return []  # the repository's settings are the guarantee, and the claims read them
    mods = [design.target, *(design.modules[n] for n in design.submodules if n in design.modules)]
    return moved_qualifiers(blank_comments(text), lambda: [m.text() for m in mods])
