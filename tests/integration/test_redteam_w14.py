"""Red team of wave 14 (held out, main cdbc11f): constructs the proof and simulation read
differently, which ``rtlopt evaluate`` (and so ``optimize``) accepted as "proven". Each test
asserts the rejection the change deserves. Small repositories in temporary folders, the real
CLI (one rtlopt process at a time).

Classes (the findings of the round that concern what the tools read; the gate's findings are
tested with the gate):
1. a ``case``/``casez`` item with an ``x`` bit (or a ``z`` bit in a plain ``case``): Yosys's
   ``proc_mux`` reads it as a wildcard, simulation never matches it; a rare-input trojan behind
   it was "proven (sat miter)";
2. a real literal in a non-constant expression: Yosys converts each literal to an integer where
   it stands (0.4 -> 0), simulation computes in real (0.4 * 3 = 1.2 -> 1);
6. a race: a register written with a blocking assignment in one clocked block and read by
   another block on the same edge. Both proofs read a register (the value before the edge);
   iverilog runs the writer first and the reader sees the new value.
And the reference side of each: a reference holding such a construct leaves every candidate
that differs from it unchecked (the proof would model another reference than simulation).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text, run_rtlopt

pytestmark = pytest.mark.tools

SOC = """module soc (input [15:0] a, input [15:0] b, output [15:0] y);
  tgt u (.a(a), .b(b), .y(y));
endmodule
"""
TOML = '[project]\nexclude = ["cand/**"]\n[check]\noptimization_only = ["*"]\n'


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", "-C", str(repo), *args],
        check=True,
        capture_output=True,
    )


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    return committed_repo(
        tmp_path / "repo",
        {"rtlopt.toml": TOML, "rtl/soc.v": SOC, **files},
        monkeypatch,
        tmp_path / "cache",
    )


def _evaluate(repo: Path, target: str, text: str) -> tuple[int, dict[str, object]]:
    return evaluate_text(repo, target, text)


def _reason(out: dict[str, object]) -> str:
    cand = out.get("candidate")
    return str(cand.get("reason", "")) if isinstance(cand, dict) else ""


def _rejected_for(rc: int, out: dict[str, object], *words: str) -> None:
    """Rejected (exit 1, not accepted) by the screen, for the reason ``words`` name."""
    assert rc == 1 and not out.get("accepted"), out
    reason = _reason(out)
    assert "screening" in reason, reason
    assert all(w in reason for w in words), reason


# --- 1. a case item with an x bit: a wildcard to the proof, never a match in simulation -------

REF16 = """module tgt (input [15:0] a, input [15:0] b, output [15:0] y);
  assign y = a ^ b;
endmodule
"""
# Yosys (proc_mux) matches 16'b1011_1110_1110_111x for a = BEEE and BEEF, so the first item
# hides the second and the proof reads y = a ^ b everywhere. In simulation (IEEE 1364 9.5) the
# first item never matches a 0/1 value: a = 16'hBEEF reaches the second item and y = 0.
X_ITEM = """module tgt (input [15:0] a, input [15:0] b, output reg [15:0] y);
  always @* begin
    KIND (a)
      16'b1011_1110_1110_111x: y = a ^ b;
      16'hBEEF: y = 16'h0000;
      default: y = a ^ b;
    endcase
  end
endmodule
"""


@pytest.mark.parametrize("kind", ["case", "casez", "case-z"])
def test_a_case_item_with_an_x_bit_is_not_read_as_a_wildcard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": REF16})
    cand = X_ITEM.replace("KIND", kind.removesuffix("-z"))
    if kind == "case-z":  # a z bit in a plain case item: the same wildcard to Yosys
        cand = cand.replace("111x:", "111z:")
    rc, out = _evaluate(repo, "rtl/top.v", cand)
    _rejected_for(rc, out, "x/z digits")


def test_a_reference_with_an_x_case_item_leaves_a_changed_candidate_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The proof reads the reference's item as a wildcard: a candidate written to that reading
    (here: the item's two values spelled out) would be proven against the wrong reference."""
    ref = X_ITEM.replace("KIND", "case")
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": ref})
    cand = ref.replace("16'b1011_1110_1110_111x: y = a ^ b;", "16'hBEEE, 16'hBEEF: y = a ^ b;")
    rc, out = _evaluate(repo, "rtl/top.v", cand)
    _rejected_for(rc, out, "unchecked", "reference")


# --- 2. a real literal: an integer to the proof, real arithmetic in simulation ----------------

