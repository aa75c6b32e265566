"""Yosys scripts for the formal equivalence miter (gold = renamed reference, gate = candidate)."""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.formal.clockgate import PROGRAM as _CLOCK_GATE_PROGRAM
from rtlopt.formal.unreached import hierarchy_lines
from rtlopt.frontend.model import Design
from rtlopt.harness._reference import ref_name
from rtlopt.tools import script_path, yosys_id, yosys_read_lines
from rtlopt.verilog import blank_comments

MARK = "RTLOPT_PHASE"


@dataclass(frozen=True)
class FormalPlan:
    """What the formal check will do for one design.

    Attributes:
        mode: ``comb`` (SAT miter), ``seq`` (induction, then bounded check), ``bmc`` (bounded
            check only, e.g. no reset), or ``unsupported``.
        reason: Why the mode was chosen when it limits the verdict.
        resets: Reset port to its active level, driven in the first cycle.
        clk2fflogic: Model clock edges explicitly (FFs on both edges of a clock).
    """

    mode: str
    reason: str = ""
    resets: Mapping[str, int] | None = None
    clk2fflogic: bool = False


def clock_edges(text: str, clocks: Sequence[str]) -> set[str]:
    code = blank_comments(text)
    found: set[str] = set()
    for kind, name in re.findall(r"\b(posedge|negedge)\s*\(?\s*([A-Za-z_][\w$]*)", code):
        if name in clocks:
            found.add(kind)
    return found


def plan_formal(design: Design, candidate_texts: Sequence[str]) -> FormalPlan:
    """Decide how to check equivalence of ``design``'s target against a candidate."""
    t = design.target
    clocks = [c for c in t.clocks if c in {p.name for p in t.inputs}]
    if not clocks:
        return FormalPlan("comb")
    resets = {
        r: (0 if t.reset_active_low.get(r, False) else 1)
        for r in t.resets
        if r in {p.name for p in t.inputs}
    }
    edges: set[str] = set()
    for m in [t, *(design.modules[n] for n in design.submodules if n in design.modules)]:
        edges |= clock_edges(m.text(), clocks)
    for text in candidate_texts:
        edges |= clock_edges(text, clocks)
    both = edges == {"posedge", "negedge"}
    # several clocks (a gated clock from outside beside a free-running one): every clock an
    # input of Yosys's clk2fflogic model, so their edges come in any order or together
    both = both or len(clocks) > 1
    if not resets:
        return FormalPlan("bmc", "no reset: bounded check only", {}, both)
    return FormalPlan("seq", "", resets, both)


def _reads(
    files: Sequence[Path], include_dirs: Sequence[Path], defines: Mapping[str, str]
) -> list[str]:
    # paths and defines come from the user's repository: escaped for Yosys in one place
    return yosys_read_lines(files, include_dirs, defines, one_per_file=True)


#: File the prepare phase writes (relative to the script's folder): both modules after
#: ``proc; flatten; memory``, for the clock/reset structure check.
STRUCTURE_JSON = "structure.json"


def _load(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    include_dirs: Sequence[Path],
) -> list[str]:
    dirs = [*design.include_dirs, *include_dirs]
    pre = design.prelude
    lines = [f"log {MARK} read"]
    # the elaboration context first: Yosys keeps its macros for every later read
    lines += _reads([*pre, reference_file], dirs, design.defines)
    lines += [f"log {MARK} read_candidate"]
    lines += _reads([f for f in candidate_files if f not in pre], dirs, design.defines)
    gold, gate = yosys_id(ref_name(design.target.name)), yosys_id(design.target.name)
    lines += [f"log {MARK} prepare", *hierarchy_lines(design, gold, gate)]
    lines += ["proc", "flatten", "memory", "opt_clean"]
    return lines + commute_mul_lines([gold, gate]) + clock_gate_lines([gold, gate])


#: Yosys techmap file putting every multiplier's operands in a canonical order.
COMMUTE_MUL_MAP = Path(__file__).resolve().parent.parent / "data" / "commute_mul.v"
#: The cell type the techmap file emits (renamed back to ``$mul`` right after).
_CMUL = "$__rtlopt_cmul"


def commute_mul_lines(modules: Sequence[str]) -> list[str]:
    """Every ``$mul`` cell becomes the same product of its operands in a canonical order
    (:data:`COMMUTE_MUL_MAP`: both extended to the wider operand's width, then the unsigned
    smaller one first, chosen by logic symmetric in the two operands), in ``modules`` (the two
    compared ones).

    Yosys's bit-blasted multiplier depends on the operand order, so ``a*b`` against ``b*a`` has
    no internal equivalence for ABC's sweeping to find; in canonical order the two products are
    built from structurally identical gates. The rewrite keeps each design's behaviour exactly
    (``a*b == b*a``), so it cannot make different designs look equivalent. A design without a
    multiplier selects no cell: nothing changes, and the cost is Yosys parsing the small map
    file (about 2 ms)."""
    muls = " ".join(f"{m}/t:$mul" for m in modules)
    cmuls = " ".join(f"{m}/t:{_CMUL}" for m in modules)
    return [
        f"log {MARK} commute_mul",
        f"techmap -map {script_path(COMMUTE_MUL_MAP)} {muls}",
        f"chtype -map {_CMUL} $mul {cmuls}",
    ]


