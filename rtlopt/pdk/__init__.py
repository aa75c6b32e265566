"""PDK plugins: where the liberty file is, its corner, tie cells and default constraints.

Built-ins are ``sky130hd`` and ``nangate45``; other distributions add PDKs through the
``rtlopt.pdks`` entry-point group. Liberty files are third-party data and never part of this
package. A PDK names its liberty either by an absolute path (the bundled PDK packages under
``plugins/`` point into their own package data) or by a file name that is found on a search
path (``RTLOPT_PDK_PATH``, then ``$XDG_DATA_HOME/rtlopt/pdk``) laid out as
``<dir>/<pdk name>/<liberty>.lib[.gz]``, fetched with ``rtlopt pdk download NAME`` on a
networked machine. ``--liberty FILE`` uses a user's own library.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from rtlopt.errors import PluginError, UsageError
from rtlopt.pdk._liberty import (
    CellInfo,
    DerivedLiberties,
    check_liberty,
    derive_liberties,
    liberty_cells,
    plain_liberty,
    scan_tie_cells,
)
from rtlopt.plugins import CUSTOM_PDK, PDKS

__all__ = [
    "CUSTOM",
    "PDKS",
    "CellInfo",
    "DerivedLiberties",
    "Pdk",
    "PdkCellModels",
    "PdkFactory",
    "PdkInfo",
    "derive_liberties",
    "download_pdk",
    "PdkListing",
    "find_liberty",
    "liberty_candidates",
    "provider_files",
    "liberty_cells",
    "list_pdks",
    "pdk_search_path",
    "resolve_pdk",
]

log = logging.getLogger(__name__)

CUSTOM = CUSTOM_PDK
"""PDK name to use with a user's own liberty file (``--liberty FILE``)."""


@runtime_checkable
class Pdk(Protocol):
    """What a PDK plugin describes. Plugins are zero-argument factories returning one."""

    @property
    def name(self) -> str:
        """Plugin name; also the folder name on the search path."""
        ...

    @property
    def description(self) -> str:
        """One line for ``rtlopt pdk list``."""
        ...

    @property
    def liberty_files(self) -> tuple[str, ...]:
        """Accepted liberty files, first preferred: absolute paths are used as they are (a
        plugin's own package data); names are looked up as ``<dir>/<pdk name>/<name>`` on the
        search path. ``.gz`` variants are tried as well."""
        ...

    @property
    def corner(self) -> str:
        """Process corner of the liberty."""
        ...

    @property
    def tie_hi(self) -> tuple[str, str] | None:
        """(cell, pin) driving a constant 1, used to map constants before STA."""
        ...

    @property
    def tie_lo(self) -> tuple[str, str] | None:
        """(cell, pin) driving a constant 0."""
        ...

    @property
    def dont_use(self) -> tuple[str, ...]:
        """Cell name glob patterns kept from ABC by default."""
        ...

    @property
    def default_clock_period_ns(self) -> float:
        """Clock period used when none is configured."""
        ...

    def download(self, dest: Path) -> Path:
        """Fetch the liberty into ``dest`` and return the file written (a PDK that bundles its
        liberty returns that file and fetches nothing)."""
        ...


@runtime_checkable
class PdkCellModels(Protocol):
    """Optional: a PDK that ships Verilog simulation models of its cells (gate-level
    simulation of synthesized netlists)."""

    @property
    def cell_models(self) -> tuple[Path, ...]:
        """Verilog files (possibly ``.gz``) that define every cell of the liberty."""
        ...


class PdkFactory(Protocol):
    """What the :data:`~rtlopt.plugins.PDKS` registry holds (entry points ``rtlopt.pdks``): a
    zero-argument callable describing the PDK."""

    def __call__(self) -> Pdk:
        """The PDK's description."""
        ...


if TYPE_CHECKING:  # the built-ins named in rtlopt.plugins.PDKS are PdkFactory values
    from rtlopt.pdk._builtin import nangate45, sky130hd

    _BUILTINS: tuple[PdkFactory, ...] = (sky130hd, nangate45)


