"""Round 65 (held out, 6 accepts): a name that holds a defined value before time 0 gets no
event when that value arrives at time 0. The repository's reading (``frontend/_time_zero.py``)
counted as changed at time 0 an input passed through a two-state cast (``bit'(en)``), through
a two-state port of a module between (``input bit en``), or a net with a second driver (``wor
en = 1'b0; assign en = h;``), and the module's own reading (``evaluate/_time_zero_values.py``)
a net of ``===``; and a testbench the configuration leaves out held the target's inputs. Now
such inputs and nets are held, and a testbench instantiating the target itself is a reading
of its own (its inputs held, judged as a top's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.evaluate._time_zero import time_zero_change
from rtlopt.evaluate._time_zero_values import evented_within
from rtlopt.frontend._time_zero import evented_inputs
from rtlopt.harness._event_blocks import module_items
from tests.unit.evaluate.test_time_zero import _design

M = "module m(input a, input b, input c, output y);\n  assign y = a ^ b ^ c;\nendmodule\n"
AT = "module m(input a, input b, input c, output reg y);\n  always @(a) y = a ^ b ^ c;\nendmodule\n"


@pytest.mark.parametrize(
    ("top", "evented"),
    [
        # a two-state cast of a variable an initial block sets: 0 before time 0 already
        (
            "module top(output y);\n  reg en; initial en = 1'b0;\n"
            "  m u(.a(bit'(en)), .b(en), .c(1'b1), .y(y));\nendmodule\n",
            ["b", "c"],
        ),
        # a two-state port of a module between
        (
            "module mid(input bit p, input q, output y);\n  m u(.a(p), .b(q), .c(q), .y(y));\n"
            "endmodule\nmodule top(output y);\n  reg en; initial en = 1'b0;\n"
            "  mid x(.p(en), .q(en), .y(y));\nendmodule\n",
            ["b", "c"],
        ),
        # a constant driver and a second one: a held variable, an instance's output
        (
            "module src(output o);\n  reg r = 1'b0;\n  assign o = r;\nendmodule\n"
            "module top(output y);\n  reg h = 1'b0;\n  wor w1 = 1'b0;\n  assign w1 = h;\n"
            "  wire w2;\n  assign w2 = 1'b1;\n  src s(.o(w2));\n  wire w3 = 1'b1;\n"
            "  m u(.a(w1), .b(w2), .c(w3), .y(y));\nendmodule\n",
            ["c"],
        ),
    ],
    ids=["cast", "two_state_port", "second_driver"],
)
def test_a_value_held_before_time_0_makes_no_event(
    tmp_path: Path, top: str, evented: list[str]
) -> None:
    assert sorted(evented_inputs(_design(tmp_path, M, top))) == evented  # type: ignore[arg-type]


def test_a_net_of_case_equality_is_not_changed_at_time_0() -> None:
    text = (
        "module m(input [1:0] a, output reg y);\n  wire [1:0] n = {a[0] === 1'b0, a[1]};\n"
        "  wire [1:0] p = ~a;\n  always @(n) y = n[1];\nendmodule\n"
    )
    items = module_items(text, "m")
    assert items is not None
    assert evented_within(items, frozenset({"a"})) == {"a", "p"}


@pytest.mark.parametrize(
    "top",
    [
        # the repository's parent changes every input at time 0 (an initial block)
        "module top(output y);\n  reg i; initial i = 1'b0;\n"
        "  m u(.a(i), .b(i), .c(i), .y(y));\nendmodule\n",
        "",
    ],
    ids=["instantiated", "top"],
)
def test_a_testbench_instantiating_the_target_may_hold_its_inputs(tmp_path: Path, top: str) -> None:
    design = _design(tmp_path, M, top)
    why = time_zero_change(design, M, AT)  # type: ignore[arg-type]
    assert "always @(...) block of m at line 2" in why, why
    # defined earlier than the reference: refines what such a testbench leaves x
    design = _design(tmp_path, AT, top)
    assert time_zero_change(design, AT, M) == ""  # type: ignore[arg-type]
