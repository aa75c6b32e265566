#!/usr/bin/env python3
"""Search benchmark (not a timed test): puct, igr and mcts at the same node budget.

Two tasks, each strategy run through the product's loop (``rtlopt.run.Optimizer``) with the
product's evaluator and reward, the same seeds and the same node budget (candidates generated):

* ``proxy``: the learning benchmark's task (``bench/learning.py``: a 4-bit inverter, nangate45,
  ADP) with the CPU model (SmolLM2-135M), learning at test time (``--lr``, 0 = frozen). IGR asks
  the model for its ideas first (the CPU model gives none it can parse; the built-in list then
  fills in, and the table says how many came from where).
* ``lza``: the C910 LZA (``../shared/bench/c910/lza_simd_half``, sky130hd, ADP) with the
  scripted policy handing out ``examples/c910_lza_rewrites`` in order (two proven rewrites, one
  wrong one). The scripted policy ignores its prompts, so this compares what the strategies do
  with the same answers: how many nodes they spend, what they accept, what they keep.

Each strategy samples at its own temperature (EvolVE's 0.6 for igr and mcts, ``policy``'s 1.0
for puct) unless ``--temperature`` is given. Prints one markdown table per task.

    python bench/search.py [--task proxy|lza|both] [--budget 24] [--parents 2] [--n 4]
                           [--tokens 40] [--lr 2e-3] [--lza-budget 9]

Exits 2 when a tool, the model package, the liberty or the C910 data is missing.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))
os.environ.setdefault("RTLOPT_BENCH_PATH", str(REPO.parent / "shared" / "bench"))

from rtlopt.config import (  # noqa: E402
    Config,
    EvalConfig,
    FlowConfig,
    PolicyConfig,
    RunConfig,
    SearchConfig,
    TrainConfig,
)
from rtlopt.evaluate import EvalResult, Evaluator, Stage  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.run import Optimizer, RunEvents, StepRecord  # noqa: E402
from rtlopt.rundir import RunDir  # noqa: E402
from rtlopt.search import effective_temperature  # noqa: E402

STRATEGIES = ("puct", "igr", "mcts")
"""With the seeds' settings: igr one child per chain step (EvolVE), mcts one leaf per iteration,
the entropic budget cap off (TTT-RTL has none). ``--batched`` adds the earlier variants."""
LZA = Path(os.environ["RTLOPT_BENCH_PATH"]) / "c910" / "lza_simd_half"
LZA_TOP = "ct_vfmau_lza_simd_half"
REWRITES = REPO / "examples" / "c910_lza_rewrites"


def _learning() -> Any:
    """bench/learning.py as a module (its proxy task, preflight and config)."""
    spec = importlib.util.spec_from_file_location(
        "rtlopt_bench_learning", REPO / "bench" / "learning.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


@dataclass
class Row:
    """One strategy's run."""

    strategy: str
    temperature: float
    records: list[StepRecord]
    evaluated: list[EvalResult]
    best_ratio: float | None
    best_step: int | None
    nodes_to_best: int | None
    seconds: float
    ideas: str = "-"


def _search(name: str, args: argparse.Namespace, budget: int) -> SearchConfig:
    return SearchConfig(
        sampler=name,
        parents=args.parents,
        node_budget=budget,
        igr_ideas=args.igr_ideas,
        igr_steps=args.igr_steps,
        temperature=args.temperature,
    )


def _paper_train(cfg: Config) -> Config:
    """TTT-RTL's estimator as the paper has it: no budget cap."""
    return replace(cfg, train=replace(cfg.train, budget_cap=0.0))