#: Yosys techmap file building multipliers as gates by bit position (for the gate netlist).
ARRAY_MUL_MAP = Path(__file__).resolve().parent.parent / "data" / "array_mul.v"


def array_mul_lines() -> list[str]:
    """Before the generic ``techmap`` of the gate-level netlist (the ABC engines' and the AIG
    miter's): every ``$mul`` becomes an array multiplier whose structure depends on bit
    positions only (:data:`ARRAY_MUL_MAP`). Yosys's own mapping (``alumacc``, then
    ``maccmap``'s adder tree) orders partial-product bits by their nets, so two copies of one
    product over differently named but equivalent nets (after :func:`commute_mul_lines`) would
    be built differently and share no internal node for ABC to merge."""
    return [f"techmap -map {script_path(ARRAY_MUL_MAP)} t:$mul"]


#: Files of the clock-gate step (relative to the script's folder).
CLOCK_GATE_JSON = "rtlopt_clock_gates.json"
CLOCK_GATE_SCRIPT = "rtlopt_clock_gates.ys"
CLOCK_GATE_LATCHES = "rtlopt_clock_gate_latches.txt"


def clock_gate_lines(modules: Sequence[str]) -> list[str]:
    """Registers behind latch-based clock gates become enabled registers on the free clock
    (see :mod:`rtlopt.formal.clockgate`): the netlist goes to that program as JSON, its
    rewrite script comes back. The program starts only when ``modules`` hold a latch (a
    clock gate has one), so designs without latches pay for a shell, not for Python. A failure
    leaves no script, and Yosys stops with an error."""
    program = " ".join(shlex.quote(str(p)) for p in (sys.executable, "-I", _CLOCK_GATE_PROGRAM))
    latches = " ".join(f"{m}/t:$dlatch" for m in modules)
    return [
        f"tee -q -o {CLOCK_GATE_LATCHES} select -count {latches}",
        f"write_json {CLOCK_GATE_JSON}",
        f"!rm -f {CLOCK_GATE_SCRIPT} && if grep -q '^0 objects' {CLOCK_GATE_LATCHES}; "
        f"then echo '# rtlopt: no latch, no clock gate' > {CLOCK_GATE_SCRIPT}; "
        f"else {program} {CLOCK_GATE_JSON} {CLOCK_GATE_SCRIPT}; fi",
        f"script {CLOCK_GATE_SCRIPT}",
        "opt_clean",
    ]


def prepare_lines(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    plan: FormalPlan,
    include_dirs: Sequence[Path],
    *,
    structure: bool = False,
) -> list[str]:
    lines = _load(design, reference_file, candidate_files, include_dirs)
    if structure:
        lines.append(f"write_json {STRUCTURE_JSON}")
    # ASIC flip-flops have no power-up value: initial values (``reg r = 1``) are dropped on both
    # sides, as in the netlist that is measured, so a candidate cannot lean on them
    lines.append("attrmap -remove init")
    lines += [
        f"log {MARK} count_latches",
        # in the two compared modules only: a submodule's own definition stays in the design
        # after flatten (a clock-gate cell keeps its latch there, unused)
        "select -count "
        + " ".join(
            f"{mod}/t:{kind}"
            for mod in (yosys_id(ref_name(design.target.name)), yosys_id(design.target.name))
            for kind in ("$dlatch", "$adlatch", "$dlatchsr", "$sr", "$_DLATCH_*", "$_SR_*")
        ),
    ]
    if plan.mode in ("seq", "bmc"):
        lines.append("clk2fflogic" if plan.clk2fflogic else "async2sync")
        lines.append("opt_clean")
    return lines


def structure_script(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    *,
    include_dirs: Sequence[Path] = (),
) -> str:
    """Read both designs and write :data:`STRUCTURE_JSON` only (the clock/reset check when the
    miter does not run)."""
    lines = _load(design, reference_file, candidate_files, include_dirs)
    lines.append(f"write_json {STRUCTURE_JSON}")
    return "\n".join(lines) + "\n"


