"""The session: the one way to open a target, evaluate a candidate, optimize and finish a run.

The command line (``evaluate``, ``optimize``) and the benchmark call these functions and only
present what they return; ``check`` uses :func:`resolve_pdk`. The order of a session::

    target = open_target(TargetSpec(file, module, overrides=...))   # config, design, PDK
    evaluation = evaluate(target, text, workdir)                     # or:
    plan = plan_run(target)                                          # run id, dir, branch
    with open_evaluator(target, plan.workdir) as ev:
        ev.reference()
        with closing(load_policy(target.config)) as policy:
            outcome = optimize(target, ev, policy, plan, events)
        finished = finish(target, outcome, plan)                     # report (+ branch)

Everything that can fail on bad input (configuration, design, PDK, policy preflight, git
state) fails in :func:`open_target` and :func:`plan_run`, before any tool or model starts.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt.config import Config, FlowConfig, load_config
from rtlopt.errors import Terminated, UsageError
from rtlopt.evaluate import CacheInputs, Evaluator
from rtlopt.frontend import Design, load_design, with_module
from rtlopt.pdk import PdkInfo
from rtlopt.pdk import resolve_pdk as _resolve_pdk_name
from rtlopt.results import EvalResult

if TYPE_CHECKING:
    from rtlopt.policy import Policy
    from rtlopt.run import FinishResult, RunEvents, RunOutcome

# The policy, run, report and run-directory layers are imported where a function needs them:
# `rtlopt evaluate` (often answered from the cache) must not pay for the optimizer's imports.

__all__ = [
    "Evaluation",
    "ResumePoint",
    "RunPlan",
    "Target",
    "TargetSpec",
    "evaluate",
    "finish",
    "load_policy",
    "metric_value",
    "open_evaluator",
    "open_target",
    "optimize",
    "plan_run",
    "read_resume",
    "resolve_pdk",
]

log = logging.getLogger(__name__)


# ------------------------------------------------------------------------------------- target


@dataclass(frozen=True)
class TargetSpec:
    """What the user points at, and the settings given on top of the configuration files.

    Attributes:
        file: The file that defines the target module.
        module: The module (optional when the file has one top module).
        overrides: Dotted configuration overrides (``{"flow.pdk": "nangate45"}``); ``None``
            values are ignored.
        config_file: A configuration file instead of the one found upward of ``file``.
        include_dirs: Extra include directories (``-I``).
        defines: Extra defines (``-D``).
        liberty: A liberty file instead of the PDK's (wins over ``flow.liberty``).
        with_pdk: Resolve the PDK (false: equivalence only, no synthesis).
    """

    file: Path
    module: str | None = None
    overrides: Mapping[str, Any] = field(default_factory=dict)
    config_file: Path | None = None
    include_dirs: tuple[Path, ...] = ()
    defines: Mapping[str, str] = field(default_factory=dict)
    liberty: Path | None = None
    with_pdk: bool = True


@dataclass(frozen=True)
class Target:
    """A resolved target: its configuration, the parsed design and the PDK.

    Attributes:
        config: The resolved configuration.
        design: The parsed design (target module in its repository).
        pdk: The resolved PDK, ``None`` when opened without one.
        config_files: The configuration files read (the user file, the project file).
    """

    config: Config
    design: Design
    pdk: PdkInfo | None
    config_files: tuple[Path, ...] = ()

    @property
    def metric(self) -> str:
        """The figure of merit in use (``adp`` or ``ppa``)."""
        return self.config.flow.metric_kind


def resolve_pdk(flow: FlowConfig, liberty: Path | None = None) -> PdkInfo:
    """The PDK of a flow configuration, with concrete liberty files.

    Args:
        flow: The flow settings (``pdk``, ``liberty``).
        liberty: A liberty file that wins over ``flow.liberty`` (``--liberty``).

    Raises:
        PluginError: unknown PDK name (listing the known ones).
        UsageError: the liberty file does not exist, or the PDK's is not on the search path.
    """
    lib = liberty or (Path(flow.liberty) if flow.liberty else None)
    if lib is not None and not lib.exists():
        raise UsageError("liberty file not found", path=lib)
    return _resolve_pdk_name(flow.pdk, lib)


# ------------------------------------------------- a default run the machine can finish
#
# The defaults of search.parents (4), run.rollouts (4), policy.max_new_tokens (2048) and
# policy.max_prompt_tokens (8192) are the paper's GPU budget. On a CPU the transformers backend
# generates, scores and trains every token of every rollout itself: the paper's step took 451 s
# on two cores (issue 25); `python bench/search.py --task step-cost` measures a CPU step phase
# by phase (docs/STATUS.md). size_for_hardware scales what the user left at its default to the
# cores of this machine; anything set in a file, the environment or on the command line is
# kept. No torch (nor rtlopt.policy) import: a GPU is read from the NVIDIA device files.

CPU_ANSWER_TOKENS = 512
"""Longest answer on the CPU (the bundled examples' modules take 150-400 tokens)."""

CPU_PROMPT_TOKENS = 2048
"""Prompt budget on the CPU. The update's forward and backward pass over prompt + answer is the
costliest part of a CPU step, and a prompt longer than this holds more than the 512-token answer
can rewrite: a root prompt shows the module once, a child's prompt twice (reference and parent),
so 2048 tokens hold both views of any module whose rewrite fits the answer."""

CPU_MICRO_BATCH = 4
"""Largest micro-batch on the CPU: a step's rollouts go through the update in one batched
forward/backward pass (larger matrix products, one pass of Python overhead); 4 bounds the
completion logits kept for the loss (~4 x 512 x 49k floats)."""


def has_nvidia_gpu() -> bool:
    """An NVIDIA GPU on this machine (its device files)."""
    return Path("/dev/nvidia0").exists() or Path("/proc/driver/nvidia/gpus").is_dir()


def _on_cpu(cfg: Config) -> bool:
    p = cfg.policy
    if p.backend != "transformers":
        return False
    return p.device == "cpu" or (p.device == "auto" and not has_nvidia_gpu())


def size_for_hardware(
    cfg: Config, sources: Mapping[str, str], cores: int | None = None, load: float | None = None
) -> tuple[Config, str | None]:
    """``cfg`` with the paper-sized defaults scaled to a CPU run, and a sentence saying what
    changed (None when nothing did: a GPU, another backend, or every value set by the user).

    On ``cores`` CPU cores (default: this machine's): ``search.parents`` = ``max(1, cores //
    4)`` up to 4, ``run.rollouts`` = 2 below 8 cores (the least a group advantage needs), else
    4, answers up to :data:`CPU_ANSWER_TOKENS` and prompts up to :data:`CPU_PROMPT_TOKENS`,
    the step's rollouts in one update pass (``train.micro_batch``, up to
    :data:`CPU_MICRO_BATCH`) and one torch thread per core that other jobs leave free
    (``policy.cpu_threads``; ``load``: the 1-minute load average, default this machine's).
    """
    if not _on_cpu(cfg):
        return cfg, None
    n = cores or os.cpu_count() or 1
    parents = _kept(cfg, sources, "search.parents", min(4, max(1, n // 4)))
    if cfg.search.sampler == "igr" and cfg.search.igr_children == 1:
        # one child per chain: a learning step needs two chains to share a baseline
        parents = _kept(cfg, sources, "search.parents", max(2, parents))
    rollouts = _kept(cfg, sources, "run.rollouts", 2 if n < 8 else 4)
    want = {
        "search.parents": parents,
        "run.rollouts": rollouts,
        "policy.max_new_tokens": min(cfg.policy.max_new_tokens, CPU_ANSWER_TOKENS),
        "policy.max_prompt_tokens": min(cfg.policy.max_prompt_tokens, CPU_PROMPT_TOKENS),
        "train.micro_batch": max(1, min(CPU_MICRO_BATCH, parents * rollouts)),
        "policy.cpu_threads": _threads(n, load),
    }
    changed = {k: v for k, v in want.items() if k not in sources and _get(cfg, k) != v}
    if not changed:
        return cfg, None
    out = cfg
    for key, value in changed.items():
        section, field = key.split(".")
        sub = dataclasses.replace(getattr(out, section), **{field: value})
        out = dataclasses.replace(out, **{section: sub})
    note = (
        f"CPU run sized for {n} core(s): "
        + ", ".join(f"{k} = {v}" for k, v in changed.items())
        + " (set them to override; the paper's budget needs a GPU)"
    )
    log.info("%s", note)  # the run header shows the sized values
    return out, note


def _threads(cores: int, load: float | None) -> int:
    """torch threads: one per core that the load average leaves idle, at least one. torch's
    threads wait for each other at every matrix product, so on cores that other jobs keep busy
    a second thread spins more than it computes."""
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:
            load = 0.0
    return max(1, min(cores, cores - int(load)))


def _kept(cfg: Config, sources: Mapping[str, str], key: str, sized: int) -> int:
    """``sized``, or the user's value of ``key`` when they set it."""
    value = _get(cfg, key)
    return int(value) if key in sources and isinstance(value, int) else sized


def _get(cfg: Config, key: str) -> object:
    section, field = key.split(".")
    return getattr(getattr(cfg, section), field)


def open_target(spec: TargetSpec) -> Target:
    """Resolve the configuration, parse the design and resolve the PDK.

    Raises:
        UsageError: missing file, bad configuration, unknown plugin name (ConfigError,
            DesignError, PluginError are UsageErrors), missing liberty.
    """
    if not spec.file.exists():
        raise UsageError("target file not found", path=spec.file, hint="check the path")
    if spec.file.is_dir():
        raise UsageError("expected a target file, got a directory", path=spec.file)
    file = spec.file.resolve()
    resolved = load_config(file, overrides=spec.overrides, config_file=spec.config_file)
    cfg, _ = size_for_hardware(resolved.config, resolved.sources)  # the CPU path: a finishing run
    design = load_design(
        file,
        spec.module,
        cfg.project,
        include_dirs=[p.resolve() for p in spec.include_dirs],
        defines=dict(spec.defines),
    )
    if cfg.harness.clocks or cfg.harness.resets:
        from dataclasses import replace

        from rtlopt.frontend import override_roles

        target = override_roles(design.target, cfg.harness.clocks, cfg.harness.resets)
        design = replace(design, target=target, modules=with_module(design.modules, target))
    pdk = resolve_pdk(cfg.flow, spec.liberty) if spec.with_pdk else None
    return Target(cfg, design, pdk, resolved.files)


def open_evaluator(target: Target, workdir: Path, *, reorder_ports: bool = True) -> Evaluator:
    """The target's evaluator with scratch under ``workdir`` (a context manager: its exit
    stops the tool workers). ``reorder_ports``: a candidate is judged with its ports in the
    reference's order (``optimize``, which writes that order back); False judges the text
    as written (a port order that differs is refused: an instance by position)."""
    return Evaluator(target.design, target.config, workdir, target.pdk, reorder_ports=reorder_ports)


def metric_value(result: EvalResult, kind: str) -> float | None:
    """The figure of merit of a result; ``None`` without PPA, or when not positive and finite
    (a design that cannot be compared)."""
    if result.ppa is None:
        return None
    try:
        value = float(result.ppa.metric(kind))
    except ValueError:
        return None
    return value if math.isfinite(value) and value > 0.0 else None


# ------------------------------------------------------------------------------------- evaluate


@dataclass(frozen=True)
class Evaluation:
    """A candidate scored against the reference.

    Attributes:
        reference: The reference's result.
        candidate: The candidate's result.
        metric: The figure of merit in use.
        workdir: Where the scratch files are.
        cache: Where the results are kept and what the evaluator's fingerprint was made from
            (asked for with ``observe``; for a memo of the command, ``rtlopt.inputs``).
    """

    reference: EvalResult
    candidate: EvalResult
    metric: str
    workdir: Path
    cache: CacheInputs | None = None


def evaluate(
    target: Target,
    text: str,
    workdir: Path,
    on_phase: Callable[[str], None] | None = None,
    *,
    observe: bool = False,
) -> Evaluation:
    """Measure the reference, then score ``text`` (screen, equivalence, PPA; a candidate
    proven equivalent is proven again by the second, independent proof before it counts as
    accepted: :meth:`Evaluator.evaluate_confirmed`).

    Args:
        target: The opened target.
        text: The candidate's source.
        workdir: Scratch root.
        on_phase: Told ``"measuring the reference ..."`` and ``"evaluating the candidate ..."``.
        observe: Also say where the results are kept and what they depend on
            (``Evaluation.cache``).
    """
    # the user applies this text, not a reordered one: the candidate is judged as written,
    # so a port order other than the reference's is refused (an instance of the repository,
    # or one a build writes or a macro makes, may connect the target by position; no reading
    # of the repository's texts finds them all). ``optimize`` judges and writes back the
    # reference's order.
    with open_evaluator(target, workdir, reorder_ports=False) as ev:
        cache = ev.cache_inputs() if observe else None  # right after the fingerprint's reads
        if on_phase:
            on_phase("evaluating the candidate ...")
        # accepted only when the second, independent proof agrees (run once, kept with the
        # cached result); the reference is measured where the candidate needs it (its PPA
        # beside the candidate's, the netlist check's gold), not for a candidate rejected
        # before synthesis
        res = ev.evaluate_confirmed(text)
        if on_phase:
            on_phase("measuring the reference ...")
        ref = ev.reference_for(res)
        return Evaluation(ref, res, ev.metric_kind, workdir, cache)


# ------------------------------------------------------------------------------------- optimize


@dataclass(frozen=True)
class ResumePoint:
    """An interrupted or paused run to continue.

    Attributes:
        run_dir: Its run directory.
        target_file: The file of its target module.
        module: The target module.
        config_file: Its recorded configuration (a resumed run keeps it).
        run_id: Its id.
    """

    run_dir: Path
    target_file: Path
    module: str | None
    config_file: Path
    run_id: str


def read_resume(run_dir: Path) -> ResumePoint:
    """What a run directory says about its run, to continue it.

    Raises:
        UsageError: not a run directory.
    """
    from rtlopt.rundir import RunDir

    rd = RunDir(run_dir.resolve())
    try:
        info = rd.read_info()
    except UsageError:
        info = None
    if info is None or not info.target_file:
        raise UsageError(
            "not a run directory (no run.json)",
            path=rd.path,
            hint="pass the folder printed by the interrupted run",
        )
    return ResumePoint(rd.path, Path(info.target_file), info.module or None, rd.config, info.run_id)


@dataclass(frozen=True)
class RunPlan:
    """Where and how a run goes.

    Attributes:
        run_id: The run's id.
        run_dir: Its run directory.
        spec: Specification text for the prompts.
        resume: Continue from the run directory's checkpoint if it has one.
        branch: Branch for the result (``None``: no branch).
        push: Remote to push the branch to.
        command: The command line, for provenance.
        pr: Open a pull request from the pushed branch (or say how).
        started: When the plan was made (``time.monotonic``), for the run's wall time.
    """

    run_id: str
    run_dir: Path
    spec: str
    resume: bool = False
    branch: str | None = None
    push: str | None = None
    command: tuple[str, ...] = ()
    pr: bool = False
    started: float = field(default_factory=time.monotonic)

    @property
    def workdir(self) -> Path:
        """The evaluator's scratch inside the run directory."""
        from rtlopt.rundir import RunDir

        return RunDir(self.run_dir).workdir


def plan_run(
    target: Target,
    *,
    run_dir: Path | None = None,
    resume: ResumePoint | None = None,
    branch: bool = True,
    push: str | None = None,
    command: tuple[str, ...] = (),
    pr: bool = False,
) -> RunPlan:
    """Check that the run can start and end, and choose its id, directory and branch.

    The policy's preflight (model, GPU, endpoint, candidates), the tools on PATH and, with
    ``branch``, the git preflight (target committed and unchanged, branch name free, committer
    known) run here, before any work.

    Args:
        target: The opened target.
        run_dir: Run directory (default ``<repo>/<run.runs_dir>/<run-id>``, kept out of git).
        resume: The run to continue (its directory and id win).
        branch: Write the result on a new branch ``<prefix>/<module>/<run-id>``.
        push: Remote to push the branch to (default ``writeback.push``; with ``pr`` and no
            remote configured, ``origin``).
        command: The command line, for provenance.
        pr: Open a pull request from the pushed branch (``writeback.pull_request``).

    Raises:
        UsageError: the policy cannot run, or the branch could not be written.
    """
    from rtlopt.policy import load_spec, preflight_policy, preflight_reflector
    from rtlopt.rundir import new_run_id

    cfg, design = target.config, target.design
    preflight_policy(cfg.policy)
    preflight_reflector(cfg.reflect)
    run_id = (resume.run_id if resume else "") or new_run_id(design.target.name)
    name = f"{cfg.writeback.branch_prefix}/{design.target.name}/{run_id}"
    # Lazy: gitpython adds ~0.25 s to the start-up of commands that never write a branch.
    from rtlopt.writeback import preflight_optimize

    pr = pr or cfg.writeback.pull_request
    if pr and not branch:
        raise UsageError(
            "a pull request needs the result branch", hint="drop --no-branch, or drop --pr"
        )
    remote = push or cfg.writeback.push or ("origin" if pr else None)
    # tools, branch name, git identity, remote: checked now rather than after the whole run
    preflight_optimize(design, cfg, name if branch else None, push=remote)
    spec = load_spec(cfg.project.spec, design.target.header_comment)
    if resume is not None:
        rdir = resume.run_dir
    elif run_dir is not None:
        rdir = run_dir.resolve()
    else:
        runs = Path(cfg.run.runs_dir)
        runs = runs if runs.is_absolute() else design.root / runs
        rdir = runs / run_id
        _ignore_runs_dir(design.root, runs)
    return RunPlan(
        run_id,
        rdir,
        spec,
        resume=resume is not None,
        branch=name if branch else None,
        push=remote,
        command=command,
        pr=pr,
    )


def _ignore_runs_dir(root: Path, runs: Path) -> None:
    """Keep rtlopt's runs folder inside the repository out of git status.

    The ``.gitignore`` goes inside the runs folder itself, and only when rtlopt creates that
    folder: a folder that exists already may be the user's (``runs_dir = "rtl"``), and a
    ``.gitignore`` beside it or above it would hide the user's own files. Nothing the user
    owns is written.
    """
    runs = Path(os.path.abspath(runs))
    try:
        rel = runs.relative_to(Path(os.path.abspath(root)))
    except ValueError:
        return
    if not rel.parts or ".." in rel.parts or runs.exists():
        return
    runs.mkdir(parents=True)
    (runs / ".gitignore").write_text("# rtlopt run data\n*\n")


def load_policy(config: Config) -> Policy:
    """Preflight and load the configured policy backend (close it when done), sampling at the
    search strategy's temperature (:func:`rtlopt.search.effective_temperature`)."""
    from rtlopt.policy import create_policy
    from rtlopt.search import effective_temperature

    temperature = effective_temperature(config.search, config.policy.temperature)
    return create_policy(
        replace(config.policy, temperature=temperature), config.train, seed=config.run.seed
    )


def optimize(
    target: Target,
    evaluator: Evaluator,
    policy: Policy,
    plan: RunPlan,
    events: RunEvents | None = None,
    *,
    stop_after: int | None = None,
) -> RunOutcome:
    """Run (or continue) the optimization loop in ``plan.run_dir``.

    Args:
        target: The opened target.
        evaluator: Its evaluator (:func:`open_evaluator`).
        policy: The policy (:func:`load_policy`).
        plan: Where and how (:func:`plan_run`).
        events: Progress callbacks.
        stop_after: Pause after this many steps (continue later with a resume).
    """
    from rtlopt.run import Optimizer

    opt = Optimizer(
        target.design, target.config, evaluator, policy, plan.run_dir, plan.spec, plan.command
    )
    try:
        opt.prepare(plan.run_id, resume=plan.resume)
    except (KeyboardInterrupt, Terminated):  # while measuring the reference
        opt.rd.update_info(status="interrupted")
        raise
    return opt.run(events, stop_after=stop_after)


def finish(target: Target, outcome: RunOutcome, plan: RunPlan) -> FinishResult:
    """The report; for a finished run that beat the reference, also the branch and PR body.

    A paused run gets its report so far and no branch. The session's wall time (from
    :func:`plan_run` to here) is added to the run's ``wall_s`` first, so the report shows it.
    """
    from rtlopt.report import generate_report
    from rtlopt.run import FinishResult, finish_run
    from rtlopt.rundir import RunDir

    rd = RunDir(outcome.run_dir)
    info = rd.read_info()
    if info is not None:
        rd.update_info(wall_s=(info.wall_s or 0.0) + time.monotonic() - plan.started)
    if not outcome.finished:
        paths = generate_report(outcome.run_dir)
        return FinishResult(Path(paths.markdown), None, None, "")
    return finish_run(
        outcome, target.design, target.config, branch=plan.branch, push=plan.push, pr=plan.pr
    )
