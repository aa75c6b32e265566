"""`rtlopt profile`: which module of a design is worth optimizing."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from rtlopt import session
from rtlopt.cli._common import console, design_options, handle_errors, parse_defines, pdk_options
from rtlopt.errors import UsageError
from rtlopt.frontend import find_repo_root
from rtlopt.profile import (
    CLAIM,
    ContextResult,
    Profile,
    ProfileSettings,
    find_tops,
    measure_in_context,
    profile_design,
    suggestions,
)
from rtlopt.profile._suggest import skipped
from rtlopt.verilog import find_span

_SOURCE = re.compile(r"\.(s?v|vh|svh)$")
_MODULE = re.compile(r"^\s*(?:macro)?module\s+(?:automatic\s+|static\s+)?([A-Za-z_][\w$]*)", re.M)


def _files_defining(root: Path, name: str | None) -> list[tuple[Path, str]]:
    """(file, module) for every module declaration under ``root`` (of ``name`` if given),
    from the frontend's module index (cached per file: a warm index reads no file again)."""
    from rtlopt.frontend._index import MACRO_NAMED, build_index

    files = []
    for path in sorted(root.rglob("*")):
        hidden = any(part.startswith(".") for part in path.relative_to(root).parts)
        if hidden or not _SOURCE.search(path.name) or not path.is_file():
            continue  # rtlopt's own runs (.rtlopt/) and tool folders are not sources
        if path.is_symlink() or path.stat().st_size > 16 << 20:
            continue
        files.append(path)
    index = build_index(root, files)
    out = [
        (f, n)
        for n, found in index.by_name.items()
        if n != MACRO_NAMED and (name is None or n == name)
        for f in found
    ]
    return sorted(out, key=lambda fn: str(fn[0]))


def _spec(top: str | None, module: str | None, **kw: Any) -> session.TargetSpec:
    """The target: TOP as a file, TOP as a module name, or the repository's top."""
    if top is not None and Path(top).is_file():
        return session.TargetSpec(Path(top), module, **kw)
    root = find_repo_root(Path.cwd())
    name = top or module
    if name is not None:
        found = _files_defining(root, name)
        if not found:
            raise UsageError(
                f"module {name} is defined in no Verilog file under {root}",
                hint="give the file that defines the top: rtlopt profile rtl/top.v",
            )
        return session.TargetSpec(found[0][0], name, **kw)
    every = _files_defining(root, None)
    if not every:
        raise UsageError(f"no Verilog module under {root}", hint="run it inside a repository")
    # the design is opened from a module (the index also holds packages and interfaces)
    file, first_name = next(
        ((f, n) for f, n in every if n in _MODULE.findall(f.read_text(errors="replace"))),
        every[0],
    )
    first = session.open_target(session.TargetSpec(file, first_name, **kw))
    # every module declared in the repository (the design's module map parses on lookup)
    modules = {}
    for _path, name in every:
        try:
            modules[name] = first.design.modules[name]
        except KeyError:
            continue
    tops = find_tops(modules)
    if not tops:
        raise UsageError("no top module found (every module is instantiated)")
    chosen = modules[tops[0]]
    if len(tops) > 1:
        console.print(f"tops found: {', '.join(tops[:8])}; profiling {chosen.name}")
    return session.TargetSpec(chosen.file, chosen.name, **kw)


@click.command()
@click.argument("top", required=False)
@design_options
@pdk_options
@click.option("--paths", type=int, default=10, show_default=True, help="Worst paths attributed.")
@click.option("--count", type=int, default=3, show_default=True, help="Commands suggested.")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Output folder.")
@click.option("--no-cache", is_flag=True, default=False, help="Profile again, ignore the cache.")
@click.option(
    "--replace",
    "replacements",
    multiple=True,
    metavar="MODULE=FILE",
    help="PPA in context: also measure the top with MODULE taken from FILE (repeatable).",
)
@click.option("--json", "as_json", is_flag=True, default=False, help="Print JSON.")
@handle_errors
def profile(
    top: str | None,
    module: str | None,
    config_file: Path | None,
    include_dirs: tuple[Path, ...],
    defines: tuple[str, ...],
    frontend: str | None,
    pdk: str | None,
    liberty: Path | None,
    paths: int,
    count: int,
    out: Path | None,
    no_cache: bool,
    replacements: tuple[str, ...],
    as_json: bool,
) -> None:
    """Attribute a design's area, power and worst paths to its modules, from TOP down.

    TOP is the top module's file or name; without it, the repository's top (the module with
    the most modules below it that nothing instantiates). Writes profile.json and
    profile.png (area by hierarchy, the worst path's modules in red) and suggests the first
    `rtlopt optimize` commands.

    \b
    Examples:
      rtlopt profile picorv32_axi --pdk sky130
      rtlopt profile rtl/top.v --paths 20 --json
    """
    kw: dict[str, Any] = {
        "overrides": {"project.frontend": frontend, "flow.pdk": pdk},
        "config_file": config_file,
        "include_dirs": include_dirs,
        "defines": parse_defines(defines),
        "liberty": liberty,
    }
    tgt = session.open_target(_spec(top, module, **kw))
    assert tgt.pdk is not None
    design = tgt.design
    folder = (
        out or design.root / tgt.config.run.runs_dir / "profile" / design.target.name
    ).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    settings = ProfileSettings(
        paths=paths,
        memory_mb=tgt.config.sandbox.memory_mb,
        systemverilog=tgt.config.flow.systemverilog,
    )
    if as_json:
        prof = profile_design(design, tgt.pdk, folder / "work", settings, use_cache=not no_cache)
    else:
        with console.status("profiling ...") as status:
            prof = profile_design(
                design,
                tgt.pdk,
                folder / "work",
                settings,
                on_step=status.update,
                use_cache=not no_cache,
            )
    (folder / "profile.json").write_text(json.dumps(prof.to_json(), indent=2) + "\n")
    from rtlopt.report import plot_profile

    picture = plot_profile(prof, folder / "profile.png")
    tips = suggestions(prof, count=count, pdk=tgt.pdk.name, root=design.root)
    context = None
    if replacements:
        context = measure_in_context(
            design,
            tgt.pdk,
            tgt.config.flow,
            tgt.config.sandbox,
            _rewrites(replacements),
            folder / "context",
        )
    if as_json:
        data = {
            **prof.to_json(),
            "picture": str(picture),
            "suggestions": [t.__dict__ for t in tips],
            "in_context": context.to_json() if context else None,
        }
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    _show(prof, tips, picture, folder)
    if context is not None:
        _show_context(context)


