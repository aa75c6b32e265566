"""A statement macro in a testbench's procedural code is no instance of the target.

lowRISC's DV testbenches (ibex's vendored ``prim_prince_tb.sv``) write
```DV_CHECK_STD_RANDOMIZE_FATAL(k1, "", MSG_ID)`` before a task call ``test_prince(p, {k1,
k0});`` in an ``initial`` block; the macro is defined by the DV library, which the repository
does not hold. Read as ```CELL(x) u(...)``, it left every change of ibex_fetch_fifo that
depends on a parameter "unchecked for parameters" (a build's ``-D`` might make it an instance
of the target). No instance stands in procedural code; the same macro at module level still
leaves the change unchecked (the w40 red team's rule, kept).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _fixture_repo import committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

M = (
    "module m #(parameter [7:0] K = 8'd1) (input [7:0] a, output [7:0] y);\n"
    "  assign y = a + K;\nendmodule\n"
)
#: Equivalent for every K (a + K = a - ~K - 1 modulo 256), a change that depends on K.
CAND = M.replace("assign y = a + K;", "assign y = a - ~K - 8'd1;")
TB = """module m_tb;
  logic [7:0] a, b;
  task automatic check(input logic [7:0] x, input logic [15:0] both);
    $display("%h %h", x, both);
  endtask
  initial begin : p_stimuli
    for (int i = 0; i < 4; i++) begin
      `DV_CHECK_RANDOMIZE_FATAL(a, "", "m_tb")
      `DV_CHECK_RANDOMIZE_FATAL(b, "", "m_tb")
      check(a, {a, b});
    end
    $finish();
  end
endmodule
"""
CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
SAID = "the macro `DV_CHECK_RANDOMIZE_FATAL stands where an instance names its module"


def _evaluate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tb: str) -> dict[str, object]:
    files = {"rtlopt.toml": CONFIG, "m.v": M, "dv/m_tb.sv": tb}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (tmp_path / "cand.v").write_text(CAND)
    cand = str(tmp_path / "cand.v")
    r = run_rtlopt(repo, "evaluate", "m.v", "--candidate", cand, "--pdk", "nangate45", "--json")
    assert r.returncode in (0, 1), (r.stdout + r.stderr)[-2000:]
    out: dict[str, object] = json.loads(r.stdout)
    return out


def test_a_statement_macro_in_a_testbench_initial_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = _evaluate(tmp_path, monkeypatch, TB)
    reason = str(found["candidate"]["reason"])  # type: ignore[index]
    assert found["accepted"], reason
    assert SAID not in reason, reason


def test_the_same_macro_at_module_level_still_leaves_the_change_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: where an instance may stand, the macro may name the target's module."""
    tb = TB.replace(
        "  initial begin : p_stimuli",
        '  `DV_CHECK_RANDOMIZE_FATAL(a, "", "m_tb")\n  check(a, {a, b});\n  initial begin : p_stimuli',
    )
    found = _evaluate(tmp_path, monkeypatch, tb)
    reason = str(found["candidate"]["reason"])  # type: ignore[index]
    assert not found["accepted"], reason
    assert reason.startswith("unchecked for parameters") and SAID in reason, reason
