"""The x-faithfulness proof end to end (real git, the real CLI, Yosys and iverilog): where the
repository feeds x into inputs of the target, a candidate equal to the reference on 0/1
inputs is accepted only if it also gives the reference's value wherever the reference's
simulated output is defined with those inputs x (``formal/xfaith.py``). Before it, such a
change was either proven on 0/1 alone (a hostile rewrite of what x selects passed) or
refused outright (unchecked)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, run_rtlopt

pytestmark = pytest.mark.tools

CONFIG = '[check]\nppa = false\noptimization_only = ["*"]\n'

NOT_C = (
    "module m(input c, input a, output reg o);\n  always @* if (!c) o = a; else o = 0;\nendmodule\n"
)
#: Equal on 0/1; with c = x the reference takes its else branch (0), this one its else (a).
SWAPPED = (
    "module m(input c, input a, output reg o);\n  always @* if (c) o = 0; else o = a;\nendmodule\n"
)
#: Equal on 0/1 and with c = x (case on x takes the default, as the reference's else).
AS_CASE = (
    "module m(input c, input a, output reg o);\n"
    "  always @* case (c) 1'b0: o = a; default: o = 1'b0; endcase\nendmodule\n"
)
OPEN_C = "module top(input a, output o);\n  m u(.a(a), .c(), .o(o));\nendmodule\n"


def _repo(tmp_path: Path, mp: pytest.MonkeyPatch, m: str, top: str, config: str = CONFIG) -> Path:
    files = {"rtlopt.toml": config, "m.v": m, "top.v": top}
    return committed_repo(tmp_path / "repo", files, mp, tmp_path / "cache")


def _evaluate(tmp_path: Path, repo: Path, cand: str) -> dict[str, object]:
    (tmp_path / "cand.v").write_text(cand)
    r = run_rtlopt(
        repo, "evaluate", "m.v", "--candidate", str(tmp_path / "cand.v"), "--module", "m",
        "--pdk", "nangate45", "--json",
    )  # fmt: skip
    assert r.returncode in (0, 1), (r.stdout + r.stderr)[-1500:]
    out: dict[str, object] = json.loads(r.stdout)["candidate"]
    return out


def _check(repo: Path, cand: str) -> subprocess.CompletedProcess[str]:
    (repo / "m.v").write_text(cand)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    return run_rtlopt(repo, "check")


def test_a_rewrite_that_reads_x_otherwise_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, NOT_C, OPEN_C)
    out = _evaluate(tmp_path, repo, SWAPPED)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "not where the repository feeds x into c" in reason, reason
    assert "leaves input 'c' unconnected" in reason, reason
    assert "c=x" in reason and "expected o=0, got o=1" in reason, reason
    g = _check(repo, SWAPPED)
    said = g.stdout + g.stderr
    assert g.returncode != 0 and "c=x" in said and "refuted" in said, said[-1500:]


def test_a_rewrite_that_keeps_the_x_behaviour_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, NOT_C, OPEN_C)
    out = _evaluate(tmp_path, repo, AS_CASE)
    formal = out["formal"]
    assert isinstance(formal, dict)
    assert out["status"] == "ok", out["reason"]
    assert formal["x_inputs"] == ["c"], formal
    assert "proven, also where the repository feeds x into c" in formal["reason"], formal


CASE_REF = (
    "module m(input [1:0] s, input [7:0] a, output reg [7:0] y);\n  always @*\n"
    "    case (s)\n      2'd0: y = a;\n      2'd1: y = ~a;\n      2'd2: y = a ^ 8'h0f;\n"
    "      2'd3: y = 8'd0;\n      default: y = 8'd0;\n    endcase\nendmodule\n"
)
#: The default arm only an x selector reaches carries the payload.
CASE_HOSTILE = CASE_REF.replace("default: y = 8'd0", "default: y = 8'hA5")
SEL_X = "module top(input [7:0] a, output [7:0] y);\n  m u(.s(2'bx0), .a(a), .y(y));\nendmodule\n"


def test_a_payload_in_a_default_arm_only_x_reaches_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, CASE_REF, SEL_X)
    out = _evaluate(tmp_path, repo, CASE_HOSTILE)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "not where the repository feeds x into s" in reason, reason
    assert re.search(r"s=[01x]*x", reason), reason
    assert "got y=10100101" in reason, reason


REG_REF = (
    "module m(input clk, input rst, input en, input [3:0] d, output reg [3:0] q);\n"
    "  always @(posedge clk)\n    if (rst) q <= 4'd0;\n    else if (en) q <= d;\nendmodule\n"
)
#: Equal on 0/1; with en = x the reference keeps q, this one merges d and q bit by bit.
REG_MUX = (
    "module m(input clk, input rst, input en, input [3:0] d, output reg [3:0] q);\n"
    "  always @(posedge clk)\n    q <= rst ? 4'd0 : (en ? d : q);\nendmodule\n"
)
EN_OPEN = (
    "module top(input clk, input rst, input [3:0] d, output [3:0] q);\n"
    "  m u(.clk(clk), .rst(rst), .en(), .d(d), .q(q));\nendmodule\n"
)


def test_a_register_loading_under_an_x_enable_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, REG_REF, EN_OPEN)
    out = _evaluate(tmp_path, repo, REG_MUX)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and out["stage"] == "formal", reason
    assert "not where the repository feeds x into en" in reason, reason
    assert re.search(r"en@\d+=x", reason), reason


WRITE_REF = (
    "module m(input [1:0] s, input [3:0] a, output reg [3:0] y);\n"
    "  always @* begin\n    y = a;\n    y[s] = 1'b0;\n  end\nendmodule\n"
)
WRITE_CAND = (
    "module m(input [1:0] s, input [3:0] a, output reg [3:0] y);\n"
    "  always @* y = a & ~(4'b1 << s);\nendmodule\n"
)
S_X = "module top(input [3:0] a, output [3:0] y);\n  m u(.s(2'bxx), .a(a), .y(y));\nendmodule\n"


def test_a_construct_yosys_models_otherwise_leaves_the_change_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a write at an x index: iverilog leaves y as it was, Yosys makes it x (the reference's
    # defined value would be a don't care): the proof refuses, the change is unchecked
    repo = _repo(tmp_path, monkeypatch, WRITE_REF, S_X)
    out = _evaluate(tmp_path, repo, WRITE_CAND)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and reason.startswith("unchecked: "), reason
    assert "repository feeds x into s" in reason and "a write at a variable index" in reason


MUL_REF = (
    "module m(input [15:0] a, input [15:0] b, output [31:0] y);\n  assign y = a * b;\nendmodule\n"
)
MUL_CAND = "module m(input [15:0] a, input [15:0] b, output [31:0] y);\n  assign y = (a + 16'd0) * b;\nendmodule\n"
B_X = "module top(input [15:0] a, output [31:0] y);\n  m u(.a(a), .b(16'bx), .y(y));\nendmodule\n"


def test_an_undecided_proof_leaves_the_change_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same 16-bit product of a copy of a: the 0/1 proof's clean-up makes the two one
    # cell, the SAT instance of the x-faithfulness proof (no clean-up that could lose an x)
    # does not finish within the limit
    config = CONFIG + "[formal]\ntimeout_s = 8\n"
    repo = _repo(tmp_path, monkeypatch, MUL_REF, B_X, config)
    out = _evaluate(tmp_path, repo, MUL_CAND)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and reason.startswith("unchecked: "), reason
    assert "repository feeds x into b" in reason and "timed out" in reason, reason


PARAM_REF = (
    "module m #(parameter W = 8) (input [W-1:0] a, input b, output reg [W-1:0] y);\n"
    "  always @* if (b) y = a; else y = 0;\nendmodule\n"
)
PARAM_CAND = (
    "module m #(parameter W = 8) (input [W-1:0] a, input b, output reg [W-1:0] y);\n"
    "  always @* case (b) 1'b1: y = a; default: y = 0; endcase\nendmodule\n"
)
PARAM_TOP = (
    "module top(input [3:0] a, output [3:0] y);\n  m #(.W(4)) u(.a(a), .b(), .y(y));\nendmodule\n"
)


def test_an_instance_fed_x_with_other_parameters_is_proven_in_its_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the instance fed x has W = 4: the parameter check's run of that configuration proves
    # the x reading there (a case on x takes its default as the if's else does), and refutes
    # a choice that merges x (`b ? a : 0` with b = x gives x where a has ones)
    repo = _repo(tmp_path, monkeypatch, PARAM_REF, PARAM_TOP)
    out = _evaluate(tmp_path, repo, PARAM_CAND)
    assert out["status"] == "ok" and out["accepted"], out["reason"]
    merged = PARAM_CAND.replace("case (b) 1'b1: y = a; default: y = 0; endcase", "y = b ? a : 0;")
    out = _evaluate(tmp_path, repo, merged)
    reason = str(out["reason"])
    assert not out["accepted"] and "W=4" in reason, reason


#: Equal to REG_REF on 0/1 and with en = x (a case on x takes its default: q kept).
REG_CASE = (
    "module m(input clk, input rst, input en, input [3:0] d, output reg [3:0] q);\n"
    "  always @(posedge clk)\n    if (rst) q <= 4'd0;\n"
    "    else case (en) 1'b1: q <= d; default: q <= q; endcase\nendmodule\n"
)


def test_a_register_rewrite_that_keeps_the_x_behaviour_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, REG_REF, EN_OPEN)
    out = _evaluate(tmp_path, repo, REG_CASE)
    formal = out["formal"]
    assert isinstance(formal, dict)
    assert out["status"] == "ok", out["reason"]
    assert formal["x_inputs"] == ["en"], formal


CNT_REF = (
    "module m(input clk, input rst, input en, output o);\n  reg [7:0] c;\n"
    "  always @(posedge clk)\n    if (rst) c <= 8'd0;\n    else if (en) c <= c + 8'd1;\n"
    "  assign o = c == 8'd200;\nendmodule\n"
)
#: Counts down instead: equal on 0/1 and with en = x, but no register of it equals one of
#: the reference's, so the induction of the x-faithfulness proof does not close.
CNT_DOWN = (
    "module m(input clk, input rst, input en, output o);\n  reg [7:0] k;\n"
    "  always @(posedge clk)\n    if (rst) k <= 8'd200;\n    else if (en) k <= k - 8'd1;\n"
    "  assign o = k == 8'd0;\nendmodule\n"
)
CNT_TOP = "module top(input clk, input rst, output o);\n  m u(.clk(clk), .rst(rst), .en(), .o(o));\nendmodule\n"


def test_an_induction_that_does_not_close_leaves_the_change_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, CNT_REF, CNT_TOP)
    out = _evaluate(tmp_path, repo, CNT_DOWN)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and reason.startswith("unchecked: "), reason
    assert "repository feeds x into en" in reason and "did not close" in reason, reason


#: The counter kept by name, its enable read as a case (a case on x: q kept, as the if).
CNT_CASE = CNT_REF.replace(
    "else if (en) c <= c + 8'd1;", "else case (en) 1'b1: c <= c + 8'd1; default: ; endcase"
)
#: The enable merged bit by bit (x where c and c + 1 differ): o goes x where it is 0.
CNT_MUX = CNT_REF.replace("else if (en) c <= c + 8'd1;", "else c <= en ? c + 8'd1 : c;")


def test_a_hidden_register_kept_by_name_is_paired_and_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the outputs alone do not make the induction close (c is seen only at 200); the
    # register both sides name c, paired, does
    repo = _repo(tmp_path, monkeypatch, CNT_REF, CNT_TOP)
    out = _evaluate(tmp_path, repo, CNT_CASE)
    assert out["status"] == "ok", out["reason"]
    (tmp_path / "cand.v").unlink()
    out = _evaluate(tmp_path, repo, CNT_MUX)
    reason = str(out["reason"])
    assert out["status"] == "invalid" and "not where the repository feeds x into en" in reason
