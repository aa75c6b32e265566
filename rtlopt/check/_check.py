"""`rtlopt check`: guard a repository's modules on every commit or pull request.

For every Verilog file changed against a base revision (HEAD for a pre-commit hook, the merge
base with ``--base REF`` in CI), each changed module is checked against its version at the base:
the interface must be unchanged; modules required to stay equivalent (the base's
``check.optimization_only``, commit trailers: :mod:`rtlopt.check._rules`) must be equivalent
(simulation and formal); and the figure of merit must not worsen by more than
``check.ppa_threshold``. This file holds the report and the judging of one module;
:mod:`rtlopt.check._gate` runs a check.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import shutil
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.check._ppa_compare import compare_ppa, percent_text, ratio
from rtlopt.config import Config
from rtlopt.errors import DesignError, RtloptError
from rtlopt.evaluate import Evaluator
from rtlopt.harness._verification_only import NOT_JUDGED
from rtlopt.results import EvalResult, Stage, Status, Verdict
from rtlopt.shown import md_code, md_text
from rtlopt.verilog import ModuleSpan, module_spans

log = logging.getLogger(__name__)


@dataclass
class ModuleCheck:
    """The verdict on one changed module."""

    file: str
    module: str
    change: str  # modified, added, removed
    interface: str = "same"  # "same" or what changed
    equivalence: str = "-"  # proven, unknown, refuted, mismatch, not required
    before: Any = None  # PPA
    after: Any = None  # PPA
    metric_change: float | None = None  # relative change of the figure of merit
    findings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    tool_error: bool = False  # a tool crashed or timed out: not checked, no verdict
    rule: str = ""  # "required (why)" / "not required"; empty when nothing was judged
    proof: str = ""  # the second proof's replay folder (kept with run_check(proofs=...))

    @property
    def ok(self) -> bool:
        return not self.findings


@dataclass
class CheckReport:
    base: str
    metric: str
    threshold: float
    modules: list[ModuleCheck]
    notes: list[str] = field(default_factory=list)
    headline: str = ""  # said first: e.g. that no changed module is required to stay equivalent
    environment: str = ""  # said next: the configuration keys the environment overrides
    ppa: bool = True  # PPA measured ([check] ppa)

    @property
    def ok(self) -> bool:
        return all(m.ok for m in self.modules)

    @property
    def could_not_check(self) -> bool:
        """Only tool failures stand in the way (exit 3, not a finding against the change)."""
        return not self.ok and all(m.ok or m.tool_error for m in self.modules)

    def markdown(self) -> str:
        """The pull-request summary: one row per judged module with its rule."""
        lines = [f"### rtlopt check against {md_code(self.base[:12])}", ""]
        if self.headline:
            lines += [f"**{cell(self.headline)}**", ""]
        lines += [cell(self.environment), ""] if self.environment else []
        lines += [
            "| module | file | change | rule | interface | equivalence | area | delay | "
            f"{self.metric.upper()} | result |",
            "|---|---|---|---|---|---|---:|---:|---:|---|",
        ]
        for m in self.modules:

            def delta(attr: str, m: ModuleCheck = m) -> str:
                if m.before is None or m.after is None:
                    return "-"
                return percent_text(ratio(getattr(m.before, attr), getattr(m.after, attr)))

            result = "pass" if m.ok else "FAIL: " + "; ".join(m.findings)
            # every cell that carries a name, a path or a reason is escaped: a module named
            # `x | pass |` or a finding quoting a comment must not forge a cell
            cells = [code_cell(m.module), code_cell(m.file)]
            cells += [
                cell(c)
                for c in (
                    m.change,
                    m.rule or "-",
                    m.interface,
                    m.equivalence,
                    delta("area_um2"),
                    delta("delay_ps"),
                    percent_text(m.metric_change),
                    result,
                )
            ]
            lines.append("| " + " | ".join(cells) + " |")
        if not self.modules:
            lines.append("| - | - | no Verilog module changed | | | | | | | pass |")
        return "\n".join(lines) + "\n"


def cell(text: str) -> str:
    """One markdown table cell: the one place a cell's text is formatted (a pipe or a line
    break would end the cell or the row; HTML, links and backticks from a candidate or the
    repository are shown as text: ``rtlopt.shown.md_text``)."""
    return md_text(text)


def code_cell(text: str) -> str:
    """A name or path as a code span no backtick inside it can close."""
    return md_code(text)


def _relative(files: Sequence[Path], top: Path) -> list[str]:
    rels = []
    for f in files:
        p = Path(f).resolve() if Path(f).is_absolute() else (Path.cwd() / f).resolve()
        try:
            rels.append(p.relative_to(top).as_posix())
        except ValueError:
            raise DesignError("file is outside the repository", path=f) from None
    return rels


def keep_proofs(checked: Sequence[ModuleCheck], proofs: Path | None) -> None:
    """Copy the replay folders out of the scratch folder (``proofs``), or forget them."""
    for mc in checked:
        if mc.proof and proofs is not None and Path(mc.proof).is_dir():
            dest = proofs / mc.module
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(mc.proof, dest)
            mc.proof = str(dest)
        else:
            mc.proof = ""


def _file_changes(
    rel: str,
    text: str,
    old_text: str,
    modules: list[ModuleCheck | _Job],
    removed: dict[str, tuple[str, str]],
    added: dict[str, str],
) -> bool:
    """Append one file's added, changed and removed modules; True when a module is to be
    evaluated. A change outside the modules (a `define, an `include, a `default_nettype the
    modules read) makes every module of the file a changed one."""
    new_mods = {m.name: m for m in module_spans(text)}
    old_mods = {m.name: m for m in module_spans(old_text)}
    outside = outside_modules(text, new_mods.values()) != outside_modules(
        old_text, old_mods.values()
    )
    changed = False
    for name, mod in new_mods.items():
        if name not in old_mods:
            modules.append(ModuleCheck(rel, name, "added", notes=["new module"]))
            added[name] = text[mod.start : mod.end]
            continue
        old = old_mods[name]
        # any byte counts: a comment can be a tool directive (translate_off, full_case)
        if not outside and old_text[old.start : old.end] == text[mod.start : mod.end]:
            continue
        changed = True
        modules.append(_Job(rel, name, text, mod.line))
    for name, old in old_mods.items():
        if name not in new_mods:
            modules.append(ModuleCheck(rel, name, "removed", notes=["module removed"]))
            removed[name] = (rel, old_text[old.start : old.end])
    return changed


def _duplicate_modules(tree: Path, modules: list[ModuleCheck | _Job]) -> None:
    """A new module whose name another file of the repository after the change also defines:
    which one a tool reads depends on its file order, so the change is a finding."""
    from rtlopt.check._git import VERILOG_SUFFIXES

    new = {m.module: m for m in modules if isinstance(m, ModuleCheck) and m.change == "added"}
    if not new:
        return
    for path in sorted(tree.rglob("*")):
        if not path.name.endswith(VERILOG_SUFFIXES) or not path.is_file():
            continue
        rel = path.relative_to(tree).as_posix()
        text = path.read_text(errors="replace")
        for span in module_spans(text):
            m = new.get(span.name)
            if m is None or rel == m.file or any("also defined" in f for f in m.findings):
                continue
            if path.resolve() != (tree / m.file).resolve():  # a symlink to it is the same file
                m.findings.append(
                    f"module {span.name} is also defined in {rel}: which one a tool reads "
                    "depends on the file order; rename one of them"
                )


def _captured_modules(
    base: Path, modules: list[ModuleCheck | _Job], removed: dict[str, tuple[str, str]]
) -> None:
    """A new module whose name a text of the repository before the change instantiates and
    none declares (a cell of a library outside the repository, a black box): defined now, it
    becomes those instances, which no proof compares (a module the base declares is
    :func:`_duplicate_modules`' and :func:`_moved_modules`')."""
    from rtlopt.harness._captured import used_names

    new = {
        m.module: m
        for m in modules
        if isinstance(m, ModuleCheck) and m.change == "added" and m.module not in removed
    }
    for name, where in used_names(base, new, undefined=True).items():
        new[name].findings.append(
            f"module {name} is new, but {where} instantiated a module of that name before the "
            "change that no file defined (a library cell, a primitive or a black box): the new "
            "module becomes those instances; give it another name"
        )


def outside_modules(text: str, spans: Iterable[ModuleSpan]) -> list[str]:
    """The text of a file between its modules."""
    parts, at = [], 0
    for m in sorted(spans, key=lambda m: m.start):
        if m.start < at:
            continue  # nested in the one before
        parts.append(text[at : m.start])
        at = m.end
    return [*parts, text[at:]]


def _moved_modules(
    modules: list[ModuleCheck | _Job], removed: dict[str, tuple[str, str]], added: dict[str, str]
) -> None:
    """A module removed from one file and added to another was moved: with any byte changed,
    the check cannot compare it (its reference would be defined twice in one context), so it
    is a finding, never a new module that passes."""
    for m in modules:
        if not isinstance(m, ModuleCheck) or m.change != "added" or m.module not in removed:
            continue
        src, old = removed[m.module]
        m.notes = [f"moved from {src}"]
        if added[m.module] == old:
            continue
        m.findings.append(
            f"module {m.module} moved from {src} and changed: rtlopt check compares a module "
            "only within its file; move it unchanged in a commit of its own, or keep it in "
            f"{src}"
        )


@dataclass(frozen=True)
class _Job:
    """A changed module waiting for its evaluation: the whole new file is the candidate."""

    rel: str
    name: str
    new_text: str
    line: int = 0
    required: str | None = None  # why it must stay equivalent; None: not required
    why: str = ""  # why a module whose text did not change is judged


def _run_jobs(
    cfg: Config,
    base_tree: Path,
    jobs: Sequence[_Job],
    pdk: Any,
    tmp: Path,
    new_tree: Path | None = None,
) -> dict[int, ModuleCheck]:
    """Evaluate the changed modules, several at once (``eval.workers``; 0: one per core):
    each has its own evaluator and tools, and the order of the report stays the file order."""
    workers = max(1, min(cfg.eval.workers or (os.cpu_count() or 1), len(jobs)))

    def one(job: _Job) -> ModuleCheck:
        # a folder per job: two files may define modules of one name
        return _check_module(cfg, base_tree, job, pdk, tmp / f"job{jobs.index(job)}", new_tree)

    if workers == 1:
        return {id(j): one(j) for j in jobs}
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rtlopt-check") as pool:
        return {id(j): r for j, r in zip(jobs, pool.map(one, jobs), strict=True)}


_CANDIDATE_LINE = re.compile(r"\bcandidate\.v:(\d+)")


def gate_wording(reason: str, rel: str) -> str:
    """An evaluator's reason in the words of a gate: the user's file and its own lines, "the
    change" instead of "the candidate"."""
    text = _CANDIDATE_LINE.sub(lambda m: f"{rel}:{m.group(1)}", reason)
    text = text.replace("fix the candidate", "fix the change")
    text = re.sub(r"\bthe candidate\b", "the change", text)
    text = re.sub(r"\bcandidate\b", "change", text)
    first = re.search(re.escape(rel) + r":(\d+):?\s*", text)
    if first is None:
        return f"the change to {rel}: {text}"
    if first.start() == 0:  # "rel:N: message": said once
        text = text[first.end() :]
    return f"the change to {rel} at line {first.group(1)}: {text}"


def _trace_notes(res: EvalResult) -> list[str]:
    """The failing input and the kept waveform of a refuted module (its scratch folder goes)."""
    from rtlopt.evaluate import failing_lines, keep_trace, load_replay

    kept = keep_trace(res)
    path = kept.logs.get("trace")
    return failing_lines(load_replay(Path(path))) if path else []


def _failed_equivalence(res: EvalResult) -> str:
    """What a rejected module's equivalence column says: ``refuted`` (a formal
    counterexample), ``unknown`` (no proof either way: not a counterexample), ``mismatch``
    (simulation or the netlist disagreed), or the stage that stopped the check (a simulation
    that compared no vector among them)."""
    f = res.formal
    # (a proof of the defaults beside a rejection: another configuration stopped the check)
    if f is not None and res.stage == "formal" and f.verdict is not Verdict.PROVEN:
        return "refuted" if f.verdict is Verdict.REFUTED else "unknown"
    if res.stage in ("simulation", "netlist") and (res.sim is None or res.sim.compared):
        return "mismatch"
    return f"not checked ({res.stage})"


#: The gate's copies of the repository under its temporary folder (``run_check``).
_TREES = r"/(?:tree|new|base|base-config)/"


def repository_text(text: str, tmp: Path) -> str:
    """``text`` naming the repository's files, not the gate's temporary copies of them
    (``<tmp>/tree/core/alu.sv`` -> ``core/alu.sv``); other paths under ``tmp`` (kept logs)
    stay."""
    return re.sub(re.escape(tmp.as_posix()) + _TREES, "", text)


def _in_repository(exc: RtloptError, tmp: Path, top: Path) -> RtloptError:
    """``exc`` naming the repository's files, not the gate's temporary trees they are read
    from: ``core/alu.sv:64``, a path the user can open."""
    exc.message = repository_text(exc.message, tmp)
    exc.hint = repository_text(exc.hint, tmp) if exc.hint else exc.hint
    if exc.path is not None and re.match(re.escape(tmp.as_posix()) + _TREES, exc.path.as_posix()):
        shown = top / repository_text(exc.path.as_posix(), tmp)
        try:
            shown = shown.relative_to(Path.cwd())
        except ValueError:
            pass
        exc.path = shown
    exc.args = (exc.one_line(),)
    return exc


def _parse_change(design: Any, job: _Job, tmp: Path) -> None:
    """Parse the changed file as ``evaluate`` parses a candidate: with the design's sources
    and the macros the target's module sees in its file (its include folders, its in-module
    includes, the filelist's defines). A file that does not parse is an input error (exit 2),
    said at its own line."""
    from rtlopt.frontend import parse_text
    from rtlopt.harness import target_context_text

    tmp.mkdir(parents=True, exist_ok=True)
    context = tmp / "target_context.vh"
    context.write_text(target_context_text(design))
    sources = dataclasses.replace(design.sources, prelude=(*design.prelude, context))
    try:
        parse_text(job.new_text, job.rel, sources=sources)
    except DesignError as exc:
        rel = Path(job.rel)
        where = rel if exc.path in (None, rel, context) else exc.path
        raise DesignError(
            f"syntax error in the change: {exc.message.removeprefix('syntax error: ')}",
            path=where,
            line=None if exc.path == context else exc.line,
            hint="fix the change",
        ) from None


def _second_proof(ev: Evaluator, text: str, res: EvalResult) -> Any:
    """The second, independent proof of a module about to pass on a proof (``None`` when its
    pass does not rest on one): ``rtlopt.formal.second``."""
    if res.status is not Status.OK or res.formal is None:
        return None
    if res.formal.verdict is not Verdict.PROVEN:
        return None
    return ev.confirm(text, res)


def second_proof_failure(reason: str) -> str:
    """Why a module the first proof proved is not kept: the second, independent proof found a
    difference or did not decide (the two proofs disagree), or it could not be run at all
    (an "unchecked" reason: its frontend cannot read the text, a model it does not cover),
    which says nothing against the change but leaves it unchecked."""
    if reason.startswith("unchecked: "):
        return (
            "the second, independent proof could not check it, so the first proof alone does "
            f"not count: {reason.removeprefix('unchecked: ')}"
        )
    return f"the two proofs disagree: {reason}"


def _first_search(cfg: Config, design: Any, job: _Job, tmp: Path) -> Any:
    """A short search for a failing input from the shared power-up state, before the proof,
    for a design without reset (whose proof of a broken edit often runs to the formal limit
    undecided); None when not run."""
    from rtlopt.formal.powerup_search import search_shared_powerup

    target = design.target
    cycles = cfg.check.first_search_cycles
    if cycles <= 0 or len(target.clocks) != 1 or target.resets:
        return None
    return search_shared_powerup(
        design, job.new_text, tmp / f"first-search-{job.name}", steps=cycles, timeout_s=20.0
    )


def _search_undecided(
    cfg: Config, design: Any, job: _Job, mc: ModuleCheck, early: Any, tmp: Path
) -> None:
    """A required module the proof left undecided: the failing input from the shared
    power-up state (a search of ``check.search_cycles``, which may find one that refutes
    where the first, shorter search's did not; else the first search's), a refutation when
    no power-up state of the reference follows the change through it."""
    from rtlopt.formal.powerup_search import search_shared_powerup

    found = None
    if cfg.check.search_cycles > 0:
        found = search_shared_powerup(
            design, job.new_text, tmp / f"search-{job.name}", steps=cfg.check.search_cycles
        )
    if (found is None or not found.lines) and early is not None:
        found = early
    if found is None:
        return
    if found.refuted:  # the undecided proof is no longer the reason
        mc.notes += [f"formal: {f}" for f in mc.findings]
        mc.findings.clear()
        _refuted_by_search(mc, found)
        return
    mc.notes += found.lines


def _refuted_by_search(mc: ModuleCheck, found: Any) -> ModuleCheck:
    """A required module refuted by a failing input from the shared power-up state."""
    mc.equivalence = "refuted"
    differ = next((ln for ln in found.lines if "outputs differ" in ln), "")
    mc.findings.append(
        f"the change to {mc.file} is not equivalent: from the power-up state it shares with "
        "the reference, the failing input below makes the outputs differ, and no power-up "
        f"state of the reference gives the change's outputs ({differ or 'see the waveform'})"
    )
    mc.notes += found.lines
    return mc


def _evaluator(cfg: Config, design: Any, workdir: Path, pdk: Any) -> Evaluator:
    """The evaluator of one judged module. The commit keeps its text: ports in another order
    would rewire positional instances. The gate searches from the shared power-up state
    itself (``check.first_search_cycles``, ``check.search_cycles``), so the formal check does
    not search again (``formal.powerup_*``)."""
    formal = dataclasses.replace(cfg.formal, powerup_first_cycles=0, powerup_search_cycles=0)
    return Evaluator(
        design,
        dataclasses.replace(cfg, formal=formal),
        workdir,
        pdk if cfg.check.ppa else None,
        reorder_ports=False,
        whole_file=True,
    )


def _judge(cfg: Config) -> Any:
    """``evaluate(design, text, workdir)``: a required change judged as the gate judges it."""

    def run(design: Any, text: str, workdir: Path) -> EvalResult:
        with _evaluator(cfg, design, workdir, None) as ev:
            return ev.evaluate(text, equivalence=True)

    return run


def _check_module(
    cfg: Config, tree: Path, job: _Job, pdk: Any, tmp: Path, new_tree: Path | None = None
) -> ModuleCheck:
    from rtlopt.check._new_instances import under_new_instances
    from rtlopt.frontend import load_design

    rel, name = job.rel, job.name
    mc = ModuleCheck(rel, name, "modified" if not job.why else "reached")
    mc.rule = f"required ({job.required})" if job.required else "not required"
    if job.why:
        mc.notes.append(f"judged because {job.why}")
    try:
        design = load_design(tree / rel, name, cfg.project, root=tree)
    except DesignError as exc:
        mc.findings.append(f"could not check: the base version of {rel}: {exc.one_line()}")
        return mc
    _parse_change(design, job, tmp)
    new_src = job.new_text
    opt_only = job.required is not None
    early = _first_search(cfg, design, job, tmp) if opt_only else None
    if early is not None and early.refuted:
        return _refuted_by_search(mc, early)
    with _evaluator(cfg, design, tmp / f"eval-{name}", pdk) as ev:
        res: EvalResult = ev.evaluate(new_src, equivalence=opt_only)
        # the reference's PPA is compared with the change's only where the change has one
        ref = ev.reference() if cfg.check.ppa and res.ppa is not None else None
        kind = ev.metric_kind
        second = _second_proof(ev, new_src, res) if opt_only else None
    if res.is_infrastructure_error:
        mc.findings.append(f"could not check the change to {rel}: {res.reason}")
        mc.tool_error = True
        return mc
    if res.status is not Status.OK and res.stage is Stage.INTERFACE:
        # the evaluator's interface stage: SystemVerilog ports through the elaborated view
        mc.interface = res.reason
        mc.findings.append(f"interface changed: {res.reason}")
        return mc
    if opt_only:
        if res.status is not Status.OK:
            mc.equivalence = _failed_equivalence(res)
            mc.findings.append(gate_wording(res.reason, rel))
            mc.notes += _trace_notes(res)
            if mc.equivalence == "unknown":  # no failing input: search from a shared power-up
                _search_undecided(cfg, design, job, mc, early, tmp)
            return mc
        mc.equivalence = res.formal.verdict.value if res.formal else "simulated"
        if res.formal and res.formal.x_inputs:
            words = ", ".join(res.formal.x_inputs)
            mc.notes.append(f"proven, also where the repository feeds x into {words}")
        if NOT_JUDGED in res.scope:  # the block only the formal build reads
            mc.notes.append(NOT_JUDGED)
        if res.formal and res.formal.verdict is Verdict.UNKNOWN:
            mc.notes.append(f"formal: {res.formal.reason}")
        mc.proof = str(second.replay) if second is not None and second.replay else ""
        if second is not None and not second.agrees:
            mc.equivalence = "unknown"
            mc.findings.append(f"not kept: {second_proof_failure(second.reason)}")
            return mc
        why = under_new_instances(cfg, design, new_tree, rel, name, new_src, _judge(cfg), tmp)
        if why:
            mc.equivalence = "unknown" if "unchecked" in why or "not proven" in why else "refuted"
            mc.findings.append(gate_wording(why, rel))
            return mc
    else:
        mc.equivalence = "not required"
        if res.status is not Status.OK:
            mc.findings.append(gate_wording(res.reason, rel))
            return mc
    if ref is not None and ref.ppa is not None and res.ppa is not None:
        compare_ppa(mc, ref.ppa, res.ppa, kind, cfg.check.ppa_threshold)
    return mc
