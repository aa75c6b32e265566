"""`rtlopt bench`: benchmark suites (RTLLM v2.0, a folder of modules) and the C910 ablation."""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from rtlopt.benchmark import (
    FROZEN,
    LEARNING,
    SUITE_KINDS,
    BenchEvents,
    BenchOptions,
    BenchRow,
    DesignResult,
    ReferenceResult,
    SuiteDesign,
    ablation_markdown,
    ablation_rows,
    arm_results,
    bench_rows,
    bench_trials,
    compare,
    load_c910_design,
    load_paper_table4,
    load_suite,
    measure_references,
    read_rows_csv,
    run_ablation,
    run_bench,
    run_trials,
    seed_summaries,
    seeds_markdown,
    select_configs,
    summarize,
    summary_markdown,
    write_bench_outputs,
    write_reference_tables,
)
from rtlopt.cli._common import (
    EXIT_OK,
    EXIT_REJECTED,
    OPTIMIZE_SECTIONS,
    F,
    SectionedCommand,
    console,
    fmt,
    handle_errors,
    pdk_options,
    run_options,
    run_overrides,
)
from rtlopt.cli._progress import LineProgress
from rtlopt.config import TRAINING_BACKENDS, Config, RewardConfig
from rtlopt.errors import UsageError
from rtlopt.rundir import write_json

# Suites that are not plain layouts: name -> (runner, default path under RTLOPT_BENCH_PATH).
_ABLATION = "c910-ablation"
_DEFAULT_SUBDIR: Mapping[str, str] = {"rtllm": "rtllm", _ABLATION: "c910/lza_simd_half"}


@dataclass(frozen=True)
class _Args:
    suite: str
    suite_path: Path
    out: Path
    overrides: dict[str, Any]
    liberty: Path | None
    designs: tuple[str, ...] | None
    jobs: int
    config_file: Path | None
    candidates: Path | None
    reference_only: bool
    compare: str | None
    suite_tb: bool
    method: str
    rows: tuple[str, ...]
    executor: str = "local"
    ray_address: str | None = None
    jobs_note: str = ""
    seeds: tuple[int, ...] = ()
    frozen_control: bool = False


def _known_suites() -> list[str]:

    return [*SUITE_KINDS, *_SPECIAL]


def _suite_path(suite: str, given: Path | None) -> Path:
    if given is not None:
        return given.resolve()
    sub = _DEFAULT_SUBDIR.get(suite)
    base = os.environ.get("RTLOPT_BENCH_PATH")
    if sub is None or not base:
        raise UsageError(
            f"--suite-path is required for suite '{suite}'",
            hint="pass the suite's folder or set RTLOPT_BENCH_PATH",
        )
    return (Path(base) / sub).resolve()


_BENCH_OPTIONS: list[Callable[[Any], Any]] = [
    click.option(
        "--config",
        "config_file",
        type=click.Path(path_type=Path, exists=True, dir_okay=False),
        default=None,
        help="Configuration file for every design.",
    ),
    click.option(
        "--designs",
        type=str,
        default=None,
        help="Comma-separated design names (default: the whole suite).",
    ),
    click.option(
        "--jobs",
        type=int,
        default=None,
        help="Designs (or ablation rows) at once (default: one per core; 1 with a GPU policy, "
        "which holds the GPU).",
    ),
    click.option(
        "--eval-workers",
        type=int,
        default=None,
        help="Evaluation workers per design (default: cores / jobs).",
    ),
    click.option(
        "--out",
        type=click.Path(path_type=Path),
        default=None,
        help="Bench output folder (default: rtlopt-bench/<suite>-<pdk>); rerunning with "
        "the same folder skips finished designs and resumes interrupted ones.",
    ),
    click.option(
        "--reference-only",
        is_flag=True,
        default=False,
        help="Only measure the references (area, delay, power, metric).",
    ),
    click.option(
        "--compare",
        type=str,
        default=None,
        help="CSV of other methods' per-design ratios, or 'paper' for the TTT-RTL paper's Table 4.",
    ),
    click.option(
        "--no-suite-tb",
        is_flag=True,
        default=False,
        help="Do not run the suite's own testbench on accepted designs.",
    ),
    click.option("--method-name", type=str, default="rtlopt", help="Column name of our ratios."),
    click.option(
        "--seeds",
        type=int,
        default=None,
        help="Runs of every design, each with its own seed (run.seed, +1, ...): the report "
        "gives each design's mean and spread (default: bench.seeds, 3).",
    ),
    click.option(
        "--frozen-control/--no-frozen-control",
        default=None,
        help="A frozen best-of-N run beside every seed with the same sample budget, and "
        "learning minus frozen in the report (default: bench.frozen_control, on).",
    ),
    click.option(
        "--rows",
        type=str,
        default=None,
        help="c910-ablation: comma-separated row slugs (default: the whole grid).",
    ),
]
"""The suite, output and parallelism options of `rtlopt bench` (the run options are
:func:`~rtlopt.cli._common.run_options`, shared with `optimize`)."""


