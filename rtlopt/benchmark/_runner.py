"""Running a benchmark suite: one optimization per design, resumable, with the suite's testbench.

A bench output folder holds one run directory per design (``<out>/runs/<design>/``) and, once
a design is finished, its outcome (:attr:`rtlopt.rundir.RunDir.bench_json`). Rerunning the same
bench skips designs with an outcome and resumes the others from their last checkpoint
(:meth:`rtlopt.run.Optimizer.prepare` with ``resume=True``).

Every accepted design (formally/simulation-equivalent with PPA) is additionally simulated
against the suite's own testbench (:func:`rtlopt.benchmark.suite.run_suite_testbench`); when the
best one fails it, the next-best accepted candidate of the run is tried. A design that cannot
be measured (parse error, reference that does not synthesize, ...) gets a status and a reason,
never an exception.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Any

from rtlopt import session
from rtlopt.benchmark._outputs import (
    BenchOutputs,
    bench_rows,
    reference_rows,
    write_bench_outputs,
    write_reference_tables,
)
from rtlopt.benchmark._results import (
    BenchEvents,
    BenchOptions,
    BenchStatus,
    DesignResult,
    ReferenceResult,
    _Cancelled,
)
from rtlopt.benchmark._tasks import _reason, _run_designs, task_events, task_options
from rtlopt.benchmark.suite import (
    SuiteDesign,
    SuiteTbResult,
    load_suite,
    module_names,
    run_suite_testbench,
)
from rtlopt.errors import RtloptError, UsageError
from rtlopt.evaluate import Evaluator, TaskContext
from rtlopt.policy import load_spec
from rtlopt.run import RunEvents, StepRecord
from rtlopt.rundir import RunDir, write_json
from rtlopt.verilog import module_spans

__all__ = [
    "BenchEvents",
    "BenchOptions",
    "BenchOutputs",
    "BenchStatus",
    "DesignResult",
    "ReferenceResult",
    "accepted_candidates",
    "bench_rows",
    "default_workers",
    "guarded_optimize",
    "measure_references",
    "optimize_design",
    "reference_rows",
    "run_bench",
    "write_bench_outputs",
    "write_reference_tables",
]

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------------------------------
# Per-design set-up


def default_workers(jobs: int) -> int:
    """Evaluation workers per design when ``jobs`` designs run at once (cores / jobs, >= 1)."""
    return max(1, (os.cpu_count() or 1) // max(1, jobs))


def _target(d: SuiteDesign, opts: BenchOptions, extra: Mapping[str, Any]) -> session.Target:
    """Open a design with the bench's overrides (``eval.workers`` defaults to cores / jobs)."""
    overrides = {**opts.overrides, **extra}
    if overrides.get("eval.workers") is None:
        overrides["eval.workers"] = default_workers(opts.jobs)
    return session.open_target(
        session.TargetSpec(
            d.reference_file,
            d.module,
            overrides=overrides,
            config_file=opts.config_file,
            liberty=opts.liberty,
        )
    )


def _known(d: SuiteDesign, reason: str) -> str:
    return f"{reason} (known issue: {d.known_issue})" if d.known_issue else reason


# ---------------------------------------------------------------------------------------------
# Reference-only pass


def _measure_one(d: SuiteDesign, opts: BenchOptions) -> ReferenceResult:
    t0 = time.monotonic()
    try:
        target = _target(d, opts, {"eval.workers": 1, "eval.cache": False})
    except RtloptError as exc:
        return ReferenceResult(
            d.name, BenchStatus.LOAD_ERROR, _known(d, _reason(exc)), seconds=time.monotonic() - t0
        )
    work = opts.out_dir / "references" / d.name
    kind = target.metric
    try:
        with session.open_evaluator(target, work) as ev:
            ref = ev.reference()
    except (RtloptError, OSError, ValueError) as exc:
        return ReferenceResult(
            d.name, BenchStatus.UNMEASURABLE, _known(d, _reason(exc)), seconds=time.monotonic() - t0
        )
    finally:
        if not target.config.eval.keep_scratch:
            shutil.rmtree(work, ignore_errors=True)
    value = session.metric_value(ref, kind)
    p = ref.ppa
    status = BenchStatus.MEASURED if value is not None else BenchStatus.UNMEASURABLE
    detail = "" if value is not None else _known(d, ref.reason or f"no positive {kind} metric")
    if value is not None and d.known_issue:
        detail = f"known issue: {d.known_issue}"
    return ReferenceResult(
        d.name,
        status,
        detail,
        area_um2=p.area_um2 if p else None,
        delay_ps=p.delay_ps if p else None,
        power_uw=p.power_uw if p else None,
        metric=kind,
        ref_metric=value,
        seconds=time.monotonic() - t0,
    )


