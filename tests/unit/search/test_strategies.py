"""IGR and MCTS (EvolVE section 3.2) and the pool strategy: selection, expansion, backup, node
budget, resume. Pure logic: the children are written by hand (no policy, no tools)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from rtlopt.config import SearchConfig
from rtlopt.errors import UsageError
from rtlopt.rundir import RunDir
from rtlopt.search import (
    BUILTIN_IDEAS,
    ROOT_ID,
    Child,
    Expansion,
    IgrSearch,
    MctsSearch,
    PlanContext,
    PoolSearch,
    effective_temperature,
    make_strategy,
    split_budget,
    uct,
)

PENALTY = -1e5


class Ctx(PlanContext):
    calls: list[tuple[tuple[str, ...], int]]


def ctx(
    step: int = 1,
    budget: int | None = None,
    rollouts: int = 2,
    ideas: Sequence[str] = (
        "idea one is about sharing adders",
        "idea two removes a redundant register",
        "idea three narrows the counter width",
    ),
) -> Ctx:
    """A plan context whose idea source (a deterministic fake policy) records its calls."""
    calls: list[tuple[tuple[str, ...], int]] = []

    def source(existing: Sequence[str], want: int) -> list[str]:
        calls.append((tuple(existing), want))
        return list(ideas)[:want]

    c = Ctx(step, budget, rollouts, random.Random(step), source)
    object.__setattr__(c, "calls", calls)
    return c


def ok(code: str, reward: float, h: str = "") -> Child:
    return Child(
        code=code,
        reward=reward,
        eval_hash=h or f"h-{code}",
        accepted=True,
        feedback=f"Synthesis: ok {code}",
    )


def bad(code: str, reward: float = 1.1, feedback: str = "Functional Test: FAIL") -> Child:
    return Child(
        code=code,
        reward=reward,
        eval_hash=f"h-{code}" if code else "",
        accepted=False,
        feedback=feedback,
    )


# ------------------------------------------------------------------------------------ IGR


def test_igr_asks_for_k_ideas_once_then_fills_from_notes_and_the_builtin_list(
    tmp_path: Path,
) -> None:
    notes = tmp_path / "notes.md"
    notes.write_text(
        "# my notes\n- Use a Wallace tree for the partial products\n\n"
        "1. idea one is about sharing adders\n"
    )
    igr = IgrSearch(SearchConfig(sampler="igr", igr_ideas=5, igr_notes=str(notes), parents=2))
    c = ctx(
        ideas=[
            "idea one is about sharing adders",
            "Idea one: is about SHARING adders!",
            "idea two removes a redundant register",
        ]
    )
    igr.plan(c)
    assert c.calls == [((), 5)]
    assert igr.ideas[:2] == [
        "idea one is about sharing adders",
        "idea two removes a redundant register",
    ]
    # the notes' lines after the model's (the duplicate of idea one skipped), then built-ins
    assert igr.ideas[2] == "Use a Wallace tree for the partial products"
    assert igr.ideas[3:] == list(BUILTIN_IDEAS[:2])
    assert igr.sources == ["model", "model", "notes", "built-in", "built-in"]
    c2 = ctx(step=2)
    igr.plan(c2)
    assert c2.calls == []


def test_igr_missing_notes_file_is_a_usage_error(tmp_path: Path) -> None:
    igr = IgrSearch(SearchConfig(sampler="igr", igr_notes=str(tmp_path / "nope.txt")))
    with pytest.raises(UsageError, match="notes file"):
        igr.plan(ctx(ideas=[]))


def test_igr_chains_implement_then_refine_the_best_and_retry_failures() -> None:
    igr = IgrSearch(
        SearchConfig(sampler="igr", igr_ideas=3, igr_steps=2, parents=2, igr_children=0)
    )
    e1 = igr.plan(ctx(step=1, rollouts=2))
    assert [(e.node_id, e.code, e.idea, e.tag, e.n) for e in e1] == [
        (ROOT_ID, "", igr.ideas[0], 0, 2),
        (ROOT_ID, "", igr.ideas[1], 1, 2),
    ]
    assert all(e.is_root for e in e1)
    igr.observe(
        1,
        e1,
        [
            [ok("a1", 11.5), ok("a2", 12.0)],  # chain 0: two designs
            [
                bad("", 0.0, "Syntax: FAIL (rejected: edit block 1: not found)"),  # chain 1: none
                Child(code="", reward=None),
            ],
        ],
    )  # infra: ignored
    e2 = igr.plan(ctx(step=2))
    assert len(e2) == 2
    a2 = next(n for n in igr.nodes.values() if n.code == "a2")
    # chain 0 refines its best node with that node's feedback, knowing what it improved on
    assert (e2[0].node_id, e2[0].code, e2[0].feedback, e2[0].prev_hash) == (
        a2.id,
        "a2",
        "Synthesis: ok a2",
        "",
    )
    # chain 1 stays on the reference and carries the failure's feedback
    assert e2[1].is_root and "edit block 1" in e2[1].feedback and e2[1].tag == 1
    igr.observe(2, e2, [[ok("a3", 12.5)], [ok("b1", 11.1)]])
    assert [c.done for c in igr.chains] == [True, True]  # m = 2 steps each
    e3 = igr.plan(ctx(step=3))
    assert [(e.tag, e.idea) for e in e3] == [(2, igr.ideas[2])]
    assert not igr.finished()
    igr.observe(3, e3, [[bad("c1")]])
    e4 = igr.plan(ctx(step=4))
    # a failed design is still a node: the chain debugs it
    assert e4[0].code == "c1" and e4[0].feedback == "Functional Test: FAIL"
    igr.observe(4, e4, [[bad("c2")]])
    assert igr.finished() and igr.plan(ctx(step=5)) == []


def test_igr_node_budget_trims_the_last_chain() -> None:
    igr = IgrSearch(SearchConfig(sampler="igr", parents=3, igr_children=0))
    es = igr.plan(ctx(budget=5, rollouts=2))
    assert [e.n for e in es] == [2, 2, 1]
    assert igr.plan(ctx(budget=0)) == []
    assert split_budget([3, 3], None) == [3, 3] and split_budget([3, 3], 4) == [3, 1]


def test_igr_resumes_from_the_run_directory(tmp_path: Path) -> None:
    cfg = SearchConfig(sampler="igr", igr_ideas=3, igr_steps=3, parents=2)
    a = IgrSearch(cfg)
    e1 = a.plan(ctx(step=1))
    a.observe(1, e1, [[ok("a1", 11.5, "ha")], [bad("", 0.0, "Syntax: FAIL (x)")]])
    rd = RunDir(tmp_path)
    a.save(rd)
    b = IgrSearch(cfg)
    b.load(rd)
    assert b.to_json() == a.to_json()
    assert b.plan(ctx(step=2)) == a.plan(ctx(step=2))
    mcts_state = MctsSearch(SearchConfig(sampler="mcts"))
    mcts_state.save(rd)
    with pytest.raises(UsageError, match="another strategy"):
        IgrSearch(cfg).load(rd)


# ------------------------------------------------------------------------------------ MCTS


def test_uct_is_equation_six() -> None:
    assert uct(5.0, 0, 10, 1.4) == math.inf
    assert uct(30.0, 3, 9, 1.4) == pytest.approx(10.0 + 1.4 * 3.0 / 4.0)
    assert uct(-2.0, 1, 0, 1.4) == pytest.approx(-2.0 + 1.4 * 1.0 / 2.0)  # max(1, C_parent)


def _expand(m: MctsSearch, node_id: int, kids: list[Child], step: int = 1) -> None:
    e = Expansion(node_id, "", "", "", "", len(kids))
    m.observe(step, [e], [kids])


def test_mcts_expands_the_root_then_every_new_child_before_revisiting() -> None:
    m = MctsSearch(SearchConfig(sampler="mcts", parents=2, mcts_leaves=0))
    (e,) = m.plan(ctx())  # only the root exists: one leaf, n = mcts_children
    assert (e.node_id, e.is_root, e.n) == (ROOT_ID, True, 3)
    m.observe(1, [e], [[ok("a", 12.0), ok("b", 11.0), bad("c")]])
    root = m.root
    assert (root.visits, root.value) == (3, 23.0 + PENALTY)
    a, b, c = (m.nodes[i] for i in root.children)
    # new nodes start unvisited (Q aggregates what their children back up)
    assert [(n.visits, n.score, n.depth) for n in (a, b, c)] == [
        (0, 12.0, 1),
        (0, 11.0, 1),
        (0, PENALTY, 1),
    ]
    # unvisited children have UCT = +inf: two distinct leaves, oldest first
    es = m.plan(ctx(step=2))
    assert [x.node_id for x in es] == [a.id, b.id]
    assert es[0].code == "a" and es[0].feedback == "Synthesis: ok a" and es[0].prev_hash == ""


def test_mcts_backup_and_selection_follow_equations_six_and_seven() -> None:
    m = MctsSearch(SearchConfig(sampler="mcts", parents=1, mcts_c=1.4))
    _expand(m, ROOT_ID, [ok("a", 12.0), ok("b", 11.0)])
    a, b = (m.nodes[i] for i in m.root.children)
    _expand(m, a.id, [ok("a1", 13.0), bad("a2"), bad("a3")])
    _expand(m, b.id, [ok("b1", 11.5), ok("b2", 11.4)])
    # every ancestor of a new node: C += 1, Q += score
    assert (a.visits, a.value) == (3, 13.0 + 2 * PENALTY)
    assert (b.visits, b.value) == (2, 22.9)
    assert (m.root.visits, m.root.value) == (2 + 3 + 2, 23.0 + 13.0 + 2 * PENALTY + 22.9)
    # a's subtree holds failures: b wins at the root, then b's unvisited children (+inf)
    assert m.uct_of(b) == pytest.approx(22.9 / 2 + 1.4 * math.sqrt(7) / 3)
    assert m.uct_of(a) < m.uct_of(b)
    path = m.select()
    assert path is not None and [n.id for n in path] == [ROOT_ID, b.id, b.children[0]]


def test_mcts_failed_answer_without_a_design_is_repaired_from_its_ancestor() -> None:
    m = MctsSearch(SearchConfig(sampler="mcts", parents=1))
    _expand(m, ROOT_ID, [ok("a", 12.0)])
    a = m.nodes[m.root.children[0]]
    _expand(
        m,
        a.id,
        [bad("", 0.0, "Syntax: FAIL (edit block 2: overlaps)"), Child(code="", reward=None)],
    )  # infra: no node, no backup
    assert len(a.children) == 1 and a.visits == 1 and a.value == PENALTY
    hole = m.nodes[a.children[0]]
    (e,) = m.plan(ctx(step=3))
    assert e.node_id == hole.id and e.code == "a"  # a's design, the hole's feedback
    assert "edit block 2" in e.feedback and e.eval_hash == a.eval_hash


def test_mcts_distinct_leaves_per_step_and_budget() -> None:
    m = MctsSearch(SearchConfig(sampler="mcts", parents=4, mcts_leaves=0))
    _expand(m, ROOT_ID, [ok("a", 12.0), ok("b", 11.0), ok("c", 11.5)])
    es = m.plan(ctx(step=2))
    assert len({e.node_id for e in es}) == len(es) == 3  # only three leaves exist
    es = m.plan(ctx(step=2, budget=4))
    assert [e.n for e in es] == [3, 1]
    assert m.plan(ctx(step=2, budget=0)) == []


def test_mcts_resumes_from_the_run_directory(tmp_path: Path) -> None:
    cfg = SearchConfig(sampler="mcts", parents=2)
    m = MctsSearch(cfg)
    _expand(m, ROOT_ID, [ok("a", 12.0), bad("b"), bad("", 0.0)])
    _expand(m, m.root.children[0], [ok("a1", 12.5)])
    rd = RunDir(tmp_path)
    m.save(rd)
    n = MctsSearch(cfg)
    n.load(rd)
    assert n.to_json() == m.to_json()
    assert n.plan(ctx(step=3)) == m.plan(ctx(step=3))
    assert n.next_id == m.next_id and n.select() is not None


# ------------------------------------------------------------------------------------ pool


def test_pool_strategy_is_the_samplers_pool_with_a_budget(tmp_path: Path) -> None:
    s = make_strategy(SearchConfig(sampler="greedy", parents=2))
    assert isinstance(s, PoolSearch)
    (root,) = s.plan(ctx(rollouts=4))
    assert root.is_root and root.n == 4
    s.observe(1, [root], [[ok("a", 12.0), ok("b", 11.0), bad(""), bad("c", 1.1)]])
    es = s.plan(ctx(step=2, rollouts=4, budget=6))
    assert [(e.code, e.n) for e in es] == [("a", 4), ("b", 2)]
    assert es[0].prev_hash == ""  # its parent is the root: the reference
    s.save(RunDir(tmp_path))
    t = make_strategy(SearchConfig(sampler="greedy", parents=2))
    t.load(RunDir(tmp_path))
    assert t.plan(ctx(step=2, rollouts=4)) == s.plan(ctx(step=2, rollouts=4))
    assert isinstance(make_strategy(SearchConfig(sampler="igr")), IgrSearch)
    assert isinstance(make_strategy(SearchConfig(sampler="mcts")), MctsSearch)


def test_strategy_temperature_defaults() -> None:
    assert effective_temperature(SearchConfig(sampler="igr"), 1.0) == 0.6
    assert effective_temperature(SearchConfig(sampler="mcts"), 1.0) == 0.6
    assert effective_temperature(SearchConfig(sampler="puct"), 0.9) == 0.9
    assert effective_temperature(SearchConfig(sampler="igr", temperature=0.2), 1.0) == 0.2


# ------------------------------------------------------------- EvolVE's budgets (issue 25)


def test_igr_one_child_per_chain_step_runs_every_idea_at_300_nodes() -> None:
    """Issue 25, finding 5: each chain step sampled run.rollouts (4) answers and kept the best,
    so a 300-node budget ran 15 ideas; EvolVE's k = 60 x m = 5 is one child per step."""
    cfg = SearchConfig(sampler="igr", parents=4)
    assert (cfg.igr_ideas, cfg.igr_steps, cfg.igr_children) == (60, 5, 1)
    igr = IgrSearch(cfg)
    ideas = [f"idea number {i} changes structure {i}" for i in range(60)]
    budget, nodes, step = 300, 0, 0
    while not igr.finished() and nodes < budget:
        step += 1
        es = igr.plan(ctx(step=step, budget=budget - nodes, rollouts=4, ideas=ideas))
        assert es and all(e.n == 1 for e in es)  # one child per chain step
        kids = [[ok(f"s{step}-{e.tag}", 10.0 + step)] for e in es]
        igr.observe(step, es, kids)
        nodes += sum(e.n for e in es)
    assert igr.finished() and nodes == 300 and len(igr.chains) == 60
    assert all(len(c.nodes) == 5 for c in igr.chains)
    batched = make_strategy(SearchConfig(sampler="igr-batched", parents=4))
    assert isinstance(batched, IgrSearch)
    es = batched.plan(ctx(rollouts=4, ideas=ideas))
    assert [e.n for e in es] == [4, 4, 4, 4]  # the earlier variant, kept by name


