"""Reading the Yosys log of the SAT miter script: phases, verdict strings, counterexamples."""

from __future__ import annotations

import re

from rtlopt.config import FormalConfig
from rtlopt.formal.scripts import MARK, FormalPlan
from rtlopt.results import FormalResult, Verdict

__all__ = [
    "early_verdict",
    "first_error",
    "method_name",
    "miter_verdict",
    "parse_counterexample",
    "phases",
    "plan_phase_is_miter",
]

_ROW = re.compile(r"^\s*(init|\d+|-)?\s*(\\\S+|\$\S+)\s+(\S+)\s+(\S+)\s+([01xz]+)\s*$", re.M)


_PORT_ERRORS = (
    "No matching port",
    "port width",
    "Mismatch in directionality",
    "does not match",
    "No port with name",
)


_PHASES = frozenset(
    {
        "read",
        "read_candidate",
        "prepare",
        "equiv",
        "count_latches",
        "miter",
        "sat",
        "induction",
        "bmc",
    }
)


def phases(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    current = "_start"
    for chunk in re.split(rf"^{MARK} (\w+)\s*$", text, flags=re.M):
        if re.fullmatch(r"\w+", chunk) and chunk in _PHASES:
            current = chunk
            continue
        out[current] = out.get(current, "") + chunk
    return out


def parse_counterexample(text: str) -> dict[str, str]:
    """Signals of the last model table in a Yosys ``sat`` log.

    Combinational models give ``{"a": "0101", "gold_y": ..., "gate_y": ...}``; sequential
    models key by step (``"a@3"``) and put the first step where the outputs differ first, as
    ``"cycle"``. Values are binary strings (4-state digits when undefined bits occur).
    """
    tables = re.split(r"\n\s*Time\s+Signal Name|\n\s*Signal Name", text)
    if len(tables) < 2:
        return {}
    rows = _ROW.findall(tables[-1])
    values: dict[str, dict[str, str]] = {}
    for step, name, _dec, _hex, binv in rows:
        if step == "init":
            continue
        key = step if step and step != "-" else ""
        values.setdefault(key, {})[name.lstrip("\\")] = binv
    if not values:
        return {}
    out: dict[str, str] = {}
    steps = sorted(values, key=lambda s: int(s) if s.isdigit() else 0)
    if steps == [""]:
        vals = values[""]
        for k, v in vals.items():
            if k.startswith("in_"):
                out[k[3:]] = v
        for k, v in vals.items():
            if k.startswith("gold_"):
                g = vals.get("gate_" + k[5:], "?")
                if g != v:
                    out[f"expected {k[5:]}"] = v
                    out[f"got {k[5:]}"] = g
        return out
    fail = next((s for s in steps if values[s].get("trigger", "0") not in ("0", "")), steps[-1])
    out["cycle"] = fail
    for k, v in values[fail].items():
        if k.startswith("gold_") and values[fail].get("gate_" + k[5:]) != v:
            out[f"expected {k[5:]}"] = v
            out[f"got {k[5:]}"] = values[fail].get("gate_" + k[5:], "?")
    for s in steps:
        for k, v in values[s].items():
            if k.startswith("in_"):
                out[f"{k[3:]}@{s}"] = v
        if s == fail:
            break
    return out


def first_error(text: str) -> str:
    m = re.search(r"ERROR: (.*)$", text, re.M)
    return m.group(1).strip() if m else ""


def early_verdict(
    text: str, plan: FormalPlan, cfg: FormalConfig, duration: float
) -> FormalResult | None:
    """Verdicts decided while reading/preparing (unreadable reference, latches)."""
    ph = phases(text)
    method = method_name(plan, cfg)
    if "read" in ph and "read_candidate" not in ph:
        err = first_error(ph["read"])
        if err:
            return FormalResult(
                Verdict.UNKNOWN, method, f"yosys cannot read the reference: {err}", {}, duration
            )
    if "count_latches" in ph:
        m = re.search(r"(\d+) objects", ph["count_latches"])
        if m and int(m.group(1)) > 0:
            return FormalResult(
                Verdict.UNKNOWN,
                method,
                f"{m.group(1)} latch cell(s): the SAT model does not handle latches",
                {},
                duration,
            )
    return None


def method_name(plan: FormalPlan, cfg: FormalConfig, *, structural: bool = False) -> str:
    model = " (clk2fflogic)" if plan.clk2fflogic else ""
    if structural:
        return "equiv_simple/equiv_induct (structural)"
    if plan.mode == "comb":
        return "sat miter (combinational)"
    if plan.mode == "seq":
        return f"sat -tempinduct -maxsteps {cfg.induction_depth}, bmc {cfg.bmc_depth}{model}"
    return f"bmc {cfg.bmc_depth}{model}"


def miter_verdict(
    text: str, rc: int, plan: FormalPlan, cfg: FormalConfig, duration: float
) -> FormalResult | None:
    method = method_name(plan, cfg)
    ph = phases(text)
    err = first_error(text)

    def res(v: Verdict, reason: str = "", cex: dict[str, str] | None = None) -> FormalResult:
        return FormalResult(v, method, reason, cex or {}, duration)

    early = early_verdict(text, plan, cfg, duration)
    if early is not None:
        return early
    if "Interrupted SAT solver: TIMEOUT" in text:
        return res(
            Verdict.UNKNOWN, "a SAT instance timed out (the proof is too hard for the time limit)"
        )
    if plan.mode == "comb" and "sat" in ph:
        body = ph["sat"]
        if "SAT proof finished - no model found: SUCCESS!" in body:
            return res(Verdict.PROVEN)
        if "SAT proof finished - model found: FAIL!" in body:
            return res(
                Verdict.REFUTED, "the SAT miter found differing outputs", parse_counterexample(body)
            )
    if "induction" in ph:
        body = ph["induction"]
        if "Induction step proven: SUCCESS!" in body:
            return res(Verdict.PROVEN, "")
        if "model found for base case: FAIL!" in body:
            return res(Verdict.REFUTED, "counterexample from reset", parse_counterexample(body))
    if "bmc" in ph:
        body = ph["bmc"]
        if "SAT proof finished - model found: FAIL!" in body:
            return res(
                Verdict.REFUTED,
                f"counterexample within {cfg.bmc_depth} cycles",
                parse_counterexample(body),
            )
        if "SAT proof finished - no model found: SUCCESS!" in body:
            why = "induction failed" if plan.mode == "seq" else plan.reason or "bounded only"
            return res(Verdict.UNKNOWN, f"{why}; no counterexample within {cfg.bmc_depth} cycles")
    if err:
        if plan_phase_is_miter(ph) and any(k in err for k in _PORT_ERRORS):
            return res(Verdict.REFUTED, f"interfaces differ: {err}")
        return res(Verdict.UNKNOWN, f"yosys: {err}")
    if rc < 0:
        return None
    return None if rc != 0 else res(Verdict.UNKNOWN, "no verdict in the yosys log")


def plan_phase_is_miter(ph: dict[str, str]) -> bool:
    """Did Yosys stop in the miter phase (where port mismatches are reported)?"""
    return "miter" in ph and "ERROR:" in ph["miter"]
