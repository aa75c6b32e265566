"""Parsing of the testbench's tagged result lines."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rtlopt.harness._testbench import TAG
from rtlopt.results import Mismatch, SimResult
from rtlopt.shown import short_value

_KV = re.compile(r"(\S+?)=(\S*)")


@dataclass(frozen=True)
class SimReport:
    """A simulation result with the reason it failed (empty when it passed)."""

    result: SimResult
    reason: str = ""


def _fields(rest: str) -> dict[str, str]:
    return dict(_KV.findall(rest))


def parse_sim_report(log_text: str, secret: str) -> SimReport:
    """Read the testbench's verdict from a simulation log.

    Only lines that start with ``RTLOPT <secret>`` count, so a candidate cannot print its way to
    a pass. Exactly one RESULT line must be present; a missing, malformed or repeated one fails
    the run, as does any INTERFACE line (a port of the wrong width) or more than one MISMATCH.

    Args:
        log_text: Everything the simulator printed.
        secret: The per-run token embedded in the testbench.
    """
    prefix = f"{TAG} {secret} "
    results: list[dict[str, str]] = []
    mismatches: list[dict[str, str]] = []
    interface: list[dict[str, str]] = []
    x_outputs: list[str] = []
    for raw in log_text.splitlines():
        pos = raw.find(prefix)
        if pos < 0:
            continue
        kind, _, rest = raw[pos + len(prefix) :].partition(" ")
        if kind == "RESULT":
            results.append(_fields(rest))
        elif kind == "MISMATCH":
            mismatches.append(_fields(rest))
        elif kind == "INTERFACE":
            interface.append(_fields(rest))
        elif kind == "XREF":
            x_outputs.append(_fields(rest).get("out", "?"))
        else:
            return SimReport(SimResult(False, 0, 0), f"unknown harness line kind '{kind}'")
    if not results:
        return SimReport(
            SimResult(False, 0, 0),
            "no result line: the simulation ended before the testbench finished",
        )
    if len(results) > 1:
        return SimReport(SimResult(False, 0, 0), "duplicate result lines")
    res = results[0]
    try:
        vectors = int(res["vectors"])
        errors = int(res["mismatches"])
        int(res["checks"])
    except (KeyError, ValueError):
        return SimReport(SimResult(False, 0, 0), "malformed result line")
    if len(mismatches) > 1:
        return SimReport(SimResult(False, vectors, errors), "duplicate mismatch lines")
    first: Mismatch | None = None
    if mismatches:
        m = mismatches[0]
        inputs = {k[3:]: v for k, v in m.items() if k.startswith("in:")}
        first = Mismatch(
            time=f"{m.get('t', '?')} ns (vector {m.get('vec', '?')})",
            inputs=inputs,
            output=m.get("out", "?"),
            expected=m.get("exp", "?"),
            got=m.get("got", "?"),
        )
    if interface:
        i = interface[0]
        reason = (
            f"port '{i.get('port', '?')}' has width {i.get('got', '?')}, "
            f"expected {i.get('expected', '?')}"
        )
        return SimReport(SimResult(False, vectors, max(errors, 1), first), reason)
    if errors and first is None:
        return SimReport(SimResult(False, vectors, errors), "mismatches without a report line")
    if first is not None and not errors:
        return SimReport(SimResult(False, vectors, 1, first), "mismatch line without a count")
    passed = errors == 0
    xs = tuple(sorted(set(x_outputs)))
    reason = ""
    if not passed and first is not None:
        reason = (
            f"{errors} of {vectors} vectors mismatch; first: output {first.output} at "
            f"{first.time} expected {short_value(first.expected)} got {short_value(first.got)}"
        )
    return SimReport(SimResult(passed, vectors, errors, first, x_outputs=xs), reason)


def parse_sim_output(log_text: str, secret: str) -> SimResult:
    """The :class:`SimResult` part of :func:`parse_sim_report`."""
    return parse_sim_report(log_text, secret).result
