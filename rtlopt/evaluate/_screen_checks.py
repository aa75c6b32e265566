"""The screen's checks of what the tools read beyond the candidate's own text: the repository
reaching into the target, macros holding synthesis pragmas, what simulators read, and on the
SystemVerilog view path (no preprocessed unit) the carried state, power-up values, qualifier
claims, switched-off code and other configurations (the preprocess stage,
:func:`rtlopt.evaluate._stages.preprocess_stage`)."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

from rtlopt.evaluate._candidate import Candidate, invalid
from rtlopt.evaluate._power_up import power_up_unchecked
from rtlopt.evaluate._qualifier_rules import qualifier_claims
from rtlopt.evaluate._setup import EvalSetup
from rtlopt.results import EvalResult, Stage

if TYPE_CHECKING:
    from pathlib import Path

    from rtlopt.evaluate._alternatives import OtherBuilds
    from rtlopt.evaluate._preprocess import Preprocessed
    from rtlopt.frontend._open_inputs import OpenInput
    from rtlopt.frontend.model import Design

log = logging.getLogger(__name__)

__all__ = [
    "placed_state",
    "repository_reaches",
    "simulators",
    "view_build_modes",
    "view_claims",
    "view_configurations",
    "view_power_up",
    "view_state_left",
    "view_time_zero",
]


def view_state_left(s: EvalSetup, c: Candidate) -> EvalResult | None:
    """On the SystemVerilog view path: a candidate that leaves the files after it another
    pass-through state than the repository's file with its module (``_placement.state_left``,
    the file's own directives around the module read around the candidate) is unchecked."""
    from rtlopt.evaluate._placement import state_left
    from rtlopt.evaluate._preprocess import directives_before_module

    t = s.design.target
    whole = t.file.read_text(errors="replace")
    copy = directives_before_module(c.text)
    why = state_left(c.text, whole, (t.start, t.end), [], t.name, copy_of_file=copy)
    why = why or _view_macro_made(s, c)
    if not why:
        return None
    return invalid(s.config.reward, Stage.SCREEN, "unchecked: " + why, r_syn=0.0, logs=c.logs)


def _view_macro_made(s: EvalSetup, c: Candidate) -> str:
    """A pass-through directive a macro of the candidate writes (``_placement.macro_made_in``
    on its text expanded by slang, directives kept); one slang cannot expand: unchecked."""
    from rtlopt.evaluate._placement import macro_made_in
    from rtlopt.harness._expanded import expanded, uses_macros
    from rtlopt.verilog import blank_comments

    if not uses_macros(blank_comments(c.text, strings=False)):
        return ""
    try:
        body = expanded(c.text, s.design, directives=True)
        context = expanded("", s.design, directives=True)
    except RuntimeError as exc:
        return f"the candidate's macros cannot be expanded to read the directives they set ({exc})"
    return macro_made_in(c.text, body, context)


def placed_state(s: EvalSetup, c: Candidate, pp: Preprocessed) -> str:
    """Why the candidate written back reads otherwise than its proof: another pass-through
    state left after it (``_placement.state_left``), one a macro of it writes (its
    preprocessed text ``pp``: ``_placement.macro_made_state``), a language mode or directive
    state a build of the repository compiles it in where it does not compile
    (``_build_modes``)."""
    from rtlopt.evaluate._build_modes import build_mode_unchecked
    from rtlopt.evaluate._placement import macro_made_state

    assert s.unit is not None
    return (
        s.unit.state_left(c.text)
        or macro_made_state(c.text, pp.text, pp.lines)
        or build_mode_unchecked(s.design, c.text, c.dir, s.workdir)
    )


