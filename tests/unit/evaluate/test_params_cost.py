"""The parameters stage costs nothing for a module without parameters (issue 31): no
elaboration of the repository's parameterizations when the target's own text declares no
parameter and uses no macro or include, whatever else its file holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtlopt.config import Config
from rtlopt.evaluate._params import ParameterCheck
from rtlopt.frontend import load_design

FILE = """module lib #(parameter W = 4) (input [W-1:0] a, output [W-1:0] y);
  assign y = a;
endmodule
`define ONE 1'b1
module top(input a, output y);
  assign y = ~a;
endmodule
module user(input a, output y);
  assign y = a ^ `ONE;
endmodule
"""


class _Elaborated(Exception):
    pass


def _check(tmp_path: Path, module: str, monkeypatch: pytest.MonkeyPatch) -> object:
    import rtlopt.frontend._params as params

    def boom(*_a: object, **_k: object) -> None:
        raise _Elaborated(module)

    monkeypatch.setattr(params, "parameterizations", boom)
    design = load_design(tmp_path / "m.v", module, Config().project)
    check = ParameterCheck(design, Config(), tmp_path / "w", lambda *_a: None)  # type: ignore[arg-type]
    return check.check(design.target.text().replace("assign", "  assign"))


def test_a_module_without_parameters_elaborates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "m.v").write_text(FILE)
    assert _check(tmp_path, "top", monkeypatch) is None


@pytest.mark.parametrize("module", ["lib", "user"])
def test_a_parameter_or_a_macro_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str
) -> None:
    (tmp_path / "m.v").write_text(FILE)
    with pytest.raises(_Elaborated):
        _check(tmp_path, module, monkeypatch)


class _Evaluated(Exception):
    pass


def test_the_probe_search_stops_when_its_share_is_spent_fake_evaluator(tmp_path: Path) -> None:
    # the legality of each probe is a whole evaluation of the reference under it; once the
    # search's deadline has passed none starts (the probe is undecided, not illegal), so the
    # search cannot eat the defaults' own proof's time (cc_lfsr_8bit: 122 s of 120 s spent on
    # 13 probes, the defaults' proof then "SAT timed out after 1s"). The evaluator is a fake
    # that only records that it was asked.
    from rtlopt.formal.budget import Deadline, within

    def factory(*_a: object) -> object:
        raise _Evaluated

    (tmp_path / "m.v").write_text(FILE)
    design = load_design(tmp_path / "m.v", "lib", Config().project)
    check = ParameterCheck(design, Config(), tmp_path / "w", factory)  # type: ignore[arg-type]
    with within(Deadline.after(0)):
        pz = check._legal({"W": "5"})
    assert pz is not None and dict(pz.values)["W"] == "5"
    with pytest.raises(_Evaluated), within(Deadline.after(60)):
        check._legal({"W": "5"})  # undecided before: not remembered, asked now


def test_a_probe_with_no_time_left_is_not_started_and_not_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A probe is started only with a second of the verdict's budget left; otherwise it is
    recorded "not finished" (the time budget was spent) without an evaluation, which rejects a
    target nothing instantiates. The repository's own configurations are always run."""
    from rtlopt.evaluate._param_scope import NOT_FINISHED, Scope
    from rtlopt.formal.budget import Deadline

    (tmp_path / "m.v").write_text(FILE)
    design = load_design(tmp_path / "m.v", "lib", Config().project)
    check = ParameterCheck(design, Config(), tmp_path / "w", lambda *_a: None)  # type: ignore[arg-type]
    started: list[str] = []

    def sub(values: object) -> object:
        started.append(str(values))
        raise _Elaborated("started")

    monkeypatch.setattr(check, "_sub", sub)
    pz = check._found()[0]
    scope = Scope(False, 1)
    spent = Deadline.after(0.5)
    assert check._run(FILE, pz, "probe", spent, scope) is None
    assert started == [], started
    assert [(r["kind"], r["verdict"]) for r in scope.rows] == [("probe", NOT_FINISHED)]
    assert scope.rows[0]["reason"] == "the time budget was spent"
    with pytest.raises(_Elaborated):
        check._run(FILE, pz, "repository", spent, scope)
    assert len(started) == 1


