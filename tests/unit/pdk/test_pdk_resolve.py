"""PDK registry, search path, resolution errors, liberty handling (tiny handmade liberty)."""

from __future__ import annotations

import gzip
import os
import sys
from pathlib import Path

import pytest

import rtlopt.pdk
from rtlopt.errors import PluginError, UsageError
from rtlopt.pdk import (
    CUSTOM,
    Pdk,
    derive_liberties,
    download_pdk,
    find_liberty,
    list_pdks,
    pdk_search_path,
    resolve_pdk,
)
from rtlopt.pdk._builtin import StaticPdk
from rtlopt.pdk._liberty import iter_cells, scan_tie_cells, strip_groups
from rtlopt.registry import Registry

TINY = """\
/* a tiny liberty: cell (fake) { in a comment } */
library (tiny) {
  time_unit : "1ns";
  cell (INV) {
    area : 1.5;
    pin (A) { direction : input; }
    pin (Y) { direction : output; function : "!A";
      timing () { related_pin : "A"; cell_rise (t) { values ("0.1"); } }
      internal_power () { related_pin : "A"; rise_power (p) { values ("1.0"); } }
    }
    leakage_power () { value : 3.0; }
  }
  cell ("TIE1") {
    area : 2.0;
    pin (H) { direction : output; function : "1"; }
  }
  cell (TIE0) {
    area : 2.5;
    pin (L) { direction : output; function : "0"; }
  }
  cell (BIGTIE1) {
    area : 9.0;
    pin (H) { direction : output; function : "1"; }
  }
  cell (DFF) {
    area : 5.0;
    ff (IQ, IQN) { clocked_on : "CK"; next_state : "D"; }
    pin (D) { direction : input; timing () { related_pin : "CK"; } }
    pin (CK) { direction : input; clock : true; }
    pin (Q) { direction : output; function : "IQ"; }
  }
  cell (BADCELL_lpflow) {
    area : 0.1;
    pin (Y) { direction : output; function : "A"; }
  }
}
"""


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("RTLOPT_PDK_PATH", raising=False)
    monkeypatch.delenv("RTLOPT_LIBERTY_CACHE", raising=False)


