"""The equivalence stages of an evaluation: compile, interface, simulation, formal.

Each stage reads what the earlier ones left on the :class:`Candidate` and returns the rejection
that ends the evaluation, or None to go on.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from rtlopt.errors import DesignError
from rtlopt.evaluate._candidate import Candidate, invalid
from rtlopt.evaluate._messages import (
    compile_error_summary,
    default_problem,
    interface_problem,
    mismatch_reason,
    no_verdict_reason,
)
from rtlopt.evaluate._power_up import power_up_unchecked
from rtlopt.evaluate._qualifier_rules import qualifier_claims
from rtlopt.evaluate._screen_checks import (
    placed_state,
    repository_reaches,
    simulators,
    view_build_modes,
    view_claims,
    view_configurations,
    view_power_up,
    view_state_left,
    view_time_zero,
)
from rtlopt.evaluate._setup import EvalSetup
from rtlopt.evaluate._sources import library_files
from rtlopt.evaluate._switched import (
    copies,
    other_configurations,
    outside_directives,
    switched_off_change,
)
from rtlopt.evaluate._text_sim import text_reading_difference
from rtlopt.evaluate._time_zero import time_zero_unchecked
from rtlopt.evaluate._time_zero_sim import held_start_difference
from rtlopt.evaluate._xfaith import with_x_faith, x_faith_refutation
from rtlopt.evaluate._xpolicy import with_x_policy, x_policy_refutation
from rtlopt.results import EvalResult, FormalResult, Stage, Verdict

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

__all__ = [
    "compile_stage",
    "formal_stage",
    "interface_stage",
    "preprocess_stage",
    "simulation_stage",
]


def preprocess_stage(s: EvalSetup, c: Candidate) -> EvalResult | None:
    """The candidate's macro-free text (Verilog path): preprocessed in the macro state at the
    target's position, screened as the tools will read it, and from here on the file every
    tool reads (``evaluate._preprocess``)."""
    from rtlopt.evaluate._preprocess import CANDIDATE_NAME
    from rtlopt.harness import screen_preprocessed
    from rtlopt.harness._verification_only import unjudged

    t = s.design.target
    c.unjudged = unjudged(s.design, t.file.read_text(errors="replace")[t.start : t.end], c.text)
    if c.unjudged:
        log.info("%s: %s", t.name, c.unjudged)
    if s.unit is None:
        return (
            view_state_left(s, c)
            or view_build_modes(s, c)
            or view_power_up(s, c)
            or view_claims(s, c)
            or view_time_zero(s, c)
            or view_configurations(s, c)
        )
    cfg = s.config
    c.progress.stage = Stage.SCREEN
    pp = s.unit.candidate(c.text, c.dir)
    if pp.errors:
        from rtlopt.evaluate._hints import missing_include

        hint = missing_include(c.text, s.design)
        return invalid(
            cfg.reward,
            Stage.COMPILE,
            "does not preprocess: " + (hint or "; ".join(pp.errors[:3])),
            r_syn=cfg.reward.unparseable_syn,
            compile_errors=len(pp.errors),
            logs=c.logs,
        )
    found = screen_preprocessed(
        pp.text,
        c.text,
        s.design,
        dotted_names=s.view is not None,
        reference=s.unit.reference_text(),
        whole_file=s.whole_file,
    )
    if found:
        return invalid(
            cfg.reward,
            Stage.SCREEN,
            "rejected by screening (as the tools read it): "
            + "; ".join(pp.relabel(v) for v in found[:3]),
            r_syn=0.0,
            logs=c.logs,
        )
    name = s.design.target.name
    off = (
        copies(c.text, name)
        or outside_directives(c.text, s.unit.reference_file_text(), name)
        or placed_state(s, c, pp)  # the state it leaves after it, the modes a build reads it in
        or switched_off_change(pp.off, s.unit.reference_off())
    )
    off = off or power_up_unchecked(s, c, pp.text)
    off = off or repository_reaches(s, c)  # hierarchical names, a simulator's own instances
    off = off or qualifier_claims(c.text, s.design)  # the qualifiers the text is written with
    off = off or simulators(s, c, pp.defined)
    # always @* for assign (x until an event): judged once the proofs pass (formal stage),
    # so that a broken change is still refuted with its counterexample
    c.time_zero = "" if off else time_zero_unchecked(s, c, pp)
    if not off and cfg.harness.other_configurations == "check" and not _same(s, c):
        # the repository's own text reads as the repository's in every build: nothing to prove
        off = other_configurations(c, s.unit.reference_module(), name, pp, s.unit)
    if off:
        return invalid(
            cfg.reward,
            Stage.SCREEN,
            "unchecked: " + off,
            r_syn=0.0,
            logs=c.logs,
        )
    c.pp = pp
    c.file = c.dir / CANDIDATE_NAME
    return None


def _same(s: EvalSetup, c: Candidate) -> bool:
    from rtlopt.harness import same_as_reference

    return same_as_reference(c.text, s.design)


def compile_stage(s: EvalSetup, c: Candidate) -> EvalResult | None:
    """Syntax: parse to learn which modules the candidate defines and uses, then compile."""
    from rtlopt.eda.iverilog import compile_sources, syntax_score

    cfg = s.config
    c.progress.stage = Stage.COMPILE
    defined, used = _parse(s, c)
    if s.view is not None:
        rejected = _elaborate_view(s, c, defined, used)
        if rejected is not None:
            return rejected
    elif s.unit is not None:
        # the preprocessed repository modules it instantiates: no prelude, no macros
        lib_text = s.unit.library_text(defined, used)
        if lib_text:
            (c.dir / "library.v").write_text(lib_text)
        c.lib = (c.dir / "library.v",) if lib_text else ()
    else:
        lib = library_files(s.design, defined, used, c.dir / "lib")
        c.lib = (
            *s.design.prelude,
            s.context_file,
            *(f for f in lib if f not in s.design.prelude),
        )
    comp = compile_sources(
        [*c.lib, c.file],
        c.dir,
        top=s.tools.target.name,
        include_dirs=s.tools.include_dirs,
        defines=s.tools.defines,
        out=c.dir / "candidate.vvp",
        timeout=cfg.sandbox.timeout_s,
        memory_mb=cfg.sandbox.memory_mb,
    )
    c.logs["compile"] = str(comp.log_path)
    if not comp.ok:
        from rtlopt.evaluate._hints import missing_include

        hint = missing_include(c.text, s.design)
        summary = hint or compile_error_summary(comp.errors, comp.output, c.dir)
        return invalid(
            cfg.reward,
            Stage.COMPILE,
            f"does not compile: {comp.n_errors} error(s): "
            + (c.pp.relabel(summary) if c.pp is not None else summary),
            r_syn=syntax_score(comp, cfg.reward),
            compile_errors=comp.n_errors,
            logs=c.logs,
        )
    if not c.mods:
        return invalid(
            cfg.reward,
            Stage.COMPILE,
            "the parser rejects the candidate",
            r_syn=cfg.reward.unparseable_syn,
            logs=c.logs,
        )
    return _simulator_parameters(s, c)


def _simulator_parameters(s: EvalSetup, c: Candidate) -> EvalResult | None:
    """The candidate's parameters (local ones too) as iverilog builds them, at its defaults and
    in each instance of the repository with the candidate in place, against slang's reading
    (:mod:`rtlopt.frontend._param_simulator`): a value the simulator computes otherwise is a
    design the proofs never read."""
    from rtlopt.frontend._param_simulator import own_differences, placed_differences

    name = s.tools.target.name
    limit = min(60.0, s.config.formal.timeout_s)
    why = own_differences(s.design, [*c.lib, c.file], name, limit)
    why = why or placed_differences(s.design, c.text, limit)
    if not why:
        return None
    return invalid(s.config.reward, Stage.SCREEN, "unchecked: " + why, r_syn=0.0, logs=c.logs)


def _parse(s: EvalSetup, c: Candidate) -> tuple[list[str], list[str]]:
    """Parse the candidate into ``c.mods``: the modules it defines and those it uses."""
    from rtlopt.frontend import parse_text

    try:
        if c.pp is not None:  # what the tools read: macro-free, no prelude
            c.mods = parse_text(c.pp.text, "candidate.v", sources=s.tools.sources)
        else:
            c.mods = parse_text(c.text, "candidate.v", sources=s.cand_sources)
    except DesignError:
        c.mods = []
        return [], []
    defined = [m.name for m in c.mods]
    used = sorted({i for m in c.mods for i in m.instances} - set(defined))
    return defined, used


def _elaborate_view(
    s: EvalSetup, c: Candidate, defined: list[str], used: list[str]
) -> EvalResult | None:
    """SystemVerilog path: the candidate's view (one flattened module) replaces its text."""
    from rtlopt.evaluate._view import z_as_x
    from rtlopt.formal.highz import WHY as Z_WHY
    from rtlopt.frontend import parse_text

    cfg = s.config
    assert s.view is not None
    why = s.view.package_qualifiers(c.text, defined, used)
    if why:  # the view would read x where no item matches: fail closed
        return invalid(cfg.reward, Stage.SCREEN, "unchecked: " + why, r_syn=0.0, logs=c.logs)
    if s.view.high_z:  # the reference's view reads a z as x: nothing to compare against
        why = (
            f"unchecked: the reference holds high impedance (z, at {s.view.high_z}), which its "
            f"view reads as x; {Z_WHY}, so no change to it is checked"
        )
        return invalid(cfg.reward, Stage.FORMAL, why, r_syn=1.0, logs=c.logs)
    elab = s.view.candidate(c.text, defined, used, c.dir / "view", timeout=cfg.sandbox.timeout_s)
    high_z = z_as_x(elab) if elab.ok else ""
    if high_z:
        why = (
            f"the candidate holds high impedance (z, at {high_z}), which its view reads as x; "
            f"{Z_WHY}"
        )
        return invalid(cfg.reward, Stage.FORMAL, why, r_syn=1.0, logs=c.logs)
    if not elab.ok:
        from rtlopt.evaluate._hints import missing_include

        n = len(elab.errors)
        c.logs["elaborate"] = str(elab.log_path)
        hint = missing_include(c.text, s.design)
        return invalid(
            cfg.reward,
            Stage.COMPILE,
            f"does not elaborate: {n} error(s): {hint or elab.first_error()}",
            r_syn=1.0 / (1.0 + n) if n else cfg.reward.unparseable_syn,
            compile_errors=n,
            logs=c.logs,
        )
    c.file = elab.view
    try:
        c.mods = parse_text(c.file.read_text(errors="replace"), "candidate_view.v")
    except DesignError:
        c.mods = []
    return None