def _run(name: str, cfg: Config, ev: Evaluator, run_dir: Path, spec: str) -> Row:
    from rtlopt.policy import create_policy

    temp = effective_temperature(cfg.search, cfg.policy.temperature)
    evaluated: list[EvalResult] = []

    seen: set[str] = set()

    def on_eval(step: int, _i: int, res: EvalResult) -> None:
        if res.source_hash not in seen:  # a text seen in an earlier step counts once
            seen.add(res.source_hash)
            evaluated.append(res)

    def on_step(rec: StepRecord) -> None:
        print(
            f"  [{name}] step {rec.step:2d} nodes {rec.nodes:3d} mean {rec.mean_reward:6.3f} "
            f"max {rec.max_reward:6.3f} accepted {rec.accepted}/{rec.rollouts} "
            f"({rec.time_s:.0f} s)",
            flush=True,
        )

    t0 = time.monotonic()
    policy = create_policy(replace(cfg.policy, temperature=temp), cfg.train, seed=cfg.run.seed)
    try:
        opt = Optimizer(ev.design, cfg, ev, policy, run_dir, spec, command=sys.argv)
        opt.prepare(run_dir.name, resume=False)
        out = opt.run(RunEvents(on_eval=on_eval, on_step=on_step))
    finally:
        policy.close()
    seconds = time.monotonic() - t0
    ref = out.reference
    kind = ev.metric_kind
    ratio = (
        out.best.ppa.metric(kind) / ref.ppa.metric(kind)
        if out.best is not None and out.best.ppa is not None and ref.ppa is not None
        else None
    )
    best_step = nodes_to_best = None
    if out.best is not None:
        for rec in out.records:
            if (
                rec.best_metric is not None
                and out.best.ppa is not None
                and abs(rec.best_metric - out.best.ppa.metric(kind)) < 1e-9
            ):
                best_step, nodes_to_best = rec.step, rec.nodes
                break
    ideas = "-"
    state = RunDir(run_dir).read_search()
    if state is not None and state.get("strategy") == "igr":
        srcs = [i["source"] for i in state["ideas"]]
        ideas = ", ".join(
            f"{srcs.count(s)} {s}" for s in ("model", "notes", "built-in") if srcs.count(s)
        )
    return Row(name, temp, out.records, evaluated, ratio, best_step, nodes_to_best, seconds, ideas)


def _compiles(res: EvalResult) -> bool:
    return res.accepted or res.stage not in (Stage.SCREEN, Stage.COMPILE)


def _table(title: str, rows: list[Row], metric: str) -> str:
    head = (
        f"| strategy | T | nodes | steps | mean reward | best reward | distinct "
        f"evaluated | compiling | accepted | best {metric} / ref | nodes to best | "
        "IGR ideas | s |"
    )
    lines = [f"**{title}**", "", head, "|" + "---|" * 13]
    for r in rows:
        means = [x.mean_reward for x in r.records]
        nodes = r.records[-1].nodes if r.records else 0
        lines.append(
            f"| {r.strategy} | {r.temperature:g} | {nodes} | {len(r.records)} | "
            f"{statistics.fmean(means) if means else 0:.3f} | "
            f"{max((x.max_reward for x in r.records), default=0):.3f} | {len(r.evaluated)} | "
            f"{sum(_compiles(x) for x in r.evaluated)} | {sum(x.accepted for x in r.evaluated)} "
            f"| {'-' if r.best_ratio is None else f'{r.best_ratio:.3f}'} | "
            f"{r.nodes_to_best if r.nodes_to_best is not None else '-'} | {r.ideas} | "
            f"{r.seconds:.0f} |"
        )
    return "\n".join(lines)


def proxy(args: argparse.Namespace) -> str:
    """The learning benchmark's task with the CPU model, one run per strategy."""
    learning = _learning()
    learning._preflight(args.pdk)
    from rtlopt.pdk import resolve_pdk

    ns = argparse.Namespace(
        pdk=args.pdk,
        parents=args.parents,
        steps=args.budget,
        n=args.n,
        seed=args.seed,
        delta="fixed",
        kl_coef=0.0,
        tokens=args.tokens,
        threads=args.threads,
    )
    rows = []
    with tempfile.TemporaryDirectory(prefix="rtlopt-search-") as tmp_s:
        tmp = Path(tmp_s)
        repo = learning.proxy_repo(tmp)
        for name in _strategies(args):
            cfg = learning.proxy_config(
                ns, args.lr, tmp / "cache", _search(name, args, args.budget)
            )
            cfg = _paper_train(cfg)
            design = load_design(repo / "rtl" / "inv4.v", "inv4", cfg.project)
            with Evaluator(design, cfg, tmp / f"work-{name}", resolve_pdk(args.pdk)) as ev:
                rows.append(_run(name, cfg, ev, tmp / name, learning.SPEC))
    return _table(
        f"proxy task (inv4, CPU model, lr {args.lr}, budget {args.budget} nodes, "
        f"{args.parents} parents, {args.n} rollouts, {args.tokens} tokens, seed "
        f"{args.seed})",
        rows,
        "ADP",
    )


