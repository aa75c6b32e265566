"""A red-team round on the merged wave (issue 30, held out from the branches that built the
mechanisms): what one preprocessed text does not show, the gate's reach through headers, and a
reference that releases a net. Each hostile case was accepted before its fix; each has a control
that is still accepted. Small repositories in temporary folders, the real CLI.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import evaluate_json, run_rtlopt

pytestmark = pytest.mark.tools

SOC = """module soc (input [3:0] a, input [3:0] b, output [3:0] y);
  tgt u (.a(a), .b(b), .y(y));
endmodule
"""

#: ``USE_FAST`` is not defined here: the first branch is switched off in this compilation.
SWITCHED = """module tgt (input [3:0] a, input [3:0] b, output [3:0] y);
`ifdef USE_FAST
  assign y = a ^ b;
`else
  assign y = (a | b) & ~(a & b);
`endif
endmodule
"""


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    repo = tmp_path / "repo"
    for rel, text in {"rtl/soc.v": SOC, **files}.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    config = '[project]\nexclude = ["cand/**"]\n[check]\noptimization_only = ["*"]\n'
    (repo / "rtlopt.toml").write_text(files.get("rtlopt.toml", config))
    _git(repo.parent, "init", "-q", "-b", "main", str(repo))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return repo


def _check(repo: Path, rel: str, text: str) -> tuple[int, dict[str, object]]:
    (repo / rel).write_text(text)
    _git(repo, "add", "-A")
    r = run_rtlopt(repo, "check", "--base", "HEAD", "--no-ppa", "--json")
    assert r.returncode in (0, 1), r.stderr[-800:]
    return r.returncode, json.loads(r.stdout)


def test_a_change_in_a_switched_off_branch_is_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wrong = SWITCHED.replace("assign y = a ^ b;", "assign y = a | b;")
    right = SWITCHED.replace("(a | b) & ~(a & b)", "a ^ b")  # the active branch, equivalent
    repo = _repo(
        tmp_path,
        monkeypatch,
        {"rtl/top.v": SWITCHED, "cand/wrong.v": wrong, "cand/right.v": right},
    )
    rc, out = evaluate_json(repo, "rtl/top.v", "cand/wrong.v")
    assert rc == 1 and "switch off" in str(out["candidate"]), out
    rc, out = evaluate_json(repo, "rtl/top.v", "cand/right.v")
    assert rc == 0 and out["accepted"], out
    rc, report = _check(repo, "rtl/top.v", wrong)
    assert rc == 1 and "switch off" in json.dumps(report), report


def test_a_define_the_change_adds_inside_the_module_is_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a later file of the unit reads B_ALT: a define inside the target reaches it
    a = "`ifdef FPGA\n`define B_ALT\n`endif\n" + SWITCHED.replace("USE_FAST", "NEVER")
    usr = (
        "module usr (input [3:0] a, input [3:0] b, output [3:0] y);\n"
        "`ifdef B_ALT\n  assign y = a & b;\n`else\n  assign y = a | b;\n`endif\nendmodule\n"
    )
    repo = _repo(tmp_path, monkeypatch, {"rtl/top.v": a, "rtl/usr.v": usr})
    leak = a.replace("  assign y = (a | b)", "`define B_ALT\n  assign y = (a | b)")
    rc, report = _check(repo, "rtl/top.v", leak)
    assert rc == 1 and "directive" in json.dumps(report), report


@pytest.mark.parametrize("how", ["macro-file-name", "filelist-header"])
def test_a_header_the_graph_cannot_follow_still_re_judges_its_readers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    ops = "`define OP(x, y) ((x) ^ (y))\n"
    tgt = "module tgt (input [3:0] a, input [3:0] b, output [3:0] y);\n  assign y = `OP(a, b);\nendmodule\n"
    files = {"rtl/ops.vh": ops}
    if how == "macro-file-name":
        files["rtl/top.v"] = '`define OPS_FILE "ops.vh"\n`include `OPS_FILE\n' + tgt
    else:
        files["rtl/top.v"] = tgt
        files["files.f"] = "rtl/ops.vh\nrtl/top.v\nrtl/soc.v\n"
        files["rtlopt.toml"] = (
            '[project]\nfilelists = ["files.f"]\nexclude = ["cand/**"]\n'
            '[check]\noptimization_only = ["*"]\n'
        )
    repo = _repo(tmp_path, monkeypatch, files)
    rc, report = _check(repo, "rtl/ops.vh", ops.replace("((x) ^ (y))", "((y) ^ (x))"))
    assert rc == 0, report  # control: an equivalent header change passes
    rc, report = _check(repo, "rtl/ops.vh", ops.replace("^", "|"))
    mods = report["modules"]
    assert rc == 1 and any(m["module"] == "tgt" for m in mods), report  # type: ignore[union-attr]


def test_a_reference_that_releases_a_net_is_never_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = (
        "module tgt (input oe, input [31:0] d, output [31:0] y);\n"
        "  assign y = oe ? d : 32'bz;\nendmodule\n"
    )
    soc = (
        "module soc (input oe, input [31:0] d, output [31:0] y);\n"
        "  tgt u (.oe(oe), .d(d), .y(y));\nendmodule\n"
    )
    trojan = ref.replace(
        "oe ? d : 32'bz", "oe ? d : ((d * 32'h9E3779B1) == 32'h00000001) ? 32'h0 : 32'bz"
    )
    repo = _repo(tmp_path, monkeypatch, {"rtl/soc.v": soc, "rtl/top.v": ref, "cand/t.v": trojan})
    rc, out = evaluate_json(repo, "rtl/top.v", "cand/t.v")
    assert rc == 1 and "high impedance" in str(out["candidate"]), out
