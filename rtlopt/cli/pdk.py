"""`rtlopt pdk`: list, locate and download liberty files."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from rtlopt.cli._common import PluginChoice, console, escape, handle_errors
from rtlopt.pdk import PDKS, download_pdk, list_pdks, pdk_search_path


@click.group()
def pdk() -> None:
    """PDK plugins and their liberty files.

    \b
    Examples:
      rtlopt pdk list
      rtlopt pdk download nangate45 --dest ~/pdk   # then RTLOPT_PDK_PATH=~/pdk
    """


@pdk.command("list")
@handle_errors
def list_cmd() -> None:
    """List the known PDKs, where they come from and where their liberty is.

    \b
    Example:
      rtlopt pdk list
    """
    t = Table(title="PDKs", title_justify="left")
    for col in ("name", "aliases", "source", "corner", "liberty"):
        t.add_column(col, overflow="fold")
    for row in list_pdks():
        if row.error:
            where = f"[red]broken:[/] {escape(row.error)}"
        elif row.liberty is None:
            where = f"[yellow]not found[/] (run `rtlopt pdk download {row.name}`)"
        else:
            where = escape(str(row.liberty))
        t.add_row(row.name, ", ".join(row.aliases) or "-", row.source, row.corner or "-", where)
    console.print(t)
    console.print(
        "search path: "
        + (", ".join(str(p) for p in pdk_search_path()) or "(empty)")
        + "  [dim](set RTLOPT_PDK_PATH)[/]"
    )


@pdk.command("download")
@click.argument("name", type=PluginChoice(PDKS))
@click.option(
    "--dest",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder on the search path to put it in (default: $XDG_DATA_HOME/rtlopt/pdk).",
)
@click.option("--url", type=str, default=None, help="Download the liberty from this URL instead.")
@handle_errors
def download(name: str, dest: Path | None, url: str | None) -> None:
    """Download the liberty file(s) of PDK NAME (needs network access).

    The bundled PDK packages (rtlopt-pdk-sky130hd, rtlopt-pdk-nangate45, installed by
    scripts/setup.sh) need no download: for them this prints where the liberty is.

    \b
    Example:
      rtlopt pdk download sky130hd --dest "$RTLOPT_PDK_PATH"
    """
    path = download_pdk(name, dest, url=url)
    base = dest if dest is not None else pdk_search_path()[-1]
    if not path.resolve().is_relative_to(base.resolve()):
        console.print(f"{name}: bundled, nothing to download; liberty {path}")
    else:
        console.print(f"downloaded {name} to {path}")