def lza(args: argparse.Namespace) -> str:
    """The C910 LZA with the scripted rewrites, one run per strategy."""
    if not (LZA / f"{LZA_TOP}.v").exists():
        raise SystemExit(f"error: C910 LZA data not found under {LZA} (set RTLOPT_BENCH_PATH)")
    from rtlopt.pdk import resolve_pdk

    rows = []
    with tempfile.TemporaryDirectory(prefix="rtlopt-search-lza-") as tmp_s:
        tmp = Path(tmp_s)
        repo = tmp / "c910"
        (repo / "rtl").mkdir(parents=True)
        for f in LZA.glob("*.v"):
            shutil.copy(f, repo / "rtl" / f.name)
        subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
        for name in _strategies(args):
            cfg = Config(
                flow=FlowConfig(pdk="sky130hd", metric="adp"),
                eval=EvalConfig(workers=1, cache=True, cache_dir=str(tmp / "cache")),
                search=_search(name, args, args.lza_budget),
                run=RunConfig(steps=args.lza_budget, rollouts=3, seed=args.seed),
                train=TrainConfig(learning_rate=0.0),
                policy=PolicyConfig(backend="scripted", scripted_path=str(REWRITES)),
            )
            design = load_design(repo / "rtl" / f"{LZA_TOP}.v", LZA_TOP, cfg.project)
            with Evaluator(design, cfg, tmp / f"work-{name}", resolve_pdk("sky130hd")) as ev:
                rows.append(_run(name, cfg, ev, tmp / name, "Leading zero anticipator."))
    return _table(
        f"C910 LZA (scripted rewrites, sky130hd, budget {args.lza_budget} nodes, "
        f"{args.parents} parents, 3 rollouts)",
        rows,
        "ADP",
    )


def _strategies(args: argparse.Namespace) -> tuple[str, ...]:
    return STRATEGIES + (("igr-batched", "mcts-batched") if args.batched else ())


BEFORE_B7AE690 = [
    "--parents", "1", "--rollouts", "2", "--max-new-tokens", "512",
    "--set", "policy.max_prompt_tokens=4096", "--set", "train.micro_batch=1",
    "--set", "policy.cpu_threads=0",
]  # fmt: skip
"""The CPU sizing of main at b7ae690 on 2 cores, given explicitly (``before``)."""

PHASES = (("load", "policy"), ("generate", "policy"), ("evaluate", "loop"), ("update", "policy"))


def _phase_child(out: Path, argv: list[str]) -> None:
    """Run ``rtlopt argv`` in this process and write the CPU seconds of each phase of a step
    (this process's own CPU, all threads; the tools' CPU as children) to ``out``."""
    import atexit
    import resource

    from rtlopt.policy import _transformers
    from rtlopt.run import _loop

    phases: dict[str, dict[str, float]] = {}

    def cpu() -> tuple[float, float]:
        me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
        return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime

    def wrap(owner: Any, attr: str, label: str) -> None:
        fn = getattr(owner, attr)

        def timed(*a: Any, **k: Any) -> Any:
            (s0, c0), t0 = cpu(), time.monotonic()
            try:
                return fn(*a, **k)
            finally:
                (s1, c1), d = (
                    cpu(),
                    phases.setdefault(label, dict.fromkeys(("cpu", "tools", "wall"), 0.0)),
                )
                d["cpu"] += s1 - s0
                d["tools"] += c1 - c0
                d["wall"] += time.monotonic() - t0

        setattr(owner, attr, timed)

    owners = {"policy": _transformers.TransformersPolicy, "loop": _loop.Optimizer}
    for label, owner in PHASES:
        wrap(
            owners[owner],
            "__init__" if label == "load" else f"_{label}" if owner == "loop" else label,
            label,
        )
    t_start = time.monotonic()

    def dump() -> None:
        s, c = cpu()
        phases["command"] = {"cpu": s, "tools": c, "wall": time.monotonic() - t_start}
        out.write_text(json.dumps(phases))

    atexit.register(dump)
    sys.argv = ["rtlopt", *argv]
    from rtlopt.cli import main as cli_main

    cli_main()


