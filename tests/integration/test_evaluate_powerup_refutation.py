"""`rtlopt evaluate` refutes a broken edit of registers without reset with a failing input (issue
33): once the proof from free power-up states fails, a search from the power-up state the
reference and the candidate share finds an input on which the outputs differ, and a second
proof confirms that no power-up state of the reference follows the candidate through it. The
counterexample is shown like any other (per-cycle table, VCD replay). An equivalent edit is
still proven, and a difference that some power-up state of the reference explains (another
state encoding) is never a refutation."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rtlopt.config import Config, EvalConfig
from rtlopt.evaluate import Evaluator, failing_lines, load_replay
from rtlopt.formal import POWERUP_METHOD
from rtlopt.formal.powerup_search import failing_input
from rtlopt.frontend import load_design
from rtlopt.results import EvalResult, Stage, Status, Verdict

pytestmark = pytest.mark.tools

TOGGLE = """module toggle (input clk, input en, output y);
    reg q;
    always @(posedge clk) if (en) q <= ~q;
    assign y = q;
endmodule
"""


def _evaluate(
    tmp_path: Path, candidate: str, reference: str = TOGGLE, **formal: object
) -> tuple[EvalResult, list[Path]]:
    """Evaluate ``candidate`` against ``reference`` (no synthesis); ``formal``: FormalConfig
    overrides. Also returns the searches' waveforms with a difference (read before the
    scratch goes)."""
    src = tmp_path / "toggle.v"
    src.write_text(reference)
    base = Config()
    cfg = dataclasses.replace(
        base,
        formal=dataclasses.replace(base.formal, timeout_s=60.0, **formal),  # type: ignore[arg-type]
        eval=EvalConfig(workers=1, cache=False, netlist_check="never"),
    )
    design = load_design(src, "toggle", cfg.project)
    with Evaluator(design, cfg, tmp_path / "eval", None) as ev:
        res = ev.evaluate(candidate)
        found = sorted((tmp_path / "eval").rglob("powerup_search_*/trace.vcd"))
        return res, [f for f in found if failing_input(f.read_text(), {"clk"})]


def test_a_broken_edit_without_reset_is_refuted_with_a_failing_input(tmp_path: Path) -> None:
    """The search and the replay give the register 0. (With an initial value the candidate is
    unchecked before any proof: the proof cannot show power-up values kept, red team w21.)"""
    ref = TOGGLE
    res, _ = _evaluate(tmp_path, ref.replace("if (en) q <= ~q;", "if (en) q <= q;"), ref)
    assert res.status is Status.INVALID and res.stage is Stage.FORMAL, res.reason
    assert res.formal is not None and res.formal.verdict is Verdict.REFUTED, res.formal
    assert res.formal.method == POWERUP_METHOD
    assert "from no power-up state" in res.reason and "en@" in res.reason, res.reason
    # the replay powers both sides up as the search did and shows the difference
    rep = load_replay(Path(res.logs["trace"]))
    assert rep.reproduced and rep.kind == "formal", rep.note
    lines = failing_lines(rep)
    assert lines[0].startswith("failing input at cycle") and "en=1" in lines[0], lines
    assert any(ln.startswith("output y: expected") for ln in lines), lines
    assert Path(res.logs["trace_vcd"]).is_file()


def test_an_equivalent_edit_without_reset_is_still_proven(tmp_path: Path) -> None:
    res, _ = _evaluate(tmp_path, TOGGLE.replace("if (en) q <= ~q;", "q <= q ^ en;"))
    assert res.status is Status.OK, res.reason
    assert res.formal is not None and res.formal.verdict is Verdict.PROVEN, res.formal


def test_a_difference_a_reference_power_up_state_explains_is_no_refutation(
    tmp_path: Path,
) -> None:
    """The candidate keeps the inverted state: from the shared power-up state (both registers
    at 0) its output is 1 where the reference's is 0, but the reference powered up at 1 gives
    the candidate's outputs on every input. ABC is off so that no engine proves it: the search
    after the undecided proof finds the difference, and the confirmation must not refute.
    Without initial values: a candidate whose registers have others than the reference's is
    unchecked under the default power-up model (red team w20 F5)."""
    bare = TOGGLE
    inverted = bare.replace("reg q;", "reg nq;").replace(
        "if (en) q <= ~q;\n    assign y = q;", "if (en) nq <= ~nq;\n    assign y = ~nq;"
    )
    assert "nq" in inverted and "assign y = ~nq;" in inverted
    res, differences = _evaluate(tmp_path, inverted, bare, abc=False)
    assert differences, "the search found no difference: the control decides nothing"
    assert res.formal is not None and res.formal.verdict is not Verdict.REFUTED, res.formal
    assert "powerup_search" in res.formal.timings, res.formal
    assert res.formal.method != POWERUP_METHOD


def test_registers_on_both_clock_edges_are_never_refuted_by_the_search(tmp_path: Path) -> None:
    """A register on the falling edge steps half a cycle later on a chip but together with
    the others in the search's model: the search does not run there (fail closed: unknown)."""
    both = TOGGLE.replace(
        "assign y = q;", "reg p;\n    always @(negedge clk) p <= q;\n    assign y = q ^ p;"
    )
    res, _ = _evaluate(tmp_path, both.replace("if (en) q <= ~q;", "if (en) q <= q;"), both)
    assert res.status is Status.INVALID, res.reason
    assert res.formal is not None and res.formal.method != POWERUP_METHOD, res.formal
    assert "powerup_search" not in res.formal.timings, res.formal
