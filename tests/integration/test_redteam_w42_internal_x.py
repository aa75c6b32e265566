"""Red team round 42 (held out): x the x-faithfulness proof did not look at, each accepted
before the fix (``formal/xfaith_sources.py``, ``formal/xfaith_model.py``,
``evaluate/_xfaith.py``):

* x made INSIDE the target (a register without reset, x until its first write; an explicit
  ``'x``): no input is fed x, so the proof did not run, and the 0/1 proofs read the x as a
  free value or a don't care. A candidate deciding it otherwise than the reference
  (``if (r) y = a; else y = 0;`` -> ``if (!r) y = 0; else y = a;``) was proven; iverilog takes
  the reference's ``else`` before the register's first write. The proof now runs wherever a
  side makes x, with every input defined;
* the cone check started at the x-fed inputs only: a write at a variable index (Yosys makes
  the bits x, iverilog skips the write) reached by a register before its first write was
  proven. It now starts at every x source the proof lets be x;
* a 2-state type (``function automatic bit``) in the x cone: iverilog turns x into 0, Yosys
  keeps it x. The proof now refuses 2-state types.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _fixture_repo import committed_repo, run_rtlopt
from test_xfaith import CONFIG, _evaluate, _repo

pytestmark = pytest.mark.tools

_HEAD = "module m(input clk, input a, input [1:0] s, output reg y);\n"
IF_R = _HEAD + (
    "  reg r;\n  always @(posedge clk) r <= s[0];\n"
    "  always @* if (r) y = a; else y = 1'b0;\nendmodule\n"
)
#: Equal on 0/1; before r's first write iverilog takes this one's else: y = a.
NOT_R = _HEAD + (
    "  reg r;\n  always @(posedge clk) r <= s[0];\n"
    "  always @* if (!r) y = 1'b0; else y = a;\nendmodule\n"
)
DEFAULT_X = _HEAD + (
    "  always @* case (s) 2'd0: y = a; 2'd1: y = ~a; 2'd2: y = 1'b1; default: y = 1'bx; endcase\n"
    "endmodule\n"
)
#: The reference's x refined to 0: its reader's ``if (!y)`` now takes the other branch.
DEFAULT_0 = DEFAULT_X.replace("1'bx", "1'b0")
TOP = (
    "module top(input clk, input a, input [1:0] s, output reg z);\n  wire y;\n"
    "  m u(.clk(clk), .a(a), .s(s), .y(y));\n  always @* if (y) z = 1'b1; else z = 1'b0;\n"
    "endmodule\n"
)

_PESSIM = (
    "module m(input clk, input s, input e, input [1:0] a, output reg [1:0] y);\n"
    "  reg r;\n  always @(posedge clk) r <= s;\n"
)
WRITE_AT_R = _PESSIM + "  always @* begin y = a; y[r] = 1'b0; if (e) y = ~a; end\nendmodule\n"
#: Equal on 0/1 (r ^ r = 0); r = x: iverilog xx where a is 1, the reference keeps a.
WRITE_AT_R_MASKED = _PESSIM + (
    "  always @* begin y = a; y[r] = 1'b0; y = y & ~(a & {2{r ^ r}}); if (e) y = ~a; end\n"
    "endmodule\n"
)
TOP_PESSIM = (
    "module top(input clk, input s, input [1:0] a, output reg z);\n  wire [1:0] y;\n"
    "  m u(.clk(clk), .s(s), .e(), .a(a), .y(y));\n"
    "  always @* if (y[1]) z = 1'b1; else z = 1'b0;\nendmodule\n"
)

_SV = "module m(input logic [1:0] a, input logic b, output logic [1:0] y);\n"
SEL = _SV + "  assign y = b ? a : 2'b00;\nendmodule\n"
#: Equal on 0/1; b = x: iverilog's bit result is 0 (y = 00), the reference's y is x.
SEL_BIT = _SV + (
    "  function automatic bit sel(input logic v); sel = v; endfunction\n"
    "  assign y = sel(b) ? a : 2'b00;\nendmodule\n"
)
TOP_SV = (
    "module top(input logic [1:0] a, output logic z);\n  logic [1:0] y;\n"
    "  m u(.a(a), .b(), .y(y));\n  always_comb if (!y[0]) z = 1'b1; else z = 1'b0;\nendmodule\n"
)


@pytest.mark.parametrize(
    ("ref", "cand", "said"),
    [(IF_R, NOT_R, "r before its first write"), (DEFAULT_X, DEFAULT_0, "an x or z constant")],
    ids=["register_without_reset", "x_default"],
)
def test_a_candidate_deciding_the_targets_own_x_otherwise_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str, cand: str, said: str
) -> None:
    repo = _repo(tmp_path, monkeypatch, ref, TOP)
    out = _evaluate(tmp_path, repo, cand)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "where the target makes x itself" in reason and said in reason, reason


def test_a_write_at_an_index_a_register_makes_x_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, WRITE_AT_R, TOP_PESSIM)
    out = _evaluate(tmp_path, repo, WRITE_AT_R_MASKED)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and reason.startswith("unchecked: "), reason
    assert "a write at a variable index" in reason, reason


def test_a_two_state_function_in_the_x_cone_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"rtlopt.toml": CONFIG, "m.sv": SEL, "top.sv": TOP_SV}
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (tmp_path / "cand.sv").write_text(SEL_BIT)
    r = run_rtlopt(
        repo, "evaluate", "m.sv", "--candidate", str(tmp_path / "cand.sv"), "--module", "m",
        "--pdk", "nangate45", "--json",
    )  # fmt: skip
    assert r.returncode in (0, 1), (r.stdout + r.stderr)[-1500:]
    out = json.loads(r.stdout)["candidate"]
    reason = str(out["reason"])
    assert out["status"] == "invalid" and reason.startswith("unchecked: "), reason
    assert "a 2-state type (bit)" in reason, reason


def test_under_honored_power_up_values_an_unstated_registers_x_is_still_compared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``initial_values = "honor"``: a register with a stated value starts from it, one
    without starts x, and a candidate deciding that x otherwise is refuted (the proof keeps
    the stated values; before, it refused and the 0/1 verdict stood)."""
    stated = "  reg k = 1'b1;\n  always @(posedge clk) k <= ~k;\n"
    ref = IF_R.replace("  reg r;\n", "  reg r;\n" + stated)
    cand = NOT_R.replace("  reg r;\n", "  reg r;\n" + stated)
    config = CONFIG + '[harness]\ninitial_values = "honor"\n'
    repo = _repo(tmp_path, monkeypatch, ref, TOP, config)
    out = _evaluate(tmp_path, repo, cand)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "where the target makes x itself" in reason and "r before its first write" in reason


def test_the_reference_against_itself_needs_no_x_proof(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The byte-identical candidate (a self-evaluation) reads every x as the reference does:
    neither x proof runs (an x-exact proof of a memory against itself took 12 s); a copy with
    one more space is no longer the same bytes, and the proof runs and names the x."""
    repo = _repo(tmp_path, monkeypatch, IF_R, TOP)
    same = _evaluate(tmp_path, repo, IF_R)
    formal = same["formal"]
    assert isinstance(formal, dict) and same["status"] == "ok", same["reason"]
    assert formal["method"] == "identical source", formal
    assert "x_faith" not in formal["timings"] and "makes x itself" not in formal["reason"]
    spaced = _evaluate(tmp_path, repo, IF_R.replace("if (r)", "if ( r)"))
    formal = spaced["formal"]
    assert isinstance(formal, dict) and spaced["status"] == "ok", spaced["reason"]
    assert formal["method"] != "identical source" and "x_faith" in formal["timings"], formal
    assert "r before its first write" in formal["reason"], formal
