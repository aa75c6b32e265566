"""Formal equivalence with Yosys 0.23: a SAT miter of the renamed reference against a candidate.

Verdicts: PROVEN only when a SAT proof (combinational) or a temporal induction (sequential, from
a reset state) succeeds; REFUTED with the counterexample's inputs and outputs when a base case
or bounded check finds one (or the ports differ); UNKNOWN with the reason otherwise (induction
inconclusive, several clocks, no reset, latches, constructs Yosys cannot read, a SAT instance
that ran out of time). UNKNOWN is never reported as proven.

The miter steps every register on one implicit clock, so the first Yosys run also writes both
designs as JSON and :mod:`rtlopt.eda._clocking` checks that every candidate register is
clocked (and asynchronously reset) by the primary inputs and edges the reference uses. A
difference gives UNKNOWN with ``FormalResult.structure`` set (the evaluator rejects it); a
reference with derived clocks gives UNKNOWN. The only shortcut is a candidate that holds the
reference's modules byte for byte (line endings aside) and nothing else, or that is the
target's whole file byte for byte.

A Yosys crash raises :class:`~rtlopt.errors.ToolFailed`; running past the wall-clock limit
raises :class:`~rtlopt.errors.EvaluationTimeout`. A single SAT instance hitting its own
``-timeout`` (a hard multiplier, say) is UNKNOWN, not an infrastructure error.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from rtlopt.config import FormalConfig
from rtlopt.eda._abc import build_aiger, explain, run_engine
from rtlopt.eda._abcflow import NETLIST_JSON, miter_constants, prepare_miter
from rtlopt.eda._aigmiter import Miter, MiterSpec, NotModelled, build_miter
from rtlopt.eda._clocking import clocking_problem, read_clocking
from rtlopt.errors import ToolFailed
from rtlopt.frontend.model import Design
from rtlopt.harness import (
    STRUCTURE_JSON,
    FormalPlan,
    blank_comments,
    equiv_script,
    formal_script,
    plan_formal,
    ref_name,
    reference_modules,
    reference_text,
    structure_script,
)
from rtlopt.harness._formal import MARK
from rtlopt.harness._screen import tool_pragmas
from rtlopt.results import FormalResult, Verdict
from rtlopt.tools import Limits, require_tool, run_tool

log = logging.getLogger(__name__)

__all__ = [
    "check_equivalence",
    "check_structure",
    "identical_source",
    "parse_counterexample",
    "yosys_argv",
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


def _phases(text: str) -> dict[str, str]:
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


def _first_error(text: str) -> str:
    m = re.search(r"ERROR: (.*)$", text, re.M)
    return m.group(1).strip() if m else ""


def check_equivalence(
    design: Design,
    candidate_files: Sequence[Path],
    workdir: Path,
    cfg: FormalConfig,
    *,
    memory_mb: int | None = None,
    reference_file: Path | None = None,
    strict_x: bool = False,
) -> FormalResult:
    """Prove or refute that the candidate's target module equals the reference.

    Args:
        design: The design; its target (renamed) is the gold model.
        candidate_files: Candidate sources, library files first and the candidate's own file
            last; the gate module has the target's name.
        workdir: Scratch directory (script, log, reference copy).
        cfg: Depths and time limit.
        memory_mb: Address-space limit of Yosys.
        reference_file: A file with :func:`reference_text` (written into ``workdir`` if None).
        strict_x: The strict X policy (see ``harness.strict_x``); by default a candidate may
            refine an x of the reference.

    Raises:
        ToolFailed: Yosys crashed (killed by a signal, out of memory) outside a known error.

    A SAT problem that does not finish within the budget gives UNKNOWN ("... timed out"):
    equivalence of two differently structured multipliers is hard for SAT, and that is a
    property of the candidate, not an infrastructure failure.
    """
    require_tool("yosys")
    start = time.monotonic()
    workdir.mkdir(parents=True, exist_ok=True)
    texts = [_read(Path(f)) for f in candidate_files]
    if texts and identical_source(design, texts[-1]):
        return FormalResult(
            Verdict.PROVEN,
            "identical source",
            "the candidate is the reference's target and submodules, byte for "
            "byte (line endings aside)",
            {},
            time.monotonic() - start,
        )
    plan = plan_formal(design, texts)
    if reference_file is None or reference_file.parent != workdir:
        text = reference_text(design) if reference_file is None else _read(reference_file)
        reference_file = workdir / "reference.v"
        reference_file.write_text(text)
    (workdir / STRUCTURE_JSON).unlink(missing_ok=True)
    extra_inc = [design.target.file.parent]
    if plan.mode == "unsupported":
        found = _structure_only(
            design, reference_file, candidate_files, extra_inc, cfg, memory_mb, start
        )
        if found is not None and found.structure:
            return found
        return FormalResult(
            Verdict.UNKNOWN, "none", plan.reason, duration_s=time.monotonic() - start
        )

    common = _Job(design, reference_file, candidate_files, plan, cfg, memory_mb, extra_inc, start)
    if plan.mode == "comb" or strict_x:
        # a SAT proof is cheapest for combinational logic; structural matching rescues the
        # cases where the whole-output SAT instance times out (e.g. identical multipliers).
        # equiv_simple accepts any candidate value where the reference is x, so the strict X
        # policy uses the miter only.
        share = 0.3 if plan.mode == "comb" and not strict_x else 1.0
        first = _run_miter(common, share=share, strict_x=strict_x, structure=True)
        checked = _checked(design, workdir, first, start)
        assert checked is not None
        if (
            checked is not first
            or share == 1.0
            or first.verdict is not Verdict.UNKNOWN
            or "timed out" not in first.reason
        ):
            return checked
        if cfg.abc:
            # SAT sweeping with internal equivalences: arithmetic where one SAT instance over
            # the whole outputs times out
            found = _run_abc(common, share=0.6, strict_x=strict_x)
            if found is not None:
                return found
        structural = _run_structural(common, share=0.4)
        if structural is not None:
            return structural
        return _run_miter(common, share=1.0)
    structural = _run_structural(common, share=0.25, structure=True)
    checked = _checked(design, workdir, structural, start)
    if checked is not None:
        return checked
    if not (workdir / STRUCTURE_JSON).is_file():
        # Yosys stopped before writing the structure netlist: let the miter run write it
        result = _run_miter(common, share=1.0, structure=True)
        checked = _checked(design, workdir, result, start)
        assert checked is not None
        return checked
    if not cfg.abc:
        return _run_miter(common, share=1.0)
    if plan.mode == "seq" and not strict_x:
        # registers paired by behaviour, from free power-up values: a trivial rewrite (renamed
        # registers, commuted operands, reordered statements) is proven in seconds where the
        # SAT miter's induction fails and its bounded check times out
        paired = _run_abc_paired(common, share=0.8)
        if paired is not None:
            return paired
    miter = _run_miter(common, share=0.5)
    if miter.verdict is not Verdict.UNKNOWN:
        return miter
    found = _run_abc_power_up(common, strict_x=strict_x)
    return found if found is not None else miter


def check_structure(
    design: Design,
    candidate_files: Sequence[Path],
    workdir: Path,
    cfg: FormalConfig,
    *,
    memory_mb: int | None = None,
) -> str:
    """Only the clock/reset structure check (for when the formal check is disabled).

    Returns:
        Why the candidate's clocking differs from the reference's, or "" when it does not (or
        when Yosys cannot read the designs: synthesis, which follows, reports that).
    """
    require_tool("yosys")
    workdir.mkdir(parents=True, exist_ok=True)
    texts = [_read(Path(f)) for f in candidate_files]
    if texts and identical_source(design, texts[-1]):
        return ""
    ref = workdir / "reference.v"
    ref.write_text(reference_text(design))
    found = _structure_only(
        design, ref, candidate_files, [design.target.file.parent], cfg, memory_mb, time.monotonic()
    )
    return found.structure if found is not None else ""


def yosys_argv(log_name: str, script_name: str) -> list[str]:
    """The command line running a Yosys script quietly, its log in ``log_name``."""
    return require_tool("yosys").argv("-q", "-l", log_name, "-s", script_name)


def _structure_only(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    extra_inc: list[Path],
    cfg: FormalConfig,
    memory_mb: int | None,
    start: float,
) -> FormalResult | None:
    wd = reference_file.parent
    (wd / STRUCTURE_JSON).unlink(missing_ok=True)
    script = wd / "structure.ys"
    script.write_text(
        structure_script(design, reference_file, candidate_files, include_dirs=extra_inc)
    )
    run_tool(
        yosys_argv("structure.log", script.name),
        cwd=wd,
        log_path=wd / "structure.out",
        limits=Limits(max(1.0, cfg.timeout_s), memory_mb),
        raise_on_timeout=False,
    )
    return _structure_verdict(design, wd, start)


def _structure_verdict(design: Design, wd: Path, start: float) -> FormalResult | None:
    """UNKNOWN when the clock/reset structure rules out a proof; None when it does not, or
    when the JSON was not written (Yosys failed before; its own verdict says why)."""
    text = _read(wd / STRUCTURE_JSON)
    if not text:
        return None
    gold, gate = ref_name(design.target.name), design.target.name
    method = "clock/reset structure"
    try:
        found = read_clocking(text, [gold, gate])
    except ValueError as exc:
        return FormalResult(
            Verdict.UNKNOWN, method, f"unreadable structure netlist: {exc}", {}, _elapsed(start)
        )
    if gold not in found or gate not in found:
        return FormalResult(
            Verdict.UNKNOWN, method, "the structure netlist lacks a module", {}, _elapsed(start)
        )
    problem = clocking_problem(found[gold], found[gate])
    if problem:
        return FormalResult(
            Verdict.UNKNOWN,
            method,
            f"clock/reset structure check: {problem}",
            {},
            _elapsed(start),
            structure=problem,
        )
    if found[gold].problems:
        return FormalResult(
            Verdict.UNKNOWN,
            method,
            f"the miter does not model the reference's structure: {found[gold].problems[0]}",
            {},
            _elapsed(start),
        )
    return None


def _checked(
    design: Design, wd: Path, result: FormalResult | None, start: float
) -> FormalResult | None:
    """``result`` unless the clock/reset structure rules it out; never PROVEN unchecked."""
    found = _structure_verdict(design, wd, start)
    if found is not None:
        return found
    if (
        result is not None
        and result.verdict is Verdict.PROVEN
        and not (wd / STRUCTURE_JSON).is_file()
    ):
        return FormalResult(
            Verdict.UNKNOWN,
            result.method,
            "the clock/reset structure could not be checked",
            {},
            _elapsed(start),
        )
    return result


def _canon(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


_TIMESCALE = re.compile(r"`timescale\s+[0-9]+\s*[munpf]?s\s*/\s*[0-9]+\s*[munpf]?s")


def identical_source(design: Design, candidate: str) -> bool:
    """The candidate is the reference, byte for byte (line endings aside).

    Either the candidate is the target's whole file (every module and directive of it as the
    repository has them), or every reference module the candidate defines (the target always)
    appears in it exactly once with its exact text, and nothing else is left but whitespace,
    comments that are not tool directives, and ``timescale`` lines. Submodules it does not
    define come from the repository unchanged.
    """
    rest = _canon(candidate)
    if _same_file(rest, design.target.file):
        # a copy of the target's whole file: the tools read the repository's own bytes, in the
        # same elaboration context (prelude, defines, include directories)
        return True
    code = blank_comments(rest)
    for m in reference_modules(design):
        declared = len(re.findall(rf"\bmodule\s+{re.escape(m.name)}(?![\w$])", code))
        if declared == 0 and m.name != design.target.name:
            continue
        body = _canon(m.text())
        if declared != 1 or not body or rest.count(body) != 1:
            return False
        at = rest.index(body)
        rest = rest[:at] + "\n" + rest[at + len(body) :]
        code = blank_comments(rest)
    if tool_pragmas(rest):
        return False
    return not _TIMESCALE.sub(" ", code).strip()


def _same_file(text: str, path: Path) -> bool:
    """``text`` (line endings canonical) is the file's bytes (line endings aside); a file that
    is not UTF-8 never matches, so no replaced byte can hide a difference."""
    try:
        raw = path.read_bytes()
    except OSError:
        return False
    raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    try:
        return bool(text.strip()) and text.encode("utf-8") == raw
    except UnicodeEncodeError:  # a lone surrogate: not the file's text
        return False


class _Job(NamedTuple):
    """What every engine of one check works on (each unpacks it)."""

    design: Design
    reference_file: Path
    candidate_files: Sequence[Path]
    plan: FormalPlan
    cfg: FormalConfig
    memory_mb: int | None
    extra_inc: list[Path]
    start: float


def _elapsed(start: float) -> float:
    return time.monotonic() - start


def _run_structural(
    job: _Job,
    *,
    share: float,
    structure: bool = False,
) -> FormalResult | None:
    """equiv_make/equiv_simple/equiv_induct; a verdict only when everything is proven."""
    design, reference_file, candidate_files, plan, cfg, memory_mb, extra_inc, start = job
    left = max(1.0, (cfg.timeout_s - _elapsed(start)) * share)
    eq_script = _workdir_of(reference_file) / "equiv_struct.ys"
    eq_script.write_text(
        equiv_script(
            design,
            reference_file,
            candidate_files,
            plan,
            depth=max(1, min(cfg.induction_depth, 4)),
            include_dirs=extra_inc,
            structure=structure,
        )
    )
    wd = eq_script.parent
    run = run_tool(
        yosys_argv("equiv_struct.log", eq_script.name),
        cwd=wd,
        log_path=wd / "equiv_struct.out",
        limits=Limits(left, memory_mb),
        raise_on_timeout=False,
    )
    text = _read(wd / "equiv_struct.log") or run.output()
    early = _early_verdict(text, plan, cfg, _elapsed(start))
    if early is not None:
        return early
    if "Equivalence successfully proven!" in text and not run.timed_out:
        return FormalResult(
            Verdict.PROVEN, _method(plan, cfg, structural=True), "", {}, _elapsed(start)
        )
    return None


#: How the result names each ABC engine (``FormalResult.method``).
_ABC_NAMES = {"cec": "&cec", "dprove": "dprove", "pdr": "pdr", "bmc": "bmc3"}


def _run_abc(
    job: _Job,
    *,
    share: float,
    strict_x: bool = False,
    model: str = "auto",
) -> FormalResult | None:
    """ABC engines (``yosys-abc``) on the AIGER miter; a verdict only when one decides.

    ``model``: ``auto`` (free power-up state without reset, x otherwise), ``free`` (free
    power-up state) or ``x`` with bmc3 only (a search for refutations: designs without
    reset, where an x power-up proves nothing).

    Combinational targets get ``&cec``; sequential ones ``dprove`` then ``pdr`` (unbounded
    proofs from the reset state). A target without reset is modelled with free, defined
    power-up values shared by paired registers (``free_init``): a proof then holds for
    every power-up state, and a counterexample refutes nothing (this pairing only). A proof
    still goes through the clock/reset structure check.
    """
    design, reference_file, candidate_files, plan, cfg, memory_mb, extra_inc, start = job
    wd = _workdir_of(reference_file) / "abc"
    left = max(1.0, (cfg.timeout_s - _elapsed(start)) * share)
    deadline = time.monotonic() + left
    prep = prepare_miter(
        design,
        reference_file,
        candidate_files,
        wd,
        timeout=left,
        strict_x=strict_x,
        memory_mb=memory_mb,
        free_init=model == "free" or (model == "auto" and plan.mode == "bmc"),
    )
    if prep.miter is None:
        log.debug("formal %s: no AIGER miter: %s", design.target.name, prep.reason)
        return None
    miter = prep.miter
    sequential = miter.gold_registers + miter.gate_registers > 0
    engines = ["dprove", "pdr"] if sequential else ["cec"]
    if model == "x":
        engines = ["bmc"] if sequential else []
    for i, engine in enumerate(engines):
        budget = (deadline - time.monotonic()) / (len(engines) - i)
        if budget < 1.0:
            break
        out = run_engine(
            engine,
            prep.aiger,
            miter,
            timeout=budget,
            cwd=wd,
            memory_mb=memory_mb,
            frames=cfg.abc_bmc_frames,
        )
        log.debug("formal %s: abc %s: %s (%s)", design.target.name, engine, out.status, out.detail)
        method = f"abc {_ABC_NAMES[engine]}"
        if not miter.exact:
            method += " (free power-up state)"
        if out.status == "proved" and model != "x":
            return _checked(
                design,
                _workdir_of(reference_file),
                FormalResult(
                    Verdict.PROVEN,
                    method,
                    "" if miter.exact else _free_claim(miter.pairing),
                    {},
                    _elapsed(start),
                ),
                start,
            )
        if out.status == "failed":
            got = [v for k, v in out.counterexample.items() if k.startswith("got ")]
            if miter.exact and (not got or any("x" in v for v in got)):
                # the candidate is undefined where the reference is defined: in the gate-level
                # ternary model that can be pessimism (an x that cancels for every value, as
                # in `a + b + x` against `x + b + a`), so it refutes nothing
                return FormalResult(
                    Verdict.UNKNOWN,
                    method,
                    f"no proof: ABC's counterexample {_X_PESSIMISM}"
                    + (f" (cycle {out.frame})" if sequential else ""),
                    out.counterexample,
                    _elapsed(start),
                )
            if miter.exact:
                why = (
                    f"counterexample at cycle {out.frame}"
                    if sequential
                    else "the AIGER miter found differing outputs"
                )
                if model == "x":
                    why += (
                        " from every power-up state (every register x at power-up: the "
                        "outputs differ whatever the registers without reset hold)"
                    )
                return FormalResult(
                    Verdict.REFUTED, method, why, out.counterexample, _elapsed(start)
                )
            return FormalResult(
                Verdict.UNKNOWN,
                method,
                "no proof: outputs differ from a power-up state shared by "
                "paired registers (not a refutation: the registers "
                "without reset may correspond otherwise)",
                {},
                _elapsed(start),
            )
    return None


def _free_claim(pairing: str) -> str:
    """What a proof from a free power-up state says (``FormalResult.reason`` of PROVEN)."""
    return (
        "equivalent from every power-up state in which paired registers start equal "
        f"({pairing}; every other register from any value; reset inputs forced in the first "
        "step as usual): whatever the candidate's registers hold at power-up, the reference "
        "powered up in the paired state behaves the same"
    )


#: Why an x power-up counterexample may be x pessimism (see :func:`_run_abc`).
_X_PESSIMISM = "leaves the candidate undefined where the reference is defined"


def _run_abc_power_up(
    job: _Job,
    *,
    strict_x: bool = False,
) -> FormalResult | None:
    """ABC on sequential targets, with both power-up models where one cannot decide.

    * Without reset (``plan.mode == "bmc"``): a proof from a free power-up state of paired
      registers first; if none, a bmc3 search on the x power-up model, whose counterexamples
      (outputs defined on both sides and different) are differences from *every* power-up
      state, so real refutations.
    * With reset: the x power-up model first (registers without reset are x after reset); if
      its counterexample only leaves the candidate x where the reference is defined (gate-level
      x pessimism, such as a carry register without reset added in another order), a proof
      from a free power-up state of paired registers with the remaining time.
    """
    design, reference_file, candidate_files, plan, cfg, memory_mb, extra_inc, start = job
    if plan.mode == "bmc":
        # a failing proof is quick (a counterexample of the paired model), a hard one takes
        # the time: most of it goes to the proof, the refutation search gets what is left
        first = _run_abc(job, share=0.85, strict_x=strict_x)
        if first is not None and first.verdict is Verdict.PROVEN:
            return first
        refuted = _run_abc(job, share=1.0, strict_x=strict_x, model="x")
        if refuted is not None and refuted.verdict is Verdict.REFUTED:
            return refuted
        return first
    first = _run_abc(job, share=1.0, strict_x=strict_x)
    if (
        first is None
        or first.verdict is not Verdict.UNKNOWN
        or _X_PESSIMISM not in first.reason
        or strict_x
    ):
        return first
    free = _run_abc(job, share=1.0, strict_x=strict_x, model="free")
    return free if free is not None and free.verdict is Verdict.PROVEN else first


def _run_abc_paired(
    job: _Job,
    *,
    share: float,
) -> FormalResult | None:
    """ABC ``dprove`` on the miter with free power-up values, registers paired by behaviour.

    For targets with a reset. Each candidate register bit starts from its own free defined
    value, shared with the reference register bit it was paired with (by name, or by its
    behaviour in simulation: :mod:`rtlopt.eda._regpair`); the outputs of the power-up step are
    compared with every register x, as in the exact model. A proof covers every power-up state
    of the candidate (each candidate behaviour is one of the reference's), so it is a proof of
    the exact check except for ternary pessimism the testbench judges. A counterexample is
    replayed on the exact (x power-up) miter: only when it shows a defined difference there is
    it a refutation. When the pairing took registers by next-state function and the proof
    failed, the registers are paired once more by name and simulation alone; otherwise None
    (the other engines decide).
    """
    design, reference_file, candidate_files, plan, cfg, memory_mb, extra_inc, start = job
    wd = _workdir_of(reference_file) / "abc_paired"
    left = max(1.0, (cfg.timeout_s - _elapsed(start)) * share)
    deadline = time.monotonic() + left
    prep = prepare_miter(
        design,
        reference_file,
        candidate_files,
        wd,
        timeout=left,
        memory_mb=memory_mb,
        free_init=True,
        x_first=True,
    )
    if prep.miter is None or prep.plan is None:
        log.debug("formal %s: no paired miter: %s", design.target.name, prep.reason)
        return None
    plan_ = prep.plan
    spec = MiterSpec(
        ref_name(design.target.name),
        design.target.name,
        plan_.sequential,
        global_clock=plan_.global_clock,
        clocks=plan_.clocks,
        resets=plan_.resets,
        reset_steps=plan_.reset_steps,
    )
    miter, aiger = prep.miter, prep.aiger
    for by_function in (True, False):
        if not by_function:
            # the pairing by next-state function took registers and the proof failed: pair by
            # name and simulation alone (another pairing is as sound; only a proof counts)
            if "(0 by next-state function" in miter.pairing:
                return None
            left = deadline - time.monotonic()
            retry = replace(
                spec,
                free_init=True,
                x_first=True,
                by_function=False,
                pair_deadline=time.monotonic() + left / 2,
                constants=miter_constants(design),
            )
            aiger = wd / "miter_by_simulation.aig"
            try:
                miter = build_aiger(wd / NETLIST_JSON, retry, aiger)
            except NotModelled:
                return None
        # signal correspondence first, on a part of the budget: the proof when the paired
        # designs correspond gate for gate (commuted products), where dprove's conflict
        # limits give up; then dprove
        out = None
        for engine, share in (("scorr", 0.7), ("dprove", 1.0)):
            budget = deadline - time.monotonic()
            if budget < 1.0:
                return None
            out = run_engine(
                engine, aiger, miter, timeout=budget * share, cwd=wd, memory_mb=memory_mb
            )
            log.debug(
                "formal %s: abc paired %s: %s (%s; %s)",
                design.target.name,
                engine,
                out.status,
                out.detail,
                miter.pairing,
            )
            if out.status == "proved":
                break
        assert out is not None
        if out.status == "proved":
            return _checked(
                design,
                _workdir_of(reference_file),
                FormalResult(
                    Verdict.PROVEN,
                    f"abc {out.engine} (registers paired)",
                    _free_claim(miter.pairing)
                    + "; outputs of the power-up step compared with every register x",
                    {},
                    _elapsed(start),
                ),
                start,
            )
        if out.status != "failed":
            return None
        refuted = _replay_exactly(wd, miter, spec, start)
        if refuted is not None:
            return refuted
    return None


def _replay_exactly(wd: Path, miter: Miter, spec: MiterSpec, start: float) -> FormalResult | None:
    """The paired engine's counterexample replayed on the exact miter (x at power-up, nothing
    shared): a refutation only when it shows a defined difference there."""
    frames = _read_frames(wd, "dprove", miter)
    if not frames:
        return None
    try:
        exact = build_miter(json.loads((wd / NETLIST_JSON).read_text()), spec)
    except (NotModelled, OSError, ValueError):
        return None
    if [p for p in miter.inputs if p[0] != "<init>"] != exact.inputs:
        return None
    keep = [i for i, p in enumerate(miter.inputs) if p[0] != "<init>"]
    replay = [[f[i] for i in keep] for f in frames]
    rows = exact.aig.simulate(replay)
    if not any(r[0] for r in rows):
        return None
    cex = explain(exact, replay[: next(i for i, r in enumerate(rows) if r[0]) + 1])
    got = [v for k, v in cex.items() if k.startswith("got ")]
    if not got or any("x" in v for v in got):
        return None
    return FormalResult(
        Verdict.REFUTED,
        "abc dprove (registers paired), replayed exactly",
        f"counterexample at cycle {cex.get('cycle', '?')}",
        cex,
        _elapsed(start),
    )


def _read_frames(wd: Path, engine: str, miter: Miter) -> list[list[int]]:
    """The input values per step of the engine's counterexample file."""
    from rtlopt.eda._abc import _read_cex

    return _read_cex(wd / f"{engine}.cex", miter)