# Yosys: "converting real value 4.000000e-01 to binary 0" on each literal, so q = 0 and the proof
# reads y = a ^ b; iverilog (IEEE 1364 4.1.1) computes 0.4 * 3 = 1.2, converts to 1 on
# assignment, and a = 16'hBEEF gives y = (a ^ b) + 1.
REAL_LITERAL = """module tgt (input [15:0] a, input [15:0] b, output [15:0] y);
  wire t = (a == 16'hBEEF);
  wire [15:0] q = (t ? 0.4 : 0.0) * 3;
  assign y = (a ^ b) + q;
endmodule
"""


def test_a_real_literal_in_a_non_constant_expression_is_not_proven_as_an_integer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": REF16})
    rc, out = _evaluate(repo, "rtl/top.v", REAL_LITERAL)
    _rejected_for(rc, out, "real number 0.4")


# --- 6. a race between clocked blocks: a register to the proofs, the new value in simulation ---

PIPE2 = """module tgt (input clk, input rst, input [15:0] d, output reg [15:0] q);
  reg [15:0] s;
  always @(posedge clk) begin
    if (rst) begin s <= 16'd0; q <= 16'd0; end
    else begin s <= d; q <= s; end
  end
endmodule
"""
#: The top for the clocked targets: every input of tgt connected (an unconnected clk is an x
#: input the proofs do not drive, which leaves any change unchecked before the race screen's
#: controls could be reached).
PIPE_SOC = """module soc (input clk, input rst, input [15:0] d, output [15:0] q);
  tgt u (.clk(clk), .rst(rst), .d(d), .q(q));
endmodule
"""
# r is written with `=` in the last block; iverilog 11 starts the processes of one edge last
# declared first, so the first block reads r's new value (d this cycle) where the proofs read a
# register (d of the cycle before). With d = 16'hBEEF the candidate's q is BEEF one cycle early.
RACE = """module tgt (input clk, input rst, input [15:0] d, output reg [15:0] q);
  reg [15:0] s, r;
  always @(posedge clk) if (rst) q <= 16'd0; else q <= (d == 16'hBEEF) ? r : s;
  always @(posedge clk) if (rst) s <= 16'd0; else s <= d;
  always @(posedge clk) if (rst) r = 16'd0; else r = d;
endmodule
"""
# no race: the same pipeline split in two blocks, with a blocking temporary local to its named
# block and another used only in its own block (accepted as proven); and an `integer i` shared
# by two clocked for-loops (each block writes i before it reads it: not a race, so not screened;
# Yosys sees two drivers of i, which the driver count rejects later)
SPLIT = """module tgt (input clk, input rst, input [15:0] d, output reg [15:0] q);
  reg [15:0] s, u;
  always @(posedge clk) begin
    u = d;
    if (rst) s <= 16'd0; else s <= u;
  end
  always @(posedge clk) begin : stage
    reg [15:0] t;
    t = s;
    if (rst) q <= 16'd0; else q <= t;
  end
endmodule
"""
LOOPS = """module tgt (input clk, input rst, input [15:0] d, output reg [15:0] q);
  reg [15:0] s;
  integer i;
  always @(posedge clk)
    if (rst) s <= 16'd0; else for (i = 0; i < 16; i = i + 1) s[i] <= d[i];
  always @(posedge clk)
    if (rst) q <= 16'd0; else for (i = 0; i < 16; i = i + 1) q[i] <= s[i];
endmodule
"""


def test_a_race_between_clocked_blocks_is_not_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, {"rtl/soc.v": PIPE_SOC, "rtl/top.v": PIPE2})
    rc, out = _evaluate(repo, "rtl/top.v", RACE)
    _rejected_for(rc, out, "'r'", "blocking assignment")


@pytest.mark.slow
def test_clocked_blocks_without_a_race_are_not_screened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The controls through the whole evaluation (two proofs, ~15 s; the detector's own
    controls are unit tests)."""
    repo = _repo(tmp_path, monkeypatch, {"rtl/soc.v": PIPE_SOC, "rtl/top.v": PIPE2})
    rc, out = _evaluate(repo, "rtl/top.v", SPLIT)
    assert rc == 0 and out.get("accepted"), out
    rc, out = _evaluate(repo, "rtl/top.v", LOOPS)
    assert "screening" not in _reason(out), out


def test_a_race_between_clocked_blocks_fails_the_gate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same change staged for ``rtlopt check``: refused by the screen the gate shares
    (before this, both proofs passed it)."""
    repo = _repo(tmp_path, monkeypatch, {"rtl/soc.v": PIPE_SOC, "rtl/top.v": PIPE2})
    (repo / "rtl/top.v").write_text(RACE)
    _git(repo, "add", "-A")
    r = run_rtlopt(repo, "check", "--base", "HEAD", "--no-ppa")
    assert r.returncode == 1, r.stdout
    assert "blocking assignment" in r.stdout + r.stderr, r.stdout