def step_cost(args: argparse.Namespace) -> str:
    """One step of `rtlopt optimize` with the default CPU policy on the bundled priority
    encoder: main's CPU sizing at b7ae690 (given explicitly) against today's default, in one
    run, with the CPU seconds of each phase (load, generation, evaluation, update)."""
    example = REPO / "examples" / "priority_encoder"
    runs = {"before (b7ae690's sizing)": BEFORE_B7AE690, "after (default)": []}
    rows, times = [], {}
    for label, extra in runs.items():
        with tempfile.TemporaryDirectory(prefix="rtlopt-step-") as tmp_s:
            repo = Path(tmp_s) / "repo"
            shutil.copytree(example, repo)
            subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
            rd, js = Path(tmp_s) / "run", Path(tmp_s) / "phases.json"
            argv = [
                sys.executable, str(Path(__file__).resolve()), "--phase-child", str(js),
                "optimize", "rtl/prio_enc.v", "-m", "prio_enc", "--pdk", args.pdk,
                "--steps", "1", "--no-branch", "--run-dir", str(rd), *extra,
            ]  # fmt: skip
            load0 = os.getloadavg()[0]
            r = subprocess.run(argv, cwd=repo, capture_output=True, text=True)
            ph = json.loads(js.read_text()) if js.is_file() else {}
            steps = (
                [json.loads(x) for x in (rd / "steps.jsonl").read_text().splitlines()]
                if (rd / "steps.jsonl").is_file()
                else []
            )
            rollouts = rd / "rollouts.jsonl"
            n = len(rollouts.read_text().splitlines()) if rollouts.is_file() else 0
            toks = steps[0].get("tokens", "-") if steps else "-"
            cells = [f"{ph.get(k, {}).get('cpu', float('nan')):.1f}" for k, _ in PHASES]
            tools = ph.get("evaluate", {}).get("tools", float("nan"))
            step_cpu = sum(
                ph.get(k, {}).get("cpu", 0.0) for k in ("generate", "evaluate", "update")
            ) + (0.0 if tools != tools else tools)
            times[label] = step_cpu
            wall = float(steps[0]["time_s"]) if steps else float("nan")
            rows.append(
                f"| {label} | {n} | {toks} | "
                + " | ".join(cells)
                + f" | {tools:.1f} | {step_cpu:.0f} | {wall:.0f} | "
                f"{(load0 + os.getloadavg()[0]) / 2:.1f} | {r.returncode} |"
            )
            if r.returncode not in (0, 1):
                print(r.stderr[-2000:], file=sys.stderr)
    a, b = times.values()
    head = [
        f"one step of the default CPU run on {os.cpu_count()} cores: CPU seconds per phase "
        f"(rtlopt's own, all threads; tools as children); step CPU after / before: {b / a:.2f}",
        "",
        "| run | rollouts | answer tokens | load | generate | evaluate | update | tools | "
        "step CPU s | step wall s | load avg | exit |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    return "\n".join(head + rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--task", choices=("proxy", "lza", "both", "step-cost"), default="both")
    ap.add_argument("--batched", action="store_true", help="also igr-batched and mcts-batched")
    ap.add_argument("--budget", type=int, default=24, help="proxy task: node budget")
    ap.add_argument("--lza-budget", type=int, default=9, help="LZA: node budget")
    ap.add_argument("--parents", type=int, default=2)
    ap.add_argument("--n", type=int, default=4, help="rollouts per prompt (puct, igr)")
    ap.add_argument("--tokens", type=int, default=40)
    ap.add_argument("--lr", type=float, default=2e-3, help="0: frozen model")
    ap.add_argument("--igr-ideas", type=int, default=6)
    ap.add_argument("--igr-steps", type=int, default=3)
    ap.add_argument("--temperature", type=float, default=None)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--pdk", default="nangate45")
    ap.add_argument("--json", type=Path, default=None, help="also write the tables here")
    if len(sys.argv) > 2 and sys.argv[1] == "--phase-child":
        _phase_child(Path(sys.argv[2]), sys.argv[3:])
        return 0
    args = ap.parse_args()
    tables = []
    if args.task == "step-cost":
        tables.append(step_cost(args))
    if args.task in ("lza", "both"):
        tables.append(lza(args))
    if args.task in ("proxy", "both"):
        tables.append(proxy(args))
    print("\n" + "\n\n".join(tables))
    if args.json is not None:
        args.json.write_text(json.dumps({"tables": tables, "argv": sys.argv}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
