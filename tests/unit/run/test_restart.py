"""ACE-RTL's restart coordinator (run/_restart.py) and every strategy's ``restart``: pure logic,
results and children written by hand (no policy, no tools)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rtlopt.config import Config, ReflectConfig, SearchConfig
from rtlopt.errors import ConfigError
from rtlopt.results import EvalResult, Stage, Status
from rtlopt.run import RestartCoordinator, failure_signature
from rtlopt.rundir import RunDir, RunState
from rtlopt.search import (
    ROOT_ID,
    Child,
    IgrSearch,
    MctsSearch,
    PlanContext,
    PoolSearch,
    SearchStrategy,
    make_strategy,
)


def rejected(stage: Stage, reason: str) -> EvalResult:
    return EvalResult(status=Status.INVALID, stage=stage, reason=reason, reward=1.0)


def accepted() -> EvalResult:
    return EvalResult(status=Status.OK, stage=Stage.DONE, reward=11.0)


SIM_A = "output 'pos' differs at vector 17: expected 4'b0011, got 4'b0111"
SIM_B = "output 'pos' differs at vector 912: expected 4'b1000, got 4'b0000"
COMPILE = "/tmp/rtlopt-x1/cand_ab12/cand.v:14: syntax error\nI give up."


def test_signature_blurs_numbers_paths_and_keeps_stage_and_first_line() -> None:
    a = failure_signature(rejected(Stage.SIMULATION, SIM_A))
    assert a == failure_signature(rejected(Stage.SIMULATION, SIM_B))
    assert a == "simulation: output 'pos' differs at vector #: expected #, got #"
    c = failure_signature(rejected(Stage.COMPILE, COMPILE))
    assert c == "compile: cand.v:#: syntax error"
    other = COMPILE.replace("/tmp/rtlopt-x1/cand_ab12", "/tmp/rtlopt-y9/cand_ff00")
    assert failure_signature(rejected(Stage.COMPILE, other)) == c
    # the stage is part of it; accepted and infrastructure results have none
    assert failure_signature(rejected(Stage.FORMAL, SIM_A)) != a
    assert failure_signature(accepted()) is None
    infra = EvalResult(status=Status.TOOL_ERROR, stage=Stage.SYNTHESIS, reason="crash")
    assert failure_signature(infra) is None


def test_restart_after_n_stagnant_steps_with_a_persisting_error() -> None:
    c = RestartCoordinator(3, best_metric=100.0)
    step = [rejected(Stage.SIMULATION, SIM_A), rejected(Stage.COMPILE, COMPILE), accepted()]
    assert c.begin(1) is None
    assert not c.observe(1, step, 100.0) and c.streak == 1
    assert not c.observe(2, [rejected(Stage.SIMULATION, SIM_B)], 100.0) and c.streak == 2
    # the compile error did not persist; the simulation mismatch did (2 + 1 + 1 times)
    assert c.observe(3, step, 100.0) and c.pending and c.streak == 3
    assert c.persistent() == failure_signature(rejected(Stage.SIMULATION, SIM_A))
    note = c.begin(4)
    assert note is not None and "rejected at simulation: output 'pos' differs" in note
    assert "last 3 steps" in note and "starts again from the reference" in note
    assert c.restarts == [4] and c.streak == 0 and not c.pending
    # the restart step begins a new streak
    assert not c.observe(4, step, 100.0) and c.streak == 1
    assert c.begin(5) is None


def test_improvement_different_errors_or_no_error_end_the_streak() -> None:
    sim = [rejected(Stage.SIMULATION, SIM_A)]
    comp = [rejected(Stage.COMPILE, COMPILE)]
    c = RestartCoordinator(2, best_metric=100.0)
    c.observe(1, sim, 100.0)
    assert not c.observe(2, sim, 90.0) and c.streak == 0  # lowered the figure of merit
    c.observe(3, sim, 90.0)
    assert not c.observe(4, comp, 90.0) and c.streak == 1  # another error: a new streak
    assert not c.observe(5, [accepted()], 90.0) and c.streak == 0  # nothing rejected
    assert c.observe(6, comp, 90.0) is False and c.observe(7, comp, 90.0) is True
    assert RestartCoordinator(0, best_metric=1.0).observe(1, sim, 1.0) is False
    off = RestartCoordinator(0, best_metric=1.0)
    for k in range(1, 10):
        off.observe(k, sim, 1.0)
    assert not off.pending and off.begin(10) is None  # 0 disables


def test_coordinator_state_survives_the_checkpoint(tmp_path: Path) -> None:
    c = RestartCoordinator(2, best_metric=100.0)
    c.observe(1, [rejected(Stage.SIMULATION, SIM_A)], 100.0)
    c.observe(2, [rejected(Stage.SIMULATION, SIM_B)], 100.0)
    rd = RunDir(tmp_path)
    rd.write_state(RunState(step=2, coordinator=c.to_json()))
    state = rd.read_state()
    assert state is not None
    d = RestartCoordinator(2)
    d.load_json(state.coordinator)
    assert d == c and d.pending
    assert d.begin(3) == c.begin(3)
    old = RestartCoordinator(2)
    old.load_json({})  # a run of an older version: the fresh state
    assert old == RestartCoordinator(2)


def test_restart_after_is_a_checked_setting() -> None:
    from rtlopt.config import restart_after

    # ACE-RTL's restart is off in a plain TTT-RTL run, on (3) once a reflector is configured
    assert restart_after(ReflectConfig()) == 0
    assert restart_after(ReflectConfig(endpoint="http://127.0.0.1:9/v1")) == 3
    assert restart_after(ReflectConfig(restart_after=5)) == 5
    assert restart_after(ReflectConfig(endpoint="http://127.0.0.1:9/v1", restart_after=0)) == 0
    with pytest.raises(ConfigError, match="restart_after"):
        Config(reflect=ReflectConfig(restart_after=-1))


# ------------------------------------------------------------------ strategies


def ctx(step: int, rollouts: int = 2, budget: int | None = None) -> PlanContext:
    return PlanContext(step, budget, rollouts, random.Random(step), lambda _e, _k: [])


def ok(code: str, reward: float) -> Child:
    return Child(code=code, reward=reward, eval_hash=f"h-{code}", accepted=True, feedback="ok")


def bad(code: str) -> Child:
    return Child(code=code, reward=1.1, eval_hash=f"h-{code}", feedback="Functional Test: FAIL")


def test_every_strategy_implements_restart() -> None:
    for name in ("puct", "egreedy", "greedy", "none", "igr", "mcts"):
        s = make_strategy(SearchConfig(sampler=name))
        assert isinstance(s, SearchStrategy), name
        es = s.restart(ctx(1))
        assert es and all(e.is_root and e.node_id == ROOT_ID and not e.feedback for e in es)


def test_pool_restart_expands_the_root_and_admits_its_children_there() -> None:
    s = make_strategy(SearchConfig(sampler="greedy", parents=2, admit_invalid=True))
    assert isinstance(s, PoolSearch)
    (root,) = s.plan(ctx(1))
    s.observe(1, [root], [[ok("a", 12.0), bad("b")]])
    es = s.plan(ctx(2))
    assert [e.code for e in es] == ["a", "b"]  # the greedy trajectory
    es = s.restart(ctx(3, rollouts=3, budget=5))
    assert [(e.node_id, e.code, e.n) for e in es] == [(ROOT_ID, "", 3), (ROOT_ID, "", 2)]
    visits = s.pool.root.visits
    s.observe(3, es, [[ok("c", 11.5)], [bad("d")]])
    kids = {st.code: st for st in s.pool.states if st.code in ("c", "d")}
    assert {st.parent_id for st in kids.values()} == {ROOT_ID}
    assert s.pool.root.visits == visits + 2


def test_mcts_restart_adds_unvisited_root_children_that_selection_prefers() -> None:
    # the batched variant: two leaves per step (EvolVE's one leaf per iteration is tested in
    # tests/unit/search/test_strategies.py)
    m = MctsSearch(SearchConfig(sampler="mcts", parents=2, mcts_children=2, mcts_leaves=0))
    (e,) = m.plan(ctx(1))
    m.observe(1, [e], [[bad("a"), bad("b")]])
    es = m.plan(ctx(2))
    assert [x.code for x in es] == ["a", "b"]
    m.observe(2, es, [[bad("a1"), bad("a2")], [bad("b1"), bad("b2")]])
    restart = m.restart(ctx(3))
    assert [(x.node_id, x.code, x.n) for x in restart] == [(ROOT_ID, "", 2), (ROOT_ID, "", 2)]
    m.observe(3, restart, [[ok("c", 12.0), bad("d")], [bad("e"), bad("f")]])
    new = [n for n in m.nodes.values() if n.step == 3]
    assert len(new) == 4 and all(n.parent_id == ROOT_ID and n.depth == 1 for n in new)
    assert m.root.visits == 2 + 4 + 4
    # the stagnant subtree is still there, but selection goes into the restart's children
    path = m.select()
    assert path is not None and len(path) == 2 and path[1].code == "c"


def test_igr_restart_leaves_the_chain_trajectory_and_continues_from_the_new_design(
    tmp_path: Path,
) -> None:
    igr = IgrSearch(SearchConfig(sampler="igr", igr_ideas=1, igr_steps=10, parents=1))
    (e1,) = igr.plan(ctx(1))
    igr.observe(1, [e1], [[bad("a")]])
    (e2,) = igr.plan(ctx(2))
    assert e2.code == "a"
    igr.observe(2, [e2], [[Child(code="", reward=0.0, feedback="Syntax: FAIL (x)")]])
    (e3,) = igr.plan(ctx(3))
    assert e3.code == "a" and "Syntax: FAIL" in e3.feedback
    (r,) = igr.restart(ctx(3))
    assert r.is_root and r.idea == igr.ideas[0] and r.tag == 0 and not r.feedback
    # the restart is saved with the chain: a resumed run plans the same root expansion
    igr.save(RunDir(tmp_path))
    again = IgrSearch(igr.cfg)
    again.load(RunDir(tmp_path))
    assert again.plan(ctx(3)) == [r]
    # a restart that gave no design stays at the reference (with that failure's feedback)
    igr.observe(3, [r], [[Child(code="", reward=0.0, feedback="Syntax: FAIL (y)")]])
    (e4,) = igr.plan(ctx(4))
    assert e4.is_root and "(y)" in e4.feedback
    igr.observe(4, [e4], [[ok("c", 12.0)]])
    (e5,) = igr.plan(ctx(5))
    c = next(n for n in igr.nodes.values() if n.code == "c")
    assert e5.code == "c" and e5.node_id == c.id and c.parent_id == ROOT_ID
    assert e5.prev_hash == ""  # it improves on the reference