def measure_references(
    opts: BenchOptions,
    events: BenchEvents | None = None,
    designs: Sequence[SuiteDesign] | None = None,
) -> list[ReferenceResult]:
    """Measure the reference of every design (area, delay, power, metric), ``jobs`` at once.

    Raises:
        UsageError: unknown suite kind, missing folder or unknown design names.
    """
    events = events or BenchEvents()
    suite = (
        list(designs)
        if designs is not None
        else load_suite(opts.kind, opts.suite_path, opts.designs)
    )

    def lost(d: SuiteDesign, exc: BaseException) -> ReferenceResult:
        return ReferenceResult(d.name, BenchStatus.ERROR, f"worker lost: {_reason(exc)}")

    return _run_designs(suite, _reference_task, opts, events, lost, cpus=1)


# ---------------------------------------------------------------------------------------------
# Optimization pass


def accepted_candidates(run_dir: Path, kind: str) -> list[tuple[float, str, Path]]:
    """The accepted candidates of a run, best (lowest metric) first.

    Returns:
        ``(metric, source hash, .v path)`` per accepted candidate with PPA numbers.
    """

    def damaged(path: Path, exc: UsageError) -> None:
        log.warning("skipping unreadable candidate record %s: %s", path, exc.message)

    found: list[tuple[float, str, Path]] = []
    for c in RunDir(run_dir).iter_candidates(damaged):
        value = session.metric_value(c.result, kind)
        if c.result.accepted and value is not None and c.code_path is not None:
            found.append((value, c.result.source_hash or c.hash, c.code_path))
    found.sort(key=lambda t: (t[0], t[1]))
    return found


def _scripted_path(d: SuiteDesign, root: Path) -> Path | None:
    per_design = root / d.name
    if per_design.is_dir():
        return per_design
    if root.is_file() or any(p.suffix in (".v", ".sv") for p in root.iterdir() if p.is_file()):
        return root
    return None


def _with_helpers(candidate: str, reference: str, target: str) -> str:
    """``candidate`` plus the reference file's other modules it does not define itself.

    A rewrite may keep instantiating the reference's helper modules (RTLLM's ``full_adder``);
    the suite testbench compiles only the testbench and the candidate, so they travel along.
    """
    own = set(module_names(candidate))
    extra: list[str] = []
    end = 0
    for span in module_spans(reference):  # top-level modules (a nested one travels inside)
        if span.start >= end and span.name != target and span.name not in own:
            extra.append(reference[span.start : span.end])
        end = max(end, span.end)
    return "\n\n".join([candidate, *extra]) if extra else candidate


def _suite_gate(
    d: SuiteDesign,
    ref_text: str,
    accepted: Sequence[tuple[float, str, Path]],
    work: Path,
    memory_mb: int | None = None,
) -> tuple[int | None, str, int]:
    """Pick the best accepted candidate that passes the suite's testbench.

    The testbench runs under the sandbox's memory limit (``memory_mb``), like every candidate.

    Returns:
        (index into ``accepted`` or None, verdict text, number of candidates rejected).
    """
    if d.testbench is None:
        return (0 if accepted else None), "n/a: the suite has no testbench for this design", 0
    ref_tb = run_suite_testbench(d, ref_text, work / "reference", memory_mb=memory_mb)
    if not ref_tb.passed:
        note = f"n/a: the reference fails its own testbench ({ref_tb.detail})"
        return (0 if accepted else None), _known(d, note), 0
    last: SuiteTbResult | None = None
    for i, (_m, h, vf) in enumerate(accepted):
        text = _with_helpers(vf.read_text(), ref_text, d.module)
        last = run_suite_testbench(d, text, work / h[:16], memory_mb=memory_mb)
        if last.passed:
            return i, f"passed ({last.detail})", i
        log.info(
            "%s: accepted candidate %s fails the suite testbench: %s", d.name, h[:12], last.detail
        )
    detail = last.detail if last is not None else "no accepted candidate"
    return None, f"failed: {detail}", len(accepted)