def bench_options(fn: F) -> F:
    """--config, --designs, --jobs, --eval-workers, --out, --reference-only, --compare,
    --no-suite-tb, --method-name, --seeds, --frozen-control, --rows."""
    for option in reversed(_BENCH_OPTIONS):
        fn = option(fn)
    return fn


@click.command(
    cls=SectionedCommand,
    sections=[
        (
            "Suite",
            [
                "suite_path",
                "designs",
                "reference_only",
                "compare",
                "seeds",
                "frozen_control",
                "rows",
                "no_suite_tb",
                "method_name",
                "candidates",
            ],
        ),
        ("Target", ["pdk", "liberty", "metric", "config_file"]),
        *[(t, n) for t, n in OPTIMIZE_SECTIONS if t in ("Model", "Search")],
        ("Training (research settings)", ["lr", "delta", "advantage"]),
        ("Output", ["out", "jobs", "eval_workers"]),
    ],
)
@click.argument("suite", type=str)
@click.option(
    "--suite-path",
    type=click.Path(path_type=Path),
    default=None,
    help="The suite's folder (default: $RTLOPT_BENCH_PATH/rtllm for rtllm, "
    "$RTLOPT_BENCH_PATH/c910/lza_simd_half for c910-ablation).",
)
@pdk_options
@bench_options
@run_options
@click.option(
    "--candidates",
    type=click.Path(path_type=Path),
    default=None,
    help="Scripted candidates: <DIR>/<design>/*.v per design; implies --policy scripted.",
)
@handle_errors
def bench(suite: str, **opts: Any) -> None:
    """Run a benchmark SUITE: `rtllm`, `folder` (a folder of modules) or `c910-ablation`.

    One optimization per design (--jobs designs at once), resumable: rerun the same command to
    skip finished designs and resume interrupted ones. Accepted designs also run the suite's
    own testbench. Writes benchmark.csv/.md (per-design ratios and the paper's summary:
    coverage, geometric means, #improved, #best, complexity bins) and ratios.png.
    `c910-ablation` runs the grid of the paper's Table 3 on ct_vfmau_lza_simd_half.
    Exit 0 when a design improved (reference-only: when one is measurable), 1 when none did,
    2 on bad input.

    \b
    Examples:
      rtlopt bench rtllm --suite-path ../RTLLM --pdk nangate45 --reference-only
      rtlopt bench rtllm --suite-path ../RTLLM --pdk nangate45 --steps 5 --compare paper
      rtlopt bench c910-ablation --steps 10
      rtlopt bench rtllm --pdk nangate45 --executor ray --ray-address auto --eval-workers 4
    """
    known = _known_suites()
    if suite not in known:
        raise UsageError(f"unknown suite kind '{suite}'", hint=f"known: {', '.join(known)}")
    _SPECIAL.get(suite, _run_suite)(_args(suite, opts))