def view_build_modes(s: EvalSetup, c: Candidate) -> EvalResult | None:
    """On the SystemVerilog view path: the language modes and directive states a build of
    the repository may compile the target in (``_build_modes``)."""
    from rtlopt.evaluate._build_modes import build_mode_unchecked

    why = build_mode_unchecked(s.design, c.text, c.dir, s.workdir)
    if not why:
        return None
    return invalid(s.config.reward, Stage.SCREEN, "unchecked: " + why, r_syn=0.0, logs=c.logs)


def view_power_up(s: EvalSetup, c: Candidate) -> EvalResult | None:
    why = power_up_unchecked(s, c, None)  # the repository's macros expanded
    if not why:
        return None
    return invalid(s.config.reward, Stage.SCREEN, "unchecked: " + why, r_syn=0.0, logs=c.logs)


def view_time_zero(s: EvalSetup, c: Candidate) -> EvalResult | None:
    """On the SystemVerilog view path: why simulation time 0 may tell the candidate from the
    reference (``evaluate/_time_zero.py``, the texts as written), kept in ``c.time_zero``
    for the formal stage (a broken change is refuted first); never a rejection here."""
    from rtlopt.evaluate._time_zero import time_zero_unchecked

    c.time_zero = time_zero_unchecked(s, c, None)
    return None


def view_claims(s: EvalSetup, c: Candidate) -> EvalResult | None:
    why = qualifier_claims(c.text, s.design)
    if not why:
        return None
    return invalid(s.config.reward, Stage.SCREEN, "unchecked: " + why, r_syn=0.0, logs=c.logs)


def view_configurations(s: EvalSetup, c: Candidate) -> EvalResult | None:
    """On the SystemVerilog view path (one slang view per side, no preprocessed unit): the
    other configurations of the macros the design tests (other than the flow's) in which the
    candidate reads differently are left in ``c.other_configs``, each proven like the
    defaults by the configuration stage (``evaluate/_view_configs.py``);
    ``harness.other_configurations = "ignore"`` states there is none."""
    from rtlopt.evaluate._configs import TOOL_MACROS, external_macros, tested_macros
    from rtlopt.evaluate._macros import package_files
    from rtlopt.harness import same_as_reference
    from rtlopt.verilog import blank_comments

    if same_as_reference(c.text, s.design):
        return None  # the repository's own bytes read as the repository reads them, anywhere
    off = _view_switched_off(s, c) or simulators(s, c, frozenset()) or repository_reaches(s, c)
    if off:
        return invalid(s.config.reward, Stage.SCREEN, "unchecked: " + off, r_syn=0.0, logs=c.logs)
    if s.config.harness.other_configurations != "check":
        return None
    d = s.design
    builds = _view_builds(s, c)
    if builds.why:
        why = f"another build of the repository reads the design differently ({builds.why})"
        return invalid(s.config.reward, Stage.SCREEN, "unchecked: " + why, r_syn=0.0, logs=c.logs)
    files = [d.modules[n].file for n in d.submodules if n in d.modules] + list(builds.files)
    files += package_files(d, [d.target.file.read_text(errors="replace"), c.text])
    from rtlopt.evaluate._macros import configuration_macros, design_text, reached_modules
    from rtlopt.harness._verification_only import hardware_reading, verification_only

    # a build defining FORMAL alone is no configuration to prove (harness/_verification_only)
    whole = blank_comments(d.target.file.read_text(errors="replace"), strings=False)
    whole = hardware_reading(d, whole)
    code = hardware_reading(d, blank_comments(c.text, strings=False))
    # the macros the design uses: not those of other modules of the file nothing reached
    # instantiates (their directives count)
    reached = reached_modules(d, [design_text(whole, {d.target.name})], code)
    used = design_text(whole, reached) + "\n" + design_text(code, reached)
    found = (
        tested_macros(whole)
        | tested_macros(code)
        | external_macros(files, d.include_dirs, hardware=verification_only(d))
        # a macro whose definition a conditional elsewhere selects (`ifdef F `define OP &)
        | configuration_macros(d, used, files, reached)
    ) - TOOL_MACROS
    c.builds = list(builds.builds)  # each proven by the configuration stage
    if not found:
        return None
    from rtlopt.evaluate._view_configs import view_configurations

    why = view_configurations(s.design, c, found)
    if why:
        return invalid(s.config.reward, Stage.SCREEN, "unchecked: " + why, r_syn=0.0, logs=c.logs)
    return None


