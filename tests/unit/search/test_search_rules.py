"""Search rules whose answer changes when the rule is removed.

Each test builds a pool in which the rule under test and its removal give different answers:
the PUCT exploration term (a rarely visited state with a lower reward beats the greedy pick),
lineage blocking (an ancestor two generations up is kept out of the batch) and per-parent top-k
admission (a global top-k would admit a different set).
"""

from __future__ import annotations

import random

import pytest

from rtlopt.config import SearchConfig
from rtlopt.search import ROOT_ID, Child, State, StatePool, code_hash, make_sampler, puct_scores


def _child(code: str, reward: float) -> Child:
    return Child(code=code, reward=reward, metrics={}, eval_hash=code_hash(code), accepted=True)


def _by_code(pool: StatePool, code: str) -> State:
    return next(s for s in pool.states if s.code == code)


def _explore_pool() -> tuple[StatePool, State, State]:
    """``hot`` (reward 10, expanded 20 times, never improved) and ``fresh`` (reward 9, never
    expanded), plus a low state; the root's children."""
    pool = StatePool(SearchConfig(top_k=3))
    pool.add_children(
        ROOT_ID,
        [_child("module hot;", 10.0), _child("module fresh;", 9.0), _child("module low;", 1.0)],
        step=0,
    )
    hot, fresh = _by_code(pool, "module hot;"), _by_code(pool, "module fresh;")
    # Expanding `hot` found nothing better: visits grow, Q stays its own reward.
    for _ in range(20):
        pool.add_children(hot.id, [], step=1)
        pool.record_expansion([hot.id])
    return pool, hot, fresh


def test_puct_explores_a_rarely_visited_state_over_the_greedy_pick() -> None:
    pool, hot, fresh = _explore_pool()
    assert hot.visits == 20 and fresh.visits == 0 and pool.T == 20
    # Greedy order (by reward, and by Q) puts `hot` first ...
    assert max(pool.states, key=lambda s: s.reward) is hot
    assert sorted(pool.states, key=lambda s: (-s.q, -s.reward))[0] is hot
    assert make_sampler(SearchConfig(sampler="greedy")).select(pool, 1, random.Random(0)) == [hot]
    # ... PUCT's exploration term puts the unvisited, high-prior `fresh` first:
    # sigma = 10, T = 20, 4 states: P(hot) = 4/10, P(fresh) = 3/10;
    # score(hot) = 10 + 10 * 0.4 * sqrt(21) / 21 = 10.87, score(fresh) = 9 + 10 * 0.3 * sqrt(21).
    scores = {x.state.id: x.score for x in puct_scores(pool, c=1.0)}
    assert scores[hot.id] == pytest.approx(10.0 + 4.0 * 21**0.5 / 21)
    assert scores[fresh.id] == pytest.approx(9.0 + 3.0 * 21**0.5)
    picked = make_sampler(SearchConfig(sampler="puct")).select(pool, 1, random.Random(0))
    assert picked == [fresh]
    # The choice is the exploration term's: without it (c = 0) PUCT is greedy again.
    no_explore = make_sampler(SearchConfig(sampler="puct", puct_c=0.0))
    assert no_explore.select(pool, 1, random.Random(0)) == [hot]


def test_puct_visits_move_exploration_on_to_unvisited_states() -> None:
    pool, hot, fresh = _explore_pool()
    low = _by_code(pool, "module low;")
    sampler = make_sampler(SearchConfig(sampler="puct"))
    # Expanding `fresh` without improvement shrinks its bonus (1 / (1 + N)) while T grows the
    # bonus of states never expanded: the pick moves on to `low` (reward 1), not back to `hot`.
    n = 0
    while True:
        n += 1
        pool.add_children(fresh.id, [], step=2)
        pool.record_expansion([fresh.id])
        (pick,) = sampler.select(pool, 1, random.Random(0))
        if pick is not fresh:
            break
        assert n < 100, "the exploration bonus of a visited state never decayed"
    assert pick is low and low.visits == 0
    sc = {x.state.id: x for x in puct_scores(pool, 1.0)}
    root_t = pool.T
    assert sc[fresh.id].bonus == pytest.approx(10 * 0.3 * (1 + root_t) ** 0.5 / (1 + n))
    assert sc[low.id].bonus == pytest.approx(10 * 0.2 * (1 + root_t) ** 0.5)
    assert sc[hot.id].score < sc[low.id].score


