"""A reference's own parameter check (an ``initial`` block that tests parameters and calls
``$error`` / ``$finish``), kept word for word, passes the screen; any other use of those tasks
is still refused (:mod:`rtlopt.harness._param_checks`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.frontend import load_design
from rtlopt.harness import screen_candidate

CHECK = """    // check configuration
    initial begin
        if (DEPTH < 2 || W < 1) begin
            $error("Error: bad DEPTH %d (instance %m)", DEPTH);
            $finish;
        end
        if (ADDR > 4'd3) begin : too_deep
            $fatal(1, "ADDR too large");
        end
    end
"""
REF = f"""module m #(
    parameter W = 8,
    parameter DEPTH = 4
) (
    input  wire         clk,
    input  wire [W-1:0] a,
    output reg  [W-1:0] y
);
    localparam ADDR = $clog2(DEPTH);
{CHECK}
    always @(posedge clk) y <= a + 8'd1;
endmodule
"""


def _screen(tmp_path: Path, candidate: str) -> list[str]:
    f = tmp_path / "m.v"
    f.write_text(REF)
    design = load_design(f, "m", Config().project)
    return screen_candidate(candidate, design)


def test_the_kept_check_passes(tmp_path: Path) -> None:
    edited = REF.replace("y <= a + 8'd1;", "y <= 8'd1 + a;")
    # its layout and comments may differ
    edited = edited.replace("if (DEPTH < 2 || W < 1) begin", "if (DEPTH<2 || W<1)   begin")
    assert _screen(tmp_path, edited) == []


@pytest.mark.parametrize(
    "change",
    [
        # reads a signal
        ("if (DEPTH < 2 || W < 1) begin", "if (a == 8'd3) begin"),
        # reports a signal
        ('$fatal(1, "ADDR too large");', '$fatal(1, "ADDR too large", a);'),
        # assigns
        ("$finish;", "$finish; y = 8'd0;"),
        # another task
        ("$finish;", '$finish; $dumpfile("x");'),
        # a changed condition: no longer the reference's block
        ("if (ADDR > 4'd3)", "if (ADDR > 4'd2)"),
    ],
    ids=["reads-signal", "reports-signal", "assigns", "other-task", "changed"],
)
def test_any_other_block_is_refused(tmp_path: Path, change: tuple[str, str]) -> None:
    edited = REF.replace("y <= a + 8'd1;", "y <= 8'd1 + a;").replace(*change)
    found = _screen(tmp_path, edited)
    assert found, edited


def test_a_check_the_reference_does_not_hold_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "m.v"
    plain = REF.replace(CHECK, "")
    f.write_text(plain)
    design = load_design(f, "m", Config().project)
    assert screen_candidate(REF.replace("y <= a + 8'd1;", "y <= 8'd1 + a;"), design)