def _view_builds(s: EvalSetup, c: Candidate) -> OtherBuilds:
    """The other builds of the modules the reference or the candidate instantiates (another
    repository file's definition of one: ``evaluate/_alternatives.py``)."""
    from rtlopt.evaluate._alternatives import other_builds

    d = s.design
    names = set(d.submodules) | {
        w for w in re.findall(r"[A-Za-z_][\w$]*", c.text) if w in d.modules
    }
    files = {d.modules[n].file for n in names if n != d.target.name and n in d.modules}
    return other_builds(d, sorted(files - {d.target.file}))


def _view_switched_off(s: EvalSetup, c: Candidate) -> str:
    """Why the candidate's module changes code the SystemVerilog view's defines (the
    project's, and ``SYNTHESIS``) switch off, or a conditional directive in it: the view
    reads one branch, so every other one must stay as the repository has it (as
    :func:`switched_off_change` on the Verilog path); "" when it does not."""
    from rtlopt.evaluate._configs import switched_off_tokens
    from rtlopt.evaluate._reporting_blocks import without_reporting_blocks
    from rtlopt.harness._verification_only import hardware_reading
    from rtlopt.verilog import blank_comments, module_spans

    name = s.design.target.name
    defined = {*s.design.defines, "SYNTHESIS"}

    def module(text: str, line: int = 0) -> str:
        spans = [m for m in module_spans(text) if m.name == name]
        span = next((m for m in spans if m.line == line), spans[0] if spans else None)
        code = blank_comments(text if span is None else text[span.start : span.end], strings=False)
        code = hardware_reading(s.design, code)  # a build defining FORMAL alone: not compared
        return without_reporting_blocks(code, defined)  # assertions that only report

    ref = module(s.design.target.file.read_text(errors="replace"), s.design.target.line)
    try:
        same = switched_off_tokens(ref, defined) == switched_off_tokens(module(c.text), defined)
    except ValueError as exc:
        return f"the module's conditionals do not nest ({exc})"
    if same:
        return ""
    return (
        "the change touches code that the defines of the SystemVerilog view (SYNTHESIS and the "
        "project's) switch off, or a conditional directive inside the module; rtlopt proves "
        "only the branches they select, so keep every other branch and directive as the "
        "repository has it"
    )


def repository_reaches(s: EvalSetup, c: Candidate) -> str:
    """Why a changed candidate is unchecked because another file's unit-scope declaration
    may take the place of a name it reads (``evaluate/_unit_scope.py``) or a pragma macro
    is used (``evaluate/_pragma_macros.py``), or "". Why it is unchecked because the
    repository reaches into the target where the proof does not look
    (``evaluate/_reach.py``), or its instances of the target cannot be read, or one fed x
    has other parameters (``frontend/_open_inputs.py``), is left in ``c.reach`` for the
    formal stage: a difference at the ports refutes the change first.

    The inputs the repository feeds x or z (an instance leaves one unconnected, ties it to
    x/z, or connects it to a net nothing or only x/z drives; a testbench in another language
    writes one with a value that may be x) are left in ``c.x_inputs``
    (and ``c.x_z``): the formal stage proves the candidate x-faithful there
    (:mod:`rtlopt.formal.xfaith`)."""
    from rtlopt.evaluate._reach import repository_reach
    from rtlopt.evaluate._unit_scope import unit_scope_capture
    from rtlopt.harness import same_as_reference

    if same_as_reference(c.text, s.design):
        return ""
    why = unit_scope_capture(s.design, c.text, s.workdir)
    if why:
        return why  # the proofs may read the change otherwise than the repository does
    # the proofs read the change as the repository does, short of what reaches past its
    # ports: kept for the formal stage (``c.reach``), so that a broken change is still
    # refuted with its failing input and an equivalent one is unchecked
    reach = repository_reach(*_repository(s))
    c.reach = _x_fed(s, c) if not reach else reach
    return _pragma_macros(s, c)


