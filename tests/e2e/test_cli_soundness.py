"""The issue's hostile reproductions through the real command line (`rtlopt evaluate`, `check`).

Each expects the exit code a user sees: 0 accepted, 1 rejected / check failed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt

pytestmark = pytest.mark.tools

MUL = "module mul(input [7:0] a, input [7:0] b, output [15:0] y);\n  assign y = a * b;\nendmodule\n"
REG32 = (
    "module reg32(input clk, input rst, input [31:0] d, output reg [31:0] q);\n"
    "  always @(posedge clk) begin\n    if (rst) q <= 32'd0;\n    else q <= d;\n  end\n"
    "endmodule\n"
)


def _repo(tmp_path: Path, name: str, text: str) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / name).write_text(text)
    return repo


def _evaluate(repo: Path, target: str, cand: str, *extra: str) -> tuple[int, dict, str]:
    (repo.parent / "cand.v").write_text(cand)
    r = rtlopt(
        [
            "evaluate",
            target,
            "-c",
            str(repo.parent / "cand.v"),
            "--pdk",
            "nangate45",
            "--json",
            *extra,
        ],
        repo,
    )
    try:
        out = json.loads(r.stdout)
    except json.JSONDecodeError:
        out = {}
    return r.returncode, out, r.stdout + r.stderr


def test_translate_off_candidate_exits_1_and_the_byte_copy_exits_0(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "mul.v", MUL)
    hostile = MUL.replace(
        "a * b", "// synopsys translate_off\n  a *\n  // synopsys translate_on\n  b"
    )
    rc, out, log = _evaluate(repo, "mul.v", hostile)
    assert rc == 1, log
    assert out["candidate"]["stage"] == "screen" and "translate_off" in out["candidate"]["reason"]
    rc, out, log = _evaluate(repo, "mul.v", MUL)
    assert rc == 0, log
    cand = out["candidate"]
    assert cand["formal"]["method"] == "identical source"
    assert cand["ppa"]["area_um2"] == pytest.approx(out["reference"]["ppa"]["area_um2"])


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_gated_clock_candidate_exits_1(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "reg32.v", REG32)
    gated = REG32.replace(
        "  always @(posedge clk) begin",
        "  wire gclk = clk & (rst | (d != 32'hDEADBEEF));\n  always @(posedge gclk) begin",
    )
    for extra in ((), ("--accept-unknown",), ("--no-formal",)):
        rc, out, log = _evaluate(repo, "reg32.v", gated, *extra)
        assert rc == 1, (extra, log)
        assert "clock/reset structure" in out["candidate"]["reason"], (extra, log)


def test_netlist_check_rejects_what_synthesis_reads_differently(tmp_path: Path) -> None:
    # the reference's region (`& b`) changes nothing where it stands; reused once by the
    # candidate, simulation reads a * (8'hff & b), synthesis a * 8'hff
    ref = MUL.replace(
        "a * b", "a * (b\n  // synopsys translate_off\n  & b\n  // synopsys translate_on\n  )"
    )
    repo = _repo(tmp_path, "mul.v", ref)
    hostile = ref.replace("a * (b\n", "a * (8'hff\n")
    rc, out, log = _evaluate(repo, "mul.v", hostile, "--no-formal")
    assert rc == 1, log
    cand = out["candidate"]
    assert cand["stage"] == "netlist" and cand["netlist"]["passed"] is False, log
    assert "synthesized netlist" in cand["reason"]
    assert out["reference"]["netlist"]["passed"] is True


def test_check_verifies_comment_only_changes(example_repo: Path) -> None:
    f = example_repo / "rtl" / "prio_enc.v"
    text = f.read_text()
    f.write_text(
        text.replace(
            "  assign zero = ~|v;",
            "  // synopsys translate_off\n  assign zero = ~|v;\n  // synopsys translate_on",
        )
    )
    git(example_repo, "add", "-A")
    r = rtlopt(["check", "--json"], example_repo)
    assert r.returncode == 1, r.stdout + r.stderr
    report = json.loads(r.stdout)
    mods = {m["module"]: m for m in report["modules"]}
    assert "prio_enc" in mods and "translate_off" in " ".join(mods["prio_enc"]["findings"])
    # an innocent comment is read alike by every tool: nothing to prove, named in a note
    f.write_text(
        text.replace("  assign zero = ~|v;", "  // the all-zero flag\n  assign zero = ~|v;")
    )
    git(example_repo, "add", "-A")
    r = rtlopt(["check", "--json", "--no-ppa"], example_repo)
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["modules"] == [] and any("rtl/prio_enc.v" in n for n in out["notes"]), out
