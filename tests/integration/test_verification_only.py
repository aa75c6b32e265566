"""SymbiYosys properties inside the module (```ifdef FORMAL``, ZipCPU's and mor1kx's style):
the hardware builds never define FORMAL, so a rewrite that drops or edits the block is judged
on what those builds read, and the block is said to be left out. Logic moved into the branch
they do read (the ```else`` of ```ifdef FORMAL``, ```ifndef FORMAL``) is judged; a repository
that defines FORMAL for another build keeps the configuration rule; a candidate defining
FORMAL is refused.

Run from tests/integration/."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _fixture_repo import GIT_ID, committed_repo, evaluate_text, run_rtlopt

pytestmark = pytest.mark.tools

TICK = """module tick(input clk, input rst, input [3:0] d, output reg [3:0] q);
  always @(posedge clk)
    if (rst) q <= 4'd0;
    else q <= d;
`ifdef FORMAL
  reg f_past_valid;
  initial f_past_valid = 0;
  always @(posedge clk) f_past_valid <= 1;
  always @(posedge clk)
    if (f_past_valid && !$past(rst))
      assert (q == $past(d));
`ifdef TICK
  always @* assume (!rst);
`endif
`endif
endmodule
"""
LOGIC = "  always @(posedge clk)\n    if (rst) q <= 4'd0;\n    else q <= d;\n"
_BLOCK = TICK[TICK.index("`ifdef FORMAL") : TICK.index("endmodule")]
DROPPED = TICK.replace(_BLOCK, "").replace("else q <= d;", "else q <= d | 4'd0;")
EDITED = TICK.replace("assert (q == $past(d));", "assert (q == $past(d) || rst);").replace(
    "assume (!rst)", "assume (!rst && d != 4'd3)"
)
SBY = "[options]\nmode prove\n[engines]\nsmtbmc\n[script]\nread -formal tick.v\nprep -top tick\n"
FILES = {"rtl/tick.v": TICK, "bench/formal/tick.sby": SBY}


def _reason(rep: dict[str, object]) -> str:
    res = rep["candidate"]
    assert isinstance(res, dict)
    return str(res.get("reason") or "")


@pytest.mark.parametrize("cand", [DROPPED, EDITED], ids=["dropped", "edited"])
def test_a_rewrite_that_drops_or_edits_the_formal_block_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cand: str
) -> None:
    repo = committed_repo(tmp_path / "r", FILES, monkeypatch, tmp_path / "c")
    code, rep = evaluate_text(repo, "rtl/tick.v", cand)
    res = rep["candidate"]
    assert isinstance(res, dict) and code == 0 and res["accepted"], _reason(rep)
    assert "`ifdef FORMAL block (verification only) is not judged" in str(res["scope"]), res


def test_rtlopt_check_passes_a_commit_that_drops_the_formal_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    toml = '[project]\nexclude = ["cand/**"]\n[check]\noptimization_only = ["*"]\n'
    repo = committed_repo(
        tmp_path / "r", {**FILES, "rtlopt.toml": toml}, monkeypatch, tmp_path / "c"
    )
    (repo / "rtl/tick.v").write_text(DROPPED)
    subprocess.run(["git", *GIT_ID, "-C", str(repo), "add", "-A"], check=True)
    r = run_rtlopt(repo, "check", "--no-ppa", "--json")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-800:]
    out = json.loads(r.stdout)
    row = next(m for m in out["modules"] if m["module"] == "tick")
    assert row["equivalence"] == "proven" and not row["findings"], row
    assert any("not judged" in n for n in row["notes"]), row


PROPS = "  always @(posedge clk) assert (q == q);\n"
#: the logic every hardware build reads in the branch FORMAL leaves: the `else of `ifdef
#: FORMAL, and `ifndef FORMAL (with its own `else the formal build reads)
IN_ELSE = TICK.replace(LOGIC, "`ifdef FORMAL\n" + PROPS + "`else\n" + LOGIC + "`endif\n")
IN_IFNDEF = TICK.replace(LOGIC, "`ifndef FORMAL\n" + LOGIC + "`else\n" + PROPS + "`endif\n")


@pytest.mark.parametrize("ref", [IN_ELSE, IN_IFNDEF], ids=["else-of-ifdef", "ifndef"])
def test_logic_in_the_branch_hardware_builds_read_is_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str
) -> None:
    files = {"rtl/tick.v": ref, "bench/formal/tick.sby": SBY}
    repo = committed_repo(tmp_path / "r", files, monkeypatch, tmp_path / "c")
    # broken there: rejected by simulation or the proof, not by a text rule
    code, rep = evaluate_text(
        repo, "rtl/tick.v", ref.replace("else q <= d;", "else q <= d ^ 4'd1;")
    )
    res = rep["candidate"]
    assert isinstance(res, dict) and code == 1 and not res["accepted"], res
    assert res["stage"] in ("simulation", "formal"), res
    # equivalent there, the formal branches kept: accepted
    good = ref.replace("else q <= d;", "else q <= d | 4'd0;")
    code, rep = evaluate_text(repo, "rtl/tick.v", good)
    res = rep["candidate"]
    assert isinstance(res, dict) and code == 0 and res["accepted"], _reason(rep)
    # red team w36 F6: a build may define FORMAL where no text search sees it, and then reads
    # the FORMAL branch in place of the logic: the conditional is another configuration, so
    # its FORMAL branch dropped is a change to switched-off code (unchecked)
    code, rep = evaluate_text(repo, "rtl/tick.v", good.replace(PROPS, ""))
    res = rep["candidate"]
    assert isinstance(res, dict) and code == 1 and not res["accepted"], res
    # (and the build defining FORMAL loses its property: keep the reference's check)
    assert any(w in _reason(rep) for w in ("unchecked", "keep the reference's check")), rep


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        ("sim.f", "+define+FORMAL\nrtl/tick.v\n"),
        ("rtlopt.toml", '[project]\nexclude = ["cand/**"]\ndefines = ["FORMAL"]\n'),
    ],
    ids=["filelist", "rtlopt-toml"],
)
def test_a_repository_that_defines_formal_for_a_build_keeps_the_configuration_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rel: str, text: str
) -> None:
    repo = committed_repo(tmp_path / "r", {**FILES, rel: text}, monkeypatch, tmp_path / "c")
    code, rep = evaluate_text(repo, "rtl/tick.v", DROPPED)
    res = rep["candidate"]
    assert isinstance(res, dict) and code == 1 and not res["accepted"], res
    assert "not judged" not in str(res.get("scope") or ""), res


def test_a_candidate_that_defines_formal_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = committed_repo(tmp_path / "r", FILES, monkeypatch, tmp_path / "c")
    broken = TICK.replace(
        LOGIC, "`define FORMAL\n" + LOGIC.replace("else q <= d;", "else q <= d ^ 4'd1;")
    ).replace("`ifdef FORMAL", "`ifndef FORMAL")
    for cand in (
        "`define FORMAL\n" + TICK,
        TICK.replace("`ifdef FORMAL", "`define FORMAL\n`ifdef FORMAL"),
        broken,
    ):
        code, rep = evaluate_text(repo, "rtl/tick.v", cand)
        res = rep["candidate"]
        assert isinstance(res, dict) and code == 1 and not res["accepted"], res
        assert res["stage"] == "screen", res


WITH_CHECKER = TICK.replace(
    "`ifdef TICK", "  fwb_slave #(.AW(4)) f_slave (.i_clk(clk), .i_reset(rst));\n`ifdef TICK"
)


TOP = """module top(input clk, input rst, input [3:0] d, output [3:0] q);
  tick u(.clk(clk), .rst(rst), .d(d), .q(q));