def interface_stage(s: EvalSetup, c: Candidate) -> EvalResult | None:
    """Same ports, directions, widths, signedness."""
    c.progress.stage = Stage.INTERFACE
    mods = {m.name: m for m in c.mods}
    target = s.tools.target
    problem = interface_problem(target, mods, defaults=False)
    if not problem:  # a parameter's type first: it names why its default reads otherwise
        problem = _parameter_types(s, c) or default_problem(target, mods[target.name])
    if not problem:
        problem = _driven_inputs(s, c)
    if problem:
        return invalid(
            s.config.reward,
            Stage.INTERFACE,
            problem,
            r_syn=s.config.reward.port_error_factor,
            logs=c.logs,
        )
    return None


def _parameter_types(s: EvalSetup, c: Candidate) -> str:
    """A parameter an instance can set declared with another type than the reference's
    (:mod:`rtlopt.evaluate._param_types`)."""
    from rtlopt.evaluate._param_types import parameter_type_problem

    target = s.design.target
    names = [p.name for p in target.parameters if not p.local]
    if not names:
        return ""
    return parameter_type_problem(target.text(), c.text, target.name, names)


def _driven_inputs(s: EvalSetup, c: Candidate) -> str:
    """A driver of one of the target's own input ports inside the candidate."""
    from rtlopt.frontend import driven_inputs

    name = s.design.target.name
    if c.pp is not None:  # what the tools read
        found = driven_inputs(c.pp.text, name, s.tools.sources)
        found = [(port, c.pp.source_line(line)) for port, line in found]
    else:
        found = driven_inputs(c.text, name, s.cand_sources)
    if found:  # a port the reference drives itself (an inout pad's path) is not the candidate's
        try:
            own = s.design.target.file.read_text(errors="replace")
        except OSError:
            own = ""
        ref = {port for port, _ in driven_inputs(own, name, s.design.sources)}
        found = [f for f in found if f[0] not in ref]
    if not found:
        return ""
    port, line = found[0]
    return (
        f"input port '{port}' is driven inside the module (line {line}): it would drive the "
        "net of every instance, and synthesis ties the port to that driver"
    )


