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


@pytest.mark.parametrize(
    "text",
    [
        # a packed register's bits, filled under its escaped name and written by a process
        "module m(input clk, input ld, input [3:0] d, output [3:0] y);\n  reg [3:0] k;\n"
        "  always @(posedge clk) if (ld) k <= d;\n  assign y = k;\n"
        "  initial begin \\k [0] = 1'b0; \\k [1] = 1'b1; end\nendmodule\n",
        # an array written by a process under its escaped name
        "module m(input clk, input [1:0] a, output [7:0] y);\n  reg [7:0] t [3:0];\n"
        "  initial begin t[0] = 8'h1; t[1] = 8'h2; end\n"
        "  always @(posedge clk) \\t [a] <= 8'h0;\n  assign y = t[a];\nendmodule\n",
        # a write whose statement holds a comment with ';' and 'assign x ='
        "module m(input clk, input [1:0] a, output [7:0] y);\n  reg [7:0] t [3:0];\n"
        "  initial begin t[0] = 8'h1; t[1] = 8'h2; end\n"
        "  always @(posedge clk) /* ; assign x = */ t[a] <= 8'h0;\n  assign y = t[a];\nendmodule\n",
    ],
    ids=["packed-escaped", "written-escaped", "comment"],
)
def test_a_register_or_a_written_table_stays_a_power_up_statement(text: str) -> None:
    # red team 38 F1/F2: a text rule took these for constant tables
    assert power_up_values(text)["m"], power_up_values(text)
