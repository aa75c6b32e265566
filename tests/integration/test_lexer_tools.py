"""The screen's lexer against the real iverilog and Yosys: where an escaped identifier ends.

For each character after ``begin : \\blk``, the rest of the line is ``$display("HIDDEN");``:
the tools print HIDDEN exactly when the character ends the identifier. ``rtlopt.verilog.scan``
must end it where iverilog does, and where Yosys disagrees with iverilog (CR, FF) the screen
rejects the candidate, so no tool reads code the screen took for part of a name.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rtlopt.harness import screen_candidate
from rtlopt.verilog import scan
from tests.unit.harness.test_harness_text import make_design

pytestmark = pytest.mark.tools

CHARS = {
    "space": " ",
    "tab": "\t",
    "cr": "\r",
    "ff": "\f",
    "vt": "\x0b",
    "fs": "\x1c",
    "nel": "\x85",
    "nbsp": "\xa0",
}


def _text(ch: str) -> str:
    return f'module t; initial begin : \\blk{ch}$display("HIDDEN"); end endmodule\n'


def _iverilog_ends(tmp_path: Path, src: Path) -> bool:
    vvp = tmp_path / "t.vvp"
    subprocess.run(["iverilog", "-o", str(vvp), str(src)], check=True, capture_output=True)
    out = subprocess.run(["vvp", "-n", str(vvp)], capture_output=True, text=True, check=True)
    return "HIDDEN" in out.stdout


def _yosys_ends(src: Path) -> bool:
    out = subprocess.run(
        ["yosys", "-p", f"read_verilog {src}"], capture_output=True, text=True, check=True
    )
    return "HIDDEN" in out.stdout


@pytest.mark.parametrize("name", list(CHARS))
def test_scan_ends_escaped_identifiers_where_the_tools_do(tmp_path: Path, name: str) -> None:
    ch = CHARS[name]
    src = tmp_path / "t.v"
    src.write_bytes(_text(ch).encode())
    by_iverilog, by_yosys = _iverilog_ends(tmp_path, src), _yosys_ends(src)
    escaped = [(a, b) for kind, a, b in scan(_text(ch)) if kind == "escaped"]
    by_scan = _text(ch)[escaped[0][1]] == ch
    assert by_scan == by_iverilog, (name, by_scan, by_iverilog)
    if by_yosys != by_iverilog:  # the tools disagree: the screen must not let it through
        cand = (
            f"module top(input [3:0] a, output [3:0] y);\nwire \\n{ch}; assign y = ~a;\nendmodule\n"
        )
        assert screen_candidate(cand, make_design(tmp_path)), name
