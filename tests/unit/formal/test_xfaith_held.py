"""The x proofs' time-0 reading of registers with asynchronous pins
(:mod:`rtlopt.formal.xfaith_held`): the RTLIL rewrite and the counterexample's words."""

from __future__ import annotations

import pytest

from rtlopt.formal.xfaith_held import Unread, held_inputs, held_rewrite

_CELL = (
    "  cell {kind} $procdff$1\n"
    "    parameter \\ARST_POLARITY 1'0\n    parameter \\ARST_VALUE 2'00\n"
    "    parameter \\CLK_POLARITY 1'1\n    parameter \\WIDTH 2\n"
    "    connect \\ARST \\rst_n\n    connect \\CLK \\clk\n    connect \\D \\d\n"
    "    connect \\Q \\q [2:1]\n  end\n"
)


def _module(name: str, kind: str = "$adff") -> str:
    return (
        f"module {name}\n  wire input 1 \\clk\n  wire input 2 \\rst_n\n"
        "  wire width 2 input 3 \\d\n  attribute \\init 3'1x0\n  wire width 3 \\q\n"
        "  wire width 3 output 4 \\y\n" + _CELL.format(kind=kind) + "  connect \\y \\q\nend\n"
    )


def test_a_register_with_an_asynchronous_reset_reads_its_power_up_value_when_held() -> None:
    text, choices = held_rewrite(_module("\\g") + _module("\\t"), ("g", "t"))
    # one choice per bit of the reset (its name's hash tells rst__ from rst_$)
    assert len(choices) == 1 and choices[0].startswith("rtlopt_held_rst_n__")
    assert choices[0].endswith("_b0")
    held = choices[0]
    assert text.count(f"wire input 5 \\{held}") == 2
    # the register's output is a new wire with the bits' initial values (q[2]=1, q[1]=x);
    # q keeps the initial value of the bit no register drives (q[0]=0)
    assert "attribute \\init 2'1x\n  wire width 2 \\rtlopt_async_q_0" in text
    assert "attribute \\init 3'xx0\n  wire width 3 \\q" in text
    assert "connect \\Q \\rtlopt_async_q_0" in text
    assert f"connect \\A {{ \\{held} \\rtlopt_first_0 }}" in text
    assert (
        "connect \\B 2'1x\n    connect \\S \\rtlopt_async_read_0\n    connect \\Y \\q [2:1]" in text
    )
    # the first step only: a register with initial value 1 and next value 0 on the clock
    assert "attribute \\init 1'1\n  wire \\rtlopt_first_0" in text
    assert "connect \\CLK \\clk\n    connect \\D 1'0\n    connect \\Q \\rtlopt_first_0" in text


def test_a_design_without_asynchronous_pins_is_unchanged() -> None:
    text = _module("\\g", "$dff") + _module("\\t", "$dff")
    assert held_rewrite(text, ("g", "t")) == (text, [])


def test_a_gate_level_register_with_a_reset_fails_closed() -> None:
    with pytest.raises(Unread):
        held_rewrite(_module("\\g", "$_DFF_PN0_") + _module("\\t"), ("g", "t"))


def test_the_counterexample_names_the_held_reset_where_it_differs_at_time_0_from_reset() -> None:
    cex = {
        "cycle": "1",
        "rst_n@1": "0",
        "rtlopt_held_rst_n__488cf0_b0@1": "1",
        "rtlopt_held__@1": "0",
    }
    assert held_inputs(cex, {"rst_n": 0}) == ("rst_n",)
    assert held_inputs({**cex, "cycle": "2"}, {"rst_n": 0}) == ()
    # with the reset inactive at time 0 it is no run from reset
    assert held_inputs({**cex, "rst_n@1": "1"}, {"rst_n": 0}) == ()
