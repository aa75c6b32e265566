"""Red team round 52: simulation time 0 (``evaluate/_time_zero.py``). Six accepted
candidates that iverilog (``-g2012``) shows differ at time 0, each now not accepted:

* ``always @(a) if (a) l = 1'b1;`` and ``always @(a or r) l = r;`` (``r`` a register before
  its first write) run at time 0 but leave ``l`` x (no write; x over x): ``l`` got no event,
  yet a block waiting for it was taken to run then (F1, F1b);
* a clock cell with an ``inout`` clock port held by an initializer was exempt, and so was the
  target's own ``clk`` it connects (F2);
* a late block two levels down in modules the candidate defines (F3);
* a generate scope's ``reg a`` shadowing the input ``a`` that a block waits for (F4);
* a kept instance's override ``#(.MODE(f(0)))`` whose function the candidate changes (F5).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID
from test_xfaith import _evaluate, _repo

pytestmark = pytest.mark.tools

CASES: dict[str, dict[str, str]] = {
    "conditional_write": {
        "m.v": "module m(input a, input c, output reg y);\n  reg l;\n  always @(a) if (a) l = 1'b1;\n  always @(l or c) y = c;\nendmodule\n",
        "top.v": "module top(output y);\n  reg a;\n  initial a = 1'b0;\n  reg c = 1'b1;\n  m u(.a(a), .c(c), .y(y));\nendmodule\n",
        "cand": "module m(input a, input c, output y);\n  assign y = c;\nendmodule\n",
    },
    "x_value_write": {
        "m.v": "module m(input clk, input a, input c, input d, output reg y, output q);\n  reg r;\n  reg l;\n  always @(posedge clk) r <= d;\n  always @(a or r) l = r;\n  always @(l or c) y = c;\n  assign q = r;\nendmodule\n",
        "top.v": "module top(output y, output q);\n  reg clk = 1'b0;\n  initial begin #10 forever #5 clk = ~clk; end\n  reg a;\n  initial a = 1'b0;\n  reg c = 1'b1;\n  m u(.clk(clk), .a(a), .c(c), .d(1'b1), .y(y), .q(q));\nendmodule\n",
        "cand": "module m(input clk, input a, input c, input d, output y, output q);\n  reg r;\n  always @(posedge clk) r <= d;\n  assign y = c;\n  assign q = r;\nendmodule\n",
    },
    "inout_clock_cell": {
        "cg.v": "module cg(inout clk, input b, output reg t);\n  always @(clk or b) t = clk;\nendmodule\n",
        "m.v": "module m(input clk, input b, input d, output q);\n  wire t;\n  reg r = 1'b0;\n  cg u(.clk(clk), .b(b), .t(t));\n  always @(posedge t) r <= d;\n  assign q = r;\nendmodule\n",
        "top.v": "module top(output q);\n  reg clk = 1'b1;\n  initial begin #10 forever #5 clk = ~clk; end\n  reg b;\n  initial b = 1'b0;\n  m u(.clk(clk), .b(b), .d(1'b1), .q(q));\nendmodule\n",
        "cand": "module m(input clk, input b, input d, output q);\n  wire t;\n  reg r = 1'b0;\n  cg u(.clk(clk), .b(b), .t(t));\n  always @(posedge clk) r <= d;\n  assign q = r;\nendmodule\n",
    },
    "two_levels_down": {
        "m.v": "module m(input a, input b, output y);\n  assign y = a & b;\nendmodule\n",
        "top.v": "module top(output y);\n  reg a = 1'b1;\n  reg b = 1'b1;\n  m u(.a(a), .b(b), .y(y));\nendmodule\n",
        "cand": "module m_inner(input a, input b, output reg y);\n  always @(a or b) y = a & b;\nendmodule\nmodule m_wrap(input a, input b, output y);\n  m_inner i(.a(a), .b(b), .y(y));\nendmodule\nmodule m(input a, input b, output y);\n  m_wrap w(.a(a), .b(b), .y(y));\nendmodule\n",
    },
    "generate_shadow": {
        "m.v": "module m(input a, input c, output reg y);\n  generate if (1) begin : g\n    reg a;\n    always @(a or c) y = c;\n  end endgenerate\nendmodule\n",
        "top.v": "module top(output y);\n  reg a;\n  initial a = 1'b0;\n  reg c = 1'b1;\n  m u(.a(a), .c(c), .y(y));\nendmodule\n",
        "cand": "module m(input a, input c, output y);\n  assign y = c;\nendmodule\n",
    },
    "parameter_function": {
        "m.v": "module m(input a, input b, output y);\n  function integer f(input integer x);\n    f = x;\n  endfunction\n  sub #(.MODE(f(0))) u(.a(a), .b(b), .y(y));\nendmodule\n",
        "sub.v": "module sub #(parameter MODE = 0) (input a, input b, output y);\n  generate if (MODE) begin : ev\n    reg r;\n    always @(a or b) r = a & b;\n    assign y = r;\n  end else begin : ct\n    assign y = a & b;\n  end endgenerate\nendmodule\n",
        "top.v": "module top(output y);\n  reg a = 1'b1;\n  reg b = 1'b1;\n  m u(.a(a), .b(b), .y(y));\nendmodule\n",
        "cand": "module m(input a, input b, output y);\n  function integer f(input integer x);\n    f = x + 1;\n  endfunction\n  sub #(.MODE(f(0))) u(.a(a), .b(b), .y(y));\nendmodule\n",
    },
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_time_0_change_of_round_52_is_not_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    files = CASES[case]
    repo = _repo(tmp_path, monkeypatch, files["m.v"], files["top.v"])
    extra = [n for n in files if n not in ("m.v", "top.v", "cand")]
    for name in extra:
        (repo / name).write_text(files[name])
    if extra:
        subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
        subprocess.run(["git", *GIT_ID, "-C", str(repo), "commit", "-q", "-m", "cell"], check=True)
    out = _evaluate(tmp_path, repo, files["cand"])
    reason = str(out["reason"])
    assert out["status"] != "ok", reason
    assert "time 0" in reason, reason
