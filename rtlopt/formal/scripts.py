"""Yosys scripts for the formal equivalence miter (gold = renamed reference, gate = candidate)."""

from __future__ import annotations

import logging
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from rtlopt.formal.channel import MARK, result_name, seal, stamp, tee
from rtlopt.formal.clockgate import PROGRAM as _CLOCK_GATE_PROGRAM
from rtlopt.formal.plan import FormalPlan
from rtlopt.formal.unreached import hierarchy_lines
from rtlopt.frontend.model import Design
from rtlopt.harness._reference import ref_name
from rtlopt.tools import script_path, yosys_id, yosys_read_lines

log = logging.getLogger(__name__)


def _reads(
    files: Sequence[Path], include_dirs: Sequence[Path], defines: Mapping[str, str]
) -> list[str]:
    # paths and defines come from the user's repository: escaped for Yosys in one place
    return yosys_read_lines(files, include_dirs, defines, one_per_file=True)


#: File the prepare phase writes (relative to the script's folder): both modules after
#: ``proc; flatten; memory``, for the clock/reset structure check.
STRUCTURE_JSON = "structure.json"


#: ``===`` / ``!==`` (and case items, ``$isunknown``) as synthesis builds them: the
#: ``$eqx``/``$nex`` cells become ``$eq``/``$ne`` (what ``simplemap`` gives them), so a miter
#: with ``-enable_undef`` cannot prove a candidate that tests a value for ``x`` (which hardware
#: never computes) as if the test were real.
EQX_AS_SYNTHESIS = ("chtype -map $eqx $eq", "chtype -map $nex $ne")


#: Division and modulo as synthesis builds them (Yosys's own ``techmap.v``): the SAT model
#: of a ``$div``/``$mod`` cell is x for a zero divisor, as simulation is, so a candidate
#: could refine it (return 0 there, say) although the synthesized reference gives all ones
#: (the remainder: the dividend). Mapped on both sides, the miter compares what synthesis
#: builds. A design without division selects no cell.
DIV_AS_SYNTHESIS = "techmap -map +/techmap.v t:$div t:$mod t:$divfloor t:$modfloor"


def compared_ids(design: Design) -> tuple[str, str]:
    """The Yosys ids of the two compared modules: the renamed reference (gold) and the
    candidate (gate)."""
    return yosys_id(ref_name(design.target.name)), yosys_id(design.target.name)


def _load(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    include_dirs: Sequence[Path],
    rtlil: str = "",
) -> list[str]:
    dirs = [*design.include_dirs, *include_dirs]
    pre = design.prelude
    lines = [f"log {MARK} read"]
    # the elaboration context first: Yosys keeps its macros for every later read
    lines += _reads([*pre, reference_file], dirs, design.defines)
    lines += [f"log {MARK} read_candidate"]
    lines += _reads([f for f in candidate_files if f not in pre], dirs, design.defines)
    gold, gate = compared_ids(design)
    lines += [f"log {MARK} prepare", *hierarchy_lines(design, gold, gate)]
    if rtlil:  # for the drivers count, a copy before any clean-up (see drivers_lines)
        lines += ["design -push-copy", "proc -noopt", "flatten", f"write_rtlil {rtlil}"]
        # the same copy as JSON for the high-impedance check (write_rtlil prints z as x)
        lines += [f"write_json {_highz_json(rtlil)}", "design -pop"]
    lines += ["proc", *EQX_AS_SYNTHESIS, "flatten", *expose_lines(design, gold, gate)]
    lines += [DIV_AS_SYNTHESIS, "memory", "opt_clean"]
    return lines + commute_mul_lines([gold, gate]) + clock_gate_lines([gold, gate])


def expose_lines(design: Design, gold: str, gate: str) -> list[str]:
    """After ``flatten``: the target's signals its simulation-only checks read
    (:func:`rtlopt.harness.exposed_signals`) made outputs of both compared modules, so every
    proof shows them equal and a check the candidate keeps word for word reads the same
    values. A signal the candidate lacks leaves the miter without a matching port: no proof."""
    from rtlopt.harness import exposed_signals

    names = exposed_signals(design)
    if not names:
        return []
    log.debug("exposing the signals the reference's checks read: %s", ", ".join(names))
    picked = " ".join(f"{mod}/w:{name}" for mod in (gold, gate) for name in names)
    return [f"log {MARK} expose_checked", f"expose {picked}"]


