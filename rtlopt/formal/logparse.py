"""Reading the Yosys runs of the SAT miter script: phases, result files, counterexamples.

The log is split only on the run's sealed phase markers, and every verdict is read from the
result files the script's own commands wrote (:mod:`rtlopt.formal.channel`), failure markers
first; nothing here looks for a success string in a whole log.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rtlopt.config import FormalConfig
from rtlopt.formal.channel import first_marker, sealed_phases
from rtlopt.formal.plan import FormalPlan
from rtlopt.results import FormalResult, Verdict

__all__ = [
    "MiterRun",
    "early_verdict",
    "first_error",
    "is_vacuous",
    "method_name",
    "miter_verdict",
    "parse_counterexample",
    "phases",
    "plan_phase_is_miter",
    "witness_problem",
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
        "commute_mul",
        "equiv",
        "count_latches",
        "miter",
        "witness",
        "sat",
        "induction",
        "bmc",
        "netlist",
    }
)

_TIMEOUT = "Interrupted SAT solver: TIMEOUT"
_SAT_FAIL = "SAT proof finished - model found: FAIL!"
_SAT_PASS = "SAT proof finished - no model found: SUCCESS!"
_WITNESS_FOUND = "SAT solving finished - model found"
_WITNESS_NONE = "SAT solving finished - no model found"
_VACUOUS = "vacuous proof"


@dataclass(frozen=True)
class MiterRun:
    """One Yosys run of a verdict script, as the verdict is read from it.

    Attributes:
        log: The Yosys log (split on the sealed markers only).
        secret: The run's secret.
        returncode: Yosys's exit status.
        timed_out: The run was stopped at its wall-clock limit.
        results: Result file name -> its text (absent or "" when never written).
    """

    log: str
    secret: str
    returncode: int
    timed_out: bool = False
    results: Mapping[str, str] = field(default_factory=dict)

    def exited_cleanly(self) -> bool:
        """Yosys did not stop with an error (stopped at the time limit counts as clean: the
        result files of the commands that finished are whole)."""
        return self.returncode == 0 or self.timed_out


def phases(text: str, secret: str) -> dict[str, str]:
    """The log split on the sealed phase markers of ``secret``."""
    return sealed_phases(text, secret, _PHASES)


def is_vacuous(why: str) -> bool:
    """Does :func:`witness_problem`'s answer say the model is contradictory?"""
    return why.startswith(_VACUOUS)


def witness_problem(witness: str) -> str:
    """Why the witness run does not show the proof's assumptions satisfiable ("" when it
    does): it found no trace (the model is contradictory: a proof over it is vacuous), timed
    out, or did not run."""
    state = first_marker(witness, (_WITNESS_NONE, _TIMEOUT), (_WITNESS_FOUND,))
    if state == "pass":
        return ""
    if _WITNESS_NONE in witness:
        return _VACUOUS + ": no trace satisfies the proof's assumptions (a contradictory model)"
    if _TIMEOUT in witness:
        return "the non-vacuity witness timed out"
    return "the non-vacuity witness did not run"


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
    run: MiterRun, plan: FormalPlan, cfg: FormalConfig, duration: float
) -> FormalResult | None:
    """Verdicts decided while reading/preparing (unreadable reference, latches)."""
    ph = phases(run.log, run.secret)
    method = method_name(plan, cfg)
    if "read" in ph and "read_candidate" not in ph:
        err = first_error(ph["read"])
        if err:
            return FormalResult(
                Verdict.UNKNOWN, method, f"yosys cannot read the reference: {err}", {}, duration
            )
    if "count_latches" in ph:
        m = re.search(r"^(\d+) objects", ph["count_latches"], re.M)
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
    run: MiterRun, plan: FormalPlan, cfg: FormalConfig, duration: float
) -> FormalResult | None:
    """The SAT miter's verdict from the run's result files (failures first), its exit status
    and the witness run; phases of the log only for errors that stop the script."""
    method = method_name(plan, cfg)
    ph = phases(run.log, run.secret)
    err = first_error(run.log)

    def res(v: Verdict, reason: str = "", cex: dict[str, str] | None = None) -> FormalResult:
        return FormalResult(v, method, reason, cex or {}, duration)

    early = early_verdict(run, plan, cfg, duration)
    if early is not None:
        return early
    sat_, ind, bmc = (run.results.get(k, "") for k in ("sat", "induction", "bmc"))
    if plan.mode == "comb" and _SAT_FAIL in sat_:
        why = "the SAT miter found differing outputs"
        return res(Verdict.REFUTED, why, parse_counterexample(sat_))
    if "model found for base case: FAIL!" in ind:
        return res(Verdict.REFUTED, "counterexample from reset", parse_counterexample(ind))
    if _SAT_FAIL in bmc:
        why = f"counterexample within {cfg.bmc_depth} cycles"
        return res(Verdict.REFUTED, why, parse_counterexample(bmc))
    if any(_TIMEOUT in t for t in (sat_, ind, bmc)):
        return res(
            Verdict.UNKNOWN, "a SAT instance timed out (the proof is too hard for the time limit)"
        )
    proven = (plan.mode == "comb" and _SAT_PASS in sat_) or "Induction step proven: SUCCESS!" in ind
    if proven and run.exited_cleanly():
        why = witness_problem(run.results.get("witness", ""))
        if is_vacuous(why):
            return FormalResult(Verdict.UNKNOWN, method, why, {}, duration, structure=why)
        return res(Verdict.UNKNOWN, why) if why else res(Verdict.PROVEN)
    if _SAT_PASS in bmc:
        why = "induction failed" if plan.mode == "seq" else plan.reason or "bounded only"
        return res(Verdict.UNKNOWN, f"{why}; no counterexample within {cfg.bmc_depth} cycles")
    if err:
        if plan_phase_is_miter(ph) and any(k in err for k in _PORT_ERRORS):
            return res(Verdict.REFUTED, f"interfaces differ: {err}")
        return res(Verdict.UNKNOWN, f"yosys: {err}")
    if run.returncode != 0:
        return None
    return res(Verdict.UNKNOWN, "no verdict from the yosys run")


def plan_phase_is_miter(ph: dict[str, str]) -> bool:
    """Did Yosys stop in the miter phase (where port mismatches are reported)?"""
    return "miter" in ph and "ERROR:" in ph["miter"]
