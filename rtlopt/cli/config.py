"""`rtlopt config`: the effective configuration and where each value comes from."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from rtlopt.cli._common import console, handle_errors
from rtlopt.config import describe, get_dotted, load_config, to_toml


@click.group()
def config() -> None:
    """Configuration helpers."""


@config.command("show")
@click.argument("target", type=click.Path(path_type=Path), default=".")
@click.option("--toml", "as_toml", is_flag=True, default=False, help="Print as TOML.")
@handle_errors
def show(target: Path, as_toml: bool) -> None:
    """Show every setting's effective value and its source for TARGET's repository."""
    rc = load_config(target)
    if as_toml:
        click.echo(to_toml(rc.config))
        return
    t = Table(
        title=f"configuration (project file: {rc.project_file or 'none'})", title_justify="left"
    )
    for col in ("key", "value", "source", "help"):
        t.add_column(col, overflow="fold")
    for key, help_text, _default in describe():
        t.add_row(key, repr(get_dotted(rc.config, key)), rc.sources.get(key, "default"), help_text)
    console.print(t)