def simulation_stage(s: EvalSetup, c: Candidate) -> EvalResult | None:
    """Equivalence by simulation against the renamed reference (sealed and guarded:
    :func:`rtlopt.evaluate._tbsim.simulate_in_testbench`)."""
    from rtlopt.eda.iverilog import FOREIGN_CALL
    from rtlopt.evaluate._tbsim import simulate_in_testbench
    from rtlopt.harness import power_up_file

    cfg = s.config
    c.progress.stage = Stage.SIMULATION
    sim_file = power_up_file(c.file, cfg.harness.initial_values)
    run = simulate_in_testbench(
        # one reading order for every tool: the reference, then the candidate, testbench last
        s,
        c.dir,
        [s.reference_file, *c.lib, sim_file],
        name="sim",
        log_name="sim.log",
    )
    sim_comp = run.compiled
    c.logs["sim_compile"] = str(sim_comp.log_path)
    if not sim_comp.ok:
        return invalid(
            cfg.reward,
            Stage.SIMULATION,
            "does not compile beside the reference: "
            + compile_error_summary(sim_comp.errors, sim_comp.output, c.dir),
            r_syn=cfg.reward.port_error_factor,
            logs=c.logs,
        )
    if run.timeout is not None:
        raise run.timeout
    assert run.report is not None
    c.sim = replace(run.report.result, classes=dict(s.tb.classes))
    c.logs["simulation"] = str(c.dir / "sim.log")
    if run.report.reason.startswith(FOREIGN_CALL):
        return invalid(cfg.reward, Stage.SIMULATION, run.report.reason, r_syn=1.0, logs=c.logs)
    if not c.sim.passed and not c.sim.compared:
        # nothing ran (vvp refused the compiled design, or stopped before the verdict):
        # no difference was seen, nothing was checked either
        folders = [c.dir, s.reference_file.parent]
        why = no_verdict_reason(run.report.reason, c.dir / "sim.log", folders)
        return invalid(cfg.reward, Stage.SIMULATION, why, r_syn=1.0, sim=c.sim, logs=c.logs)
    if not c.sim.passed:
        return invalid(
            cfg.reward,
            Stage.SIMULATION,
            mismatch_reason("not equivalent in simulation", c.sim),
            r_syn=1.0,
            sim=c.sim,
            logs=c.logs,
        )
    return None


