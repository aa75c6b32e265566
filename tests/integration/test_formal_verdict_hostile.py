"""Hostile candidates against how a verdict is made (real Yosys and yosys-abc; the one fake
ABC is named so).

* A candidate prints every tool's success strings and rtlopt's phase markers into the Yosys
  log with ``$display`` in an ``initial`` block (Yosys runs it while reading) and is not
  equivalent: never proven, whether the real verdict comes out or Yosys stops before it.
* A candidate drives one net twice, the drivers disagreeing on some inputs (the SAT model is
  contradictory exactly there): rejected, never proven.
* ABC says "not equivalent" and writes no counterexample: refuted (the trace from a second
  engine where one exists), never unknown.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path

import pytest

from rtlopt.config import FormalConfig, ProjectConfig
from rtlopt.formal import check_equivalence
from rtlopt.formal.abc import run_engine
from rtlopt.formal.engines import abc as abc_engine
from rtlopt.formal.job import Job
from rtlopt.formal.plan import plan_formal
from rtlopt.formal.prepare import prepare_miter
from rtlopt.frontend import load_design
from rtlopt.frontend.model import Design
from rtlopt.harness import reference_text
from rtlopt.results import FormalResult, Verdict

pytestmark = pytest.mark.tools

#: The lines a hostile candidate prints: each tool's success strings and the phase markers.
FORGED = (
    "RTLOPT_PHASE sat",
    "SAT proof finished - no model found: SUCCESS!",
    "RTLOPT_PHASE induction",
    "Induction step proven: SUCCESS!",
    "RTLOPT_PHASE witness",
    "SAT solving finished - model found:",
    "RTLOPT_PHASE equiv",
    "Equivalence successfully proven!",
    "Networks are equivalent",
    "Networks are equivalent after CEC",
    "Property proved",
    "UNSATISFIABLE",
    "Found and reported 0 problems.",
)

DISPLAY = "  initial begin\n" + "".join(f'    $display("{s}");\n' for s in FORGED) + "  end\n"

AND4 = """module and4(input [3:0] a, input [3:0] b, output [3:0] y);
  assign y = a & b;
endmodule
"""

#: not equivalent (OR for AND), prints every success string
AND4_PRINTS = f"""module and4(input [3:0] a, input [3:0] b, output [3:0] y);
{DISPLAY}  assign y = a | b;
endmodule
"""

#: the same, and Yosys stops after reading it (an undefined submodule): no real verdict
#: comes out, only the forged lines are in the log
AND4_PRINTS_THEN_STOPS = f"""module and4(input [3:0] a, input [3:0] b, output [3:0] y);
{DISPLAY}  assign y = a | b;
  rtlopt_no_such_module u_missing (.a(a));
endmodule
"""

CNT = """module cnt(input clk, input rst, input en, output [3:0] q);
  reg [3:0] c;
  always @(posedge clk)
    if (rst) c <= 4'd0;
    else if (en) c <= c + 4'd1;
  assign q = c;
endmodule
"""

#: steps by 2, prints every success string
CNT_PRINTS = CNT.replace("c + 4'd1", "c + 4'd2").replace(
    "  reg [3:0] c;\n", "  reg [3:0] c;\n" + DISPLAY
)
CNT_PRINTS_THEN_STOPS = CNT_PRINTS.replace(
    "  assign q = c;\n", "  assign q = c;\n  rtlopt_no_such_module u_missing (.a(c));\n"
)

CNT8 = """module cnt8(input clk, input rst, input en, output [7:0] q);
  reg [7:0] c;
  always @(posedge clk)
    if (rst) c <= 8'd0;
    else if (en) c <= c + 8'd1;
  assign q = c;
endmodule
"""

#: differs only from cycle 200 on (beyond the bounded check), prints every success string:
#: the real run ends without a verdict (induction fails, no counterexample within the bound)
CNT8_DEEP_PRINTS = CNT8.replace("assign q = c;", "assign q = (c == 8'd200) ? 8'd0 : c;").replace(
    "  reg [7:0] c;\n", "  reg [7:0] c;\n" + DISPLAY
)

#: a second driver of ``t`` that agrees with the first except where a[0] is 1: the SAT model
#: is contradictory exactly where the outputs would differ
AND4_TWO_DRIVERS = """module and4(input [3:0] a, input [3:0] b, output [3:0] y);
  wire [3:0] t;
  assign t = a & b;
  assign t = a[0] ? (a | b) : (a & b);
  assign y = t;
endmodule
"""

#: the same in a sequential design: the register's next value is driven twice
CNT_TWO_DRIVERS = """module cnt(input clk, input rst, input en, output [3:0] q);
  reg [3:0] c;
  wire [3:0] n;
  assign n = c + 4'd1;
  assign n = en ? c + 4'd2 : c + 4'd1;
  always @(posedge clk)
    if (rst) c <= 4'd0;
    else if (en) c <= n;
  assign q = c;
