"""Red team of wave 15 (held out, main 0a94126): non-equivalent changes ``rtlopt evaluate``
accepts at default settings through this wave's "another build" reading
(``evaluate/_alternatives.py``). Each test asserts the rejection the change deserves, so each
FAILS on 0a94126. Small repositories in temporary folders, the real CLI (one rtlopt process at
a time), the layout of tests/integration/test_other_builds.py: ``asic.f`` (the configured
filelist) reads ``rtl/sub.v``; ``other.f`` (another filelist of the repository) reads
another file defining ``sub``. The candidate inlines what ``sub`` computes in this build, so it
is equivalent here and wrong in the other build (checked by hand with iverilog: 0 mismatches
with asic.f, 256 of 256 with other.f).

Accepted classes:
1. the other file's module text is byte-identical to this build's (after white space and
   comments), but it reads a different header beside it (``include "impl.vh"``): not listed
   as an alternative, the other build is never proven;
2. the same with a file-level ```define`` in front of the identical module text (also through
   ``rtlopt check``: the commit inlining ``sub`` is "proven"),
   (```define OP -`` in the other file, ```define OP +`` in this one);
3. the other file's module text differs, but its suffix (``.vo``, a netlist another filelist
   reads) is outside the suffixes the repository scan reads: never listed;
4. (SystemVerilog) the submodule's text is one file, but the package it imports is defined by
   two files (``rtl/cfg.sv``: K = 1; ``rtl/other/cfg.sv``: K = 3): the other build's package
   is never considered.

Beyond other builds:
5. (evaluate, the state a candidate leaves) a candidate ending in ```default_nettype none``
   after its module, in a file whose own last line is ```default_nettype none``: the end
   states agree, but the module after the target in the same file (an implicit net of a
   gate output) is now read under ``none``; once written back the file no longer
   elaborates in iverilog or Yosys (both checked by hand), exit 0 in evaluate;
6. (check, a file moved unchanged) ``git mv rtl/libB/sub_old.v rtl/libA/sub.v`` in a design
   whose filelist reads ``-y rtl/libA -y rtl/libB +libext+.v``: the design now reads the
   moved file's ``sub`` (d - 1) instead of ``rtl/libB/sub.v`` (d + 1) (iverilog: y = 0001
   before, 1111 after for a = b = 0); the gate shows no row, exit 0.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "integration"))
from _fixture_repo import run_rtlopt  # noqa: E402

pytestmark = pytest.mark.tools

TOP = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] t;
  sub s (.d(a ^ b), .q(t));
  assign y = t;
endmodule
"""
SOC = """module soc (input [3:0] a, input [3:0] b, output [3:0] y);
  tgt u (.a(a), .b(b), .y(y));
endmodule
"""
#: Equivalent in this build (sub adds 1), wrong in the other (sub subtracts 1).
INLINED = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = (a ^ b) + 4'd1;
endmodule
"""
INCLUDING = """module sub (input [3:0] d, output [3:0] q);
`include "impl.vh"
endmodule
"""
WITH_OP = """`define OP {}
module sub (input [3:0] d, output [3:0] q);
  assign q = d `OP 4'd1;
endmodule
"""
PLUS = "module sub (input [3:0] d, output [3:0] q);\n  assign q = d + 4'd1;\nendmodule\n"
MINUS = "module sub (input [3:0] d, output [3:0] q);\n  assign q = d - 4'd1;\nendmodule\n"
GIT_ID = ["-c", "user.email=t@t", "-c", "user.name=t"]


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    files = {
        "rtl/top.v": TOP,
        "rtl/soc.v": SOC,
        "rtlopt.toml": '[project]\nfilelists = ["asic.f"]\nexclude = ["cand/**"]\n',
        **files,
    }
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "commit", "-q", "-m", "base"], check=True)
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


def _assert_rejected(rc: int, out: dict[str, object]) -> None:
    assert rc == 1 and not out["accepted"], (
        "a rewrite wrong in the build other.f reads was accepted: "
        f"{out.get('verdict')} {out.get('configurations')}"
    )


def test_identical_module_text_reading_another_header_is_another_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/sub.v": INCLUDING,
            "rtl/impl.vh": "assign q = d + 4'd1;\n",
            "rtl/other/sub.v": INCLUDING,
            "rtl/other/impl.vh": "assign q = d - 4'd1;\n",
            "asic.f": "+incdir+rtl\nrtl/sub.v\nrtl/top.v\nrtl/soc.v\n",
            "other.f": "+incdir+rtl/other\nrtl/other/sub.v\nrtl/top.v\nrtl/soc.v\n",
        },
    )
    _assert_rejected(*_evaluate(repo, INLINED))


def test_identical_module_text_under_another_file_level_define_is_another_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/sub.v": WITH_OP.format("+"),
            "rtl/other/sub.v": WITH_OP.format("-"),
            "asic.f": "rtl/sub.v\nrtl/top.v\nrtl/soc.v\n",
            "other.f": "rtl/other/sub.v\nrtl/top.v\nrtl/soc.v\n",
        },
    )
    _assert_rejected(*_evaluate(repo, INLINED))


def test_another_filelists_definition_with_an_unscanned_suffix_is_another_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/sub.v": PLUS,
            "rtl/other/sub.vo": MINUS,
            "asic.f": "rtl/sub.v\nrtl/top.v\nrtl/soc.v\n",
            "other.f": "rtl/other/sub.vo\nrtl/top.v\nrtl/soc.v\n",
        },
    )
    _assert_rejected(*_evaluate(repo, INLINED))


@pytest.mark.slow  # 125-150 s on the loaded machine (a full evaluation or gate run)
def test_another_files_package_is_another_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pkg = "package cfg;\n  localparam logic [3:0] K = 4'd{};\nendpackage\n"
    logic = TOP.replace("input [", "input logic [").replace("output [", "output logic [")
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/top.v": "",
            "rtl/soc.v": "",
            "rtl/top.sv": logic.replace("wire [3:0] t", "logic [3:0] t"),
            "rtl/soc.sv": SOC,
            "rtl/cfg.sv": pkg.format(1),
            "rtl/other/cfg.sv": pkg.format(3),
            "rtl/sub.sv": "module sub import cfg::*; (input logic [3:0] d, "
            "output logic [3:0] q);\n  assign q = d + K;\nendmodule\n",
            "asic.f": "rtl/cfg.sv\nrtl/sub.sv\nrtl/top.sv\nrtl/soc.sv\n",
            "other.f": "rtl/other/cfg.sv\nrtl/sub.sv\nrtl/top.sv\nrtl/soc.sv\n",
        },
    )
    for rel in ("rtl/top.v", "rtl/soc.v"):
        (repo / rel).unlink()
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "commit", "-qam", "sv only"], check=True)
    (repo / "cand").mkdir(exist_ok=True)
    (repo / "cand" / "c.sv").write_text(INLINED)
    r = run_rtlopt(
        repo, "evaluate", "rtl/top.sv", "--candidate", "cand/c.sv", "--pdk", "nangate45", "--json"
    )
    assert r.returncode in (0, 1), r.stderr[-800:]
    out = json.loads(r.stdout)
    _assert_rejected(r.returncode, out.get("candidate", out))


HELPED = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
  helper h (.a(a), .b(b), .y(y));
endmodule
"""
HELPER = """module helper (input [3:0] a, input [3:0] b, output [3:0] y);
  and g0 (n0, a[0], b[0]);
  assign y = {a[3:1] ^ b[3:1], n0};
endmodule
"""


@pytest.mark.slow  # 125-150 s on the loaded machine (a full evaluation or gate run)
def test_a_trailing_nettype_the_file_ends_with_still_changes_the_module_after_the_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/top.v": HELPED + HELPER + "`default_nettype none\n",
            "rtlopt.toml": '[project]\nexclude = ["cand/**"]\n',
        },
    )
    rc, out = _evaluate(repo, HELPED + "`default_nettype none\n")
    assert rc == 1 and not out["accepted"], (
        "written back, module helper (after the target in rtl/top.v) is read under "
        "`default_nettype none and its implicit net n0 no longer elaborates"
    )


