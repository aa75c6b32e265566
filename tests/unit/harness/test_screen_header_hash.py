"""A parameter list whose ``#`` ends the header's line (``module uart_tx #`` then ``(`` on the
next line, the style of alexforencich's repositories: held-out trial 44) is no delay; a delay
written across lines still is."""

from __future__ import annotations

import pytest

from rtlopt.harness._screen_structure import structure_problems


@pytest.mark.parametrize(
    ("code", "delay"),
    [
        ("module m #\n(\n  parameter W = 8\n)\n(input [W-1:0] a, output [W-1:0] y);\n  assign y = a;\nendmodule\n", False),
        ("module m #\n\t (parameter W = 8) (input a, output y);\n  assign y = a;\nendmodule\n", False),
        ("module m (input a, output y);\n  sub #\n  (.W(4)) u (.a(a), .y(y));\nendmodule\n", False),
        ("module m (input a, output reg y);\n  always @(a) y = #\n 5 a;\nendmodule\n", True),
        ("module m (input a, output reg y);\n  always @(a) #\n (5) y = a;\nendmodule\n", True),
    ],
    ids=["header-on-two-lines", "header-with-a-tab", "instance", "delay-across-lines", "parenthesized-delay"],
)  # fmt: skip
def test_a_hash_at_the_end_of_a_line(code: str, delay: bool) -> None:
    found = [msg for _, msg in structure_problems(code, 0, "tb", False) if "delay" in msg]
    assert bool(found) is delay, found
