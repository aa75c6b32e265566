"""Red team wave 15 (held out, on 0a94126): the cases closed so far (the open one is in
bench/heldout/redteam_w15_open.py).

A file moved unchanged into an earlier ``-y`` library folder swaps which definition of ``sub``
the design reads (d - 1 for d + 1) while no module's text changes, and the gate passed it: a
file added to or removed from a library folder that another of its folders also defines by
name is a finding.

Another build a definition's text hides (findings 1-4 and 7): ``asic.f`` (the configured
filelist) reads ``rtl/sub.v``, ``other.f`` reads another definition of ``sub`` (or the same
file through another include folder, or another file's package); the candidate inlines what
``sub`` computes here (``(a ^ b) + 1``), wrong in the other build (iverilog: 256 of 256
vectors). Each must be refuted in that build or left unchecked, never accepted
(``evaluate/_builds.py``)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import committed_repo, evaluate_text, run_rtlopt

pytestmark = [pytest.mark.tools]

SUB = "module sub (input [3:0] d, output [3:0] q);\n  assign q = d {} 4'd1;\nendmodule\n"


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = tmp_path / "repo"
    files = {
        "rtl/top.v": "module tgt (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "  sub s (.d(a ^ b), .q(y));\nendmodule\n",
        "rtl/libA/.keep": "",
        "rtl/libB/sub.v": SUB.format("+"),
        "rtl/libB/sub_old.v": SUB.format("-"),
        "design.f": "-y rtl/libA\n-y rtl/libB\n+libext+.v\nrtl/top.v\n",
        "rtlopt.toml": '[project]\nfilelists = ["design.f"]\n[check]\noptimization_only = ["*"]\n',
    }
    return committed_repo(repo, files, monkeypatch, tmp_path / "cache")


@pytest.mark.parametrize(("moved_to", "fails"), [("rtl/libA/sub.v", True), ("rtl/libA/x.v", False)])
def test_a_file_moved_unchanged_into_an_earlier_library_folder_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moved_to: str, fails: bool
) -> None:
    repo = _repo(tmp_path, monkeypatch)
    subprocess.run(["git", "-C", str(repo), "mv", "rtl/libB/sub_old.v", moved_to], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    assert r.returncode in (0, 1), r.stderr[-800:]
    out = json.loads(r.stdout)
    # the control: a name no other library folder defines swaps nothing
    assert (r.returncode == 1 and not out["ok"]) is fails, out["modules"]
    if fails:
        [row] = [m for m in out["modules"] if m["findings"]]
        assert "library folder" in row["findings"][0] and "sub" in row["findings"][0], row


TOP = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] t;
  sub s (.d(a ^ b), .q(t));
  assign y = t;
endmodule
"""
SOC = "module soc (input [3:0] a, input [3:0] b, output [3:0] y);\n  tgt u (.a(a), .b(b), .y(y));\nendmodule\n"
#: Equivalent in this build (sub adds 1), wrong in the other (sub subtracts 1).
INLINED = "module tgt (input [3:0] a, input [3:0] b, output [3:0] y);\n  assign y = (a ^ b) + 4'd1;\nendmodule\n"
INCLUDING = 'module sub (input [3:0] d, output [3:0] q);\n`include "impl.vh"\nendmodule\n'
WITH_OP = "`define OP {}\nmodule sub (input [3:0] d, output [3:0] q);\n  assign q = d `OP 4'd1;\nendmodule\n"
PLUS, MINUS = "assign q = d + 4'd1;\n", "assign q = d - 4'd1;\n"
ONE = "module sub (input [3:0] d, output [3:0] q);\n  {}endmodule\n"
ASIC, OTHER = "rtl/top.v\nrtl/soc.v\n", "rtl/top.v\nrtl/soc.v\n"
BUILDS = {
    "header beside each file": {
        "rtl/sub.v": INCLUDING,
        "rtl/impl.vh": PLUS,
        "rtl/other/sub.v": INCLUDING,
        "rtl/other/impl.vh": MINUS,
        "asic.f": "+incdir+rtl\nrtl/sub.v\n" + ASIC,
        "other.f": "+incdir+rtl/other\nrtl/other/sub.v\n" + OTHER,
    },
    "file-level define": {
        "rtl/sub.v": WITH_OP.format("+"),
        "rtl/other/sub.v": WITH_OP.format("-"),
        "asic.f": "rtl/sub.v\n" + ASIC,
        "other.f": "rtl/other/sub.v\n" + OTHER,
    },
    "unscanned suffix": {
        "rtl/sub.v": ONE.format(PLUS),
        "rtl/other/sub.vo": ONE.format(MINUS),
        "asic.f": "rtl/sub.v\n" + ASIC,
        "other.f": "rtl/other/sub.vo\n" + OTHER,
    },
    "another filelist's include folder": {
        "rtl/sub.v": INCLUDING,
        "inc_a/impl.vh": PLUS,
        "inc_b/impl.vh": MINUS,
        "asic.f": "+incdir+inc_a\nrtl/sub.v\n" + ASIC,
        "other.f": "+incdir+inc_b\nrtl/sub.v\n" + OTHER,
    },
}


