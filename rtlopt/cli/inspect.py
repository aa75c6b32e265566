"""`rtlopt inspect`: what rtlopt sees in a module."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from rtlopt import session
from rtlopt.cli._common import console, design_options, handle_errors, parse_defines
from rtlopt.frontend import Design, Module
from rtlopt.harness import Testbench, build_testbench, reference_text


@click.command()
@click.argument("target", type=click.Path(path_type=Path))
@design_options
@click.option(
    "--harness-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the generated testbench and renamed reference here.",
)
@click.option("--json", "as_json", is_flag=True, default=False, help="Print JSON.")
@handle_errors
def inspect(
    target: Path,
    module: str | None,
    config_file: Path | None,
    include_dirs: tuple[Path, ...],
    defines: tuple[str, ...],
    frontend: str | None,
    harness_dir: Path | None,
    as_json: bool,
) -> None:
    """Show the interface, clocks/resets, dependencies and harness of the module in TARGET.

    \b
    Examples:
      rtlopt inspect rtl/alu.v
      rtlopt inspect rtl/core.v -m lza -I rtl/include --json
    """
    tgt = session.open_target(
        session.TargetSpec(
            target,
            module,
            overrides={"project.frontend": frontend},
            config_file=config_file,
            include_dirs=include_dirs,
            defines=parse_defines(defines),
            with_pdk=False,
        )
    )
    design = tgt.design
    hdir = (harness_dir or _cache_dir(design.target)).resolve()
    hdir.mkdir(parents=True, exist_ok=True)
    tb = build_testbench(design, tgt.config.harness, secrets.token_hex(8))
    (hdir / "rtlopt_tb.v").write_text(tb.text)
    for name, content in tb.files.items():
        (hdir / name).write_text(content)
    (hdir / "reference.v").write_text(reference_text(design))
    if as_json:
        sys.stdout.write(json.dumps(_as_json(design, hdir, tb), indent=2) + "\n")
    else:
        _show(design, hdir, tb)


def _cache_dir(t: Module) -> Path:
    """Never write next to the user's sources: by default the harness goes to the cache."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rtlopt"
    key = hashlib.sha256(str(t.file).encode()).hexdigest()[:8]
    return cache / "harness" / f"{t.name}-{key}"


def _as_json(design: Design, hdir: Path, tb: Testbench) -> dict[str, Any]:
    t = design.target
    return {
        "module": t.name,
        "file": str(t.file),
        "line": t.line,
        "root": str(design.root),
        "ports": [p.__dict__ for p in t.ports],
        "parameters": [p.__dict__ for p in t.parameters],
        "clocks": list(t.clocks),
        "resets": {r: ("low" if t.reset_active_low.get(r) else "high") for r in t.resets},
        "submodules": list(design.submodules),
        "files": [str(f) for f in design.closure],
        "prelude": [str(f) for f in design.prelude],
        "include_dirs": [str(p) for p in design.include_dirs],
        "defines": dict(design.defines),
        "harness": str(hdir),
        "vectors": dict(tb.classes),
        "stimulus": tb.stimulus_record(),
    }


def _show(design: Design, hdir: Path, tb: Testbench) -> None:
    t = design.target
    console.print(f"[bold]{t.name}[/] in {t.file}:{t.line}  (repository {design.root})")
    ports = Table(title="ports", title_justify="left")
    for col in ("name", "direction", "width", "range", "signed"):
        ports.add_column(col)
    for p in t.ports:
        ports.add_row(p.name, p.direction, str(p.width), p.range_text, "yes" if p.signed else "")
    console.print(ports)
    if t.parameters:
        console.print(
            "parameters: "
            + ", ".join(
                f"{p.name}={p.value}" + (" (local)" if p.local else "") for p in t.parameters
            )
        )
    kind = "sequential" if t.is_sequential else "combinational"
    console.print(f"kind: {kind}")
    console.print("clocks: " + (", ".join(t.clocks) or "none"))
    console.print(
        "resets: "
        + (
            ", ".join(
                f"{r} (active {'low' if t.reset_active_low.get(r) else 'high'})" for r in t.resets
            )
            or "none"
        )
    )
    console.print("submodules: " + (", ".join(design.submodules) or "none"))
    console.print("files:")
    for f in design.prelude:
        console.print(f"  {f} (prelude: read first by every tool)")
    for f in design.closure:
        console.print(f"  {f}")
    if design.include_dirs:
        console.print("include dirs: " + ", ".join(str(p) for p in design.include_dirs))
    if design.defines:
        console.print("defines: " + ", ".join(f"{k}={v}" for k, v in design.defines.items()))
    total = sum(tb.classes.values())
    console.print(
        f"harness: {hdir}  ({total} vectors: "
        + ", ".join(f"{k} {v}" for k, v in tb.classes.items())
        + ")"
    )
