"""What a new user's first repositories showed (mor1kx, verilog-uart, hdmi): a reference whose
array rows are written bit by bit, and a configuration in which the simulator cannot run the
repository's own module (iverilog has no ``$past``), must say what happened; each stays a
rejection where nothing was checked.

Run from tests/integration/."""

from __future__ import annotations

from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text

pytestmark = pytest.mark.tools

ROWS = """module rowread(input [1:0] a, output reg [1:0] y);
  reg [1:0] m [0:1];
  integer i;
  always @(*) begin
    for (i = 0; i < 2; i = i + 1) begin
      m[i][0] = a[i];
      m[i][1] = 1'b1;
    end
    y[0] = &m[0];
    y[1] = &m[1];
  end
endmodule
"""


def test_a_reference_writing_array_rows_bit_by_bit_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mor1kx_cache_lru: every bit of each row is written before the row is read whole."""
    repo = committed_repo(tmp_path / "r", {"rtl/rowread.v": ROWS}, monkeypatch, tmp_path / "c")
    cand = "module rowread(input [1:0] a, output reg [1:0] y);\n  always @(*) y = a;\nendmodule\n"
    code, rep = evaluate_text(repo, "rtl/rowread.v", cand)
    res = rep["candidate"]
    assert isinstance(res, dict)
    assert code == 0 and res["accepted"], res.get("reason")
    # a row with a bit never written still differs from the candidate: refuted, not passed
    half = ROWS.replace("      m[i][1] = 1'b1;\n", "")
    repo2 = committed_repo(tmp_path / "r2", {"rtl/rowread.v": half}, monkeypatch, tmp_path / "c")
    code, rep = evaluate_text(repo2, "rtl/rowread.v", cand)
    res = rep["candidate"]
    assert isinstance(res, dict) and code == 1 and not res["accepted"], res


FORMAL = """module tick(input clk, input rst, input [3:0] d, output reg [3:0] q);
  always @(posedge clk)
    if (rst) q <= 4'd0;
    else q <= d;
`ifdef FORMAL
  reg f_past_valid;
  always @(posedge clk) f_past_valid <= 1;
  always @(posedge clk)
    if (f_past_valid && !$past(rst))
      assert (q == $past(d));
`endif
endmodule
"""


def test_a_configuration_the_simulator_cannot_run_names_the_simulator_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mor1kx_ticktimer: iverilog compiles ``$past`` but its runtime refuses it ("Program not
    runnable"): no vector ran, so the reason says so and quotes the simulator, never "not
    equivalent in simulation"; the change stays unchecked (rejected). (The repository's
    Makefile simulates with FORMAL defined: a build, not verification alone.)"""
    files = {"rtl/tick.v": FORMAL, "Makefile": "sim:\n\tiverilog -DFORMAL rtl/tick.v\n"}
    repo = committed_repo(tmp_path / "r", files, monkeypatch, tmp_path / "c")
    code, rep = evaluate_text(
        repo, "rtl/tick.v", FORMAL.replace("else q <= d;", "else q <= d ^ 4'd0;")
    )
    res = rep["candidate"]
    assert isinstance(res, dict) and code == 1 and not res["accepted"], res
    why = str(res["reason"])
    assert "configuration FORMAL defined" in why, why
    assert "not equivalent in simulation" not in why, why
    assert "the simulation gave no verdict" in why and "$past" in why, why