endmodule
"""


def _design(tmp_path: Path, name: str, text: str) -> Design:
    repo = tmp_path / "repo"
    repo.mkdir(exist_ok=True)
    f = repo / f"{name}.v"
    f.write_text(text)
    return load_design(f, name, ProjectConfig())


def _check(tmp_path: Path, design: Design, text: str, tag: str, **cfg: object) -> FormalResult:
    work = tmp_path / f"work_{tag}"
    work.mkdir()
    cand = work / "candidate.v"
    cand.write_text(text)
    config = FormalConfig(timeout_s=60, **cfg)  # type: ignore[arg-type]
    return check_equivalence(design, [cand], work / "formal", config)


@pytest.mark.parametrize(
    ("name", "ref", "hostile"),
    [
        ("and4", AND4, AND4_PRINTS),
        ("and4", AND4, AND4_PRINTS_THEN_STOPS),
        ("cnt", CNT, CNT_PRINTS),
        ("cnt", CNT, CNT_PRINTS_THEN_STOPS),
    ],
    ids=["comb", "comb-stops", "seq", "seq-stops"],
)
def test_printed_success_strings_are_never_a_proof(
    tmp_path: Path, name: str, ref: str, hostile: str
) -> None:
    design = _design(tmp_path, name, ref)
    for abc in (True, False):
        found = _check(tmp_path, design, hostile, f"{int(abc)}", abc=abc)
        assert found.verdict is not Verdict.PROVEN, found
        if "no_such_module" not in hostile:
            assert found.verdict is Verdict.REFUTED, found
    # the forged lines did reach the log the old parser read
    logs = (tmp_path / "work_1" / "formal").rglob("*.log")
    assert any("Equivalence successfully proven!" in p.read_text() for p in logs)


def test_printed_strings_do_not_fill_a_missing_verdict(tmp_path: Path) -> None:
    # Yosys alone (no ABC): induction fails and the bounded check finds nothing, so the only
    # "success" lines in the log are the candidate's
    design = _design(tmp_path, "cnt8", CNT8)
    found = _check(tmp_path, design, CNT8_DEEP_PRINTS, "deep", abc=False)
    assert found.verdict is Verdict.UNKNOWN, found
    assert "no counterexample within" in found.reason or "induction" in found.reason, found


def test_the_reference_with_printed_strings_is_still_proven(tmp_path: Path) -> None:
    # the channel does not depend on a quiet log: the same strings around a real proof
    design = _design(tmp_path, "and4", AND4)
    text = AND4.replace("  assign y", DISPLAY + "  assign y").replace("a & b", "b & a")
    found = _check(tmp_path, design, text, "eq")
    assert found.verdict is Verdict.PROVEN, found
    assert "vacuity" in found.timings


@pytest.mark.parametrize(
    ("name", "ref", "hostile"),
    [("and4", AND4, AND4_TWO_DRIVERS), ("cnt", CNT, CNT_TWO_DRIVERS)],
    ids=["comb", "seq"],
)
def test_a_second_driver_is_rejected(tmp_path: Path, name: str, ref: str, hostile: str) -> None:
    design = _design(tmp_path, name, ref)
    found = _check(tmp_path, design, hostile, "two")
    assert found.verdict is not Verdict.PROVEN, found
    assert "conflicting drivers" in found.structure, found


def test_a_cec_failure_gets_its_trace_from_a_second_engine(tmp_path: Path) -> None:
    # real ABC: `&cec` says "NOT EQUIVALENT" and write_cex writes nothing
    design = _design(tmp_path, "and4", AND4)
    work = tmp_path / "engine"
    work.mkdir()
    ref = work / "reference.v"
    ref.write_text(reference_text(design))
    cand = work / "candidate.v"
    cand.write_text(AND4.replace("a & b", "a | b"))
    prep = prepare_miter(design, ref, [cand], work / "abc", timeout=60)
    assert prep.miter is not None, prep.reason
    out = run_engine("cec", prep.aiger, prep.miter, timeout=30, cwd=prep.aiger.parent)
    assert out.status == "failed"
    assert out.trace and any(k.startswith("got ") for k in out.counterexample), out


FAKE_ABC = """#!{python}
import re, sys
cmd = sys.argv[-1]
for m in re.finditer(r"write_status ([^;\\s]+)", cmd):
    open(m.group(1), "w").write("snl_SAT -1 unknown\\nNULL\\nNULL\\n")
for m in re.finditer(r"write_cex -s ([^;\\s]+)", cmd):
    open(m.group(1), "w").close()
print("Networks are NOT EQUIVALENT.")
"""


def test_fake_abc_refutation_without_counterexample_is_refuted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fake yosys-abc that says "not equivalent" and writes an empty counterexample (to
    every engine, the second one included): refuted, not unknown."""
    design = _design(tmp_path, "and4", AND4)
    fake = tmp_path / "fake-yosys-abc"
    fake.write_text(FAKE_ABC.format(python=sys.executable))
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("RTLOPT_YOSYS_ABC", str(fake))
    work = tmp_path / "job"
    work.mkdir()
    ref = work / "reference.v"
    ref.write_text(reference_text(design))
    cand = work / "candidate.v"
    cand.write_text(AND4.replace("a & b", "b & a"))
    plan = plan_formal(design, [cand.read_text()])
    job = Job(design, ref, [cand], plan, FormalConfig(timeout_s=30), None, [], time.monotonic())
    found = abc_engine.run(job, share=1.0)
    assert found is not None
    assert found.verdict is Verdict.REFUTED, found
    assert "no counterexample trace could be replayed" in found.reason
    assert os.environ["RTLOPT_YOSYS_ABC"] == str(fake)
