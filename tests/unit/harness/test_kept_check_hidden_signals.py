"""A kept check reading a signal no proof can expose by name (declared in a generate block, a
memory) needs the code defining that signal kept word for word: the proofs' ``expose w:<name>``
finds no wire there, so a changed definition would go uncompared (fail closed)."""

from __future__ import annotations

from rtlopt.harness._kept_checks import FIX, dropped_checks
from rtlopt.harness._kept_exposable import comparable_names

KNOWN = ({"clk", "rst", "a", "y"}, set[str]())

MEMORY = """module m(input clk, input rst, input [1:0] a, output [3:0] y);
  reg [3:0] mem [0:3];
  always @(posedge clk) mem[a] <= mem[a] + 4'd1;
  assign y = mem[0];
  // synopsys translate_off
  always @(posedge clk) if (!rst && mem[1] == 4'hf) $error("wrapped");
  // synopsys translate_on
endmodule
"""

GENERATE = """module g(input clk, input rst, input [1:0] a, output [3:0] y);
  if (1) begin : blk
    reg [3:0] cnt;
    always @(posedge clk) cnt <= cnt + {2'd0, a};
    always @(posedge clk) if (!rst && cnt == 4'hf) $error("wrapped");
  end
  assign y = blk.cnt;
endmodule
"""


def _dropped(reference: str, candidate: str) -> list[str]:
    return dropped_checks(reference, candidate, KNOWN, {}, lambda o: f"x.v:{o}")


def test_a_memory_a_kept_check_reads_needs_its_code_kept() -> None:
    changed = MEMORY.replace("mem[a] + 4'd1", "mem[a] + 4'd2")
    found = _dropped(MEMORY, changed)
    assert found and "no proof compares" in found[0] and FIX in found[0], found
    assert _dropped(MEMORY, MEMORY.replace("assign y = mem[0];", "assign y = mem[2'd0];")) == []


def test_a_signal_of_a_generate_block_a_kept_check_reads_needs_its_code_kept() -> None:
    changed = GENERATE.replace("cnt + {2'd0, a}", "cnt - {2'd0, a}")
    found = _dropped(GENERATE, changed)
    assert found and "no proof compares" in found[0], found


def test_plain_module_level_declarations_are_comparable_and_others_are_not() -> None:
    items = [
        "reg [3:0] cnt , other ;",
        "state_e state_q = IDLE ;",
        "reg [3:0] mem [ 0 : 3 ] ;",
        "always @ ( posedge clk ) cnt <= cnt + 1 ;",
        "logic inner ;",
    ]
    names = comparable_names(items, [False, False, False, False, True])
    assert {"cnt", "other", "state_q"} <= names
    assert not names & {"mem", "inner", "clk"}