`ifdef FORMAL
  tick f_twin(.clk(clk), .rst(rst), .d(d), .q());
`endif
endmodule
"""


@pytest.mark.parametrize("edit", [False, True], ids=["self", "equivalent-edit"])
def test_a_formal_block_naming_a_module_the_repository_lacks_is_no_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: bool
) -> None:
    """ZipCPU's blocks instantiate property checkers kept elsewhere (``fwb_slave``), and its
    parents instantiate the module again under FORMAL. The module itself passes; an edit is
    unchecked, since the block's instance is no code the text shows to be verification
    alone (a build may define FORMAL where no text search sees it)."""
    files = {"rtl/tick.v": WITH_CHECKER, "rtl/top.v": TOP, "bench/formal/tick.sby": SBY}
    repo = committed_repo(tmp_path / "r", files, monkeypatch, tmp_path / "c")
    cand = WITH_CHECKER.replace("else q <= d;", "else q <= d | 4'd0;") if edit else WITH_CHECKER
    code, rep = evaluate_text(repo, "rtl/tick.v", cand)
    res = rep["candidate"]
    if not edit:
        assert isinstance(res, dict) and code == 0 and res["accepted"], _reason(rep)
        return
    # red team w36 F6: an instance in the block is no verification code the text shows (a
    # build that defines FORMAL where no search sees it reads it): the block stays, unchecked
    assert isinstance(res, dict) and code == 1 and not res["accepted"], res
    # (and the build defining FORMAL loses its property: keep the reference's check)
    assert any(w in _reason(rep) for w in ("unchecked", "keep the reference's check")), rep


def test_the_systemverilog_view_reads_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the slang view path the block's assertions are a branch no reading takes (the
    power-up and assertion readings, ``harness/_dormant.py``): verification code there too."""
    files = {
        "rtl/tick.sv": TICK,
        "bench/formal/tick.sby": SBY,
        "rtlopt.toml": '[project]\nexclude = ["cand/**"]\n[flow]\nsystemverilog = "slang"\n',
    }
    repo = committed_repo(tmp_path / "r", files, monkeypatch, tmp_path / "c")
    code, rep = evaluate_text(repo, "rtl/tick.sv", DROPPED)
    res = rep["candidate"]
    assert isinstance(res, dict) and code == 0 and res["accepted"], _reason(rep)
    assert "not judged" in str(res["scope"]), res
    code, rep = evaluate_text(repo, "rtl/tick.sv", TICK.replace("q <= d;", "q <= d ^ 4'd1;"))
    res = rep["candidate"]
    assert isinstance(res, dict) and code == 1 and not res["accepted"], res