def read_both(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    include_dirs: Sequence[Path],
) -> list[str]:
    """Both designs read and prepared as every proof reads them (hierarchy of the two,
    ``proc``, ``===`` and division as synthesis builds them, ``flatten``, ``memory``), their
    ``init`` attributes kept: the power-up search (:mod:`rtlopt.formal.powerup_search`)."""
    return _load(design, reference_file, candidate_files, include_dirs)


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
    secret: str = "",
    keep_init: bool = False,
) -> list[str]:
    """Both designs read and prepared for a comparison (initial values dropped, the latches of
    the compared modules counted, sequential modes' clocking); with ``structure`` also
    :data:`STRUCTURE_JSON` and the drivers check (:func:`drivers_lines`). ``keep_init``
    keeps the initial values (the miter from the stated power-up values)."""
    rtlil = result_name(secret, DRIVERS["rtlil"]) if structure and secret else ""
    lines = _load(design, reference_file, candidate_files, include_dirs, rtlil)
    if structure:
        lines.append(f"write_json {STRUCTURE_JSON}")
    # ASIC flip-flops have no power-up value: initial values (``reg r = 1``) are dropped on both
    # sides, as in the netlist that is measured, so a candidate cannot lean on them
    if not keep_init:
        lines.append("attrmap -remove init")
    lines += [
        f"log {MARK} count_latches",
        # in the two compared modules only: a submodule's own definition stays in the design
        # after flatten (a clock-gate cell keeps its latch there, unused)
        "select -count "
        + " ".join(
            f"{mod}/t:{kind}"
            for mod in compared_ids(design)
            for kind in ("$dlatch", "$adlatch", "$dlatchsr", "$sr", "$_DLATCH_*", "$_SR_*")
        ),
    ]
    if plan.mode in ("seq", "bmc"):
        lines.append("clk2fflogic" if plan.clk2fflogic else "async2sync")
        lines.append("opt_clean")
    if structure:
        lines += drivers_lines(design, secret)
    return lines


def structure_script(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    *,
    include_dirs: Sequence[Path] = (),
    secret: str,
) -> str:
    """Read both designs and write :data:`STRUCTURE_JSON` and the drivers check only (the
    clock/reset check when the miter does not run)."""
    rtlil = result_name(secret, DRIVERS["rtlil"])
    lines = _load(design, reference_file, candidate_files, include_dirs, rtlil)
    lines.append(f"write_json {STRUCTURE_JSON}")
    lines += drivers_lines(design, secret)
    return seal("\n".join(lines) + "\n", secret)


#: Result files of the drivers check (``check`` on each compared module, by side, the
#: design after ``proc; flatten`` whose drivers :mod:`rtlopt.formal.drivers` counts, and the
#: same design as JSON, where :mod:`rtlopt.formal.highz` looks for z).
DRIVERS = {
    "gold": "check_gold",
    "gate": "check_gate",
    "rtlil": "drivers_rtlil",
    "highz": "highz_json",
}


def _highz_json(rtlil: str) -> str:
    """The high-impedance check's result file beside the drivers check's ``rtlil`` file (the
    same secret)."""
    return rtlil.replace(DRIVERS["rtlil"], DRIVERS["highz"])


def drivers_lines(design: Design, secret: str) -> list[str]:
    """Yosys ``check`` (conflicting drivers, used nets without driver, logic loops) on the
    reference and on the candidate, each into its own result file: a candidate with more of
    them than the reference is rejected (see :mod:`rtlopt.formal.vacuity`). The scripts that
    run it also write the design right after ``proc -noopt; flatten`` (a copy: ``proc``'s
    own ``opt_expr`` already puts a constant in place of a net that a constant drives beside
    a cell) for :mod:`rtlopt.formal.drivers`."""
    gold, gate = compared_ids(design)
    return [
        stamp(secret, "drivers_start"),
        tee(secret, DRIVERS["gold"], f"check {gold}"),
        tee(secret, DRIVERS["gate"], f"check {gate}"),
    ]


def witness_lines(
    design: Design,
    plan: FormalPlan,
    module: str,
    secret: str,
    init: Sequence[str],
    steps: int,
    timeout: int,
) -> list[str]:
    """A SAT run that must find one trace of ``module`` (the miter) where every assumption
    of the proof holds (inputs defined, power-up and reset values as in the proof): a proof
    over a model without such a trace would be vacuous. The trace is the one with every
    input but the forced resets at 0 (the same model as the proof's; fixed inputs make the
    search a propagation, a fraction of the proof's time)."""
    seq = ["-seq", str(steps)] if steps else []
    fixed: list[str] = []
    for port in design.target.inputs:
        if port.name not in (plan.resets or {}):
            fixed += ["-set", yosys_id(f"in_{port.name}"), "0"]
    opts = [
        "-enable_undef",
        "-set-def-inputs",
        *fixed,
        *seq,
        *init,
        "-timeout",
        str(max(1, timeout)),
    ]
    return [
        stamp(secret, "witness_start"),
        tee(secret, "witness", "sat " + " ".join(opts) + f" {module}"),
    ]


