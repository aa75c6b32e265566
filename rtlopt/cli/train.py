"""`rtlopt train`: test-time training on a training engine of its own (verl on Ray GPUs)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import click

from rtlopt.cli._common import EXIT_OK, console, escape, existing_file, handle_errors
from rtlopt.errors import ToolFailed, UsageError


@click.command()
@click.argument("target", type=click.Path(path_type=Path))
@click.option("--module", "-m", default=None, help="Target module (when the file has several).")
@click.option(
    "--engine",
    type=click.Choice(["verl"]),
    default="verl",
    show_default=True,
    help="Training engine (verl 0.9: FSDP actor and vLLM rollouts on Ray).",
)
@click.option("--model", required=True, help="Model id or path (every node loads it).")
@click.option("--gpus", type=int, default=8, show_default=True, help="GPUs per node.")
@click.option("--nodes", type=int, default=1, show_default=True, help="Nodes.")
@click.option("--pdk", default=None, help="PDK of the reward (flow.pdk).")
@click.option("--steps", type=int, default=None, help="Training steps (run.steps).")
@click.option(
    "--gpu-memory-utilization",
    type=float,
    default=0.5,
    show_default=True,
    help="vLLM's share of each GPU (colocated with the FSDP actor, which sleeps it).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("rtlopt-verl"),
    show_default=True,
    help="Folder for the dataset rows, the launch script and verl's checkpoints.",
)
@click.option(
    "--dry-run", is_flag=True, default=False, help="Write the rows and launch.sh; start nothing."
)
@handle_errors
def train(
    target: Path,
    module: str | None,
    engine: str,
    model: str,
    gpus: int,
    nodes: int,
    pdk: str | None,
    steps: int | None,
    gpu_memory_utilization: float,
    out: Path,
    dry_run: bool,
) -> None:
    """Train on TARGET's module with verl (GPU machines; docs/scale.md).

    Measures the reference, writes the pool spec from which verl's dataset builds each
    batch's prompts out of rtlopt's state pool (fed back with each batch's rewards, the
    KL-budget controller updated between batches), and starts
    `python -m verl.trainer.main_ppo` with rtlopt's reward (`rtlopt.run.verl`), rtlopt's
    advantage estimator registered in every Ray worker of the job, and lengths and batch
    sizes that pass verl's own checks.

    \b
    Examples:
      rtlopt train rtl/alu.v --model Qwen/Qwen2.5-Coder-7B-Instruct --gpus 8 --pdk sky130
      rtlopt train rtl/alu.v --model Qwen/Qwen3-8B --gpus 1 --dry-run
    """
    from rtlopt.config import load_config
    from rtlopt.run.verl import (
        RewardTask,
        VerlResources,
        plan_verl_launch,
        pool_spec,
        tokenizer_counter,
    )

    file = existing_file(target, "target file")
    overrides = {k: v for k, v in {"flow.pdk": pdk, "run.steps": steps}.items() if v is not None}
    cfg = load_config(file, overrides=overrides).config
    task = RewardTask(str(file), module, overrides=overrides)
    with console.status("measuring the reference ..."):
        spec = pool_spec(task)
    res = VerlResources(model, gpus, nodes, gpu_memory_utilization)
    launch = plan_verl_launch(spec, cfg, out.resolve(), res, tokenizer_counter(model, cfg.policy))
    script = out / "launch.sh"
    script.write_text("#!/bin/sh\nexec " + launch.command() + "\n")
    script.chmod(0o755)
    console.print(
        f"prompt: {launch.prompt_tokens} tokens (counted by {launch.token_count}); "
        f"answer: {launch.response_tokens} tokens"
    )
    console.print(
        f"state pool: {escape(str(launch.spec_file))} (prompts from the {cfg.search.sampler} "
        f"sampler's parents each step; the pool's state in {escape(str(out / 'pool'))})"
    )
    console.print(f"launch: {escape(str(script))}")
    if dry_run:
        sys.exit(EXIT_OK)
    if importlib.util.find_spec("verl") is None:
        raise UsageError(
            "verl is not installed in this Python",
            hint=f"pip install verl (GPU machines), or run {script} where it is",
        )
    code = subprocess.run(launch.argv(), check=False).returncode
    if code:
        raise ToolFailed(f"verl exited with {code}", command=launch.argv()[:4], returncode=code)
    sys.exit(EXIT_OK)