def _repository(s: EvalSetup) -> tuple[Design, Path]:
    """The design and scratch root the analyses of what the repository does to the target
    read: a parameter check's copy reads the repository's own (:attr:`Design.origin`)."""
    o = s.design.origin
    return (o.design, o.scratch) if o is not None else (s.design, s.workdir)


def _x_fed(s: EvalSetup, c: Candidate) -> str:
    """The inputs the repository feeds x into ``c.x_inputs``; why the change is unchecked
    when the repository's instances cannot be read (fail closed), else ""."""
    from rtlopt.evaluate._decoys import decoy_reason
    from rtlopt.evaluate._foreign_x import foreign_x_inputs, xprop_reason
    from rtlopt.evaluate._tb_x import tb_x_inputs
    from rtlopt.evaluate._tb_x_params import other_parameters
    from rtlopt.frontend import _open_inputs as oi

    repo, own = _repository(s)
    # a header or library module a build may resolve to another file (``evaluate/_decoys.py``)
    why = decoy_reason(repo, own)
    if why:
        return why
    try:
        found = oi.open_inputs(repo)
    except RuntimeError:
        return oi.open_inputs_reason(repo)
    # a Verilog testbench the elaboration does not read or follow (``evaluate/_tb_x.py``);
    # one the build holds with an error is elaborated as its own build instead
    tb = tb_x_inputs(repo, own)
    found = [o for o in found if not {p.resolve() for p in (o.file, o.net_file) if p} & tb.replaced]
    c.x_inputs, c.x_z = oi.fed_ports(found)
    # a testbench in another language writing the target's inputs (a cocotb test's
    # ``dut.s.value = "x"``, one handing ``dut`` to a driver library, a do-file's ``force
    # /tb/dut/s X``, a VHDL testbench): x from it too (``evaluate/_foreign_x.py``)
    foreign = foreign_x_inputs(repo, own)
    c.x_powerup_only = bool(found) and all(o.kind == "powerup" for o in found)
    c.x_powerup_only = c.x_powerup_only and not foreign.ports
    if found:
        c.x_source = found[0].source(s.design.target.name, s.design.root)
        c.x_source += oi.unparsed_hint(found, repo)
    if foreign.ports:
        c.x_inputs = tuple(dict.fromkeys([*c.x_inputs, *foreign.ports]))
        c.x_z = c.x_z or foreign.z
        c.x_source = c.x_source or foreign.source
    if tb.ports:
        powerup = bool(tb.found) and all(o.kind == "powerup" for o in tb.found)
        c.x_powerup_only = powerup and (c.x_powerup_only or not c.x_inputs)
        c.x_inputs = tuple(dict.fromkeys([*c.x_inputs, *tb.ports]))
        c.x_z = c.x_z or tb.z
        c.x_source = c.x_source or tb.source
    found = _more_x(s, c, repo, found)
    _x_reading_change(s, c)
    ports = s.design.parameter_check
    _parameter_inputs(s, c)
    if c.x_inputs:
        log.info("%s: inputs fed x by the repository: %s", s.design.target.name, c.x_inputs)
        # a simulator's x-propagation mode reads x otherwise than the proof (round 74)
        why = xprop_reason(repo, own)
        if why:
            return why
    # an instance fed x under another build's defines is judged by its parameters too; an
    # instance's own values are a configuration the parameter check evaluates, x proof and
    # all, where it runs (every configuration of the repository, in a parameter check's own
    # designs too: red-team round 107's x-fed instance at W = 16, proven there)
    if ports is not None or s.config.harness.parameterizations:
        return other_parameters(s.design)
    return _other_parameters(s, [*found, *tb.found]) or other_parameters(s.design)