def _args(suite: str, o: dict[str, Any]) -> _Args:
    """The command's options (by option name) as the runners' arguments."""
    candidates: Path | None = o["candidates"]
    policy = o["policy"]
    if candidates is not None:
        if not candidates.exists():
            raise UsageError("candidates not found", path=candidates)
        policy = "scripted"
    named = {
        **run_overrides({**o, "policy": policy}),
        "eval.workers": o["eval_workers"],
    }
    overrides = {k: v for k, v in named.items() if v is not None}
    path = _suite_path(suite, o["suite_path"])
    cfg = _config(path, overrides, o["config_file"])
    n_jobs, jobs_note = design_jobs(o["jobs"], None if o["reference_only"] else _gpu_policy(cfg))
    seeds, control = _seeds(cfg, o["seeds"], o["frozen_control"])
    out: Path | None = o["out"]
    out_dir = (out or Path("rtlopt-bench") / f"{suite}-{o['pdk'] or 'default'}").resolve()
    designs: str | None = o["designs"]
    rows: str | None = o["rows"]
    return _Args(
        suite=suite,
        suite_path=path,
        out=out_dir,
        overrides=overrides,
        liberty=o["liberty"],
        designs=tuple(n.strip() for n in designs.split(",") if n.strip()) if designs else None,
        jobs=n_jobs,
        config_file=o["config_file"],
        candidates=candidates.resolve() if candidates else None,
        reference_only=o["reference_only"],
        compare=o["compare"],
        suite_tb=not o["no_suite_tb"],
        method=o["method_name"],
        rows=tuple(r.strip() for r in rows.split(",") if r.strip()) if rows else (),
        executor=o["executor"] or "local",
        ray_address=o["ray_address"],
        jobs_note=jobs_note,
        seeds=seeds,
        frozen_control=control,
    )


def _config(path: Path, overrides: dict[str, Any], config_file: Path | None) -> Config:
    from rtlopt.config import load_config

    return load_config(path, overrides=overrides, config_file=config_file).config


def _seeds(cfg: Config, seeds: int | None, control: bool | None) -> tuple[tuple[int, ...], bool]:
    """The learning runs' seeds and whether a frozen control runs beside them; one seed and
    no control is the bench's one run per design (no seeds: the run's own seed and folder).
    By default a policy that does not train (scripted, openai, learning rate 0) gets no
    control: its runs are the control's already."""
    n = cfg.bench.seeds if seeds is None else seeds
    if n < 1:
        raise UsageError(f"--seeds must be at least 1, got {n}")
    learns = cfg.policy.backend in TRAINING_BACKENDS and cfg.train.learning_rate > 0
    frozen = (cfg.bench.frozen_control and learns) if control is None else control
    if n == 1 and not frozen:
        return (), False
    return tuple(cfg.run.seed + i for i in range(n)), frozen


def _has_gpu() -> bool:
    """An NVIDIA GPU on this machine (its device file; no torch import)."""
    return Path("/dev/nvidia0").exists() or Path("/proc/driver/nvidia/gpus").is_dir()


def _gpu_policy(cfg: Config) -> str | None:
    """The policy backend if it runs on the GPU (vllm; transformers on cuda), else None."""
    p = cfg.policy
    cuda = p.device == "cuda" or (p.device == "auto" and _has_gpu())
    return p.backend if p.backend == "vllm" or (p.backend == "transformers" and cuda) else None


def design_jobs(jobs: int | None, gpu_policy: str | None) -> tuple[int, str]:
    """Designs at once, and the sentence that says why. A GPU policy builds its engine (vLLM,
    the trainer) per design: two designs on one GPU fail vLLM's free-memory check, so designs
    run one at a time, one engine on the GPU."""
    if jobs is not None and jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if gpu_policy is None:
        n = jobs if jobs is not None else (os.cpu_count() or 1)
        return n, f"{n} design(s) at once" + ("" if jobs else " (one per core)")
    if jobs is not None and jobs > 1:
        raise UsageError(
            f"--jobs {jobs} with the {gpu_policy} policy would start {jobs} engines on one GPU",
            hint="drop --jobs (designs run one at a time on the GPU), or run one bench per GPU "
            "with CUDA_VISIBLE_DEVICES and --designs",
        )
    return 1, f"designs one at a time: the {gpu_policy} policy holds the GPU (one engine)"