def equiv_script(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    plan: FormalPlan,
    *,
    depth: int,
    include_dirs: Sequence[Path] = (),
    structure: bool = False,
) -> str:
    """Structural equivalence first: ``equiv_make; equiv_simple; equiv_induct; equiv_status``.

    Fast when the candidate keeps most signal names (the reference against itself, local
    rewrites). "Equivalence successfully proven!" in the log is a proof; unproven cells prove
    nothing either way and the miter script decides. An ``$equiv`` cell accepts any candidate
    value where the reference is x, so this method matches the default X policy only (the
    runner skips it in strict mode). ``structure`` also writes :data:`STRUCTURE_JSON`.
    """
    gold = yosys_id(ref_name(design.target.name))
    gate = yosys_id(design.target.name)
    lines = prepare_lines(
        design, reference_file, candidate_files, plan, include_dirs, structure=structure
    )
    seq = plan.mode in ("seq", "bmc")
    lines += [
        f"log {MARK} equiv",
        f"equiv_make {gold} {gate} rtlopt_equiv",
        "hierarchy -top rtlopt_equiv",
        f"equiv_simple -undef -seq {depth}" if seq else "equiv_simple -undef",
    ]
    if seq:
        lines.append(f"equiv_induct -undef -seq {depth}")
    lines.append("equiv_status")
    return "\n".join(lines) + "\n"


def formal_script(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    plan: FormalPlan,
    *,
    induction_depth: int,
    bmc_depth: int,
    sat_timeout_s: int,
    bmc_timeout_s: int | None = None,
    include_dirs: Sequence[Path] = (),
    strict_x: bool = False,
    structure: bool = False,
) -> str:
    """The miter script for :func:`rtlopt.formal.check.check_equivalence`.

    Combinational: ``proc; flatten; miter -equiv; sat -prove-asserts`` (a proof over every
    input). Sequential: ``async2sync`` (or ``clk2fflogic`` when a clock's two edges are used),
    then ``sat -tempinduct`` from a state where reset is active in the first cycle (registers
    start undefined, inputs defined), then a bounded check of ``bmc_depth`` cycles. Phases are
    separated by ``log RTLOPT_PHASE <name>`` lines so the runner can split the log.

    Args:
        design: The design (its target is the gold module, renamed).
        reference_file: File holding :func:`reference_text`.
        candidate_files: Candidate sources (the gate module is the target's name).
        plan: From :func:`plan_formal`.
        induction_depth: Maximum induction length.
        bmc_depth: Bounded check depth in cycles.
        sat_timeout_s: Limit of each SAT instance (the proof, or one induction step).
        bmc_timeout_s: Limit of the bounded check (default ``sat_timeout_s``).
        include_dirs: Extra include directories.
        strict_x: The strict X policy: a reference x must be matched by an x. By default
            (``-ignore_gold_x``) an x bit of the reference accepts any candidate value; with
            ``-enable_undef`` a candidate x where the reference is defined is a difference
            either way, as in the testbench.
        structure: Also write :data:`STRUCTURE_JSON` in the prepare phase.
    """
    gold = yosys_id(ref_name(design.target.name))
    gate = yosys_id(design.target.name)
    lines = prepare_lines(
        design, reference_file, candidate_files, plan, include_dirs, structure=structure
    )
    seq = plan.mode in ("seq", "bmc")
    ignore = "" if strict_x else "-ignore_gold_x "
    lines += [
        f"log {MARK} miter",
        f"miter -equiv -flatten -make_assert -make_outputs {ignore}{gold} {gate} miter",
        "hierarchy -top miter",
    ]
    common = ["-prove-asserts", "-enable_undef", "-set-def-inputs", "-show-inputs", "-show-outputs"]
    if not seq:
        lines += [
            f"log {MARK} sat",
            "sat " + " ".join([*common, "-timeout", str(max(1, sat_timeout_s))]) + " miter",
        ]
        return "\n".join(lines) + "\n"
    scale = 2 if plan.clk2fflogic else 1
    init = ["-set-init-undef"]
    for r, active in (plan.resets or {}).items():
        for step in range(1, scale + 1):
            init += ["-set-at", str(step), yosys_id(f"in_{r}"), str(active)]
    if plan.mode == "seq":
        lines += [
            f"log {MARK} induction",
            "sat -tempinduct "
            + " ".join(
                [
                    *common,
                    *init,
                    "-maxsteps",
                    str(induction_depth * scale),
                    "-timeout",
                    str(max(1, sat_timeout_s)),
                ]
            )
            + " miter",
        ]
    bmc_t = max(1, bmc_timeout_s if bmc_timeout_s is not None else sat_timeout_s)
    lines += [
        f"log {MARK} bmc",
        "sat "
        + " ".join([*common, *init, "-seq", str(bmc_depth * scale), "-timeout", str(bmc_t)])
        + " miter",
    ]
    return "\n".join(lines) + "\n"
