"""`rtlopt profile` on a fixture system with real Yosys and OpenSTA (nangate45).

The fixture (tests/data/profile_soc, with ``scale`` from tests/data/multi_soc) has a multiply-accumulate block with the only long path,
a small flag block instantiated twice and off every long path, and a top with no logic of its
own. The attribution must sum to the top's area, mark the multiplier and not the flags, count
both flag instances, and suggest the multiplier first.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rtlopt import session
from rtlopt.profile import ProfileSettings, profile_design, suggestions
from tests.integration._fixture_repo import fixture_repo, run_rtlopt

pytestmark = pytest.mark.tools

DATA = Path(__file__).resolve().parents[1] / "data" / "profile_soc"
#: ``scale`` and its one-multiplier rewrite are shared with the several-modules fixture
MULTI = Path(__file__).resolve().parents[1] / "data" / "multi_soc"
REWRITE = MULTI / "candidates" / "scale" / "scale_one_mul.v"


@pytest.fixture(scope="module")
def soc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("soc")
    stage = base / "stage"
    shutil.copytree(DATA, stage)
    shutil.copy(MULTI / "rtl" / "scale.v", stage / "rtl" / "scale.v")
    mp = pytest.MonkeyPatch()
    repo = fixture_repo(stage, base / "soc", mp, Path("/nonexistent"))
    mp.undo()
    return repo


def _profile(soc: Path, tmp_path: Path) -> tuple[session.Target, object]:
    tgt = session.open_target(
        session.TargetSpec(soc / "rtl" / "soc_top.v", "soc_top", {"flow.pdk": "nangate45"})
    )
    assert tgt.pdk is not None
    prof = profile_design(tgt.design, tgt.pdk, tmp_path / "work", ProfileSettings(paths=5))
    return tgt, prof


def test_attribution_sums_to_the_top_and_marks_the_long_path(soc: Path, tmp_path: Path) -> None:
    tgt, prof = _profile(soc, tmp_path)
    from rtlopt.profile import Profile

    assert isinstance(prof, Profile)
    own = sum(m.own_area for m in prof.modules)
    assert own == pytest.approx(prof.area_um2, rel=1e-9)
    # the liberty's cell areas times the cell counts agree with Yosys's own stat total
    assert prof.area_um2 == pytest.approx(prof.yosys_area_um2, rel=1e-3)
    assert prof.module("soc_top").total_area == pytest.approx(prof.area_um2, rel=1e-9)
    mac, flags, top = prof.module("mac"), prof.module("flags"), prof.module("soc_top")
    assert not prof.module("scale").on_critical_path
    assert mac.on_critical_path and mac.paths >= 1 and mac.worst_path_share > 0.5
    assert not flags.on_critical_path and flags.paths == 0
    assert flags.instances == 2 and mac.instances == 1
    assert mac.area_share > flags.area_share > 0
    assert sum(m.area_share for m in prof.modules) == pytest.approx(1.0, rel=1e-9)
    assert prof.power_mw > 0
    assert sum(m.power_share for m in prof.modules) == pytest.approx(1.0, rel=1e-6)
    assert not top.evaluable and "no cells of its own" in top.why_not
    tips = suggestions(prof, count=3, pdk="nangate45", root=soc)
    assert [t.module for t in tips] == ["mac", "scale", "flags"]
    assert tips[0].command == "rtlopt optimize rtl/mac.v --module mac --pdk nangate45"
    # the JSON form is the same profile
    assert type(prof).from_json(json.loads(json.dumps(prof.to_json()))) == prof
    assert prof.provenance["tools"]["yosys"]


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_cli_profile_json_picture_and_cache(soc: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    r = run_rtlopt(soc, "profile", "soc_top", "--pdk", "nangate45", "--out", str(out), "--json")
    assert r.returncode == 0, r.stderr[-800:]
    data = json.loads(r.stdout)
    assert data["top"] == "soc_top"
    assert {m["name"] for m in data["modules"]} == {"soc_top", "mac", "flags", "scale"}
    assert data["suggestions"][0]["module"] == "mac"
    png = Path(data["picture"])
    assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "profile.json").is_file()
    # without TOP: the repository's top is found (the only module nothing instantiates); the
    # netlists of an earlier profile in the repository's runs folder are not sources
    r1 = run_rtlopt(soc, "profile", "soc_top", "--pdk", "nangate45", "--no-cache", "--json")
    assert r1.returncode == 0, r1.stderr[-800:]
    assert list((soc / ".rtlopt" / "runs" / "profile").rglob("netlist.v"))
    r2 = run_rtlopt(soc, "profile", "--pdk", "nangate45", "--out", str(out), "--json")
    assert r2.returncode == 0, r2.stderr[-800:]
    assert json.loads(r2.stdout)["top"] == "soc_top"


def test_cli_profile_unknown_top_is_a_usage_error(soc: Path) -> None:
    r = run_rtlopt(soc, "profile", "no_such_top", "--pdk", "nangate45")
    assert r.returncode == 2
    assert "no_such_top" in r.stderr and "defined in no Verilog file" in r.stderr


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_in_context_says_when_a_gain_vanishes(soc: Path, tmp_path: Path) -> None:
    """scale's rewrite drops a redundant multiplier that drives only an output the top leaves
    unconnected: smaller alone, the same in the flattened top."""
    rewrite = REWRITE
    r = run_rtlopt(
        soc,
        "profile",
        "soc_top",
        "--pdk",
        "nangate45",
        "--out",
        str(tmp_path / "o"),
        "--replace",
        f"scale={rewrite}",
        "--json",
    )
    assert r.returncode == 0, r.stderr[-800:]
    ctx = json.loads(r.stdout)["in_context"]
    (gain,) = ctx["modules"]
    assert gain["module"] == "scale" and gain["area_ratio"] < 0.9
    assert ctx["area_ratio"] == pytest.approx(1.0, abs=0.005)
    assert ctx["vanished"] == ["scale"]
    assert "proven equivalent to its original" in ctx["claim"]


def test_in_context_keeps_a_gain_that_survives(soc: Path, tmp_path: Path) -> None:
    """The same kind of rewrite on an output the top uses: the top gets smaller too."""
    from rtlopt.profile import measure_in_context

    tgt = session.open_target(
        session.TargetSpec(soc / "rtl" / "scale.v", "scale", {"flow.pdk": "nangate45"})
    )
    assert tgt.pdk is not None
    text = REWRITE.read_text()
    ctx = measure_in_context(
        tgt.design, tgt.pdk, tgt.config.flow, tgt.config.sandbox, {"scale": text}, tmp_path
    )
    assert ctx.area_ratio < 0.9 and ctx.vanished() == []
    assert "vanishes" not in ctx.summary()
