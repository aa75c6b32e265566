"""`rtlopt doctor`: the plan of an optimization run on this machine, without starting it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from rtlopt.cli._common import EXIT_OK, EXIT_REJECTED, PluginChoice, console, escape, handle_errors
from rtlopt.config import load_config
from rtlopt.plugins import POLICIES
from rtlopt.policy._memory import KV_HEADROOM


@click.command()
@click.argument("target", type=click.Path(path_type=Path), default=".", required=False)
@click.option(
    "--config",
    "config_file",
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    default=None,
    help="Configuration file (default: rtlopt.toml or [tool.rtlopt] found upward).",
)
@click.option(
    "--policy",
    type=PluginChoice(POLICIES),
    default=None,
    help="Policy backend to plan for: transformers, vllm, openai or scripted.",
)
@click.option("--model", type=str, default=None, help="Model id or local path.")
@click.option(
    "--device",
    type=click.Choice(["auto", "cpu", "cuda"]),
    default=None,
    help="Where the transformers backend runs.",
)
@click.option("--lora-rank", type=int, default=None, help="LoRA rank (train.lora_r).")
@click.option("--max-new-tokens", type=int, default=None, help="Longest answer in tokens.")
@click.option("--max-prompt-tokens", type=int, default=None, help="Prompt budget in tokens.")
@click.option("--parents", type=int, default=None, help="Parent states per step.")
@click.option("--rollouts", type=int, default=None, help="Rollouts per parent.")
@click.option(
    "--gpu-memory",
    type=float,
    default=None,
    metavar="GIB",
    help="Plan for a card of this many GiB (as torch reports it: ~79.2 for an 80 GB "
    "card, ~22.5 for a 24 GB one) instead of the detected one.",
)
@click.option("--json", "as_json", is_flag=True, default=False, help="Print the plan as JSON.")
@handle_errors
def doctor(
    target: Path,
    config_file: Path | None,
    policy: str | None,
    model: str | None,
    device: str | None,
    lora_rank: int | None,
    max_new_tokens: int | None,
    max_prompt_tokens: int | None,
    parents: int | None,
    rollouts: int | None,
    gpu_memory: float | None,
    as_json: bool,
) -> None:
    """Print the plan of a run: EDA tools, PDK, backend, model, downloads, versions, memory.

    Nothing is loaded or started. TARGET (default: the current folder) locates the project
    configuration. Exit 0 when the run can start as planned, 1 when something stops it (no GPU
    for a GPU backend, a package too old, a model that cannot be found, memory that does not
    fit), 2 on bad options.

    \b
    Examples:
      rtlopt doctor
      rtlopt doctor --policy vllm --gpu-memory 24
    """
    from rtlopt.policy._doctor import diagnose

    overrides: dict[str, Any] = {
        "policy.backend": policy,
        "policy.model": model,
        "policy.device": device,
        "policy.max_new_tokens": max_new_tokens,
        "policy.max_prompt_tokens": max_prompt_tokens,
        "train.lora_r": lora_rank,
        "search.parents": parents,
        "run.rollouts": rollouts,
    }
    cfg = load_config(target, overrides=overrides, config_file=config_file).config
    d = diagnose(
        cfg.policy,
        cfg.train,
        parents=cfg.search.parents,
        rollouts=cfg.run.rollouts,
        gpu_memory=gpu_memory,
    )
    eda, eda_problems = _eda(cfg)
    if as_json:
        out = _as_json(d)
        out["eda"] = eda
        out["problems"] = [*out["problems"], *eda_problems]
        out["ready"] = d.ready and not eda_problems
        click.echo(json.dumps(out, indent=2))
    else:
        _print_eda(eda, eda_problems)
        _print(d)
    sys.exit(EXIT_OK if d.ready and not eda_problems else EXIT_REJECTED)


#: The programs every evaluation starts.
EDA_TOOLS = ("iverilog", "vvp", "yosys", "sta")


def _eda(cfg: Any) -> tuple[dict[str, Any], list[str]]:
    """The EDA tools (binary and version) and the configured PDK (liberty file), and what is
    missing, without running a flow."""
    from rtlopt.errors import RtloptError
    from rtlopt.session import resolve_pdk
    from rtlopt.tools import require_tool

    tools: dict[str, Any] = {}
    problems: list[str] = []
    for name in EDA_TOOLS:
        try:
            t = require_tool(name)
            tools[name] = {"path": str(t.path), "version": t.version}
        except RtloptError as exc:
            tools[name] = None
            problems.append(f"EDA tool {name}: {exc.one_line()}")
    pdk: dict[str, Any] = {"name": cfg.flow.pdk}
    try:
        info = resolve_pdk(cfg.flow)
        pdk.update(liberty=str(info.liberty), corner=info.corner)
    except RtloptError as exc:
        pdk["error"] = exc.one_line()
        problems.append(f"PDK {cfg.flow.pdk}: {exc.one_line()}")
    return {"tools": tools, "pdk": pdk}, problems


def _print_eda(eda: dict[str, Any], problems: list[str]) -> None:
    t = Table(title="EDA tools and PDK", title_justify="left")
    for col in ("part", "found", "version"):
        t.add_column(col)
    for name, found in eda["tools"].items():
        if found is None:
            t.add_row(name, "[red]missing[/]", "-")
        else:
            t.add_row(name, escape(found["path"]), escape(found["version"]))
    pdk = eda["pdk"]
    if "error" in pdk:
        t.add_row(f"PDK {escape(pdk['name'])}", "[red]not found[/]", "-")
    else:
        t.add_row(f"PDK {escape(pdk['name'])}", escape(pdk["liberty"]), escape(pdk["corner"]))
    console.print(t)
    for p in problems:
        console.print(f"[bold red]problem:[/] {escape(p)}")


def _gib(n: int | None) -> str:
    return "-" if n is None else f"{n / (1 << 30):.1f} GiB"


def _print(d: Any) -> None:
    console.print(f"[bold]path:[/] {escape(d.path)}")
    console.print(
        f"GPU: {escape(d.gpu or 'none visible')}"
        + (f" (torch built for CUDA {d.torch_cuda})" if d.torch_cuda else "")
    )
    if d.model is not None:
        console.print(f"model: {escape(d.model)}, from {escape(d.model_source)}")
    console.print("downloads: " + escape("; ".join(d.downloads) if d.downloads else "none"))
    t = Table(title="packages", title_justify="left")
    for col in ("package", "installed", "needs"):
        t.add_column(col)
    for p in d.packages:
        have = p.version or "[dim]not installed[/]"
        if not p.ok:
            have = f"[red]{p.version}[/]"
        t.add_row(p.name, have, f">={p.minimum}" if p.minimum else "-")
    console.print(t)
    plan = d.plan
    if plan is not None:
        share = (
            f", vLLM share (gpu_memory_utilization) {plan.gpu_memory_utilization:.3f}"
            if plan.gpu_memory_utilization
            else ""
        )
        kv = f", KV cache {plan.kv_tokens:,} tokens" if plan.kv_tokens is not None else ""
        console.print(
            f"memory plan for {escape(d.plan_for)}: {plan.model}, "
            f"{plan.params / 1e9:.2f} B parameters, sequences up to "
            f"{plan.max_model_len} tokens{share}{kv} (estimates)"
        )
        if plan.kv_need_tokens is not None and plan.kv_tokens is not None:
            console.print(
                f"KV cache: a step needs {plan.kv_need_tokens:,} tokens (every rollout at "
                f"{plan.max_model_len} tokens at once); vLLM's share holds {plan.kv_tokens:,} "
                f"({plan.kv_tokens / max(plan.kv_need_tokens, 1):.2f}x the need: "
                f"{KV_HEADROOM:.0%} headroom); weights "
                f"{plan.dtype}"
            )
        if plan.headroom is not None:
            console.print(
                f"headroom: {_gib(plan.headroom)} free at the busiest phase "
                f"(peak {_gib(plan.peak)} of {_gib(plan.capacity)})"
            )
        if plan.host_bytes is not None:
            console.print(
                f"host memory: {_gib(plan.host_bytes)} of vLLM weights while it sleeps "
                f"(level 1, pinned), "
                + (
                    f"{_gib(plan.host_capacity)} available"
                    if plan.host_capacity is not None
                    else "checked when the run starts on the GPU's host"
                )
            )
        for ph in plan.phases:
            pt = Table(title=f"{ph.name}: {_gib(ph.total)}", title_justify="left")
            for col in ("part", "memory", "how"):
                pt.add_column(col)
            for part in ph.parts:
                pt.add_row(escape(part.name), _gib(part.bytes), escape(part.note))
            console.print(pt)
    for n in d.notes:
        console.print(f"[yellow]note:[/] {escape(n)}")
    for p in d.problems:
        console.print(f"[bold red]problem:[/] {escape(p)}")
    console.print(
        "[green]ready[/]" if d.ready else f"[red]not ready: {len(d.problems)} problem(s)[/]"
    )


def _as_json(d: Any) -> dict[str, Any]:
    plan = d.plan
    return {
        "ready": d.ready,
        "path": d.path,
        "backend": d.backend,
        "device": d.device,
        "gpu": d.gpu,
        "torch_cuda": d.torch_cuda,
        "model": d.model,
        "model_source": d.model_source,
        "downloads": list(d.downloads),
        "packages": {
            p.name: {"installed": p.version, "minimum": p.minimum, "ok": p.ok} for p in d.packages
        },
        "plan_for": d.plan_for,
        "plan": None
        if plan is None
        else {
            "capacity_bytes": plan.capacity,
            "params": plan.params,
            "max_model_len": plan.max_model_len,
            "gpu_memory_utilization": plan.gpu_memory_utilization,
            "kv_tokens": plan.kv_tokens,
            "kv_need_tokens": plan.kv_need_tokens,
            "headroom_bytes": plan.headroom,
            "host_bytes": plan.host_bytes,
            "host_capacity_bytes": plan.host_capacity,
            "dtype": plan.dtype,
            "phases": [
                {
                    "name": ph.name,
                    "total_bytes": ph.total,
                    "parts": [{"name": p.name, "bytes": p.bytes, "note": p.note} for p in ph.parts],
                }
                for ph in plan.phases
            ],
        },
        "problems": list(d.problems),
        "notes": list(d.notes),
    }