@dataclass(frozen=True)
class PdkInfo:
    """A resolved PDK: everything the flow needs, with concrete file paths.

    Attributes:
        name: PDK name (``custom`` for a user's liberty).
        liberty: The liberty as found (possibly ``.gz``).
        liberty_plain: Decompressed liberty (Yosys and OpenSTA 2.0.17 read only plain files).
        tie_hi: (cell, pin) for constant 1, or None.
        tie_lo: (cell, pin) for constant 0, or None.
        dont_use: Cell patterns ABC must not use.
        corner: Corner name.
        md5: MD5 of the decompressed liberty.
        default_clock_period_ns: The PDK's default clock period.
        description: Human description.
        cell_models: Verilog models of the cells, when the PDK ships them.
    """

    name: str
    liberty: Path
    liberty_plain: Path
    tie_hi: tuple[str, str] | None
    tie_lo: tuple[str, str] | None
    dont_use: tuple[str, ...]
    corner: str
    md5: str
    default_clock_period_ns: float = 10.0
    description: str = ""
    cell_models: tuple[Path, ...] = ()


def pdk_search_path() -> list[Path]:
    """Folders searched for ``<pdk>/<liberty>``: ``RTLOPT_PDK_PATH`` entries, then XDG data."""
    out: list[Path] = []
    for part in os.environ.get("RTLOPT_PDK_PATH", "").split(os.pathsep):
        if part.strip():
            out.append(Path(part).expanduser())
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    out.append(Path(data) / "rtlopt" / "pdk")
    return out


def _candidates(pdk: Pdk, search_path: Sequence[Path]) -> list[Path]:
    out: list[Path] = []
    for fname in pdk.liberty_files:
        path = Path(fname)
        bases = [path] if path.is_absolute() else [base / pdk.name / fname for base in search_path]
        for cand in bases:
            out.append(cand)
            if not cand.name.endswith(".gz"):
                out.append(cand.with_name(cand.name + ".gz"))
    return out


def find_liberty(pdk: Pdk, search_path: Sequence[Path]) -> tuple[Path | None, list[Path]]:
    """First existing liberty of ``pdk``, and every path tried.

    The PDK's files are tried in its order: an absolute path as it is, a name in each folder of
    ``search_path`` (``<dir>/<pdk name>/<name>``), each also with ``.gz``.
    """
    tried: list[Path] = []
    for cand in _candidates(pdk, search_path):
        tried.append(cand)
        if cand.is_file():
            return cand, tried
    return None, tried


def liberty_candidates(name: str) -> list[Path]:
    """Every path the liberty search of PDK ``name`` looks at, in order (:func:`find_liberty`
    on :func:`pdk_search_path`; none for ``custom``, whose liberty is given)."""
    if name == CUSTOM:
        return []
    return _candidates(_load(name), pdk_search_path())


def provider_files(name: str) -> list[Path]:
    """The files of the package that provides PDK ``name`` (its code and the data it reads:
    dont-use lists, tie cells), every folder of it first; just the module's file for a plugin
    that is a single module; none for ``custom``."""
    import sys

    if name == CUSTOM:
        return []
    module = sys.modules.get(getattr(PDKS.get(name), "__module__", ""), None)
    where = getattr(module, "__file__", None)
    if not isinstance(where, str):
        return []
    path = Path(where)
    if path.name != "__init__.py":
        return [path]
    out: list[Path] = []
    for d, dirs, files in os.walk(path.parent):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        out.append(Path(d))
        out += [Path(d) / f for f in sorted(files)]
    return out


def _load(name: str) -> Pdk:
    factory: PdkFactory = PDKS.get(name)  # the table is untyped: bind its type
    pdk = factory()
    if not isinstance(pdk, Pdk):
        raise PluginError(
            f"PDK plugin '{name}' ({PDKS.source(name)}) does not provide the Pdk interface",
            hint="reinstall the package that provides it",
        )
    return pdk


def resolve_pdk(
    name: str, liberty: Path | None = None, search_path: Sequence[Path] | None = None
) -> PdkInfo:
    """Resolve a PDK name (and optional own liberty) into concrete files.

    Args:
        name: A registered PDK name, or ``custom`` together with ``liberty``.
        liberty: A liberty file to use instead of the PDK's; with ``custom`` the tie cells are
            found by scanning it for constant-function outputs.
        search_path: Folders to search (default: ``pdk_search_path()``).

    Raises:
        PluginError: unknown PDK name (the message lists the known ones).
        UsageError: the liberty file was not found (says where it looked and what to do).
    """
    if liberty is not None:
        liberty = Path(liberty).expanduser()
        if not liberty.is_file():
            raise UsageError(
                f"liberty file not found: {liberty}",
                path=liberty,
                hint="pass an existing .lib or .lib.gz file to --liberty",
            )
        plain, md5 = plain_liberty(liberty)
        check_liberty(liberty, plain)
        if name == CUSTOM:
            hi, lo = scan_tie_cells(plain.read_text(errors="replace"))
            return PdkInfo(
                CUSTOM,
                liberty,
                plain,
                hi,
                lo,
                (),
                "custom",
                md5,
                10.0,
                f"user liberty {liberty.name}",
            )
        return _info(_load(name), liberty, plain, md5)
    if name == CUSTOM:
        raise UsageError("PDK 'custom' needs a liberty file", hint="pass --liberty FILE")
    pdk = _load(name)
    path = list(search_path) if search_path is not None else pdk_search_path()
    found, tried = find_liberty(pdk, path)
    if found is None:
        raise _no_liberty(pdk, tried)
    plain, md5 = plain_liberty(found)
    check_liberty(found, plain)
    return _info(pdk, found, plain, md5)


