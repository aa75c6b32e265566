"""A real Yosys killed by a signal during the proof is a tool error with its log (issue 22).

Yosys 0.23 under a 5 MB address-space limit dies from SIGSEGV before reading anything; the
check raises ``ToolFailed`` naming the signal and the log, never a verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.errors import ToolFailed
from rtlopt.formal import check_equivalence
from rtlopt.frontend import load_design

pytestmark = pytest.mark.tools

SRC = """module acc(input clk, input rst, input [3:0] d, output reg [3:0] q);
  always @(posedge clk) if (rst) q <= 0; else q <= q + d;
endmodule
"""


def test_real_yosys_crash_under_a_tiny_memory_limit_is_a_tool_error(tmp_path: Path) -> None:
    (tmp_path / "acc.v").write_text(SRC)
    d = load_design(tmp_path / "acc.v", "acc", ProjectConfig())
    cand = tmp_path / "cand.v"
    cand.write_text(SRC.replace("q + d", "d + q"))
    with pytest.raises(ToolFailed) as exc:
        check_equivalence(d, [cand], tmp_path / "formal", FormalConfig(timeout_s=20), memory_mb=5)
    assert "crashed (SIG" in exc.value.message, exc.value.message
    assert exc.value.log_path is not None and exc.value.log_path.is_file()
