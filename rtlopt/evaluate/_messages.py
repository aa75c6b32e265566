"""The one-line reasons an evaluation gives: compiler errors, simulation mismatches, interface
differences."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from rtlopt.frontend.model import Module
from rtlopt.results import SimResult
from rtlopt.shown import short_value

__all__ = [
    "compile_error_summary",
    "default_problem",
    "first_error",
    "interface_problem",
    "mismatch_reason",
    "no_verdict_reason",
]


def mismatch_reason(head: str, sim: SimResult) -> str:
    """``head`` with the first mismatching output, its values, time and inputs."""
    fm = sim.first_mismatch
    if fm is None:
        return head
    ins = ", ".join(f"{k}={short_value(v, 16)}" for k, v in list(fm.inputs.items())[:6])
    reason = (
        f"{head}: {fm.output} expected {short_value(fm.expected)} got {short_value(fm.got)} "
        f"at {fm.time}"
    )
    return reason + (f" for inputs {ins}" if ins else "")


def no_verdict_reason(why: str, log: Path, folders: Sequence[Path]) -> str:
    """Why a simulation compared no vector: the harness's ``why`` (without the log tail it
    appends) and the first error line of the simulator's ``log``, quoted as the simulator's
    (the design's own text may be in that log: it is only shown, never read as a verdict),
    paths under ``folders`` shortened to their names there."""
    try:
        text = log.read_text(errors="replace")
    except OSError:
        text = ""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("$ ")]
    said = next((ln for ln in lines if "error" in ln.lower()), lines[-1] if lines else "")
    for folder in folders:
        said = said.replace(str(folder).rstrip("/") + "/", "")
    head = why.split(" (rc ")[0] or "no verdict line"
    out = f"the simulation gave no verdict, no vector was compared ({head})"
    if said:
        out += f'; the simulator\'s first error: "{" ".join(said.split())[:200]}"'
    return out


def compile_error_summary(errors: Sequence[str], output: str, scratch: Path, limit: int = 3) -> str:
    """The first compiler errors as ``file:line: message``, joined by ``; ``.

    Paths inside the candidate's scratch folder are shown relative to it (``candidate.v:3``,
    ``lib/lib0_x.v:12``); repository paths stay as they are.
    """
    lines = list(errors) or [first_error(output)]
    prefix = str(scratch).rstrip("/") + "/"
    shown = [" ".join(e.replace(prefix, "").split())[:200] for e in lines[:limit]]
    more = f" (+{len(lines) - limit} more)" if len(lines) > limit else ""
    return "; ".join(shown) + more


def first_error(output: str) -> str:
    """The first line of a tool's output that mentions an error (else its last line)."""
    for line in output.splitlines():
        if "error" in line.lower():
            return line.strip()[:200]
    return output.strip().splitlines()[-1][:200] if output.strip() else "unknown error"


def interface_problem(target: Module, mods: Mapping[str, Module], *, defaults: bool = True) -> str:
    """Why a candidate's interface differs from the target's, or "" when it is the same
    (``defaults``: parameter defaults too, else the caller judges them after the types)."""
    cand = mods.get(target.name)
    if cand is None:
        names = ", ".join(sorted(mods)) or "none"
        return f"no module named '{target.name}' in the candidate (modules: {names})"
    want = {p.name: p for p in target.ports}
    got = {p.name: p for p in cand.ports}
    missing = [n for n in want if n not in got]
    extra = [n for n in got if n not in want]
    if missing:
        return f"missing port(s): {', '.join(missing)}"
    if extra:
        return f"extra port(s): {', '.join(extra)}"
    for n, p in want.items():
        q = got[n]
        if p.direction != q.direction:
            return f"port '{n}' is {q.direction}, expected {p.direction}"
        if p.width != q.width:
            return f"port '{n}' is {q.width} bits wide, expected {p.width}"
        if p.signed != q.signed:
            return f"port '{n}' signedness differs from the reference"
    return _order_problem(target, cand) or (default_problem(target, cand) if defaults else "")


def _order_problem(target: Module, cand: Module) -> str:
    """Port and parameter order: an instance that connects ports or sets parameters by
    position (``m u(a, b, y)``, ``m #(8, 2) u(...)``) binds them by this order, which the
    testbench and the miter (by name) never see."""
    want = [p.name for p in target.ports]
    got = [p.name for p in cand.ports]
    if want != got:
        return (
            f"ports are in a different order ({', '.join(got)}; expected {', '.join(want)}): "
            "an instance that connects them by position would connect them wrongly"
        )
    settable = {p.name for p in cand.parameters if not p.local}
    lost = [p.name for p in target.parameters if not p.local and p.name not in settable]
    if lost:
        return (
            f"parameter(s) {', '.join(lost)} missing or local in the candidate: an instance "
            "that sets them would not elaborate"
        )
    ref_params = [p.name for p in target.parameters if not p.local]
    cand_params = [p.name for p in cand.parameters if not p.local]
    if cand_params[: len(ref_params)] != ref_params:
        return (
            f"parameters differ in name or order ({', '.join(cand_params) or 'none'}; "
            f"expected {', '.join(ref_params)} first): an instance that sets them by name or "
            "position would set others"
        )
    return ""


_LITERAL = re.compile(r"(?:(\d+)?\s*'\s*([sS]?)([bodhBODH])\s*([0-9a-fA-F_]+)|(\d[\d_]*))")
_BASES = {"b": 2, "o": 8, "d": 10, "h": 16}


def _default_value(text: str) -> tuple[str, str, int] | str:
    """A parameter default as written (white space aside), or ``(size, sign, value)`` for a
    plain number literal (``4'd12`` and ``4'hc`` are one value)."""
    plain = re.sub(r"\s+", "", text)
    m = _LITERAL.fullmatch(plain)
    if m is None:
        return plain
    if m.group(5) is not None:
        return ("", "", int(m.group(5).replace("_", "")))
    try:
        value = int(m.group(4).replace("_", ""), _BASES[m.group(3).lower()])
    except ValueError:
        return plain
    return (m.group(1) or "", m.group(2).lower(), value)


def default_problem(target: Module, cand: Module) -> str:
    """An overridable parameter's default is part of the interface: every instance that does
    not set it (the repository's own, its checks, its simulation) is built with it, so a
    candidate giving it another default changes the repository's design even where the proof
    (each side under its own defaults) sees no output change."""
    got = {p.name: p for p in cand.parameters if not p.local}
    for p in target.parameters:
        q = got.get(p.name)
        if p.local or q is None or _default_value(p.value) == _default_value(q.value):
            continue
        return (
            f"parameter '{p.name}' defaults to {q.value.strip() or 'nothing'} in the candidate, "
            f"expected {p.value.strip() or 'nothing'}: every instance that does not set it "
            "would be built otherwise; keep the reference's default"
        )
    return ""
