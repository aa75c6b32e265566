"""The gate's search for a failing input from a shared power-up state (issue 33): a broken
edit of a UART whose registers have no reset (fx_noreset, in the style of darkriscv's UART)
is shown with the input sequence and the differing output; an equivalent edit finds none."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rtlopt.config import ProjectConfig
from rtlopt.formal.powerup_search import (
    counterexample,
    failing_input,
    search_shared_powerup,
    shared_powerup_trace,
)
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
    found = search_shared_powerup(design, broken, tmp_path / "search", steps=6)
    lines = found.lines
    # the status register is read at DATAO, so every power-up state of the reference that
    # follows the change's outputs is pinned down: the failing input refutes it
    assert found.refuted and lines[0].startswith("failing input (a refutation)"), lines
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
    assert shared_powerup_trace(design, same, tmp_path / "search", steps=6) == []


TOGGLE = """module toggle (input clk, input en, output y);
    reg q = 1'b0;
    always @(posedge clk) if (en) q <= ~q;
    assign y = q;
endmodule
"""


def _toggle(tmp_path: Path):  # type: ignore[no-untyped-def]
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".git").mkdir()
    (repo / "toggle.v").write_text(TOGGLE)
    return load_design(repo / "toggle.v", "toggle", ProjectConfig())


def test_a_difference_every_reference_power_up_state_shows_is_a_refutation(
    tmp_path: Path,
) -> None:
    """A register that no longer toggles: whatever the reference powers up in, it toggles
    where the change holds, so the failing input refutes the change."""
    design = _toggle(tmp_path)
    frozen = TOGGLE.replace("if (en) q <= ~q;", "if (en) q <= q;")
    found = search_shared_powerup(design, frozen, tmp_path / "search", steps=4)
    assert found.refuted, found
    assert any("outputs differ: y:" in ln for ln in found.lines), found.lines


def test_a_difference_only_from_the_initialisers_is_no_refutation(tmp_path: Path) -> None:
    """Another initialiser: the two differ from their initial values, but the reference
    powered up at 1 behaves as the change (initial values count for nothing on a chip), so
    the failing input is shown and the proof stays undecided (the control of the one above)."""
    design = _toggle(tmp_path)
    other_init = TOGGLE.replace("reg q = 1'b0;", "reg q = 1'b1;")
    found = search_shared_powerup(design, other_init, tmp_path / "search", steps=4)
    assert found.lines and not found.refuted, found
    assert found.lines[0].startswith("failing input from a shared power-up state"), found.lines


def test_registers_on_the_falling_edge_are_never_refuted(tmp_path: Path) -> None:
    """Registers on both edges of the clock step at different times on a chip but together
    in the search's model: a difference there is shown, never called a refutation."""
    design = _toggle(tmp_path)
    both = TOGGLE.replace(
        "assign y = q;", "reg p = 1'b0;\n    always @(negedge clk) p <= q;\n    assign y = q;"
    )
    frozen = both.replace("if (en) q <= ~q;", "if (en) q <= q;")
    (design.target.file).write_text(both)
    design = load_design(design.target.file, "toggle", ProjectConfig())
    found = search_shared_powerup(design, frozen, tmp_path / "search", steps=4)
    assert found.lines and not found.refuted, found


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
    # the formal counterexample evaluate replays: the differing output, the inputs per step
    # (never the clock), steps from 0
    assert counterexample(vcd, {"clk"}) == {
        "cycle": "1",
        "expected y": "01",
        "got y": "11",
        "x@0": "0",
        "x@1": "1",
    }
    assert counterexample(vcd.replace("1t", "0t"), {"clk"}) == {}