def _rewrites(items: tuple[str, ...]) -> dict[str, str]:
    """``MODULE=FILE`` -> {module: the module's text in FILE}."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, file = item.partition("=")
        if not sep or not name or not file:
            raise UsageError(f"--replace {item!r}: expected MODULE=FILE")
        path = Path(file)
        if not path.is_file():
            raise UsageError("file not found", path=path, hint="--replace MODULE=FILE")
        text = path.read_text(errors="replace")
        span = find_span(text, name)
        if span is None:
            raise UsageError(f"module {name} is not defined in this file", path=path)
        out[name] = text[span.start : span.end]
    return out


def _show_context(ctx: ContextResult) -> None:
    table = Table(title=f"in context: {ctx.top} (flattened)", title_justify="left")
    for col in ("design", "area before", "area after", "area", "delay"):
        table.add_column(col, justify="left" if col == "design" else "right")
    for m in ctx.modules:
        d = m.alone_after.delay_ps / m.alone_before.delay_ps if m.alone_before.delay_ps else 1.0
        table.add_row(
            f"{m.module} alone",
            f"{m.alone_before.area_um2:,.1f}",
            f"{m.alone_after.area_um2:,.1f}",
            f"{m.area_ratio - 1:+.1%}",
            f"{d - 1:+.1%}",
        )
    table.add_row(
        f"{ctx.top} (top)",
        f"{ctx.before.area_um2:,.1f}",
        f"{ctx.after.area_um2:,.1f}",
        f"{ctx.area_ratio - 1:+.1%}",
        f"{ctx.delay_ratio - 1:+.1%}",
    )
    console.print(table)
    console.print(ctx.summary() + ".")
    console.print(f"[dim]{CLAIM}[/]")


def _show(prof: Profile, tips: list[Any], picture: Path, folder: Path) -> None:
    console.print(
        f"[bold]{prof.top}[/]: {prof.area_um2:,.1f} um^2, {prof.power_mw:.4g} mW, "
        f"worst arrival {prof.arrival_ns:.3f} ns ({len(prof.modules)} modules)"
    )
    table = Table(title="modules by own area", title_justify="left")
    for col in ("module", "inst", "own area", "share", "with sub", "power", "paths", "worst"):
        table.add_column(col, justify="left" if col == "module" else "right")
    for m in prof.modules[:25]:
        table.add_row(
            m.name + (" [red]*[/]" if m.on_critical_path else ""),
            str(m.instances),
            f"{m.own_area:,.1f}",
            f"{m.area_share:.1%}",
            f"{m.total_area:,.1f}",
            f"{m.power_share:.1%}",
            str(m.paths),
            f"{m.worst_path_share:.0%}" if m.on_critical_path else "",
        )
    console.print(table)
    console.print("[red]*[/] on the worst timing path; worst: share of its cell delay")
    for t in tips:
        console.print(f"  {t.command}   [dim]# {t.why}[/]")
    if len(tips) > 1:
        pdk = tips[0].command.rsplit("--pdk ", 1)[-1]
        console.print(
            f"  rtlopt optimize --from-profile {len(tips)} --pdk {pdk}   "
            f"[dim]# all {len(tips)} in one run, one branch, {prof.top} measured in context[/]"
        )
    for m in skipped(prof)[:5]:
        console.print(f"  [dim]skipped {m.name}: {m.why_not}[/]")
    console.print(f"picture: {picture}\nJSON: {folder / 'profile.json'}")
