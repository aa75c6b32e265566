"""`rtlopt pdk`: list, locate and download liberty files."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from rtlopt.cli._common import console, handle_errors
from rtlopt.errors import UsageError
from rtlopt.pdk import PDKS, download_pdk, pdk_search_path, resolve_pdk


@click.group()
def pdk() -> None:
    """PDK plugins and their liberty files."""


@pdk.command("list")
@handle_errors
def list_pdks() -> None:
    """List the known PDKs, where they come from and whether their liberty is found."""
    t = Table(title="PDKs", title_justify="left")
    for col in ("name", "source", "corner", "liberty"):
        t.add_column(col)
    for name in PDKS.names():
        try:
            info = resolve_pdk(name)
            where = str(info.liberty)
            corner = info.corner
        except UsageError:
            where = f"[yellow]not found[/] (run `rtlopt pdk download {name}`)"
            corner = "-"
        t.add_row(name, PDKS.source(name), corner, where)
    console.print(t)
    console.print(
        "search path: "
        + (", ".join(str(p) for p in pdk_search_path()) or "(empty)")
        + "  [dim](set RTLOPT_PDK_PATH)[/]"
    )


@pdk.command("download")
@click.argument("name")
@click.option(
    "--dest",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder on the search path to put it in (default: $XDG_DATA_HOME/rtlopt/pdk).",
)
@click.option("--url", type=str, default=None, help="Download the liberty from this URL instead.")
@handle_errors
def download(name: str, dest: Path | None, url: str | None) -> None:
    """Download the liberty file(s) of PDK NAME (needs network access)."""
    path = download_pdk(name, dest, url=url)
    console.print(f"downloaded {name} to {path}")
