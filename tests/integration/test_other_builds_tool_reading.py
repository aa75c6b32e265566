"""Another build's submodule that differs only in a tool's own reading (round 79 class of
cases 17, 18): ``rtl/other/sub.v`` (another filelist's) defines ``sub`` as the build's file
does with ``SYNTHESIS`` defined and otherwise under ```ifdef __ICARUS__``, the macro iverilog
predefines (rtlopt's own preprocessing undefines it). ``evaluate/_builds.py`` reads each
definition in every tool's reading too: a rewrite of the parent is unchecked there (rtlopt
proves another build in its synthesis reading only), never accepted."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import run_rtlopt

pytestmark = pytest.mark.tools

FF = """module sub (input clk, input [3:0] d, output reg [3:0] q);
  always @(posedge clk) q <= d & 4'h7;
endmodule
"""
#: The same module in synthesis; a bypass in Icarus's reading.
ICARUS_ONLY = """module sub (input clk, input [3:0] d, output reg [3:0] q);
`ifdef __ICARUS__
  always @* q = d;
`else
  always @(posedge clk) q <= d & 4'h7;
`endif
endmodule
"""
TOP = """module tgt (input clk, input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] t;
  sub s (.clk(clk), .d(a ^ b), .q(t));
  assign y = t;
endmodule
"""
#: Equivalent with the flip-flop file (it masks bit 3 itself), wrong in Icarus's reading.
WRONG_IN_ICARUS = TOP.replace("a ^ b", "(a ^ b) & 4'h7")


def test_a_submodule_differing_in_icarus_reading_leaves_the_change_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    files = {
        "rtl/sub_ff.v": FF,
        "rtl/other/sub.v": ICARUS_ONLY,
        "rtl/top.v": TOP,
        "asic.f": "rtl/sub_ff.v\nrtl/top.v\n",
        "sim.f": "rtl/other/sub.v\nrtl/top.v\n",
        "Makefile": "sim:\n\tiverilog -f sim.f -o sim.vvp\n",
        "rtlopt.toml": '[project]\nfilelists = ["asic.f"]\nexclude = ["cand/**"]\n',
        "cand/c.v": WRONG_IN_ICARUS,
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", "base"], check=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    r = run_rtlopt(
        repo, "evaluate", "rtl/top.v", "--candidate", "cand/c.v", "--pdk", "nangate45", "--json"
    )
    assert r.returncode == 1, (r.returncode, r.stdout[-1500:], r.stderr[-800:])
    out = json.loads(r.stdout)
    reason = str(out.get("candidate", out)["reason"])
    assert "rtl/other/sub.v defines module sub otherwise" in reason, reason
    assert "Icarus's reading" in reason, reason