@pytest.fixture(autouse=True)
def _builtins_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The built-in PDKs (liberty on the search path), also where the bundled PDK packages are
    installed (scripts/setup.sh): this file tests the search, not the packages."""
    table = {n: f"rtlopt.pdk._builtin:{n}" for n in ("sky130hd", "nangate45")}
    monkeypatch.setattr(
        rtlopt.pdk,
        "PDKS",
        Registry(
            "PDK",
            "rtlopt.test-builtin-pdks-only",
            table,
            reserved=(CUSTOM,),
            aliases={"sky130": "sky130hd"},
        ),
    )


def _lib_tree(tmp_path: Path, pdk: str, fname: str, gz: bool) -> Path:
    folder = tmp_path / "pdks" / pdk
    folder.mkdir(parents=True)
    if gz:
        path = folder / (fname + ".gz")
        with gzip.open(path, "wt") as f:
            f.write(TINY)
    else:
        path = folder / fname
        path.write_text(TINY)
    return tmp_path / "pdks"


def test_registry_has_builtins_and_they_satisfy_the_protocol() -> None:
    assert {"sky130hd", "nangate45"} <= set(rtlopt.pdk.PDKS.names())
    for name in ("sky130hd", "nangate45"):
        pdk = rtlopt.pdk.PDKS.get(name)()
        assert isinstance(pdk, Pdk) and pdk.name == name and pdk.liberty_files
        assert pdk.tie_hi is not None and pdk.tie_lo is not None


def test_search_path_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTLOPT_PDK_PATH", f"/a{os.pathsep}/b")
    assert pdk_search_path() == [Path("/a"), Path("/b"), tmp_path / "data" / "rtlopt" / "pdk"]


def test_unknown_pdk_lists_known_ones() -> None:
    with pytest.raises(PluginError, match="sky130hd"):
        resolve_pdk("tsmc3", search_path=[])


def test_missing_liberty_says_where_and_how(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as info:
        resolve_pdk("nangate45", search_path=[tmp_path])
    text = str(info.value)
    assert str(tmp_path / "nangate45") in text
    assert "RTLOPT_PDK_PATH" in text and "rtlopt pdk download nangate45" in text


@pytest.mark.parametrize("gz", [True, False])
def test_resolve_on_search_path_decompresses_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gz: bool
) -> None:
    root = _lib_tree(tmp_path, "nangate45", "NangateOpenCellLibrary_typical.lib", gz)
    monkeypatch.setenv("RTLOPT_PDK_PATH", str(root))
    info = resolve_pdk("nangate45")
    assert info.liberty.name.endswith(".gz") is gz
    assert info.liberty_plain.read_text() == TINY
    assert info.tie_hi == ("LOGIC1_X1", "Z")
    again = resolve_pdk("nangate45")
    assert again.liberty_plain == info.liberty_plain and again.md5 == info.md5
    if gz:
        assert info.liberty_plain.parent == tmp_path / "cache" / "rtlopt" / "liberty"


def test_custom_liberty_scans_tie_cells(tmp_path: Path) -> None:
    lib = tmp_path / "mine.lib"
    lib.write_text(TINY)
    info = resolve_pdk(CUSTOM, liberty=lib)
    assert info.name == CUSTOM
    assert info.tie_hi == ("TIE1", "H")  # the smaller of TIE1 and BIGTIE1
    assert info.tie_lo == ("TIE0", "L")
    with pytest.raises(UsageError, match="--liberty"):
        resolve_pdk(CUSTOM)
    with pytest.raises(UsageError, match="not found"):
        resolve_pdk(CUSTOM, liberty=tmp_path / "nope.lib")


def test_iter_cells_skips_comments_and_nested_groups() -> None:
    names = [c.name for c in iter_cells(TINY)]
    assert names == ["INV", "TIE1", "TIE0", "BIGTIE1", "DFF", "BADCELL_lpflow"]


def test_tie_scan_without_tie_cells() -> None:
    assert scan_tie_cells('library (x) { cell (A) { pin (Y) { function : "!B"; } } }') == (
        None,
        None,
    )


def test_strip_groups_removes_nested_power() -> None:
    out = strip_groups(TINY, ("internal_power", "leakage_power"))
    assert "rise_power" not in out and "leakage_power" not in out
    assert "cell_rise" in out and out.count("{") == out.count("}")


def test_derived_liberties(tmp_path: Path) -> None:
    plain = tmp_path / "t.lib"
    plain.write_text(TINY)
    d = derive_liberties(plain, "m", ["*lpflow*"])
    abc, dff, area = d.abc.read_text(), d.dff.read_text(), d.area.read_text()
    assert [c.name for c in iter_cells(abc)] == ["INV", "TIE1", "TIE0", "BIGTIE1"]
    assert "internal_power" not in abc and "cell_rise" in abc
    assert [c.name for c in iter_cells(dff)] == ["DFF"] and "timing" not in dff
    assert len(list(iter_cells(area))) == 6 and "area : 0.1;" in area
    assert "time_unit" in abc and "time_unit" in dff
    assert derive_liberties(plain, "m", ["*lpflow*"]) == d  # cached


def test_download_offline_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="could not download"):
        download_pdk("nangate45", tmp_path, url="http://127.0.0.1:9/nangate.lib.gz")


def test_list_pdks_reports_found_and_missing(tmp_path: Path) -> None:
    root = _lib_tree(tmp_path, "nangate45", "NangateOpenCellLibrary_typical.lib", True)
    rows = {r.name: r for r in list_pdks([root])}
    assert rows["nangate45"].liberty == root / "nangate45" / "NangateOpenCellLibrary_typical.lib.gz"
    assert rows["sky130hd"].liberty is None and rows["sky130hd"].source == "built-in"
    assert rows["sky130hd"].description


def test_an_absolute_liberty_is_used_as_it_is(tmp_path: Path) -> None:
    """A PDK plugin may point at any file (the bundled packages point into their package)."""
    lib = tmp_path / "anywhere" / "lib.lib.gz"
    lib.parent.mkdir()
    with gzip.open(lib, "wt") as f:
        f.write(TINY)
    other = _lib_tree(tmp_path, "mine", "mine.lib", False)  # a search-path copy, listed second
    pdk = StaticPdk("mine", "test", (str(lib), "mine.lib"), "tt", None, None)
    found, tried = find_liberty(pdk, [other])
    assert found == lib and tried == [lib]
    gone = StaticPdk("mine", "test", (str(tmp_path / "gone.lib"), "mine.lib"), "tt", None, None)
    found, tried = find_liberty(gone, [other])
    assert found == other / "mine" / "mine.lib"
    assert tried[:2] == [tmp_path / "gone.lib", tmp_path / "gone.lib.gz"]


def test_a_plugin_with_a_bundled_liberty_resolves_without_a_search_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = tmp_path / "pkg" / "data" / "bundled.lib"
    lib.parent.mkdir(parents=True)
    lib.write_text(TINY)
    models = (tmp_path / "pkg" / "data" / "cells.v",)

    class Bundled:
        name = "bundled"
        description = "bundled test PDK"
        liberty_files = (str(lib),)
        corner = "tt"
        tie_hi = ("TIE1", "H")
        tie_lo = ("TIE0", "L")
        dont_use = ()
        default_clock_period_ns = 5.0
        cell_models = models

        def download(self, dest: Path) -> Path:
            return lib

    module = type(sys)("bundled_pdk_for_test")
    module.Bundled = Bundled  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bundled_pdk_for_test", module)
    monkeypatch.setattr(
        rtlopt.pdk,
        "PDKS",
        Registry(
            "PDK",
            "rtlopt.test-bundled",
            {"bundled": "bundled_pdk_for_test:Bundled"},
            reserved=(CUSTOM,),
            aliases={"bd": "bundled"},
        ),
    )
    info = resolve_pdk("bd", search_path=[])
    assert info.name == "bundled" and info.liberty == lib and info.cell_models == models
    assert info.default_clock_period_ns == 5.0
    (row,) = list_pdks([])
    assert row.liberty == lib and row.aliases == ("bd",) and row.corner == "tt"
    # `rtlopt pdk download NAME --url`: the file goes beside the others, by its name only
    with pytest.raises(UsageError, match="could not download"):
        download_pdk("bundled", tmp_path / "dest", url="http://127.0.0.1:9/x.lib.gz")
    assert (tmp_path / "dest" / "bundled").is_dir() and lib.read_text() == TINY
    lib.unlink()
    with pytest.raises(UsageError, match="reinstall the package that provides PDK 'bundled'"):
        resolve_pdk("bundled", search_path=[])