def test_mcts_one_leaf_per_iteration_with_backup_between() -> None:
    """Issue 25, finding 5: MCTS expanded 4 leaves per step with no back-up between them;
    EvolVE selects one leaf per iteration, and the next selection sees its back-up."""
    m = MctsSearch(SearchConfig(sampler="mcts", parents=4))
    (e,) = m.plan(ctx())
    m.observe(1, [e], [[ok("a", 12.0), ok("b", 11.0), bad("c")]])
    es = m.plan(ctx(step=2))
    assert len(es) == 1 and es[0].code == "a"  # one leaf, not four
    m.observe(2, es, [[bad("a1"), bad("a2"), bad("a3")]])  # a's subtree fails: backed up
    (nxt,) = m.plan(ctx(step=3))
    assert nxt.code == "b"  # unvisited sibling first (+inf), after a's back-up
    m.observe(3, [nxt], [[ok("b1", 13.0), ok("b2", 12.5), ok("b3", 12.0)]])
    a, b = (m.nodes[i] for i in m.root.children[:2])
    assert a.visits == 3 and b.visits == 3 and b.value > a.value
    batched = make_strategy(SearchConfig(sampler="mcts-batched", parents=4))
    assert isinstance(batched, MctsSearch) and batched.cfg.mcts_leaves == 0