def _run_miter(
    job: _Job,
    *,
    share: float,
    strict_x: bool = False,
    structure: bool = False,
) -> FormalResult:
    """SAT miter: proof (combinational) or induction then a bounded check (sequential)."""
    design, reference_file, candidate_files, plan, cfg, memory_mb, extra_inc, start = job
    wd = _workdir_of(reference_file)
    left = max(1.0, (cfg.timeout_s - _elapsed(start)) * share)
    n_inst = 1 if plan.mode == "comb" else 2 * cfg.induction_depth * (2 if plan.clk2fflogic else 1)
    sat_share = 0.9 if plan.mode == "comb" else 0.4
    sat_timeout = max(1, int(left * sat_share / n_inst))
    bmc_timeout = max(1, int(left * (0.8 if plan.mode == "bmc" else 0.4)))
    script = formal_script(
        design,
        reference_file,
        candidate_files,
        plan,
        induction_depth=cfg.induction_depth,
        bmc_depth=cfg.bmc_depth,
        sat_timeout_s=sat_timeout,
        bmc_timeout_s=bmc_timeout,
        include_dirs=extra_inc,
        strict_x=strict_x,
        structure=structure,
    )
    ys = wd / "equiv.ys"
    ys.write_text(script)
    run = run_tool(
        yosys_argv("equiv.log", ys.name),
        cwd=wd,
        log_path=wd / "equiv.out",
        limits=Limits(left, memory_mb),
        raise_on_timeout=False,
    )
    text = _read(wd / "equiv.log") or run.output()
    result = _verdict(text, run.returncode, plan, cfg, _elapsed(start))
    if run.timed_out and (result is None or result.verdict is Verdict.UNKNOWN):
        phase = list(_phases(text))[-1] if text else "start"
        result = FormalResult(
            Verdict.UNKNOWN,
            _method(plan, cfg),
            f"SAT solving timed out after {left:.0f}s (in phase {phase})",
            {},
            _elapsed(start),
        )
    if result is None:
        raise ToolFailed(
            f"yosys exited with {run.returncode} without a verdict",
            command=list(run.argv),
            returncode=run.returncode,
            log_path=wd / "equiv.log",
            stderr_tail=run.tail(),
        )
    log.debug("formal %s: %s (%s)", design.target.name, result.verdict.value, result.reason)
    return result


