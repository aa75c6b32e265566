"""`rtlopt config`: the effective configuration and where each value comes from."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.table import Table

from rtlopt.cli._common import console, escape, handle_errors
from rtlopt.config import describe, get_dotted, load_config
from rtlopt.errors import UsageError


@click.group()
def config() -> None:
    """Configuration helpers.

    \b
    Examples:
      rtlopt config show                 # every setting, its value and source
      rtlopt config show flow            # one section
      rtlopt config show flow --toml     # as TOML, ready for rtlopt.toml
    """


def toml_value(value: Any) -> str:
    """A value as TOML writes it (``"sky130hd"``, ``true``, ``[1, 2]``, ``0.693``)."""
    if isinstance(value, tuple | list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(str(value))


def _select(names: tuple[str, ...]) -> tuple[list[str], Path]:
    """Split the arguments into key filters (sections or dotted keys) and the target path."""
    keys = [k for k, _h, _d in describe()]
    sections = sorted({k.rsplit(".", 1)[0] for k in keys})
    filters: list[str] = []
    target: Path | None = None
    for name in names:
        if name in sections or name in keys:
            filters.append(name)
        elif Path(name).exists() and target is None:
            target = Path(name)
        else:
            close = difflib.get_close_matches(name, [*sections, *keys], n=1)
            hint = (
                f"did you mean '{close[0]}'?"
                if close
                else f"sections: {', '.join(s for s in sections if '.' not in s)}"
            )
            raise UsageError(
                f"'{name}' is neither a configuration section or key nor a path", hint=hint
            )
    return filters, target if target is not None else Path(".")


def _wanted(key: str, filters: list[str]) -> bool:
    return not filters or any(key == f or key.startswith(f + ".") for f in filters)


@config.command("show")
@click.argument("names", nargs=-1, metavar="[SECTION|KEY]... [PATH]")
@click.option(
    "--toml",
    "as_toml",
    is_flag=True,
    default=False,
    help="Print as TOML (with each setting's help and source as comments).",
)
@click.option(
    "--changed",
    is_flag=True,
    default=False,
    help="Only the settings that differ from the defaults.",
)
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    default=False,
    help="Every setting with its help (without it and without SECTION|KEY: the sections and "
    "the settings that differ from the defaults).",
)
@handle_errors
def show(names: tuple[str, ...], as_toml: bool, changed: bool, show_all: bool) -> None:
    """Show settings, their effective values and their sources.

    SECTION (``flow``, ``train.adaptive``) or KEY (``flow.pdk``) limit the output; PATH (a
    file or folder of the repository, default: the current folder) decides which project
    file applies.

    \b
    Examples:
      rtlopt config show                 # sections and the changed settings
      rtlopt config show flow
      rtlopt config show --all           # every setting with its help
      rtlopt config show flow.pdk search rtl/alu.v
      rtlopt config show --changed --toml > rtlopt.toml
    """
    filters, target = _select(names)
    rc = load_config(target)
    rows = [
        (key, help_text, get_dotted(rc.config, key), rc.sources.get(key, "default"))
        for key, help_text, _default in describe()
        if _wanted(key, filters)
    ]
    if changed:
        rows = [r for r in rows if r[3] != "default"]
    if not (filters or show_all or changed or as_toml):
        _summary(rows, rc.project_file)
        return
    if as_toml:
        click.echo(_as_toml(rows, rc.project_file))
        return
    if not rows:
        console.print("no setting differs from the defaults" if changed else "no setting")
        return
    t = Table(
        title=f"configuration (project file: {rc.project_file or 'none'})",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
    )
    t.add_column("key", no_wrap=True)
    t.add_column("value", overflow="fold")
    t.add_column("source", overflow="fold")
    t.add_column("help", overflow="fold", ratio=1)
    for key, help_text, value, source in rows:
        shown = "(unset)" if value is None else toml_value(value)
        t.add_row(key, escape(shown), escape(source), escape(help_text))
    console.print(t)


def _summary(rows: list[tuple[str, str, Any, str]], project_file: Path | None) -> None:
    """The short view: each section with its number of settings, then the changed ones."""
    counts: dict[str, int] = {}
    for key, *_ in rows:
        sec = key.rsplit(".", 1)[0]
        counts[sec] = counts.get(sec, 0) + 1
    console.print(f"configuration (project file: {escape(str(project_file or 'none'))})")
    console.print("sections: " + ", ".join(f"{escape(sec)} ({n})" for sec, n in counts.items()))
    moved = [r for r in rows if r[3] != "default"]
    if not moved:
        console.print("every setting has its default value")
    else:
        t = Table(title="changed from the defaults", title_justify="left", box=box.SIMPLE_HEAD)
        for col in ("key", "value", "source"):
            t.add_column(col, overflow="fold")
        for key, _help, value, source in moved:
            shown = "(unset)" if value is None else toml_value(value)
            t.add_row(key, escape(shown), escape(source))
        console.print(t)
    console.print(
        "[dim]rtlopt config show SECTION (or KEY) for one part with its help; "
        "--all for every setting; --toml for a file[/]"
    )


def _as_toml(rows: list[tuple[str, str, Any, str]], project_file: Path | None) -> str:
    out = [f"# rtlopt configuration (project file: {project_file or 'none'})"]
    section = None
    for key, help_text, value, source in rows:
        sec, _, name = key.rpartition(".")
        if sec != section:
            out += ["", f"[{sec}]"]
            section = sec
        note = f"# {help_text}" + ("" if source == "default" else f" (from {source})")
        out.append(note)
        out.append(f"# {name} = (unset)" if value is None else f"{name} = {toml_value(value)}")
    return "\n".join(out) + "\n"