def _x_reading_change(s: EvalSetup, c: Candidate) -> None:
    """Every input may be x where the change adds an operator reading x as a value
    (``evaluate/_x_readers.py``)."""
    from rtlopt.evaluate._x_readers import added_reader, changed_with_reader

    t = s.design.target
    own = t.file.read_text(errors="replace")[t.start : t.end]
    added = added_reader(own, c.text) or changed_with_reader(
        own, c.text, lambda: _reference_reads(s), lambda: _candidate_reads(s, c)
    )
    if added is None:
        return
    inputs = [p.name for p in t.ports if p.direction != "output"]
    if set(inputs) <= set(c.x_inputs):
        return
    c.x_powerup_only = False
    c.x_inputs = tuple(dict.fromkeys([*c.x_inputs, *inputs]))
    c.x_source = c.x_source or (
        f"the change reads x as a value otherwise than the reference, {added}: a "
        "simulation's x on any input (an undriven line, an input before its first write) "
        "is decided otherwise"
    )


def _reference_reads(s: EvalSetup) -> list[str]:
    """What the reference reads, for the x-reading operators: its unit preprocessed (the
    target and the modules below it, macros expanded), and every macro, function or task
    outside the modules of the files and headers it reads."""
    from rtlopt.evaluate._x_readers import outside_readers
    from rtlopt.harness._hierarchy import hierarchy_texts

    hit = _REFERENCE_READS.get(id(s))
    if hit is None or hit[0] is not s:  # once per evaluation setup, not per candidate
        out = [s.unit.unit_text()] if s.unit is not None else []
        out += [outside_readers(d.text) for d in hierarchy_texts(s.design).texts]
        if len(_REFERENCE_READS) > 8:
            _REFERENCE_READS.clear()
        hit = _REFERENCE_READS[id(s)] = (s, out)
    return hit[1]


#: Evaluation setup id -> (the setup, what its reference reads): :func:`_reference_reads`.
_REFERENCE_READS: dict[int, tuple[EvalSetup, list[str]]] = {}


def _candidate_reads(s: EvalSetup, c: Candidate) -> list[str]:
    """What the candidate reads, for the x-reading operators: its preprocessed text and the
    repository's modules it instantiates (preprocessed where the unit is)."""
    from rtlopt.errors import RtloptError
    from rtlopt.frontend import parse_text

    out = [c.pp.text if c.pp is not None else c.text]
    try:
        mods = parse_text(c.text, "candidate.v")
    except RtloptError:
        return out
    defined = [m.name for m in mods]
    used = [i for m in mods for i in m.instances]
    if s.unit is not None:
        return [*out, s.unit.library_text(defined, used)]
    for name in dict.fromkeys(used):
        found = s.design.modules.get(name) if name not in defined else None
        try:
            out.append(found.text() if found is not None else "")
        except OSError:
            continue
    return out


