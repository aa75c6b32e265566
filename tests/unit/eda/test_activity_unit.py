"""Activity power's pure parts: toggle counting, the mapped netlist's wrapper, the setting's
cross-check (no tools)."""

from __future__ import annotations

import dataclasses

import pytest

from rtlopt.config import Config, FlowConfig
from rtlopt.eda.activity import _bit_activity, mapped_wrapper
from rtlopt.errors import ConfigError


def test_toggles_count_settled_values_per_time_step_and_ignore_x() -> None:
    # x at 0, 0 at 10, a zero-delay glitch 1->0 at 20 (settles at 0: no transition), 1 at 30,
    # 0 at 40; 4 cycles over 0..40
    changes = [(0, "x"), (10, 0), (20, 1), (20, 0), (30, 1), (40, 0)]
    (act,) = _bit_activity(changes, 1, 40, 4)
    assert act.activity == pytest.approx(2 / 4)  # 0->1 at 30, 1->0 at 40
    assert act.duty == pytest.approx(10 / 40)


def test_bits_of_a_vector_are_counted_separately_msb_first() -> None:
    msb, lsb = _bit_activity([(0, 0b00), (10, 0b01), (20, 0b11), (30, 0b10)], 2, 40, 4)
    assert (msb.activity, lsb.activity) == (1 / 4, 2 / 4)
    assert (msb.duty, lsb.duty) == (pytest.approx(20 / 40), pytest.approx(20 / 40))


NETLIST = """module top(\\a[0] , \\a[1] , clk, \\y[2] , \\y[3] );
  input \\a[0] ;
  wire \\a[0] ;
  input \\a[1] ;
  wire \\a[1] ;
  input clk;
  wire clk;
  wire \\s[0] ;
  output \\y[2] ;
  wire \\y[2] ;
  output \\y[3] ;
  wire \\y[3] ;
  CELL u (.A(\\a[0] ), .B(\\s[0] ), .Y(\\y[3] ));
endmodule
"""


def test_wrapper_restores_vector_ports_and_makes_escaped_names_plain() -> None:
    m = mapped_wrapper(NETLIST, "top")
    assert "\\" not in m.text
    assert "module top__rtlopt_mapped(" in m.text and "module top(" in m.text
    assert m.ranges["a"] == (1, 0) and m.ranges["y"] == (3, 2)
    assert "input [1:0] a;" in m.text and "output [3:2] y;" in m.text
    assert sorted(m.names.values()) == ["a[0]", "a[1]", "s[0]", "y[2]", "y[3]"]
    plain_s = next(k for k, v in m.names.items() if v == "s[0]")
    assert f".B({plain_s} )" in m.text


def test_activity_mode_needs_power() -> None:
    with pytest.raises(ConfigError, match="power_mode"):
        dataclasses.replace(Config(), flow=FlowConfig(power=False, power_mode="activity"))
    with pytest.raises(ConfigError, match="power_mode"):
        dataclasses.replace(Config(), flow=FlowConfig(power_mode="sim"))
