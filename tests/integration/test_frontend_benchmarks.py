"""The frontends on the real benchmarks: every RTLLM reference and the C910 LZA.

Benchmarks are read in place from RTLOPT_BENCH_PATH (default ../shared/bench next to the repo).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.frontend import get_frontend, load_design
from rtlopt.frontend._clocks import resolve_hierarchy
from rtlopt.frontend.model import Module

BENCH = Path(
    os.environ.get(
        "RTLOPT_BENCH_PATH", Path(__file__).resolve().parents[2].parent / "shared" / "bench"
    )
)
RTLLM = sorted((BENCH / "rtllm").glob("*/verified_*.v")) if (BENCH / "rtllm").is_dir() else []
C910 = BENCH / "c910" / "lza_simd_half"

needs_bench = pytest.mark.skipif(
    not RTLLM, reason=f"RTLLM benchmarks not found under {BENCH} (set RTLOPT_BENCH_PATH)"
)
needs_iverilog = pytest.mark.skipif(
    shutil.which("iverilog") is None, reason="iverilog not installed (pyverilog needs it)"
)

# pyverilog 1.3 cannot parse these three (DESIGN.md)
PYVERILOG_FAILS = {"adder_32bit", "float_multi", "multi_8bit"}
SUBSET = [
    "accu",
    "alu",
    "asyn_fifo",
    "counter_12",
    "adder_16bit",
    "multi_pipe_4bit",
    "radix2_div",
    "signal_generator",
]


def _target_name(path: Path, names: list[str], instantiated: set[str]) -> str:
    design = path.parent.name
    for n in names:
        if n == design:
            return n
    for n in names:
        if n.startswith("verified_"):
            return n
    tops = [n for n in names if n not in instantiated]
    assert len(tops) == 1, tops
    return tops[0]


@needs_bench
@pytest.mark.parametrize("path", RTLLM, ids=[p.parent.name for p in RTLLM])
def test_rtllm_reference_loads(path: Path) -> None:
    mods = get_frontend("pyslang").parse([path]).modules
    names = [m.name for m in mods]
    name = _target_name(path, names, {i for m in mods for i in m.instances})
    d = load_design(path, name if len(names) > 1 else None, ProjectConfig())
    t = d.target
    assert t.name == name
    assert t.ports and all(p.width >= 1 for p in t.ports)
    assert path.read_text()[t.start : t.end].startswith("module")
    assert path.read_text()[t.start : t.end].endswith("endmodule")
    assert set(d.submodules) <= set(names)
    assert set(t.clocks) <= {p.name for p in t.inputs}
    if any(("posedge" in line or "negedge" in line) for line in t.text().splitlines()):
        assert t.clocks, "edge-triggered logic but no clock found"


@needs_bench
def test_rtllm_known_interfaces() -> None:
    def load(design: str, module: str | None = None) -> Module:
        (p,) = (BENCH / "rtllm" / design).glob("verified_*.v")
        return load_design(p, module, ProjectConfig()).target

    fifo = load("asyn_fifo", "verified_asyn_fifo")
    assert fifo.clocks == ("wclk", "rclk") and fifo.resets == ("wrstn", "rrstn")
    assert all(fifo.reset_active_low.values())
    assert fifo.port("wdata").width == 8  # parameter WIDTH = 8
    alu = load("alu")
    assert [(p.name, p.width) for p in alu.ports][:3] == [("a", 32), ("b", 32), ("aluc", 6)]
    assert not alu.is_sequential
    add16 = load("adder_16bit", "verified_adder_16bit")
    assert add16.instances == ("add8",)


@pytest.mark.skipif(not C910.is_dir(), reason=f"C910 benchmark not found under {BENCH}")
def test_c910_lza() -> None:
    target = C910 / "ct_vfmau_lza_simd_half.v"
    d = load_design(target, None, ProjectConfig())
    t = d.target
    assert t.name == "ct_vfmau_lza_simd_half"
    assert {p.name: (p.direction, p.width) for p in t.ports} == {
        "addend": ("input", 24),
        "summand": ("input", 24),
        "sub_vld": ("input", 1),
        "lza_result": ("output", 5),
        "lza_result_zero": ("output", 1),
    }
    assert not t.is_sequential
    # the half-precision LZA does not instantiate the 4:2 helper; the helper parses on its own
    assert "ct_vfmau_lza_42" not in t.instances and d.submodules == ()
    assert d.closure == (target.resolve(),)
    assert "ct_vfmau_lza_42" in d.modules
    assert "Apache" in t.header_comment


def _interface(m: Module) -> tuple[object, ...]:
    return (
        m.name,
        m.start,
        m.end,
        m.ports,
        tuple((p.name, p.local) for p in m.parameters),
        m.clocks,
        m.resets,
        dict(m.reset_active_low),
        m.instances,
        m.header_comment,
    )


def _compare(paths: list[Path]) -> int:
    slang, pyv = get_frontend("pyslang"), get_frontend("pyverilog")
    compared = 0
    for path in paths:
        ra, rb = slang.parse([path]), pyv.parse([path])
        assert not ra.errors, ra.errors
        if path.parent.name in PYVERILOG_FAILS:
            assert rb.errors  # documented pyverilog limitation; skip the comparison
            continue
        assert not rb.errors, rb.errors
        ma = resolve_hierarchy({m.name: m for m in ra.modules}, ra.blocks, ra.connections)
        mb = resolve_hierarchy({m.name: m for m in rb.modules}, rb.blocks, rb.connections)
        assert sorted(ma) == sorted(mb)
        for name in ma:
            assert _interface(ma[name]) == _interface(mb[name]), (path, name)
        compared += 1
    return compared


@pytest.mark.tools
@needs_bench
@needs_iverilog
def test_pyslang_and_pyverilog_agree_on_a_subset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # pyverilog must not write parser tables here
    paths = [p for p in RTLLM if p.parent.name in SUBSET]
    assert _compare(paths) == len(SUBSET)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.tools
@pytest.mark.slow
@needs_bench
@needs_iverilog
def test_pyslang_and_pyverilog_agree_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    paths = RTLLM + sorted(C910.glob("*.v"))
    assert _compare(paths) == len(paths) - len(PYVERILOG_FAILS)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.tools
@needs_iverilog
def test_load_design_with_pyverilog(tmp_path: Path) -> None:
    f = tmp_path / "m.v"
    f.write_text(
        "`define W 5\nmodule leaf(input [`W-1:0] a, output y); assign y = ^a; endmodule\n"
        "module top(input clk, input [`W-1:0] a, output reg y);\n"
        "  wire t; leaf u(.a(a), .y(t));\n  always @(posedge clk) y <= t;\nendmodule\n"
    )
    d = load_design(f, None, ProjectConfig(frontend="pyverilog"))
    assert d.target.name == "top" and d.submodules == ("leaf",)
    assert d.target.port("a").width == 5 and d.target.clocks == ("clk",)
