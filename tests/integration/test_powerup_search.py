"""The gate's search for a failing input from a shared power-up state (issue 33): a broken
edit of a UART whose registers have no reset (fx_noreset, in the style of darkriscv's UART)
is shown with the input sequence and the differing output; an equivalent edit finds none."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rtlopt.check._powerup_search import failing_input, shared_powerup_trace
from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design

pytestmark = pytest.mark.tools

UART = Path(__file__).resolve().parents[1] / "acceptance" / "repos" / "fx_noreset" / "rtl"


def _design(tmp_path: Path):  # type: ignore[no-untyped-def]
    repo = tmp_path / "repo"
    shutil.copytree(UART, repo)
    (repo / ".git").mkdir()  # the repository root for the frontend
    return load_design(repo / "uartlite.v", "uartlite", ProjectConfig())


@pytest.mark.slow
def test_a_broken_edit_of_unreset_registers_shows_its_failing_input(tmp_path: Path) -> None:
    design = _design(tmp_path)
    text = design.target.file.read_text()
    broken = text.replace("|(STATE ^ STATEFF)", "|(STATE & STATEFF)")
    assert broken != text
    lines = shared_powerup_trace(design, broken, tmp_path / "search")
    assert lines and lines[0].startswith("failing input from a shared power-up state"), lines
    assert any(ln.startswith("cycle 0:") and "RD=" in ln for ln in lines), lines
    assert any("outputs differ: IRQ: reference" in ln for ln in lines), lines
    cycles = [ln for ln in lines if ln.startswith("cycle") and "differ" not in ln]
    values = [t.split("=", 1)[1] for ln in cycles for t in ln.split(":", 1)[1].split()]
    assert values and all(v.startswith("0x") or v.isdigit() for v in values), cycles
    vcd = Path(lines[-1].removeprefix("waveform: "))
    assert vcd.is_file() and "trigger" in vcd.read_text()
    assert "CLK=" not in " ".join(lines)  # the clock is the cycle, not an input


@pytest.mark.slow
def test_an_equivalent_edit_finds_no_failing_input(tmp_path: Path) -> None:
    design = _design(tmp_path)
    text = design.target.file.read_text()
    same = text.replace("|(STATE ^ STATEFF)", "(STATE != STATEFF)")
    assert same != text
    assert shared_powerup_trace(design, same, tmp_path / "search") == []


def test_failing_input_reads_the_first_cycle_the_trigger_is_high() -> None:
    vcd = """$scope module m $end
$var wire 1 a \\in_x $end
$var wire 1 c \\in_clk $end
$var wire 1 t \\trigger $end
$var wire 2 g \\gold_y $end
$var wire 2 h \\gate_y $end
$upscope $end
$enddefinitions $end
#0
0a
0c
0t
b00 g
b00 h
#1
1a
1t
b01 g
b11 h
#2
0t
"""
    assert failing_input(vcd, {"clk"}) == [
        "cycle 0: x=0",
        "cycle 1: x=1",
        "cycle 1: outputs differ: y: reference 1, change 3",
    ]
    assert failing_input(vcd.replace("1t", "0t"), set()) == []
