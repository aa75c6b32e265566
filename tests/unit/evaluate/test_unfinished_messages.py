"""What the evaluation says when a check did not run or did not finish: a simulation that
compared no vector (the simulator's own error quoted, never a pass), a probe that ran out of
its share of the time budget (how much it got, how the budget is shared), and the table's
rows of a rejection (why a check did not run; configurations never reached)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rtlopt.check._check import _failed_equivalence
from rtlopt.evaluate._messages import no_verdict_reason
from rtlopt.evaluate._param_scope import NOT_REACHED, PENDING, probe_short, reached
from rtlopt.results import (
    PPA,
    EvalResult,
    FormalResult,
    Mismatch,
    SimResult,
    Stage,
    Status,
    Verdict,
)

LOG = (
    "$ /usr/bin/bwrap --ro-bind / / -- /usr/bin/vvp -n {wd}/cand/.x.vvp error_dir\n"
    "{wd}/shared/reference.v:94: Error: System task/function $past() is not defined by any "
    "module.\n"
    "{wd}/cand/candidate.v:7: Error: System task/function $stable() is not defined.\n"
    "{wd}/cand/.x.vvp: Program not runnable, 2 errors.\n"
)


def test_a_simulation_that_compared_nothing_quotes_the_simulator(tmp_path: Path) -> None:
    log = tmp_path / "sim.log"
    log.write_text(LOG.format(wd=tmp_path))
    why = no_verdict_reason(
        "no result line: the simulation ended before the testbench finished (rc 1; log tail: x)",
        log,
        [tmp_path / "cand", tmp_path / "shared"],
    )
    assert why.startswith("the simulation gave no verdict, no vector was compared (no result line")
    assert "log tail" not in why
    # the first error line, not the sandbox's command line; folders shortened
    assert '"reference.v:94: Error: System task/function $past() is not defined' in why, why
    assert str(tmp_path) not in why
    # a log with no error line: its last line; no log at all: the reason alone
    log.write_text("hello\nsomething else\n")
    assert 'first error: "something else"' in no_verdict_reason("x", log, [])
    assert no_verdict_reason("", tmp_path / "none.log", []).endswith("(no verdict line)")


def test_only_a_run_with_a_verdict_compared_something() -> None:
    assert not SimResult(False, 0, 0).compared
    assert SimResult(True, 0, 0).compared and SimResult(False, 3, 1).compared
    m = Mismatch(time="1", inputs={}, output="y", expected="0", got="1")
    assert SimResult(False, 0, 1, m).compared


def test_a_probe_out_of_time_says_what_it_got_and_what_to_raise() -> None:
    why = probe_short("W=2", 1.46, 25, 120.0, "SAT solving timed out after 1s")
    assert why.startswith("unchecked for parameters: probe W=2 did not finish in the 1.5 s it got")
    assert "formal.timeout_s = 120 s" in why and "each of the 25 probes still to check" in why
    assert "raise formal.timeout_s" in why
    assert "each of the 1 probe still" in probe_short("W=2", 3, 1, 120, "x")
    spent = probe_short("W=2", 0.2, 4, 120, "the time budget was spent")
    assert "probe W=2 did not start: no time of the budget was left for it" in spent


def test_rows_of_a_rejection_never_stay_pending() -> None:
    rows = ({"values": "W=8", "kind": "defaults", "verdict": PENDING},)
    rows += ({"values": "W=1", "kind": "probe", "verdict": "not finished"},)
    assert [r["verdict"] for r in reached(rows)] == [NOT_REACHED, "not finished"]


def _table(res: EvalResult, monkeypatch: pytest.MonkeyPatch) -> str:
    from rich.console import Console

    import rtlopt.cli._evaluate_table as cli_eval

    buf = io.StringIO()
    monkeypatch.setattr(cli_eval, "console", Console(file=buf, width=400, highlight=False))
    ref = EvalResult(Status.OK, Stage.DONE, ppa=PPA(area_um2=1.0, delay_ps=1.0, power_uw=1.0))
    cli_eval.print_table("m", ref, res, "adp", None)
    return buf.getvalue()


def test_the_table_says_why_a_check_did_not_run(monkeypatch: pytest.MonkeyPatch) -> None:
    probes = [{"values": f"W={w}", "kind": "probe", "verdict": NOT_REACHED} for w in range(3, 9)]
    rows = (
        {"values": "W=8", "kind": "defaults", "verdict": NOT_REACHED},
        {"values": "W=2", "kind": "probe", "verdict": "not finished"},
        *probes,
    )
    res = EvalResult(
        Status.INVALID,
        Stage.FORMAL,
        reason="unchecked for parameters",
        sim=SimResult(True, 100, 0),
        configurations=rows,
        timings={"screen": 0.1, "simulation": 1.0, "parameters": 2.0, "trace": 0.0},
    )
    out = _table(res, monkeypatch)
    assert "simulation: 100 vectors, 0 mismatches" in out
    assert "formal: not run (the parameters check stopped the evaluation first)" in out
    assert "W=8: not reached; W=2: not finished; W=3: not reached; W=4: not reached;" in out
    assert "4 more: not reached" in out and PENDING not in out
    screened = EvalResult(Status.INVALID, Stage.SCREEN, reason="x", timings={"screen": 0.1})
    out = _table(screened, monkeypatch)
    assert "simulation: not run (the evaluation stopped at the screen stage)" in out
    assert "formal: not run (the evaluation stopped at the screen stage)" in out
    unrun = EvalResult(Status.INVALID, Stage.SIMULATION, reason="x", sim=SimResult(False, 0, 0))
    assert "simulation: no verdict (no vector compared)" in _table(unrun, monkeypatch)


def test_the_gate_calls_a_simulation_that_compared_nothing_unchecked() -> None:
    unrun = EvalResult(Status.INVALID, Stage.SIMULATION, sim=SimResult(False, 0, 0))
    assert _failed_equivalence(unrun) == "not checked (simulation)"
    m = Mismatch(time="1", inputs={}, output="y", expected="0", got="1")
    assert (
        _failed_equivalence(
            EvalResult(Status.INVALID, Stage.SIMULATION, sim=SimResult(False, 5, 1, m))
        )
        == "mismatch"
    )
    # the defaults' own proof beside another configuration's rejection: no refutation
    proven = FormalResult(Verdict.PROVEN, "sat")
    assert (
        _failed_equivalence(EvalResult(Status.INVALID, Stage.FORMAL, formal=proven))
        == "not checked (formal)"
    )
    refuted = FormalResult(Verdict.REFUTED, "sat")
    assert (
        _failed_equivalence(EvalResult(Status.INVALID, Stage.FORMAL, formal=refuted)) == "refuted"
    )
