"""Fetching liberty files on a networked machine: ``ciel`` for sky130, else a URL."""

from __future__ import annotations

import gzip
import logging
import os
import re
import shutil
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import Protocol

from rtlopt.errors import ToolNotFound, UsageError
from rtlopt.tools import Limits, require_tool, run_tool

log = logging.getLogger(__name__)


class Downloadable(Protocol):
    """What a download needs to know of a PDK (``StaticPdk`` is one)."""

    @property
    def name(self) -> str: ...
    @property
    def liberty_files(self) -> tuple[str, ...]: ...
    @property
    def url(self) -> str | None: ...
    @property
    def ciel_pdk(self) -> str | None: ...
    @property
    def ciel_lib_path(self) -> str | None: ...


_OFFLINE_HINT = (
    "on a machine without network access, copy the liberty file into a folder on "
    "RTLOPT_PDK_PATH (<dir>/<pdk>/<file>.lib[.gz]) or pass --liberty FILE"
)


def fetch_url(url: str, dest_file: Path, timeout: float = 120.0) -> Path:
    """Download ``url`` into ``dest_file`` (gzip'd if the name ends in ``.gz``).

    Raises:
        UsageError: the download failed (offline, HTTP error), saying what to do instead.
    """
    dest_file.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=dest_file.parent, suffix=".part")
    os.close(fd)
    try:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as resp, open(tmp, "wb") as out:
                shutil.copyfileobj(resp, out, 1 << 20)
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            raise UsageError(f"could not download {url}: {exc}", hint=_OFFLINE_HINT) from exc
        data_is_gz = Path(tmp).read_bytes()[:2] == b"\x1f\x8b"
        if dest_file.suffix == ".gz" and not data_is_gz:
            with open(tmp, "rb") as src, gzip.open(str(dest_file) + ".tmp", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.replace(str(dest_file) + ".tmp", dest_file)
        elif dest_file.suffix != ".gz" and data_is_gz:
            with gzip.open(tmp, "rb") as src, open(str(dest_file) + ".tmp", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.replace(str(dest_file) + ".tmp", dest_file)
        else:
            os.replace(tmp, dest_file)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    log.info("downloaded %s -> %s", url, dest_file)
    return dest_file


def _via_ciel(pdk: Downloadable, dest: Path) -> Path | None:
    """Enable the newest sky130 build with ``ciel`` and copy the liberty; None if no ciel."""
    if not pdk.ciel_pdk or not pdk.ciel_lib_path:
        return None
    try:
        ciel = require_tool("ciel")
    except ToolNotFound:
        return None
    root = dest / ".ciel"
    root.mkdir(parents=True, exist_ok=True)
    version = os.environ.get("RTLOPT_CIEL_VERSION")
    if not version:
        run = run_tool(
            ciel.argv("ls-remote", "--pdk-family", pdk.ciel_pdk),
            cwd=dest,
            log_path=root / "ls-remote.log",
            limits=Limits(120),
            sandbox=False,  # a download: the network, no candidate text
        )
        hashes = re.findall(r"\b[0-9a-f]{40}\b", run.output())
        if run.returncode != 0 or not hashes:
            raise UsageError(
                f"ciel could not list {pdk.ciel_pdk} versions",
                hint=f"see {root / 'ls-remote.log'}; {_OFFLINE_HINT}",
            )
        version = hashes[0]
    run = run_tool(
        ciel.argv("enable", "--pdk-root", str(root), "--pdk-family", pdk.ciel_pdk, version),
        cwd=dest,
        log_path=root / "enable.log",
        limits=Limits(1800),
        sandbox=False,  # a download: the network, no candidate text
    )
    src = root / pdk.ciel_lib_path
    if run.returncode != 0 or not src.is_file():
        raise UsageError(
            f"ciel enable {pdk.ciel_pdk} {version} did not produce {src}",
            hint=f"see {root / 'enable.log'}; {_OFFLINE_HINT}",
        )
    target = dest / (pdk.liberty_files[0] + ".gz")
    with src.open("rb") as f, gzip.open(target, "wb") as g:
        shutil.copyfileobj(f, g)
    return target


def download_static(pdk: Downloadable, dest: Path, url: str | None = None) -> Path:
    """Put the PDK's liberty into ``dest`` (its folder on the search path) and return its path.

    Order: an explicit ``url``; ``ciel`` when installed and the PDK is an open_pdks family;
    the PDK's documented URL.
    """
    dest.mkdir(parents=True, exist_ok=True)
    target = dest / (pdk.liberty_files[0] + ".gz")
    if url is None:
        got = _via_ciel(pdk, dest)
        if got is not None:
            return got
        url = pdk.url
    if url is None:
        raise UsageError(
            f"PDK '{pdk.name}' has no download location", hint="pass a URL, or " + _OFFLINE_HINT
        )
    return fetch_url(url, target)