def _workdir_of(reference_file: Path) -> Path:
    return reference_file.parent


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _early_verdict(
    text: str, plan: FormalPlan, cfg: FormalConfig, duration: float
) -> FormalResult | None:
    """Verdicts decided while reading/preparing (unreadable reference, latches)."""
    ph = _phases(text)
    method = _method(plan, cfg)
    if "read" in ph and "read_candidate" not in ph:
        err = _first_error(ph["read"])
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


def _method(plan: FormalPlan, cfg: FormalConfig, *, structural: bool = False) -> str:
    model = " (clk2fflogic)" if plan.clk2fflogic else ""
    if structural:
        return "equiv_simple/equiv_induct (structural)"
    if plan.mode == "comb":
        return "sat miter (combinational)"
    if plan.mode == "seq":
        return f"sat -tempinduct -maxsteps {cfg.induction_depth}, bmc {cfg.bmc_depth}{model}"
    return f"bmc {cfg.bmc_depth}{model}"


def _verdict(
    text: str, rc: int, plan: FormalPlan, cfg: FormalConfig, duration: float
) -> FormalResult | None:
    method = _method(plan, cfg)
    ph = _phases(text)
    err = _first_error(text)

    def res(v: Verdict, reason: str = "", cex: dict[str, str] | None = None) -> FormalResult:
        return FormalResult(v, method, reason, cex or {}, duration)

    early = _early_verdict(text, plan, cfg, duration)
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