def formal_stage(s: EvalSetup, c: Candidate) -> EvalResult | None:
    """Formal equivalence where Yosys can decide it, and the clock/reset structure check."""
    cfg = s.config
    c.progress.stage = Stage.FORMAL
    c.formal = formal = with_x_policy(s, c, with_x_faith(s, c, _run_formal(s, c)))
    why = x_faith_refutation(formal) or x_policy_refutation(formal)
    from rtlopt.formal.highz import CANDIDATE as HIGH_Z

    if why:  # equivalent on 0/1, not where the repository feeds x
        pass
    elif c.reach and formal.verdict is not Verdict.REFUTED:  # what reaches past the ports
        why = "unchecked: " + c.reach
    elif formal.structure.startswith(HIGH_Z):  # no clock/reset matter
        why = formal.structure
    elif formal.structure:
        why = f"clock/reset structure check: {formal.structure}"
    elif formal.unchecked:
        why = formal.unchecked
    elif formal.verdict is Verdict.REFUTED:
        from rtlopt.formal import POWERUP_METHOD

        cex = ", ".join(f"{k}={v}" for k, v in list(formal.counterexample.items())[:6])
        why = f"formally not equivalent (counterexample: {cex})"
        if formal.method == POWERUP_METHOD:  # registers without reset: say from which state
            why = f"formally not equivalent: {formal.reason} (counterexample: {cex})"
    elif cfg.formal.enabled and formal.verdict is not Verdict.PROVEN and cfg.formal.require_proof:
        why = f"equivalence not proven: {formal.reason}"
    elif c.time_zero:  # equal on 0/1 and x, not at simulation time 0 (evaluate/_time_zero.py)
        why = "unchecked: " + c.time_zero
    else:  # the simulator's own reading of time 0 (evaluate/_time_zero_sim.py), and on the
        # view path its reading of the texts (evaluate/_text_sim.py)
        why = held_start_difference(s, c) or text_reading_difference(s, c)
    if why:
        return invalid(
            cfg.reward, Stage.FORMAL, why, r_syn=1.0, sim=c.sim, formal=formal, logs=c.logs
        )
    return None


def _run_formal(s: EvalSetup, c: Candidate) -> FormalResult:
    """The formal check (or, with ``formal.enabled`` off, the structure check alone)."""
    cfg = s.config
    files = [*c.lib, c.file]
    if cfg.formal.enabled:
        from rtlopt.formal import check_equivalence

        formal = check_equivalence(
            s.tools,
            files,
            c.dir / "formal",
            cfg.formal,
            memory_mb=cfg.sandbox.memory_mb,
            reference_file=s.formal_reference,
            strict_x=cfg.harness.strict_x,
            initial_values=cfg.harness.initial_values,
            source=(s.design, c.text),
            x_outputs=c.sim.x_outputs if c.sim is not None else (),
            power_up_renamed=c.power_up_renamed,
        )
        c.logs["formal"] = str(c.dir / "formal")
        return formal
    from rtlopt.formal import check_structure

    structure = check_structure(
        s.tools,
        files,
        c.dir / "formal",
        cfg.formal,
        memory_mb=cfg.sandbox.memory_mb,
        reference_file=s.formal_reference,
    )
    unchecked = ""
    if c.sim is not None and c.sim.x_outputs and not structure:
        from rtlopt.formal import check_x_outputs

        unchecked = check_x_outputs(
            s.tools,
            files,
            c.dir / "formal",
            cfg.formal,
            c.sim.x_outputs,
            memory_mb=cfg.sandbox.memory_mb,
            reference_file=s.formal_reference,
            initial_values=cfg.harness.initial_values,
        )
    return FormalResult(
        Verdict.SKIPPED,
        "disabled",
        "formal.enabled = false",
        structure=structure,
        unchecked=unchecked,
    )