def _more_x(s: EvalSetup, c: Candidate, repo: Design, found: list[OpenInput]) -> list[OpenInput]:
    """Joins into ``c`` the x of a top's generate branch a build's parameter setting turns
    on, of the values the repository leaves open and of a branch only those take; ``found``
    with the open values' instances."""
    from rtlopt.evaluate._open_x import branch_x, open_value_inputs
    from rtlopt.evaluate._tb_x_params import param_x_inputs
    from rtlopt.frontend import _open_inputs as oi

    # a top's generate branch a build's parameter setting turns on (``evaluate/_tb_x_params.py``)
    px = param_x_inputs(s.design)
    if px.ports:
        powerup = bool(px.found) and all(o.kind == "powerup" for o in px.found)
        c.x_powerup_only = powerup and (c.x_powerup_only or not c.x_inputs)
        c.x_inputs = tuple(dict.fromkeys([*c.x_inputs, *px.ports]))
        c.x_z = c.x_z or px.z
        c.x_source = c.x_source or px.source
    # and under the values the repository leaves open (a top's parameter, a macro no build
    # sets: ``evaluate/_open_x.py``, red-team round 111), named after the others' sources
    extra = open_value_inputs(repo)
    if extra:
        opened, z = oi.fed_ports(extra)
        powerup = all(o.kind == "powerup" for o in extra)
        c.x_powerup_only = powerup and (c.x_powerup_only or not c.x_inputs)
        c.x_inputs = tuple(dict.fromkeys([*c.x_inputs, *opened]))
        c.x_z = c.x_z or z
        c.x_source = c.x_source or extra[0].source(s.design.target.name, s.design.root)
        found = [*found, *extra]
    # a branch no elaboration here takes, which an open value may (round 112): fail closed
    branched, where = branch_x(repo)
    if branched:
        c.x_powerup_only = False
        c.x_inputs = tuple(dict.fromkeys([*c.x_inputs, *branched]))
        c.x_z, c.x_source = True, c.x_source or where
    return found


def _parameter_inputs(s: EvalSetup, c: Candidate) -> None:
    """In a parameter check's copy, the x-fed inputs the repository's own target has (a
    parameter made an input is the proof's: no instance feeds it), and the inputs standing
    for 4-state parameters, which an override may give x or z bits (red-team round 116)."""
    ports, fed = s.design.parameter_check, s.design.x_fed
    if ports is not None:
        c.x_inputs = tuple(p for p in c.x_inputs if p in ports)
    if fed:
        c.x_powerup_only, c.x_z = False, True
        c.x_inputs = tuple(dict.fromkeys([*c.x_inputs, *fed]))
        c.x_source = c.x_source or f"an override with x bits of parameter {', '.join(fed)}"


def _other_parameters(s: EvalSetup, found: list[OpenInput]) -> str:
    """Why the change is unchecked because an instance fed x has other parameters than the
    defaults (the x-faithfulness proof reads the target with its defaults), or ""."""
    from rtlopt.frontend._params import parameterizations

    fed = {o.reaches.rpartition(".")[0] if o.reaches else o.instance for o in found}
    if not fed:
        return ""
    sets = parameterizations(s.design)
    default = next((p for p in sets if "defaults" in p.where), None)
    for p in sets:
        hit = sorted(fed & set(p.where))
        if hit and (default is None or p.values != default.values):
            return (
                f"the repository feeds x into inputs of its instance {hit[0]} of "
                f"{s.design.target.name}, which has other parameters ({p.label()}) than the "
                "module's defaults, and the proof that the change reads x as the reference "
                "does reads the module with its defaults only"
            )
    return ""


def _pragma_macros(s: EvalSetup, c: Candidate) -> str:
    """Why a changed candidate is unchecked because it or the reference's design uses a macro
    whose body holds a synthesis pragma comment (``evaluate/_pragma_macros.py``), or ""."""
    from rtlopt.evaluate._pragma_macros import pragma_macro_use
    from rtlopt.harness._hierarchy import hierarchy_texts

    texts = [t.text for t in hierarchy_texts(s.design).texts]
    return pragma_macro_use(s.design, c.text, texts)


def simulators(s: EvalSetup, c: Candidate, defined: frozenset[str]) -> str:
    """Why the candidate may read otherwise than the reference where a simulator reads the
    text (``SYNTHESIS`` undefined, a simulator's own macro) and rtlopt proves nothing, or ""
    (``evaluate/_sim_reading.py``)."""
    from rtlopt.evaluate._sim_reading import module_simulator_change

    t = s.design.target
    return module_simulator_change(
        s.design, t.file.read_text(errors="replace")[t.start : t.end], c.text, defined
    )