def equiv_script(
    design: Design,
    reference_file: Path,
    candidate_files: Sequence[Path],
    plan: FormalPlan,
    *,
    depth: int,
    include_dirs: Sequence[Path] = (),
    structure: bool = False,
    secret: str,
    witness_timeout_s: int = 10,
) -> str:
    """Structural equivalence first: ``equiv_make; equiv_simple; equiv_induct; equiv_status``.

    Fast when the candidate keeps most signal names (the reference against itself, local
    rewrites). ``equiv_status -assert`` stops Yosys with an error unless every cell is
    proven, and its output goes to the result file ``equiv_status`` (see
    :mod:`rtlopt.formal.channel`); unproven cells prove nothing either way and the miter
    script decides. Before the matching, a witness run on the miter of the two designs
    (result ``witness``) shows that the assumptions are satisfiable. An ``$equiv`` cell
    accepts any candidate value where the reference is x, so this method matches the default
    X policy only (the runner skips it in strict mode). ``structure`` also writes
    :data:`STRUCTURE_JSON` and the drivers check.
    """
    gold, gate = compared_ids(design)
    lines = prepare_lines(
        design,
        reference_file,
        candidate_files,
        plan,
        include_dirs,
        structure=structure,
        secret=secret,
    )
    seq = plan.mode in ("seq", "bmc")
    lines += [
        f"log {MARK} witness",
        f"miter -equiv -flatten -ignore_gold_x {gold} {gate} rtlopt_witness",
        *witness_lines(
            design,
            plan,
            "rtlopt_witness",
            secret,
            reset_init(plan) if seq else [],
            reset_steps(plan) if seq else 0,
            witness_timeout_s,
        ),
        f"log {MARK} equiv",
        f"equiv_make {gold} {gate} rtlopt_equiv",
        "hierarchy -top rtlopt_equiv",
        f"equiv_simple -undef -seq {depth}" if seq else "equiv_simple -undef",
    ]
    if seq:
        lines.append(f"equiv_induct -undef -seq {depth}")
    lines.append(tee(secret, "equiv_status", "equiv_status -assert"))
    return seal("\n".join(lines) + "\n", secret)


def reset_init(plan: FormalPlan) -> list[str]:
    """``sat`` options of the power-up and reset model: registers undefined, every reset
    input at its active level in the first clock period."""
    scale = 2 if plan.clk2fflogic else 1
    init = ["-set-init-undef"]
    for r, active in (plan.resets or {}).items():
        for step in range(1, scale + 1):
            init += ["-set-at", str(step), yosys_id(f"in_{r}"), str(active)]
    return init


def reset_steps(plan: FormalPlan) -> int:
    """Steps of a witness trace: the reset period and one step after it."""
    return 2 * (2 if plan.clk2fflogic else 1)


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
    secret: str,
) -> str:
    """The miter script for :func:`rtlopt.formal.check.check_equivalence`.

    Combinational: ``proc; flatten; miter -equiv; sat -prove-asserts`` (a proof over every
    input). Sequential: ``async2sync`` (or ``clk2fflogic``: :mod:`rtlopt.formal.clock_model`),
    then ``sat -tempinduct`` from a state where reset is active in the first cycle (registers
    start undefined, inputs defined), then a bounded check of ``bmc_depth`` cycles. Phases are
    sealed with ``secret``; each verdict command (``sat``, ``induction``, ``bmc``, ``witness``)
    writes its output to a result file named with it (:mod:`rtlopt.formal.channel`).

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
        structure: Also write :data:`STRUCTURE_JSON` and the drivers check in the prepare
            phase.
    """
    gold, gate = compared_ids(design)
    lines = prepare_lines(
        design,
        reference_file,
        candidate_files,
        plan,
        include_dirs,
        structure=structure,
        secret=secret,
    )
    seq = plan.mode in ("seq", "bmc")
    ignore = "" if strict_x else "-ignore_gold_x "
    lines += [
        f"log {MARK} miter",
        f"miter -equiv -flatten -make_assert -make_outputs {ignore}{gold} {gate} miter",
        "hierarchy -top miter",
    ]
    common = ["-prove-asserts", "-enable_undef", "-set-def-inputs", "-show-inputs", "-show-outputs"]

    def sat(name: str, opts: list[str]) -> list[str]:
        # a verdict command: its output alone in the result file ``name``
        return [f"log {MARK} {name}", tee(secret, name, "sat " + " ".join(opts) + " miter")]

    if not seq:
        lines += [f"log {MARK} witness"]
        lines += witness_lines(design, plan, "miter", secret, [], 0, sat_timeout_s)
        lines += sat("sat", [*common, "-timeout", str(max(1, sat_timeout_s))])
        return seal("\n".join(lines) + "\n", secret)
    scale = 2 if plan.clk2fflogic else 1
    init = ["-set-init-undef"]
    for r, active in (plan.resets or {}).items():
        for step in range(1, scale + 1):
            init += ["-set-at", str(step), yosys_id(f"in_{r}"), str(active)]
    lines += [f"log {MARK} witness"]
    lines += witness_lines(design, plan, "miter", secret, init, 2 * scale, sat_timeout_s)
    if plan.mode == "seq":
        steps = ["-maxsteps", str(induction_depth * scale)]
        limit = ["-timeout", str(max(1, sat_timeout_s))]
        lines += sat("induction", ["-tempinduct", *common, *init, *steps, *limit])
    bmc_t = max(1, bmc_timeout_s if bmc_timeout_s is not None else sat_timeout_s)
    steps = ["-seq", str(bmc_depth * scale)]
    lines += sat("bmc", [*common, *init, *steps, "-timeout", str(bmc_t)])
    return seal("\n".join(lines) + "\n", secret)
