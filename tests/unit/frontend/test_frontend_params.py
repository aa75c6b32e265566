"""Parameterizations the repository gives a module (slang elaboration from the tops)."""

from __future__ import annotations

from pathlib import Path

from rtlopt.config import ProjectConfig
from rtlopt.frontend import load_design, never_elaborated, parameterizations, specialize
from rtlopt.frontend.model import Design

LEAF = """module leaf #(parameter MODE = 0, parameter W = 4, localparam L = W * 2)
  (input [W-1:0] a, output [W-1:0] y);
  if (MODE == 1) begin : g_one
    assign y = ~a;
  end else if (MODE == 2) begin : g_two
    assign y = a + 1;
  end else begin : g_zero
    assign y = a;
  end
endmodule
"""
TOPS = """module mid #(parameter M = 1) (input [3:0] a, output [3:0] y);
  leaf #(.MODE(M)) u_named (.a(a), .y(y));
endmodule
module top(input [3:0] a, input [7:0] b, output [3:0] y, output [7:0] z, output [3:0] w);
  mid u_mid (.a(a), .y(y));        // MODE from the parent's parameter
  leaf #(0, 8) u_pos (.a(b), .y(z)); // positional
  leaf u_dp (.a(a), .y(w));
  defparam u_dp.MODE = 1;          // same values as u_mid's: one parameterization
endmodule
"""


def _design(tmp_path: Path) -> Design:
    (tmp_path / "leaf.v").write_text(LEAF)
    (tmp_path / "top.v").write_text(TOPS)
    return load_design(tmp_path / "leaf.v", "leaf", ProjectConfig())


def test_every_distinct_parameterization_with_its_instances(tmp_path: Path) -> None:
    d = _design(tmp_path)
    found = {p.label(): set(p.where) for p in parameterizations(d)}
    assert set(found) == {"MODE=0, W=4", "MODE=1, W=4", "MODE=0, W=8"}
    assert found["MODE=0, W=4"] == {"defaults"}
    assert found["MODE=1, W=4"] == {"top.u_mid.u_named", "top.u_dp"}
    assert found["MODE=0, W=8"] == {"top.u_pos"}


def test_blocks_no_parameterization_elaborates(tmp_path: Path) -> None:
    d = _design(tmp_path)
    settings = parameterizations(d)
    dead = never_elaborated(LEAF, "leaf", d, settings)
    assert len(dead) == 1 and "a + 1" in dead[0]
    # with the defaults alone, the MODE == 1 branch is dead too
    assert len(never_elaborated(LEAF, "leaf", d, settings[:1])) == 2


def test_specialize_writes_values_as_defaults_only_for_the_module() -> None:
    text = LEAF + TOPS
    out = specialize(text, "leaf", {"MODE": "2", "L": "99"})
    assert "parameter MODE = 2, parameter W = 4, localparam L = W * 2" in out
    assert "parameter M = 1" in out  # another module's parameter is left alone
    assert specialize(text, "leaf", {}) == text


def test_unused_blocks_are_compared_with_their_guards(tmp_path: Path) -> None:
    """A changed guard with the same block text is a change to unused code."""
    d = _design(tmp_path)
    settings = parameterizations(d)
    dead = never_elaborated(LEAF, "leaf", d, settings)
    assert dead[0].startswith("[if (MODE == 2) then / if (MODE == 1) else]"), dead
    moved = LEAF.replace("MODE == 2", "MODE == 3")
    assert never_elaborated(moved, "leaf", d, settings) != dead
    # re-indenting a block changes nothing
    spaced = LEAF.replace("assign y = a + 1;", "assign   y = a + 1;")
    assert never_elaborated(spaced, "leaf", d, settings) == dead
