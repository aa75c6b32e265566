"""The failing input the gate prints (``failing_lines``): for a sequential module the cycles
before the failing one too, which show what led there (a PID the change mishandles two cycles
before the output differs, as on ultraembedded's usbf_sie_tx), cycles in a row with the same
inputs on one line; at most the last 16 lines, the others named as in the waveform only. A
combinational module: the failing input alone."""

from __future__ import annotations

from rtlopt.evaluate import failing_lines
from rtlopt.evaluate._trace_model import Replay, Sample


def _replay(n: int, sequential: bool = True, held: int = 0) -> Replay:
    """``n`` cycles, the last failing; ``pid`` counts up but is held for the first
    ``held`` cycles."""
    samples = tuple(
        Sample(
            k,
            0,
            {"go": "1" if k == n - 2 else "0", "pid": format(max(k, held), "08b")},
            {"y": "0"},
            {"y": "1" if k == n - 1 else "0"},
            ("y",) if k == n - 1 else (),
        )
        for k in range(n)
    )
    return Replay(
        "formal", True, n - 1, n - 1, "", samples, {"go": 1, "pid": 8}, {"y": 1}, ("clk",),
        sequential, vcd="t.vcd",
    )  # fmt: skip


def test_the_cycles_before_the_failing_one_are_shown() -> None:
    lines = failing_lines(_replay(4))
    assert lines[0] == "failing input at cycle 3: go=0, pid=00000011", lines
    assert lines[1] == "the inputs of the cycles before it:", lines
    assert lines[2:5] == [
        "  cycle 0: go=0, pid=00000000",
        "  cycle 1: go=0, pid=00000001",
        "  cycle 2: go=1, pid=00000010",
    ], lines
    assert lines[5:] == ["output y: expected 0, got 1", "waveform: t.vcd"], lines


def test_at_most_sixteen_earlier_cycles_the_rest_in_the_waveform() -> None:
    lines = failing_lines(_replay(40))
    assert lines[1] == "the inputs of the cycles before it (cycles 0-22: in the waveform):"
    assert lines[2].startswith("  cycle 23: ") and lines[17].startswith("  cycle 38: go=1")


def test_a_combinational_or_first_cycle_failure_shows_its_input_alone() -> None:
    assert len(failing_lines(_replay(3, sequential=False))) == 3
    assert failing_lines(_replay(1))[1:] == ["output y: expected 0, got 1", "waveform: t.vcd"]


def test_cycles_in_a_row_with_the_same_inputs_share_a_line() -> None:
    lines = failing_lines(_replay(30, held=20))
    assert lines[1] == "the inputs of the cycles before it:", lines
    assert lines[2] == "  cycles 0-20: go=0, pid=00010100", lines
    assert lines[3] == "  cycle 21: go=0, pid=00010101", lines
    assert lines[10] == "  cycle 28: go=1, pid=00011100", lines
