"""Red team w24 F3/F3b: a ``unique`` qualifier kept by its text while its claim changed (the
expression widened, a package constant its labels name changed): every tool here reads the
plain case, Yosys 0.23 synthesizing the written text reads full_case. The claim is now read
from slang's elaboration (``harness/_claims.py``). Real git, slang, iverilog and Yosys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'
PKG = (
    "package k_pkg;\n  localparam logic [1:0] A = 2'd0, B = 2'd1, C = 2'd2, D = 2'd3;\nendpackage\n"
)
M = """module m import k_pkg::*; (input logic [1:0] s, input logic [7:0] a, b, c,
    output logic [7:0] y);
  always_comb begin
    y = 8'h00;
    unique case (s)
      A: y = a;
      B: y = b;
      C: y = c;
      D: y = 8'h00;
    endcase
  end
endmodule
"""
WIDTH = """module m(input [1:0] s, input [7:0] a, b, c, d, input x, output reg [7:0] y);
  wire [1:0] t = s;
  always @* begin
    y = 8'h00;
    unique case (t)
      2'd0: y = a;
      2'd1: y = b;
      2'd2: y = c;
      2'd3: y = d;
    endcase
  end
endmodule
"""


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    (repo / "rtl").mkdir(parents=True)
    for name, text in files.items():
        (repo / name).write_text(text)
    git(repo, "init", "-q", ".")
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return repo


def _check(repo: Path) -> tuple[int, list[dict[str, object]]]:
    git(repo, "add", "-A")
    r = rtlopt(["check", "--no-ppa", "--json"], repo)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    return r.returncode, json.loads(r.stdout)["modules"]


def test_a_package_constant_under_an_unchanged_unique_case_is_judged(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"rtl/k_pkg.sv": PKG, "rtl/m.sv": M, "rtlopt.toml": CONFIG})
    (repo / "rtl/k_pkg.sv").write_text(PKG.replace("D = 2'd3", "D = 2'd2"))
    rc, modules = _check(repo)
    assert rc == 1, modules
    found = [f for m in modules for f in m["findings"]]  # type: ignore[attr-defined]
    assert any("claim is established" in f for f in found), modules


def test_a_widened_unique_case_expression_is_not_proven(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"rtl/m.sv": WIDTH, "rtlopt.toml": CONFIG})
    mux = "s[1] ? (s[0] ? d : c) : (s[0] ? b : a)"
    widened = WIDTH.replace("wire [1:0] t = s;", "wire [2:0] t = {x, s};")
    (repo / "rtl/m.sv").write_text(widened.replace("y = 8'h00;", f"y = {mux};"))
    rc, modules = _check(repo)
    assert rc == 1, modules
    assert modules[0]["equivalence"] != "proven", modules
