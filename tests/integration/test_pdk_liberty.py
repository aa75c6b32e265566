"""The built-in PDKs resolve against the shared liberty files (never copied into the repo)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rtlopt.config import FlowConfig, SandboxConfig
from rtlopt.eda.flow import PpaFlow
from rtlopt.pdk import resolve_pdk
from rtlopt.pdk._liberty import iter_cells

pytestmark = pytest.mark.tools

# md5 of the decompressed files, from the shared pdk/README.md
MD5 = {
    "sky130hd": "f2bbb4fb2aecd79bb0bddd87166b20be",
    "nangate45": "fbd782231f674601393a42760f8f871c",
}


def _pdk_root() -> Path:
    root = Path(os.environ.get("RTLOPT_PDK_PATH", Path(__file__).parents[3] / "shared" / "pdk"))
    if not (root / "nangate45").is_dir():
        pytest.skip(f"shared PDK data not found at {root} (set RTLOPT_PDK_PATH)")
    return root


@pytest.mark.parametrize("name", ["sky130hd", "nangate45"])
def test_builtin_pdks_resolve_to_the_shared_files(name: str) -> None:
    info = resolve_pdk(name, search_path=[_pdk_root()])
    assert info.liberty.suffix == ".gz" and info.md5 == MD5[name]
    assert info.liberty_plain.suffix == ".lib" and info.liberty_plain.is_file()
    text = info.liberty_plain.read_text(errors="replace")
    assert info.tie_hi is not None and f"cell ({info.tie_hi[0]})" in text.replace('"', "")


def test_dont_use_keeps_cells_out_of_the_netlist(tmp_path: Path) -> None:
    root = _pdk_root()
    bench = Path(os.environ.get("RTLOPT_BENCH_PATH", root.parent / "bench"))
    src = bench / "c910" / "lza_simd_half"
    if not src.is_dir():
        pytest.skip("C910 benchmark not found")
    info = resolve_pdk("sky130hd", search_path=[root])
    cfg = FlowConfig(dont_use=("*lpflow*",))
    with PpaFlow(info, cfg, SandboxConfig()) as flow:
        names = [c.name for c in iter_cells(flow.libs.abc.read_text())]
        assert names and not any("lpflow" in n for n in names)
        m = flow.measure(
            [src / "ct_vfmau_lza_42.v", src / "ct_vfmau_lza_simd_half.v"],
            "ct_vfmau_lza_simd_half",
            [],
            tmp_path,
        )
    assert "lpflow" not in m.netlist.read_text()
    assert m.ppa.area_um2 > 0 and m.ppa.adp != pytest.approx(3_402_207, rel=1e-4)