def _options(a: _Args) -> BenchOptions:

    kind = a.suite if a.suite not in _SPECIAL else "folder"
    return BenchOptions(
        kind=kind,
        suite_path=a.suite_path,
        out_dir=a.out,
        overrides=a.overrides,
        liberty=a.liberty,
        designs=a.designs,
        jobs=a.jobs,
        config_file=a.config_file,
        candidates=a.candidates,
        suite_tb=a.suite_tb,
        command=tuple(sys.argv),
        executor=a.executor,
        ray_address=a.ray_address,
        seeds=a.seeds,
        frozen_control=a.frozen_control,
    )


def _compare_rows(spec: str | None) -> list[BenchRow] | None:

    if spec is None:
        return None
    if spec == "paper":
        return load_paper_table4()
    p = Path(spec)
    if not p.is_file():
        raise UsageError(
            "comparison CSV not found",
            path=p,
            hint="pass a CSV with design and method columns, or 'paper'",
        )
    return read_rows_csv(p)


def _progress(total: int, label: str) -> LineProgress:
    return LineProgress(total, label=label)


def _events(progress: LineProgress) -> BenchEvents:

    def done(res: DesignResult | ReferenceResult) -> None:
        progress.update(completed=progress.completed + 1, key=f"{res.design}: {res.status}")
        progress.emit()

    def step(name: str, k: int, n: int) -> None:
        progress.update(phase=f"{name}: step {k}/{n}")

    return BenchEvents(on_done=done, on_step=step)


def _run_suite(a: _Args) -> None:

    suite = load_suite(a.suite, a.suite_path, a.designs)
    other = _compare_rows(a.compare)
    console.print(f"{len(suite)} {a.suite} designs from {a.suite_path}; output {a.out}")
    if a.jobs_note:
        console.print(a.jobs_note)
    if a.reference_only:
        _reference_only(a, suite)
    else:
        _optimize_suite(a, suite, other)


def _reference_only(a: _Args, suite: list[SuiteDesign]) -> None:

    t0 = time.monotonic()
    with _progress(len(suite), "references") as progress:
        results = measure_references(_options(a), _events(progress), suite)
    elapsed = time.monotonic() - t0
    table = Table(title="reference measurements")
    for col in ("design", "status", "area um^2", "delay ps", "power uW", "metric", "detail"):
        table.add_column(col, overflow="fold")
    for r in results:
        table.add_row(
            r.design,
            r.status,
            fmt(r.area_um2),
            fmt(r.delay_ps),
            fmt(r.power_uw),
            fmt(r.ref_metric),
            r.detail[:90],
        )
    console.print(table)
    csv_path, md_path = write_reference_tables(results, a.out)
    n_ok = sum(1 for r in results if r.measurable)
    kind = next((r.metric for r in results if r.metric), "")
    console.print(
        f"[bold]{n_ok}/{len(results)} designs measurable[/] ({kind.upper()} metric) "
        f"in {elapsed:.1f} s with {a.jobs} job(s)"
    )
    console.print(f"tables: {csv_path}, {md_path}")
    sys.exit(EXIT_OK if n_ok else EXIT_REJECTED)