def optimize_design(
    d: SuiteDesign,
    opts: BenchOptions,
    events: BenchEvents | None = None,
    *,
    rdir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> DesignResult:
    """Optimize one design resumably and gate its accepted designs with the suite testbench.

    Args:
        d: The design.
        opts: Bench options (configuration overrides, PDK, candidates, ...).
        events: Progress callbacks and the cancel flag.
        rdir: Run directory (default ``<out>/runs/<design>``); a ``bench.json`` in it means
            finished: its recorded result is returned without running anything.
        overrides: Extra dotted configuration overrides on top of ``opts.overrides``.

    Returns:
        The design's result (also written to ``<rdir>/bench.json`` unless the design was
        skipped for lack of candidates).

    Raises:
        KeyboardInterrupt: interrupted (the run stays resumable).
        RtloptError: infrastructure failure (tool crash, missing model, ...).
    """
    events = events or BenchEvents()
    t0 = time.monotonic()
    rd = RunDir(rdir if rdir is not None else opts.out_dir / "runs" / d.name)
    done = _recorded(d, rd)
    if done is not None:
        return done

    def result(status: str, detail: str, **kw: Any) -> DesignResult:
        return DesignResult(
            d.name, status, detail, run_dir=str(rd.path), seconds=time.monotonic() - t0, **kw
        )

    extra: dict[str, Any] = dict(overrides or {})
    if opts.candidates is not None:
        path = _scripted_path(d, opts.candidates)
        if path is None:
            res = result(BenchStatus.SKIPPED, f"no candidates in {opts.candidates / d.name}")
            return res  # not recorded: adding candidates later runs the design
        extra.update({"policy.backend": "scripted", "policy.scripted_path": str(path.resolve())})
    try:
        target = _target(d, opts, extra)
    except RtloptError as exc:
        return _record(result(BenchStatus.LOAD_ERROR, _known(d, _reason(exc))), rd)
    resumed = rd.state.is_file()
    rd.path.mkdir(parents=True, exist_ok=True)
    kind = target.metric
    with session.open_evaluator(target, rd.workdir) as ev:
        try:
            ref = ev.reference()
        except (RtloptError, OSError, ValueError) as exc:
            return _record(result(BenchStatus.UNMEASURABLE, _known(d, _reason(exc))), rd)
        ref_m = session.metric_value(ref, kind)
        if ref_m is None:
            reason = _known(d, ref.reason or f"the reference has no positive {kind} metric")
            return _record(result(BenchStatus.UNMEASURABLE, reason, metric=kind), rd)
        steps_done = _run_design(d, target, ev, rd, opts, events)
    base = {
        "metric": kind,
        "ref_metric": ref_m,
        "steps": steps_done,
        "resumed": resumed,
        "max_reward": _max_reward(rd),
        "rollouts": _rollouts(rd),
    }
    memory_mb = target.config.sandbox.memory_mb
    return _record(_choose(d, rd, kind, ref_m, opts.suite_tb, result, base, memory_mb), rd)


def _recorded(d: SuiteDesign, rd: RunDir) -> DesignResult | None:
    """The outcome recorded by an earlier bench on this design, if any."""
    if not rd.bench_json.is_file():
        return None
    try:
        return DesignResult.from_json(json.loads(rd.bench_json.read_text()))
    except (OSError, ValueError, TypeError):
        log.warning("%s: unreadable %s, running the design again", d.name, rd.bench_json)
        return None


def _run_design(
    d: SuiteDesign,
    target: session.Target,
    ev: Evaluator,
    rd: RunDir,
    opts: BenchOptions,
    events: BenchEvents,
) -> int:
    """Run (or resume) the optimization of one design and write its report; steps done."""
    cfg = target.config

    def on_phase(step: int, phase: str) -> None:
        if events.cancel.is_set():
            raise _Cancelled()

    def on_step(rec: StepRecord) -> None:
        if events.on_step:
            events.on_step(d.name, rec.step, cfg.run.steps)

    spec = d.description.strip() or load_spec(cfg.project.spec, target.design.target.header_comment)
    plan = session.RunPlan(f"bench-{d.name}", rd.path, spec, resume=True, command=opts.command)
    if events.on_start:
        events.on_start(d.name)
    with closing(session.load_policy(cfg)) as policy:
        outcome = session.optimize(
            target, ev, policy, plan, RunEvents(on_phase=on_phase, on_step=on_step)
        )
    try:
        session.finish(target, outcome, plan)
    except (RtloptError, OSError, ValueError) as exc:
        log.warning("%s: report not written: %s", d.name, _reason(exc))
    return outcome.steps_done


def _choose(
    d: SuiteDesign,
    rd: RunDir,
    kind: str,
    ref_m: float,
    suite_tb: bool,
    result: Callable[..., DesignResult],
    base: Mapping[str, Any],
    memory_mb: int | None = None,
) -> DesignResult:
    """The design's result: its best accepted candidate that passes the suite's testbench."""
    accepted = accepted_candidates(rd.path, kind)
    if not accepted:
        return result(BenchStatus.NO_ACCEPTED, "no candidate passed the equivalence gates", **base)
    if suite_tb:
        ref_text = d.reference_file.read_text(errors="replace")
        idx, verdict, rejected = _suite_gate(d, ref_text, accepted, rd.suite_tb, memory_mb)
    else:
        idx, verdict, rejected = 0, "not run (--no-suite-tb)", 0
    if idx is None:
        return result(
            BenchStatus.TB_REJECTED,
            f"all {len(accepted)} accepted candidates fail the suite testbench",
            suite_tb=verdict,
            tb_fallbacks=rejected,
            **base,
        )
    value, h, vf = accepted[idx]
    chosen = rd.read_candidate(vf.stem)
    reward = chosen.reward if chosen is not None else None
    ratio = value / ref_m
    status = BenchStatus.IMPROVED if ratio < 1.0 - 1e-9 else BenchStatus.NO_IMPROVEMENT
    shutil.copyfile(vf, rd.bench_best_v)
    detail = "" if rejected == 0 else f"{rejected} better candidate(s) failed the suite testbench"
    return result(
        status,
        detail,
        best_metric=value,
        ratio=ratio,
        best_reward=reward,
        candidate=h,
        suite_tb=verdict,
        tb_fallbacks=rejected,
        **base,
    )


def _max_reward(rd: RunDir) -> float | None:
    """Best reward of any rollout of the run (accepted or not), from its checkpoint."""
    try:
        state = rd.read_state()
    except UsageError:
        return None
    return state.best_reward if state is not None else None


def _rollouts(rd: RunDir) -> int:
    """Candidates the run generated (its node count), from its checkpoint."""
    try:
        state = rd.read_state()
    except UsageError:
        return 0
    return state.nodes if state is not None else 0


def _record(res: DesignResult, rd: RunDir) -> DesignResult:
    write_json(rd.bench_json, res.to_json())
    return res


def guarded_optimize(
    d: SuiteDesign,
    opts: BenchOptions,
    events: BenchEvents,
    *,
    rdir: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    label: str | None = None,
) -> DesignResult:
    """:func:`optimize_design` that turns any failure but an interrupt into an ``error`` row.

    ``label`` renames the result's design (ablation rows); ``events.on_done`` gets the result.
    """
    t0 = time.monotonic()
    rdir = rdir if rdir is not None else opts.out_dir / "runs" / d.name
    try:
        res = optimize_design(d, opts, events, rdir=rdir, overrides=overrides)
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # noqa: BLE001 - one design's failure must not stop the bench
        log.exception("%s: bench run failed", d.name)
        res = DesignResult(
            d.name,
            BenchStatus.ERROR,
            _reason(exc),
            run_dir=str(rdir),
            seconds=time.monotonic() - t0,
        )
    if label is not None:
        res = replace(res, design=label)
    if events.on_done:
        events.on_done(res)
    return res


def run_bench(
    opts: BenchOptions,
    events: BenchEvents | None = None,
    designs: Sequence[SuiteDesign] | None = None,
) -> list[DesignResult]:
    """Optimize every design of the suite (``jobs`` at once), resumably.

    Finished designs (with a ``bench.json``) are not run again; interrupted ones resume. A
    design that fails gets a status and a reason; only an interrupt (Ctrl-C, or
    ``events.cancel``) stops the bench, leaving every run resumable.

    Raises:
        UsageError: unknown suite kind, missing folder or unknown design names.
        KeyboardInterrupt: interrupted.
    """
    events = events or BenchEvents()
    suite = (
        list(designs)
        if designs is not None
        else load_suite(opts.kind, opts.suite_path, opts.designs)
    )
    if opts.candidates is not None and not opts.candidates.exists():
        raise UsageError("candidates not found", path=opts.candidates)
    opts.out_dir.mkdir(parents=True, exist_ok=True)

    def lost(d: SuiteDesign, exc: BaseException) -> DesignResult:
        # not recorded: rerunning the bench resumes the design from its checkpoint
        return DesignResult(
            d.name,
            BenchStatus.ERROR,
            f"worker lost: {_reason(exc)}",
            run_dir=str(opts.out_dir / "runs" / d.name),
        )

    cpus = int(opts.overrides.get("eval.workers") or 1)
    return _run_designs(suite, _optimize_task, opts, events, lost, cpus=cpus)


# ---------------------------------------------------------------------------------------------
# Designs as executor tasks (threads here, or Ray tasks on a cluster)


def _reference_task(d: SuiteDesign, ctx: TaskContext, opts: BenchOptions) -> ReferenceResult:
    ctx.report(("start", d.name))
    res = _measure_one(d, task_options(opts, ctx))
    ctx.report(("done", res))
    return res


def _optimize_task(d: SuiteDesign, ctx: TaskContext, opts: BenchOptions) -> DesignResult:
    return guarded_optimize(d, task_options(opts, ctx), task_events(ctx))
