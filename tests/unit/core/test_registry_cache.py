"""The entry-point scan kept on disk: a distribution installed later is seen (its folder's
mtime changes the key), and an unchanged path answers from the file."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from rtlopt import registry
from rtlopt.registry import Registry


def _install(site: Path, name: str, line: str) -> None:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[rtlopt.test-cache]\n{line}\n")


def test_a_later_install_is_seen_and_the_scan_is_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    reg: Registry[object] = Registry("widget", "rtlopt.test-cache", {"alpha": "math:floor"})
    reg.reload()
    assert reg.names() == ["alpha"]
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "rtlopt" / "entry_points.json"
    assert cache.is_file()
    _install(site, "widget-dist", "beta = math:ceil")
    os.utime(site, ns=(0, 10**18))  # a fresh mtime even on coarse-clock file systems
    reg.reload()
    assert reg.names() == ["alpha", "beta"]
    assert reg.source("beta") == "entry point of widget-dist"
    # the same path in a new process: the scan comes from the file (a planted entry proves it)
    data = json.loads(cache.read_text())
    key = registry._path_key(tuple(sys.path))
    data[key]["rtlopt.test-cache"].append(["gamma", "math:fabs", "planted"])
    cache.write_text(json.dumps(data))
    registry._all_entry_points.cache_clear()
    reg.reload()
    assert "gamma" in reg.names()


def test_other_files_in_a_path_folder_keep_the_key(tmp_path: Path) -> None:
    """The current folder is on the path of every command: files created there (a design
    edited, a log written) must not cost a new scan; a distribution entry must."""
    site = tmp_path / "site"
    site.mkdir()
    key = registry._path_key((str(site),))
    (site / "notes.txt").write_text("x")
    (site / "rtl").mkdir()
    os.utime(site, ns=(0, 10**18))
    assert registry._path_key((str(site),)) == key
    _install(site, "widget-dist", "beta = math:ceil")
    changed = registry._path_key((str(site),))
    assert changed != key
    # the entry points rewritten in place (same folder): still seen
    ep = site / "widget-dist-1.0.dist-info" / "entry_points.txt"
    ep.write_text("[rtlopt.test-cache]\nbeta = math:floor\ngamma = math:fabs\n")
    assert registry._path_key((str(site),)) != changed