def _info(pdk: Pdk, liberty: Path, plain: Path, md5: str) -> PdkInfo:
    """A registered PDK's files and settings with the liberty in use."""
    return PdkInfo(
        pdk.name,
        liberty,
        plain,
        pdk.tie_hi,
        pdk.tie_lo,
        tuple(pdk.dont_use),
        pdk.corner,
        md5,
        pdk.default_clock_period_ns,
        pdk.description,
        _cell_models(pdk),
    )


def _no_liberty(pdk: Pdk, tried: Sequence[Path]) -> UsageError:
    """The error of a PDK whose liberty is nowhere on the search path."""
    where = ", ".join(str(p) for p in tried[:6]) + (" ..." if len(tried) > 6 else "")
    fname = Path(pdk.liberty_files[0]).name
    bundled = (
        f"reinstall the package that provides PDK '{pdk.name}' ({PDKS.source(pdk.name)}), "
        if any(Path(f).is_absolute() for f in pdk.liberty_files)
        else ""
    )
    return UsageError(
        f"no liberty file for PDK '{pdk.name}' (looked for {where})",
        hint=f"{bundled}install the bundled PDK packages (bash scripts/setup.sh), set "
        f"RTLOPT_PDK_PATH to a folder holding {pdk.name}/{fname}[.gz], run "
        f"`rtlopt pdk download {pdk.name}`, or pass --liberty FILE",
    )


def _cell_models(pdk: Pdk) -> tuple[Path, ...]:
    if not isinstance(pdk, PdkCellModels):
        return ()
    return tuple(Path(p) for p in pdk.cell_models)


@dataclass(frozen=True)
class PdkListing:
    """One row of ``rtlopt pdk list``.

    Attributes:
        name: PDK name.
        description: One line.
        source: ``built-in`` or the distribution providing it.
        liberty: The liberty found (bundled or on the search path), or None (then: download
            it).
        error: Why the plugin could not be loaded, if it could not.
        corner: The liberty's corner.
        aliases: Other names of the PDK.
    """

    name: str
    description: str
    source: str
    liberty: Path | None
    error: str = ""
    corner: str = ""
    aliases: tuple[str, ...] = ()


def list_pdks(search_path: Sequence[Path] | None = None) -> list[PdkListing]:
    """Every registered PDK with where its liberty is (for ``rtlopt pdk list``)."""
    path = list(search_path) if search_path is not None else pdk_search_path()
    rows: list[PdkListing] = []
    for name in PDKS.names():
        aliases = tuple(PDKS.aliases(name))
        try:
            pdk = _load(name)
        except PluginError as exc:
            rows.append(
                PdkListing(name, "", PDKS.source(name), None, exc.one_line(), aliases=aliases)
            )
            continue
        found, _ = find_liberty(pdk, path)
        rows.append(
            PdkListing(
                name, pdk.description, PDKS.source(name), found, corner=pdk.corner, aliases=aliases
            )
        )
    return rows


def download_pdk(name: str, dest: Path | None = None, url: str | None = None) -> Path:
    """Download a PDK's liberty into ``dest/<name>/`` (default: the XDG data folder).

    Uses ``ciel`` for sky130 when installed, else the PDK's documented URL, or ``url``.

    Raises:
        PluginError: unknown PDK.
        UsageError: the download failed (e.g. offline), with what to do instead.
    """
    pdk = _load(name)
    base = dest if dest is not None else pdk_search_path()[-1]
    folder = base / pdk.name
    if url is not None:
        from rtlopt.pdk._download import fetch_url

        # a bundled PDK names an absolute file: the download goes beside the others by name
        fname = Path(pdk.liberty_files[0]).name.removesuffix(".gz")
        return fetch_url(url, folder / (fname + ".gz"))
    return pdk.download(folder)
