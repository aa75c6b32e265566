"""Under the default ``harness.initial_values = "ignore"`` a candidate whose stated power-up
values differ from the reference's by register name (a register renamed or regrouped, its value
moved out of a submodule) is decided by the proof from the stated values, which runs beside the
proof from unknown registers (rtlopt.formal.power_up_models): proven where the values are the
reference's, refuted or not proven where one differs. That proof decides it only where the
reference states every register bit's value (a reference bit that starts x would accept any
value by the X policy); without a formal check it stays unchecked. Real iverilog, Yosys and
slang through the real evaluator and the real command line."""

from __future__ import annotations

import dataclasses
import json
import subprocess
from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate import Evaluator
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult, Stage, Verdict
from tests.fork_run import run_rtlopt

pytestmark = pytest.mark.tools

#: Every register with a power-up value (FPGA style), and a reset.
REFERENCE = """module m(input clk, input rst, input en, output [7:0] y, output v);
  reg [7:0] cnt = 8'd3;
  reg on = 1'b1;
  always @(posedge clk)
    if (rst) begin cnt <= 8'd3; on <= 1'b1; end
    else if (en) begin cnt <= cnt + 8'd1; on <= ~on; end
  assign y = cnt;
  assign v = on;
endmodule
"""
#: The same design, both registers renamed and assigned in two blocks.
RENAMED = """module m(input clk, input rst, input en, output [7:0] y, output v);
  reg flag = 1'b1;
  reg [7:0] count = 8'd3;
  always @(posedge clk) if (rst) flag <= 1'b1; else if (en) flag <= !flag;
  always @(posedge clk) if (rst) count <= 8'd3; else if (en) count <= 8'd1 + count;
  assign v = flag;
  assign y = count;
endmodule
"""
#: Renamed, and the counter powers up at 4: y differs before the first reset.
RENAMED_AT_4 = RENAMED.replace("count = 8'd3;", "count = 8'd4;")


def _evaluate(
    tmp: Path, files: dict[str, str], candidate: str, *, formal: bool = True, top: str = "m"
) -> EvalResult:
    repo = tmp / "repo"
    repo.mkdir(parents=True)
    for name, text in files.items():
        (repo / name).write_text(text)
    base = Config()
    cfg = dataclasses.replace(
        base,
        harness=dataclasses.replace(base.harness, sim_timeout_s=20.0, random_vectors=100),
        formal=dataclasses.replace(base.formal, timeout_s=60.0, enabled=formal),
    )
    design = load_design(repo / next(iter(files)), top, cfg.project)
    with Evaluator(design, cfg, tmp / "scratch", None) as ev:
        return ev.evaluate(candidate)


def test_a_renamed_register_with_the_same_value_is_proven(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, {"m.v": REFERENCE}, RENAMED)
    assert res.accepted, res.reason
    assert res.formal is not None and res.formal.verdict is Verdict.PROVEN, res.formal
    assert res.formal.power_up == ("unknown", "stated"), res.formal


def test_a_renamed_register_with_another_value_is_rejected(tmp_path: Path) -> None:
    res = _evaluate(tmp_path, {"m.v": REFERENCE}, RENAMED_AT_4)
    assert not res.accepted and res.stage is Stage.FORMAL, res.reason
    assert res.formal is not None and res.formal.verdict is not Verdict.PROVEN, res.formal


def test_without_a_formal_check_a_renamed_register_stays_unchecked(tmp_path: Path) -> None:
    for k, cand in enumerate((RENAMED, RENAMED_AT_4)):
        res = _evaluate(tmp_path / str(k), {"m.v": REFERENCE}, cand, formal=False)
        assert not res.accepted and res.stage is Stage.SCREEN, res.reason
        assert res.reason.startswith("unchecked: "), res.reason
        assert "formal.enabled = false" in res.reason, res.reason


def test_a_partly_stated_reference_leaves_a_renamed_register_unchecked(tmp_path: Path) -> None:
    """The reference leaves ``on`` without a value (x from the stated values): a value the
    candidate states where the reference's register starts x would pass the X policy, so
    the proof from the stated values does not decide a renamed register there."""
    ref = REFERENCE.replace("reg on = 1'b1;", "reg on;")
    cand = RENAMED.replace("reg flag = 1'b1;", "reg flag;")
    res = _evaluate(tmp_path, {"m.v": ref}, cand)
    assert not res.accepted and res.reason.startswith("unchecked: "), res.reason
    assert "count in m gets the power-up value 8'd3" in res.reason, res.reason
    assert "the reference states that value on cnt instead" in res.reason, res.reason
    assert "1 register bit(s) without one" in res.reason, res.reason


SUB = """module s(input clk, input rst, input en, output q);
  reg r = 1'b1;
  always @(posedge clk) if (rst) r <= 1'b1; else if (en) r <= ~r;
  assign q = r;
endmodule
"""
TOP = """module m(input clk, input rst, input en, output [7:0] y, output v);
  reg [7:0] cnt = 8'd3;
  always @(posedge clk) if (rst) cnt <= 8'd3; else if (en) cnt <= cnt + 8'd1;
  s u(.clk(clk), .rst(rst), .en(en), .q(v));
  assign y = cnt;
endmodule
"""


@pytest.mark.parametrize(("value", "proven"), [("1'b1", True), ("1'b0", False)])
def test_a_value_stated_in_a_submodule_moved_into_the_target(
    tmp_path: Path, value: str, proven: bool
) -> None:
    """The candidate holds the submodule's register itself, with the submodule's value (the
    same design) or another (v differs before the first reset)."""
    cand = RENAMED.replace("reg flag = 1'b1;", f"reg flag = {value};")
    res = _evaluate(tmp_path, {"m.v": TOP, "s.v": SUB}, cand)
    if proven:
        assert res.accepted, res.reason
        assert res.formal is not None and res.formal.power_up == ("unknown", "stated")
    else:
        assert not res.accepted and res.stage is Stage.FORMAL, res.reason
        assert res.formal is not None and res.formal.verdict is not Verdict.PROVEN


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", *args],
        check=True,
        capture_output=True,
    )


@pytest.mark.parametrize(
    ("text", "rc", "equivalence"), [(RENAMED, 0, "proven"), (RENAMED_AT_4, 1, "refuted")]
)
def test_check_decides_a_renamed_register(
    tmp_path: Path, text: str, rc: int, equivalence: str
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "m.v").write_text(REFERENCE)
    (repo / "rtlopt.toml").write_text('[check]\noptimization_only = ["*"]\nppa = false\n')
    _git(repo, "init", "-q", "-b", "main", ".")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    (repo / "m.v").write_text(text)
    _git(repo, "add", "m.v")
    r = run_rtlopt(["check", "m.v", "--json"], cwd=repo, timeout=600)
    assert r.returncode == rc, r.stdout[-2000:] + r.stderr[-2000:]
    [m] = json.loads(r.stdout)["modules"]
    assert m["equivalence"] == equivalence, m