def _lineage_pool() -> tuple[StatePool, State, State, State, State]:
    """A chain root -> g -> p -> c (rewards 6, 7, 12) and an unrelated state u (reward 5)."""
    pool = StatePool(SearchConfig(top_k=2))
    pool.add_children(ROOT_ID, [_child("module g;", 6.0), _child("module u;", 5.0)], step=0)
    g, u = _by_code(pool, "module g;"), _by_code(pool, "module u;")
    pool.add_children(g.id, [_child("module p;", 7.0)], step=1)
    p = _by_code(pool, "module p;")
    pool.add_children(p.id, [_child("module c;", 12.0)], step=2)
    c = _by_code(pool, "module c;")
    return pool, g, p, c, u


@pytest.mark.parametrize("sampler", ["puct", "greedy"])
def test_lineage_blocking_keeps_ancestors_out_of_a_batch(sampler: str) -> None:
    pool, g, p, c, u = _lineage_pool()
    assert c.ancestors == (ROOT_ID, g.id, p.id)
    blocked = make_sampler(SearchConfig(sampler=sampler)).select(pool, 3, random.Random(0))
    # The best state c comes first; its parent p and grandparent g are blocked, so the rest of
    # the batch is the unrelated u and the root (exempt: it holds no design).
    assert blocked[0] is c
    assert {s.id for s in blocked} == {c.id, u.id, ROOT_ID}
    free = make_sampler(SearchConfig(sampler=sampler, lineage_blocking=False)).select(
        pool, 3, random.Random(0)
    )
    assert free[0] is c and {p.id, g.id} & {s.id for s in free}


def test_lineage_blocking_applies_to_egreedy_exploration() -> None:
    pool, g, p, c, u = _lineage_pool()
    sampler = make_sampler(SearchConfig(sampler="egreedy", epsilon=1.0))
    for seed in range(40):
        batch = sampler.select(pool, 5, random.Random(seed))
        designs = [s for s in batch if not s.is_root]
        for i, s in enumerate(designs):
            for t in designs[i + 1 :]:
                assert not pool.related(s, t), (seed, s.code, t.code)


def test_top_k_admission_is_per_parent_and_by_reward() -> None:
    pool = StatePool(SearchConfig(top_k=2))
    pool.add_children(ROOT_ID, [_child("module a;", 3.0), _child("module b;", 2.0)], step=0)
    a, b = _by_code(pool, "module a;"), _by_code(pool, "module b;")
    # Parent a's children are all better than parent b's; admission is per parent: a keeps its
    # best two (not its three), b keeps both of its own (a global top-k would drop them).
    admitted = pool.update(
        1,
        {
            a.id: [_child("module a1;", 7.0), _child("module a2;", 9.0), _child("module a3;", 8.0)],
            b.id: [_child("module b1;", 0.5), _child("module b2;", 1.0)],
        },
    )
    assert [s.code for s in admitted] == ["module a2;", "module a3;", "module b2;", "module b1;"]
    assert "module a1;" not in {s.code for s in pool.states}
    assert a.best_child_reward == 9.0 and b.best_child_reward == 1.0
    assert all(s.parent_id == a.id for s in admitted[:2])
    assert all(s.parent_id == b.id for s in admitted[2:])


@pytest.mark.parametrize("top_k", [1, 2, 3])
def test_top_k_bounds_admission_exactly(top_k: int) -> None:
    pool = StatePool(SearchConfig(top_k=top_k))
    rewards = [4.0, 1.0, 5.0, 3.0, 2.0]
    kids = [_child(f"module m{i};", r) for i, r in enumerate(rewards)]
    admitted = pool.add_children(ROOT_ID, kids, step=0)
    assert [s.reward for s in admitted] == sorted(rewards, reverse=True)[:top_k]
    assert len(pool) == 1 + top_k