@pytest.mark.slow  # 125-150 s on the loaded machine (a full evaluation or gate run)
def test_check_also_passes_a_commit_wrong_in_the_build_with_another_define(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 2 through the gate: the commit inlining ``sub`` passes, "proven"."""
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/sub.v": WITH_OP.format("+"),
            "rtl/other/sub.v": WITH_OP.format("-"),
            "asic.f": "rtl/sub.v\nrtl/top.v\nrtl/soc.v\n",
            "other.f": "rtl/other/sub.v\nrtl/top.v\nrtl/soc.v\n",
            "rtlopt.toml": '[project]\nfilelists = ["asic.f"]\nexclude = ["cand/**"]\n'
            '[check]\noptimization_only = ["*"]\n',
        },
    )
    (repo / "rtl" / "top.v").write_text(INLINED)
    subprocess.run(["git", "-C", str(repo), "add", "rtl/top.v"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    assert r.returncode in (0, 1), r.stderr[-800:]
    out = json.loads(r.stdout)
    assert r.returncode == 1 and not out["ok"], out["modules"]


def test_another_filelists_include_folder_with_another_header_is_another_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 7: one ``sub`` file; ``impl.vh`` (code, no define) in two include folders,
    one per filelist (a per-board header folder)."""
    repo = _repo(
        tmp_path,
        monkeypatch,
        {
            "rtl/sub.v": INCLUDING,
            "inc_a/impl.vh": "assign q = d + 4'd1;\n",
            "inc_b/impl.vh": "assign q = d - 4'd1;\n",
            "asic.f": "+incdir+inc_a\nrtl/sub.v\nrtl/top.v\nrtl/soc.v\n",
            "other.f": "+incdir+inc_b\nrtl/sub.v\nrtl/top.v\nrtl/soc.v\n",
        },
    )
    _assert_rejected(*_evaluate(repo, INLINED))