def test_evolve_strategies_train_or_are_refused(tmp_path: Path) -> None:
    """EvolVE's strategies do not use run.rollouts; with a learning policy they train through
    pooled groups (one child per chain: the step's chains share a baseline), and a set-up where
    fewer than two rollouts of a step share one is refused, not silently left untrained."""
    from rtlopt.config import load_config, pools_degenerate, rollouts_per_baseline
    from rtlopt.errors import ConfigError

    for name in ("igr", "mcts"):
        cfg = load_config(tmp_path, overrides={"search.sampler": name, "run.rollouts": 1}).config
        assert cfg.run.rollouts == 1 and pools_degenerate(cfg)
        assert rollouts_per_baseline(cfg) >= 2
    with pytest.raises(ConfigError, match="at least 2|fewer than 2"):
        load_config(tmp_path, overrides={"search.sampler": "puct", "run.rollouts": 1})
    one_chain = {"search.sampler": "igr", "search.parents": 1}
    with pytest.raises(ConfigError, match="no weight would ever change"):
        load_config(tmp_path, overrides=one_chain)
    # a frozen policy (best-of-N) needs no baseline
    load_config(tmp_path, overrides={**one_chain, "train.learning_rate": 0.0})
    load_config(tmp_path, overrides={**one_chain, "policy.backend": "scripted"})