def test_a_probe_the_reference_does_not_build_under_is_skipped_fake_evaluator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a probe used before its legality was decided (the search's share spent under load:
    # serv_immdec) whose reference copy does not elaborate is no legal value: skipped, not an
    # error of the whole evaluation. The evaluator is a fake that refuses to build.
    from rtlopt.errors import DesignError

    class _Refuses:
        def evaluate(self, _text: str) -> object:
            raise DesignError("slang cannot elaborate the original design: element 3")

    (tmp_path / "m.v").write_text(FILE)
    design = load_design(tmp_path / "m.v", "lib", Config().project)
    check = ParameterCheck(design, Config(), tmp_path / "w", lambda *_a: _Refuses())  # type: ignore[arg-type]
    monkeypatch.setattr(check, "_probe_holds", lambda _pz: None)
    out = check.check(design.target.text().replace("assign y = a;", "assign y = a ^ {W{1'b0}};"))
    assert out is not None and out.rejection is None, out
    assert "skipped: the reference does not build" in out.scope


def test_an_unchecked_result_under_a_probe_is_no_difference() -> None:
    # cv32e40p_sleep_unit: the reference's own configuration check under a probe of an
    # instantiated module was "unchecked" (a configuration it cannot build) and counted as
    # a refutation: a probe beyond the repository's configurations then rejected the change
    from rtlopt.config import RewardConfig
    from rtlopt.evaluate._candidate import invalid
    from rtlopt.evaluate._param_scope import NOT_FINISHED, verdict_of
    from rtlopt.results import Stage

    unchecked = invalid(RewardConfig(), Stage.SCREEN, "unchecked: no build", r_syn=0.0)
    assert verdict_of(unchecked) == NOT_FINISHED
    wrong = invalid(RewardConfig(), Stage.SIMULATION, "mismatch at vector 3", r_syn=1.0)
    assert verdict_of(wrong) == "refuted"


@pytest.mark.parametrize(
    ("status", "reason", "holds"),
    [
        ("ok", "", True),
        # only a proof would decide (a stated power-up value, a proof that ran out of time):
        # no verdict on the probe, so it is used and the candidate's own check decides
        ("invalid", "unchecked: the proof from unknown registers did not prove it", None),
        ("timeout", "yosys timed out", None),
        # the reference does not even simulate against itself there: not a legal probe
        ("invalid", "not equivalent in simulation: y expected 1 got x", False),
    ],
    ids=["passes", "unchecked", "tool-timeout", "fails"],
)
def test_a_probe_is_legal_by_the_simulation_of_the_reference_alone_fake_evaluator(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    status: str,
    reason: str,
    holds: bool | None,
) -> None:
    # the reference's copy under a probe is built, screened and simulated, never proven
    # against itself: that proof took as long as the candidate's (i2c_single_reg: 13
    # probes, the budget spent on them), and one that ran out of time dropped the probe, so
    # the candidate went unchecked under it
    from rtlopt.results import EvalResult, Stage, Status

    (tmp_path / "m.v").write_text(FILE)
    design = load_design(tmp_path / "m.v", "lib", Config().project)
    check = ParameterCheck(design, Config(), tmp_path / "w", lambda *_a: None)  # type: ignore[arg-type]
    asked: list[bool] = []

    class _Fake:
        def evaluate(self, _text: str) -> EvalResult:
            return EvalResult(status=Status(status), stage=Stage.FORMAL, reason=reason)

    def sub(_values: object, *, proof: bool = True) -> _Fake:
        asked.append(proof)
        return _Fake()

    monkeypatch.setattr(check, "_sub", sub)
    pz = check._found()[0]
    assert check._probe_holds(pz) is holds
    assert asked == [False]


PARENT = """module lib #(parameter W = 4) (input [W-1:0] a, output [W-1:0] y);
  assign y = a;
endmodule
module top(input [3:0] a, output [3:0] y);
  lib #(.W(4)) u (.a(a), .y(y));
endmodule
"""


@pytest.mark.parametrize(
    ("candidate", "reference", "rejected", "asked_reference"),
    [
        # the candidate holds under every probe: the reference is never checked against
        # itself (an instantiated target's probes are extra assurance: half their cost)
        ("ok", "ok", False, False),
        # the candidate differs under a probe where the reference fails against itself: the
        # probe is not legal, skipped and said so, no rejection
        ("invalid", "invalid", False, True),
        # ... where the reference holds: a real difference, rejected
        ("invalid", "ok", True, True),
        # the candidate's check under a probe does not finish: reported only, whether the
        # probe is legal or not, so the reference is not checked against itself there
        ("unchecked", "invalid", False, False),
    ],
    ids=["holds", "illegal-probe", "refuted", "unfinished"],
)
def test_an_instantiated_targets_probe_checks_the_reference_only_where_the_candidate_differs_fake_evaluator(
    tmp_path: Path, candidate: str, reference: str, rejected: bool, asked_reference: bool
) -> None:
    # the evaluators are fakes answering by the text they get (the reference's copy under a
    # probe carries its own comment); the probes themselves are chosen for real
    from rtlopt.results import EvalResult, Stage, Status

    (tmp_path / "m.v").write_text(PARENT)
    design = load_design(tmp_path / "m.v", "lib", Config().project)
    asked: list[str] = []

    class _Fake:
        def evaluate(self, text: str) -> EvalResult:
            own = "the reference under a probe parameterization" in text
            asked.append("reference" if own else "candidate")
            status = reference if own else candidate
            reason = "" if status == "ok" else "not equivalent in simulation: y expected 1 got 0"
            if status == "unchecked":  # a proof that did not finish
                status, reason = "invalid", "unchecked: the proof did not finish"
            return EvalResult(status=Status(status), stage=Stage.SIMULATION, reason=reason)

    check = ParameterCheck(design, Config(), tmp_path / "w", lambda *_a: _Fake())  # type: ignore[arg-type]
    assert check.instantiated()
    out = check.check(design.target.text().replace("assign y = a;", "assign y = a ^ {W{1'b0}};"))
    assert out is not None
    assert "candidate" in asked
    assert ("reference" in asked) is asked_reference, asked
    assert (out.rejection is not None) is rejected, out
    if rejected:
        assert out.rejection is not None and "under parameters W=" in out.rejection[1]
    elif asked_reference:
        assert "skipped: the reference fails against itself" in out.scope, out.scope
        probes = [r for r in out.configurations if r["kind"] == "probe"]
        assert probes and all(r["verdict"] == "skipped" for r in probes), probes
    elif candidate == "unchecked":
        assert "not finished (reported only)" in out.scope, out.scope


def test_a_probe_at_a_negative_width_that_does_not_finish_is_noted_fake_evaluator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # held-out trial 44: verilog-uart's rewrites were proven at every width tried and
    # rejected because the proof at DATA_WIDTH = -1 (no design's intent) did not finish; a
    # probe at a positive width that does not finish still rejects a target nothing
    # instantiates. The evaluators are fakes answering by the specialized text.
    from rtlopt.results import EvalResult, Stage, Status

    (tmp_path / "m.v").write_text(FILE)
    design = load_design(tmp_path / "m.v", "lib", Config().project)
    slow = {"-1"}

    class _Fake:
        def __init__(self, value: str) -> None:
            self.value = value

        def evaluate(self, _text: str) -> EvalResult:
            if self.value in slow:
                return EvalResult(
                    status=Status("timeout"), stage=Stage.FORMAL, reason="SAT ran out"
                )
            return EvalResult(status=Status("ok"), stage=Stage.FORMAL, reason="")

    check = ParameterCheck(design, Config(), tmp_path / "w", lambda *_a: None)  # type: ignore[arg-type]
    monkeypatch.setattr(check, "_sub", lambda values, proof=True: _Fake(dict(values).get("W", "")))
    cand = design.target.text().replace("assign y = a;", "assign y = a ^ {W{1'b0}};")
    out = check.check(cand)
    assert out is not None and out.rejection is None, out
    assert "W=-1: not finished at a negative width" in out.scope, out.scope
    positive = next(r["values"] for r in out.configurations if r["kind"] == "probe")
    slow.add(positive.split("=", 1)[1])  # a positive width that does not finish: rejected
    check2 = ParameterCheck(design, Config(), tmp_path / "w2", lambda *_a: None)  # type: ignore[arg-type]
    monkeypatch.setattr(check2, "_sub", lambda values, proof=True: _Fake(dict(values).get("W", "")))
    out2 = check2.check(cand)
    assert out2 is not None and out2.rejection is not None, out2
