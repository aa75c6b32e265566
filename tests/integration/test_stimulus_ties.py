"""Held-out trial 49 (biriscv's divider, Apache-2.0, in miniature): an operation a masked
opcode starts (``(op & MASK) == DIV``, the RISC-V decoders' form) and that is wrong only when
its operands are equal. The stimulus did not bias masked compares, and random 32-bit
operands are never equal: the broken divider passed 6,283 cycles and was "unknown" after the
formal limit. Now the opcode's masked bits are a compared constant and the held operands are
small or equal some of the time, so simulation refutes it with a failing input (real tools).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import module_verdict

pytestmark = pytest.mark.tools

REF = """module m(input clk, input rst, input valid, input [31:0] op, input [31:0] a,
         input [31:0] b, output reg done, output reg ge);
  reg [5:0] n;
  reg [31:0] x, y;
  reg busy;
  always @(posedge clk)
    if (rst) begin
      busy <= 1'b0; n <= 6'd0; done <= 1'b0; ge <= 1'b0; x <= 32'd0; y <= 32'd0;
    end else begin
      done <= 1'b0;
      if (!busy && valid && (op & 32'hfe00707f) == 32'h02005033) begin
        busy <= 1'b1; n <= 6'd0; x <= a; y <= b;
      end else if (busy) begin
        n <= n + 6'd1;
        if (n == 6'd33) begin busy <= 1'b0; done <= 1'b1; ge <= x >= y; end
      end
    end
endmodule
"""


def test_a_multi_cycle_operation_wrong_only_for_equal_operands_is_refuted_in_simulation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = REF.replace("ge <= x >= y;", "ge <= x > y;")
    rc, reason = module_verdict(tmp_path, monkeypatch, REF, broken)
    assert rc == 1, reason
    assert "not equivalent in simulation" in reason and "ge expected" in reason, reason


def test_the_same_operation_rewritten_equivalently_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rc, reason = module_verdict(tmp_path, monkeypatch, REF, REF.replace("x >= y", "!(x < y)"))
    assert rc == 0, reason
