"""The RTLLM v2.0 references against their own testbenches, with the real iverilog 11."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest

from rtlopt.benchmark.suite import (
    RTLLM_TB_FAILURES,
    SuiteDesign,
    load_suite,
    run_suite_testbench,
)
from tests.conftest import full_size

pytestmark = pytest.mark.tools

_DEFAULT_BENCH = Path(__file__).resolve().parents[2].parent / "shared" / "bench"
BENCH = Path(os.environ.get("RTLOPT_BENCH_PATH", str(_DEFAULT_BENCH)))
RTLLM = BENCH / "rtllm"

# A quick cross-section: combinational with submodules, the two renamed designs, data files,
# sequential, the paper/folder name mismatch, and two known failures.
QUICK = [
    "adder_8bit",
    "adder_pipe_64bit",
    "multi_pipe_4bit",
    "alu",
    "multi_booth_8bit",
    "counter_12",
    "fixed_point_subtractor",
    "radix2_div",
    "ring_counter",
]


def _need_tools() -> None:
    if not RTLLM.is_dir():
        pytest.skip(f"RTLLM benchmark not found at {RTLLM} (set RTLOPT_BENCH_PATH)")
    if shutil.which("iverilog") is None or shutil.which("vvp") is None:
        pytest.skip("iverilog/vvp not installed")


def _check_reference(design: SuiteDesign, tmp_path: Path) -> None:
    res = run_suite_testbench(design, design.reference_file.read_text(), tmp_path / design.name)
    if design.name in RTLLM_TB_FAILURES:
        assert not res.passed, f"{design.name} is listed as failing but passed"
        assert design.known_issue and res.detail
    else:
        assert res.passed, f"{design.name}: {res.detail}"


@pytest.mark.parametrize("name", QUICK)
def test_rtllm_reference_passes_own_testbench_quick(name: str, tmp_path: Path) -> None:
    _need_tools()
    (design,) = load_suite("rtllm", RTLLM, [name])
    _check_reference(design, tmp_path)


@pytest.mark.slow
def test_rtllm_all_references(tmp_path: Path) -> None:
    """All 50 with ``RTLOPT_TEST_FULL_SIZE=1`` (bench/long_tests.py, case tbs); in the suite
    every fourth design beyond the quick cross-section, and each known testbench failure."""
    _need_tools()
    suite = load_suite("rtllm", RTLLM)
    assert len(suite) == 50
    rest = [d for d in suite if d.name not in QUICK]
    picked = (
        suite
        if full_size()
        else [d for i, d in enumerate(rest) if i % 4 == 0 or d.name in RTLLM_TB_FAILURES]
    )
    for design in picked:
        _check_reference(design, tmp_path)


def test_broken_candidate_fails_and_renamed_candidate_passes(tmp_path: Path) -> None:
    _need_tools()
    (design,) = load_suite("rtllm", RTLLM, ["adder_8bit"])
    assert (design.module, design.tb_module_name) == ("verified_adder_8bit", "adder_8bit")
    good = design.reference_file.read_text().replace("verified_adder_8bit", "my_adder")
    res = run_suite_testbench(design, good, tmp_path / "good")
    assert res.passed, res.detail
    # (the adder_8bit testbench checks only the sum, so break a sum bit)
    bad = good.replace(".b(b[3]), .cin(c[2])", ".b(b[3]), .cin(1'b0)")
    assert bad != good
    res = run_suite_testbench(design, bad, tmp_path / "bad")
    assert not res.passed and "failure" in res.detail
    res = run_suite_testbench(design, "module my_adder(input a; endmodule", tmp_path / "syntax")
    assert not res.passed and res.detail.startswith("compile failed")


def test_data_file_design_needs_its_data(tmp_path: Path) -> None:
    _need_tools()
    (design,) = load_suite("rtllm", RTLLM, ["signal_generator"])
    assert [f.name for f in design.data_files] == ["tri_gen.txt"]
    res = run_suite_testbench(design, design.reference_file.read_text(), tmp_path / "ok")
    assert res.passed, res.detail
    # Without its data file the golden values are unknown and the testbench must not pass.
    stripped = dataclasses.replace(design, data_files=())
    res = run_suite_testbench(stripped, design.reference_file.read_text(), tmp_path / "nodata")
    assert not res.passed


def test_hanging_candidate_times_out(tmp_path: Path) -> None:
    _need_tools()
    (design,) = load_suite("rtllm", RTLLM, ["adder_8bit"])
    # The testbench has no $finish: a free-running process keeps the simulation alive forever.
    hang = (
        "module adder_8bit(input [7:0] a, b, input cin, output [7:0] sum, output cout);\n"
        "  reg r = 0; always #1 r = ~r;\n  assign {cout, sum} = a + b + cin;\nendmodule\n"
    )
    res = run_suite_testbench(design, hang, tmp_path, timeout=2)
    assert not res.passed and "timed out" in res.detail
