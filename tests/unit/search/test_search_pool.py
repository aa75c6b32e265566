"""State pool: admission, de-duplication, visits, pruning, persistence."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from rtlopt.config import SearchConfig
from rtlopt.errors import PluginError, RtloptError
from rtlopt.search import (
    ROOT_ID,
    SAMPLERS,
    Child,
    StatePool,
    code_hash,
    make_sampler,
    puct_score,
    puct_scores,
)


def _child(code: str, reward: float | None, accepted: bool = True) -> Child:
    return Child(
        code=code,
        reward=reward,
        metrics={"adp": 1.0},
        eval_hash=code_hash(code),
        accepted=accepted,
        feedback="ok",
    )


def test_root_state() -> None:
    pool = StatePool(SearchConfig())
    assert len(pool) == 1
    assert pool.root.id == ROOT_ID
    assert (pool.root.code, pool.root.reward, pool.root.timestep) == ("", 0.0, -1)
    assert pool.best() is None
    assert pool.best(accepted_only=False) is pool.root


def test_top_k_admission_by_reward() -> None:
    pool = StatePool(SearchConfig(top_k=2))
    kids = [_child("module a;", 1.0), _child("module b;", 3.0), _child("module c;", 2.0)]
    admitted = pool.add_children(ROOT_ID, kids, step=0)
    assert [s.code for s in admitted] == ["module b;", "module c;"]
    assert [s.reward for s in admitted] == [3.0, 2.0]
    assert all(s.timestep == 0 and s.parent_id == ROOT_ID for s in admitted)
    assert admitted[0].ancestors == (ROOT_ID,)
    # Q of the parent is the best child reward over every evaluated child.
    assert pool.root.best_child_reward == 3.0
    assert pool.root.q == 3.0


def test_q_counts_children_that_are_not_admitted() -> None:
    pool = StatePool(SearchConfig(top_k=1))
    pool.add_children(ROOT_ID, [_child("module a;", 2.0)], 0)
    # A duplicate of the root's child with a higher reward is not admitted but raises Q.
    pool.add_children(ROOT_ID, [_child("module  a; // same", 9.0)], 1)
    assert len(pool) == 2
    assert pool.root.best_child_reward == 9.0


def test_infrastructure_errors_never_admitted() -> None:
    pool = StatePool(SearchConfig())
    admitted = pool.add_children(ROOT_ID, [_child("module a;", None)], 0)
    assert admitted == []
    assert pool.root.best_child_reward is None
    assert len(pool) == 1


def test_admit_invalid_switch() -> None:
    kids = [_child("module bad;", 0.6, accepted=False), _child("module good;", 11.1)]
    pool = StatePool(SearchConfig())
    assert len(pool.add_children(ROOT_ID, kids, 0)) == 2
    strict = StatePool(SearchConfig(admit_invalid=False))
    admitted = strict.add_children(ROOT_ID, kids, 0)
    assert [s.code for s in admitted] == ["module good;"]


def test_dedupe_by_normalized_code_within_batch_and_pool() -> None:
    pool = StatePool(SearchConfig(top_k=2))
    a1 = "module a(input x, output y);\n  assign y = x; // copy\nendmodule\n"
    a2 = "module a(input x,   output y); /* same */ assign y = x;\nendmodule"
    b = "module a(input x, output y); assign y = ~x; endmodule"
    admitted = pool.add_children(ROOT_ID, [_child(a1, 5.0), _child(a2, 4.0), _child(b, 1.0)], 0)
    # The duplicate does not use up a top-k slot: the third child gets in.
    assert [s.code for s in admitted] == [a1, b]
    again = pool.add_children(admitted[0].id, [_child(a2, 7.0)], 1)
    assert again == []
    # Empty code duplicates the root.
    assert pool.add_children(ROOT_ID, [_child("  \n", 0.05)], 1) == []
    assert code_hash(a1) == code_hash(a2) != code_hash(b)


def test_visits_back_propagate_to_ancestors() -> None:
    pool = StatePool(SearchConfig(top_k=1))
    (s1,) = pool.add_children(ROOT_ID, [_child("module a;", 1.0)], 0)
    (s2,) = pool.add_children(s1.id, [_child("module b;", 2.0)], 1)
    (s3,) = pool.add_children(ROOT_ID, [_child("module c;", 1.5)], 1)
    assert s2.ancestors == (ROOT_ID, s1.id)
    pool.record_expansion([s2.id, s3.id])
    assert pool.T == 2
    assert pool.get(s2.id).visits == 1
    assert pool.get(s1.id).visits == 1
    assert pool.get(s3.id).visits == 1
    assert pool.root.visits == 2
    pool.record_expansion([ROOT_ID])
    assert pool.root.visits == 3 and pool.get(s1.id).visits == 1 and pool.T == 3


def test_prune_keeps_root_and_best() -> None:
    pool = StatePool(SearchConfig(top_k=10, pool_cap=4))
    # The best accepted design has a lower reward than an invalid one.
    kids = [
        _child(f"module m{i};", r, accepted=(i == 0))
        for i, r in enumerate([0.5, 0.1, 0.2, 0.3, 0.9, 0.4])
    ]
    pool.add_children(ROOT_ID, kids, 0)
    assert len(pool) == 7
    removed = pool.prune()
    assert len(pool) == 4 and len(removed) == 3
    kept = {s.code for s in pool.states}
    assert ROOT_ID in pool  # root reward 0 is the lowest, still kept
    assert "module m0;" in kept  # best accepted
    assert "module m4;" in kept  # best overall
    assert "module m1;" not in kept and "module m2;" not in kept and "module m3;" not in kept
    assert pool.prune() == []


def test_update_and_lineage_survive_pruning_of_ancestor() -> None:
    pool = StatePool(SearchConfig(top_k=1, pool_cap=3))
    (a,) = pool.update(0, {ROOT_ID: [_child("module a;", 1.0)]})
    (b,) = pool.update(1, {a.id: [_child("module b;", 5.0)]})
    (c,) = pool.update(2, {ROOT_ID: [_child("module c;", 3.0)]})
    assert a.id not in pool  # lowest reward, pruned
    assert pool.find(a.id) is None and pool.find(b.id) is pool.get(b.id)
    with pytest.raises(KeyError):
        pool.get(a.id)
    assert b.ancestors == (ROOT_ID, a.id)
    pool.record_expansion([b.id])  # ancestor missing: no error
    assert pool.get(b.id).visits == 1
    assert pool.related(b, pool.get(b.id)) and not pool.related(b, c)


def test_save_load_round_trip(tmp_path: Path) -> None:
    cfg = SearchConfig()
    pool = StatePool(cfg)
    (s1, s2) = pool.update(0, {ROOT_ID: [_child("module a;", 11.1), _child("module b;", 2.0)]})
    pool.update(1, {s1.id: [_child("module c;", 12.0, accepted=False)], s2.id: []})
    path = tmp_path / "pool.json"
    pool.save(path)
    assert not list(tmp_path.glob(".*tmp"))
    loaded = StatePool.load(cfg, path)
    assert loaded.to_json() == pool.to_json()
    assert loaded.T == pool.T == 3
    assert [vars(s) for s in loaded.states] == [vars(s) for s in pool.states]
    # New ids continue after the saved ones.
    (new,) = loaded.add_children(ROOT_ID, [_child("module d;", 1.0)], 2)
    assert new.id not in {s.id for s in pool.states}
    assert json.loads(path.read_text())["version"] == 1


def test_load_rejects_bad_files(tmp_path: Path) -> None:
    bad = tmp_path / "pool.json"
    bad.write_text("{not json")
    with pytest.raises(RtloptError):
        StatePool.load(SearchConfig(), bad)
    bad.write_text(json.dumps({"version": 99}))
    with pytest.raises(RtloptError):
        StatePool.load(SearchConfig(), bad)


# ---------------------------------------------------------------------------- PUCT


def _hand_pool() -> StatePool:
    """Root expanded once into s1 (r=3) and s2 (r=2); a third child (r=1) not admitted."""
    pool = StatePool(SearchConfig(top_k=2))
    pool.update(
        0, {ROOT_ID: [_child("module a;", 1.0), _child("module b;", 3.0), _child("module c;", 2.0)]}
    )
    return pool


def test_puct_scores_hand_computed() -> None:
    pool = _hand_pool()
    by_code = {x.state.code: x for x in puct_scores(pool, c=1.0)}
    # Ranks: b=0, c=1, root=2 -> P = 3/6, 2/6, 1/6; sigma = 3 - 0; T = 1.
    r2 = math.sqrt(2.0)
    assert by_code["module b;"].prior == pytest.approx(0.5)
    assert by_code["module b;"].score == pytest.approx(3.0 + 3.0 * 0.5 * r2)
    assert by_code["module c;"].score == pytest.approx(2.0 + 3.0 * (1 / 3) * r2)
    # Root: Q = best child reward 3, N = 1.
    assert by_code[""].q == 3.0
    assert by_code[""].score == pytest.approx(3.0 + 3.0 * (1 / 6) * r2 / 2.0)
    assert sum(x.prior for x in by_code.values()) == pytest.approx(1.0)
    assert puct_score(2.0, 3.0, 0.25, 3, 1, 2.0) == pytest.approx(2.0 + 2 * 3 * 0.25 * 2 / 2)


def test_puct_selects_by_score_with_lineage_blocking() -> None:
    pool = _hand_pool()
    b = next(s for s in pool.states if s.code == "module b;")
    c = next(s for s in pool.states if s.code == "module c;")
    # Expand b: its child d (r=10) becomes the best state; b and d share a chain.
    pool.update(1, {b.id: [_child("module d;", 10.0)]})
    d = next(s for s in pool.states if s.code == "module d;")
    scores = {x.state.id: x.score for x in puct_scores(pool, 1.0)}
    assert scores[d.id] > scores[b.id] > scores[c.id]
    sampler = make_sampler(SearchConfig(sampler="puct"))
    batch = sampler.select(pool, 4, random.Random(0))
    ids = [s.id for s in batch]
    assert ids[0] == d.id
    assert b.id not in ids  # blocked by its descendant d
    assert c.id in ids and ROOT_ID in ids  # the root is exempt from blocking
    assert len(ids) == len(set(ids)) == 3  # fewer than k: blocking left only three
    for i, s in enumerate(batch):
        for t in batch[i + 1 :]:
            assert s.is_root or t.is_root or not pool.related(s, t)
    unblocked = make_sampler(SearchConfig(lineage_blocking=False)).select(pool, 4, random.Random(0))
    assert {s.id for s in unblocked} == {d.id, b.id, c.id, ROOT_ID}


def test_visits_lower_the_exploration_bonus() -> None:
    pool = _hand_pool()
    b = next(s for s in pool.states if s.code == "module b;")
    before = {x.state.id: x.bonus for x in puct_scores(pool, 1.0)}[b.id]
    pool.record_expansion([b.id])
    after = {x.state.id: x.bonus for x in puct_scores(pool, 1.0)}[b.id]
    assert after == pytest.approx(before * math.sqrt(3.0) / math.sqrt(2.0) / 2.0)


# ---------------------------------------------------------------------------- ablations


def test_greedy_egreedy_none() -> None:
    pool = _hand_pool()
    rng = random.Random(1)
    greedy = make_sampler(SearchConfig(sampler="greedy")).select(pool, 2, rng)
    assert [s.code for s in greedy] == ["module b;", "module c;"]
    eps0 = make_sampler(SearchConfig(sampler="egreedy", epsilon=0.0)).select(pool, 1, rng)
    assert [s.code for s in eps0] == ["module b;"]
    seen = set()
    explore = make_sampler(SearchConfig(sampler="egreedy", epsilon=1.0))
    for seed in range(30):
        batch = explore.select(pool, 1, random.Random(seed))
        seen.add(batch[0].id)
    assert seen == {s.id for s in pool.states}  # uniform over the pool
    full = explore.select(pool, 5, random.Random(3))
    assert len(full) == 3 and len({s.id for s in full}) == 3
    roots = make_sampler(SearchConfig(sampler="none")).select(pool, 4, rng)
    assert [s.id for s in roots] == [ROOT_ID] * 4


def test_registry() -> None:
    assert set(SAMPLERS.names()) >= {"puct", "egreedy", "greedy", "none"}
    with pytest.raises(PluginError, match="known: .*puct"):
        make_sampler(SearchConfig(sampler="mcts-typo"))
