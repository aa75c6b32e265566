"""A constant table Yosys writes as a memory filled by an ``initial`` block (``proc_rom``)
states no power-up value; any other use of the array keeps the block a power-up statement."""

from __future__ import annotations

import pytest

from rtlopt.harness._semantics import INITIAL_BLOCK, power_up_values

ROM = (
    "module m(input clk, input [1:0] a, output [7:0] y);\n"
    "  reg [7:0] \\$auto$proc_rom.cc:155:do_switch$2  [3:0];\n"
    "  initial begin\n"
    "    \\$auto$proc_rom.cc:155:do_switch$2 [0] = 8'h80;\n"
    "    \\$auto$proc_rom.cc:155:do_switch$2 [1] = 8'h90;\n"
    "    \\$auto$proc_rom.cc:155:do_switch$2 [2] = 8'ha0;\n"
    "    \\$auto$proc_rom.cc:155:do_switch$2 [3] = 8'hb0;\n"
    "  end\n"
    "  assign y = \\$auto$proc_rom.cc:155:do_switch$2 [a];\n"
    "{extra}endmodule\n"
)
PLAIN = (
    "module m(input clk, input [1:0] a, output [7:0] y);\n"
    "  reg [7:0] rom [3:0];\n"
    "  initial begin rom[0] = 8'h1; rom[1] = 8'h2; rom[2] = 8'h3; rom[3] = 8'h4; end\n"
    "  assign y=rom[a];\n"
    "{extra}endmodule\n"
)


@pytest.mark.parametrize("text", [ROM, PLAIN])
def test_a_table_only_read_by_continuous_assignments_states_nothing(text: str) -> None:
    assert power_up_values(text.replace("{extra}", "")) == {"m": {}}


@pytest.mark.parametrize(
    "extra",
    [
        "  always @(posedge clk) rom[a] <= 8'h0;\n",  # written: a RAM's power-up contents
        "  reg [7:0] q;\n  always @(posedge clk) q <= rom[a];\n",  # read by a process
        "  initial rom[0] = 8'h5;\n",  # a second filling block
        "  assign rom[1] = 8'h7;\n",
    ],
)
def test_a_table_used_otherwise_stays_a_power_up_statement(extra: str) -> None:
    found = power_up_values(PLAIN.replace("{extra}", extra))
    assert found["m"], found
    assert INITIAL_BLOCK in found["m"] or any(k.startswith("rom") for k in found["m"]), found
