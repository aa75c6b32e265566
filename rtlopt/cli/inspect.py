"""`rtlopt inspect`: what rtlopt sees in a module."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.table import Table

from rtlopt.cli._common import console, design_options, handle_errors, load_target, resolve


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
    """Show the interface, clocks/resets, dependencies and harness of the module in TARGET."""
    import secrets

    from rtlopt.harness import build_testbench, reference_text

    rc = resolve(target, {"project.frontend": frontend}, config_file)
    design = load_target(target, module, rc, include_dirs, defines)
    t = design.target
    if harness_dir is None:
        # Never write next to the user's sources: the harness goes to the cache.
        import hashlib
        import os

        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rtlopt"
        key = hashlib.sha256(str(t.file).encode()).hexdigest()[:8]
        harness_dir = cache / "harness" / f"{t.name}-{key}"
    hdir = harness_dir.resolve()
    hdir.mkdir(parents=True, exist_ok=True)
    tb = build_testbench(design, rc.config.harness, secrets.token_hex(8))
    (hdir / "rtlopt_tb.v").write_text(tb.text)
    for name, content in tb.files.items():
        (hdir / name).write_text(content)
    (hdir / "reference.v").write_text(reference_text(design))
    if as_json:
        out = {
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
            "include_dirs": [str(p) for p in design.include_dirs],
            "defines": dict(design.defines),
            "harness": str(hdir),
            "vectors": dict(tb.classes),
        }
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return
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