def _builds_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    files = {
        "rtl/top.v": TOP,
        "rtl/soc.v": SOC,
        "rtlopt.toml": '[project]\nfilelists = ["asic.f"]\nexclude = ["cand/**"]\n',
        **files,
    }
    return committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")


def _assert_rejected(rc: int, out: dict[str, object]) -> None:
    cand = out.get("candidate", out)
    assert isinstance(cand, dict)
    assert rc == 1 and not cand["accepted"], (
        f"a rewrite wrong in the build other.f reads was accepted: {cand.get('configurations')}"
    )
    reason = str(cand["reason"])
    # refuted in the other build (a counterexample there), or unchecked naming it
    assert "with sub from rtl/other/" in reason or "as other.f reads it" in reason, reason


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_another_build_the_definitions_text_hides_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, build: str
) -> None:
    """Findings 1, 2, 3 and 7: the same module text reading another header beside it, under
    another file-level define, a definition with a suffix the scan skips (``.vo``), and one
    ``sub.v`` whose header another filelist's include folder holds otherwise."""
    repo = _builds_repo(tmp_path, monkeypatch, BUILDS[build])
    _assert_rejected(*evaluate_text(repo, "rtl/top.v", INLINED))


def test_another_files_package_is_another_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 4 (SystemVerilog): one ``sub.sv`` (``import cfg::*; q = d + K``), two files
    defining ``package cfg`` (K = 1 / K = 3): unchecked (no build substitutes a package)."""
    pkg = "package cfg;\n  localparam logic [3:0] K = 4'd{};\nendpackage\n"
    logic = TOP.replace("input [", "input logic [").replace("output [", "output logic [")
    files = {
        "rtl/top.sv": logic.replace("wire [3:0] t", "logic [3:0] t"),
        "rtl/soc.sv": SOC,
        "rtl/cfg.sv": pkg.format(1),
        "rtl/other/cfg.sv": pkg.format(3),
        "rtl/sub.sv": "module sub import cfg::*; (input logic [3:0] d, "
        "output logic [3:0] q);\n  assign q = d + K;\nendmodule\n",
        "asic.f": "rtl/cfg.sv\nrtl/sub.sv\nrtl/top.sv\nrtl/soc.sv\n",
        "other.f": "rtl/other/cfg.sv\nrtl/sub.sv\nrtl/top.sv\nrtl/soc.sv\n",
        "rtlopt.toml": '[project]\nfilelists = ["asic.f"]\nexclude = ["cand/**"]\n',
    }
    repo = committed_repo(tmp_path / "repo", files, monkeypatch, tmp_path / "cache")
    (repo / "cand").mkdir()
    (repo / "cand" / "c.sv").write_text(INLINED)
    r = run_rtlopt(
        repo, "evaluate", "rtl/top.sv", "--candidate", "cand/c.sv", "--pdk", "nangate45", "--json"
    )
    assert r.returncode in (0, 1), r.stderr[-800:]
    out = json.loads(r.stdout)
    cand = out.get("candidate", out)
    assert r.returncode == 1 and not cand["accepted"], cand.get("configurations")
    assert "rtl/other/cfg.sv defines package cfg otherwise" in cand["reason"], cand["reason"]


def test_check_judges_a_commit_wrong_in_the_build_with_another_define(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 2 through the gate: the staged commit inlining ``sub`` was "proven"."""
    files = {
        **BUILDS["file-level define"],
        "rtlopt.toml": '[project]\nfilelists = ["asic.f"]\n[check]\noptimization_only = ["*"]\n',
    }
    repo = _builds_repo(tmp_path, monkeypatch, files)
    (repo / "rtl" / "top.v").write_text(INLINED)
    subprocess.run(["git", "-C", str(repo), "add", "rtl/top.v"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    assert r.returncode in (0, 1), r.stderr[-800:]
    out = json.loads(r.stdout)
    assert r.returncode == 1 and not out["ok"], out["modules"]
    assert "with sub from rtl/other/sub.v" in json.dumps(out["modules"]), out["modules"]