def _optimize_suite(a: _Args, suite: list[SuiteDesign], other: list[BenchRow] | None) -> None:

    opts = _options(a)
    if opts.seeds:
        results, other = _seeded(a, opts, suite, other)
    else:
        with _progress(len(suite), "designs") as progress:
            results = run_bench(opts, _events(progress), suite)
    outputs = write_bench_outputs(
        results, a.out, a.method, other, title=f"{a.suite}: best ratio per design"
    )
    table = Table(title="per-design results")
    for col in ("design", "ref metric", f"ratio ({a.method})", "status", "suite tb", "detail"):
        table.add_column(col, overflow="fold")
    for r in results:
        table.add_row(
            r.design,
            fmt(r.ref_metric),
            "-" if r.ratio is None else f"{r.ratio:.3f}",
            r.status,
            (r.suite_tb.split() or ["-"])[0].rstrip(":"),
            r.detail[:80],
        )
    console.print(table)
    console.print("\n[bold]summary[/] (paper's metrics)\n")
    console.print(summary_markdown(outputs.summary), markup=False, soft_wrap=True)
    if other is not None:
        console.print("[bold]comparison data on its own[/] (all its designs)\n")
        console.print(summary_markdown(summarize(other)), markup=False, soft_wrap=True)
    console.print(f"tables: {outputs.csv}, {outputs.markdown}")
    if outputs.chart is not None:
        console.print(f"chart: {outputs.chart}")
    improved = sum(1 for r in results if r.status == "improved")
    console.print(f"{improved}/{len(results)} designs improved")
    sys.exit(EXIT_OK if improved else EXIT_REJECTED)


def _seeded(
    a: _Args, opts: BenchOptions, suite: list[SuiteDesign], other: list[BenchRow] | None
) -> tuple[list[DesignResult], list[BenchRow] | None]:
    """Every seed (and its frozen control) of every design; the per-design means for the usual
    tables (the control as a method column of its own), and seeds.md / trials.json."""
    arms = "learning + frozen control" if opts.frozen_control else "learning"
    console.print(f"{len(opts.seeds)} seed(s) per design ({arms}): seeds {list(opts.seeds)}")
    with _progress(len(bench_trials(suite, opts)), "runs") as progress:
        trials = run_trials(opts, suite, _events(progress))
    write_json(a.out / "trials.json", [t.to_json() for t in trials])
    summaries = seed_summaries(trials)
    text = seeds_markdown(summaries, a.method)
    (a.out / "seeds.md").write_text(text)
    write_json(
        a.out / "seeds.json",
        [{**dataclasses.asdict(s), "verdict": s.verdict} for s in summaries],
    )
    console.print("\n[bold]seeds[/] (learning vs frozen best-of-N)\n")
    console.print(text, markup=False, soft_wrap=True)
    console.print(f"seeds: {a.out / 'seeds.md'}")
    if not opts.frozen_control:
        return arm_results(trials, LEARNING), other
    frozen = bench_rows(arm_results(trials, FROZEN), f"{a.method} frozen")
    return arm_results(trials, LEARNING), (frozen if other is None else compare(frozen, other))


def _run_ablation(a: _Args) -> None:

    if a.reference_only or a.compare:
        raise UsageError("--reference-only and --compare do not apply to c910-ablation")
    design = load_c910_design(a.suite_path)
    configs = select_configs(a.rows or None)
    console.print(f"ablation on {design.module} ({len(configs)} configurations); output {a.out}")
    with _progress(len(configs), "configurations") as progress:
        rows = run_ablation(design, _options(a), configs, _events(progress))
    ref_adp = next((r.result.ref_metric for r in rows if r.result.ref_metric), None)
    rw = RewardConfig()
    text = ablation_markdown(rows, ref_adp, rw.w_syn + rw.w_func + rw.w_ppa)
    (a.out / "ablation.md").write_text(text)
    write_json(a.out / "ablation.json", ablation_rows(rows))
    console.print(text, markup=False, soft_wrap=True)
    console.print(f"table: {a.out / 'ablation.md'}")
    improved = sum(1 for r in rows if r.result.status == "improved")
    sys.exit(EXIT_OK if improved else EXIT_REJECTED)


_SPECIAL: Mapping[str, Callable[[_Args], None]] = {_ABLATION: _run_ablation}
"""Suites that are not plain layouts, by name."""
