"""The state pool: typed states, top-k admission, visit statistics, pruning and persistence.

A state is ``s = (v, r, t)`` of TTT-RTL section 3.1: a Verilog implementation, its reward and
the step that created it, plus the statistics PUCT needs. The pool starts with the root
``s0 = ("", 0, -1)`` (an empty implementation: "write it from scratch").

One step of the run loop uses the pool like this::

    parents = sampler.select(pool, cfg.parents, rng)
    ...generate and evaluate n rollouts per parent...
    for parent, children in zip(parents, rollouts):
        pool.add_children(parent.id, children, step)   # Q update + top-k admission
    pool.record_expansion([p.id for p in parents])     # N(s) and T
    pool.prune()
    pool.save(run_dir / "pool.json")

(:meth:`StatePool.update` does the three middle calls at once.)

Semantics, following the paper and TTT-Discover's reference sampler:

* Only children with a reward enter the pool; infrastructure failures (reward ``None``) never
  do. With ``SearchConfig.admit_invalid`` false only accepted (equivalent) designs enter.
* Per parent, children are de-duplicated by a normalized-code hash (comments and whitespace
  removed), against each other and against every state already in the pool, and the
  ``top_k`` best by reward are admitted.
* ``best_child_reward`` (Q of PUCT) is the best reward over *all* evaluated children of the
  state, admitted or not.
* ``visits`` (N of PUCT) counts the expansions of the state or any of its descendants; ``T``
  counts expanded parents.
* Pruning removes the lowest-reward states (oldest first on ties) down to ``pool_cap``; the
  root and the best states (overall and accepted) are never pruned. States keep their full
  ancestor chain, so lineage checks still work after an ancestor is pruned.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.config import SearchConfig
from rtlopt.errors import RtloptError
from rtlopt.verilog import normalized_hash

__all__ = ["ROOT_ID", "Child", "State", "StatePool", "code_hash"]

log = logging.getLogger(__name__)

ROOT_ID = 0
_FORMAT_VERSION = 1


def code_hash(code: str) -> str:
    """Hash of Verilog text with comments removed and spacing collapsed (de-duplication).

    Two candidates that differ only in comments, indentation or line breaks get the same hash:
    :func:`rtlopt.verilog.normalized_hash`, truncated. Never a cache key (the evaluator keys on
    the exact bytes).
    """
    return normalized_hash(code)[:32]


@dataclass(frozen=True)
class Child:
    """One evaluated rollout offered to the pool.

    Attributes:
        code: The candidate module text.
        reward: Three-stage reward, ``None`` for infrastructure failures (never admitted).
        metrics: Numeric metrics (area_um2, delay_ps, adp, ...), for prompts and reports.
        eval_hash: The evaluator's source hash (cache key / candidate file name).
        accepted: Proven (or simulation-) equivalent with PPA measured.
        feedback: EDA feedback text for the next prompt built from this state.
        focus: Lines (0-based) of ``code`` that changed against its parent: where the next
            prompt of a long module looks first.
    """

    code: str
    reward: float | None
    metrics: Mapping[str, float] = field(default_factory=dict)
    eval_hash: str = ""
    accepted: bool = False
    feedback: str = ""
    focus: tuple[int, ...] = ()


@dataclass
class State:
    """A design state in the pool.

    Attributes:
        id: Unique id within the pool (the root is 0).
        code: Verilog text (empty for the root).
        reward: Reward of ``code``.
        metrics: Numeric metrics of ``code``.
        timestep: Step that created the state (-1 for the root).
        parent_id: Id of the parent state (``None`` for the root).
        ancestors: Ids of all ancestors, root first, parent last.
        visits: N(s): expansions of this state or any descendant.
        best_child_reward: Best reward of any evaluated child, ``None`` until expanded.
        eval_hash: The evaluator's source hash.
        code_hash: Normalized-code hash used for de-duplication.
        accepted: Passed every equivalence gate with PPA.
        feedback: EDA feedback used in prompts.
        focus: Lines of ``code`` changed against the parent (see :class:`Child`).
    """

    id: int
    code: str
    reward: float
    metrics: dict[str, float] = field(default_factory=dict)
    timestep: int = -1
    parent_id: int | None = None
    ancestors: tuple[int, ...] = ()
    visits: int = 0
    best_child_reward: float | None = None
    eval_hash: str = ""
    code_hash: str = ""
    accepted: bool = False
    feedback: str = ""
    focus: tuple[int, ...] = ()

    @property
    def is_root(self) -> bool:
        """True for the empty root state s0."""
        return self.id == ROOT_ID

    @property
    def q(self) -> float:
        """PUCT's Q: best one-step child reward once expanded, else the state's own reward."""
        return self.reward if self.best_child_reward is None else self.best_child_reward

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "id": self.id,
            "code": self.code,
            "reward": self.reward,
            "metrics": dict(self.metrics),
            "timestep": self.timestep,
            "parent_id": self.parent_id,
            "ancestors": list(self.ancestors),
            "visits": self.visits,
            "best_child_reward": self.best_child_reward,
            "eval_hash": self.eval_hash,
            "code_hash": self.code_hash,
            "accepted": self.accepted,
            "feedback": self.feedback,
            "focus": list(self.focus),
        }

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> State:
        """Inverse of :meth:`to_json`."""
        return State(
            id=int(d["id"]),
            code=str(d["code"]),
            reward=float(d["reward"]),
            metrics={str(k): float(v) for k, v in d["metrics"].items()},
            timestep=int(d["timestep"]),
            parent_id=None if d["parent_id"] is None else int(d["parent_id"]),
            ancestors=tuple(int(a) for a in d["ancestors"]),
            visits=int(d["visits"]),
            best_child_reward=(
                None if d["best_child_reward"] is None else float(d["best_child_reward"])
            ),
            eval_hash=str(d["eval_hash"]),
            code_hash=str(d["code_hash"]),
            accepted=bool(d["accepted"]),
            feedback=str(d["feedback"]),
            focus=tuple(int(i) for i in d.get("focus", ())),
        )


class StatePool:
    """The PUCT state pool of TTT-RTL (section 3.1).

    Args:
        cfg: Search settings (top_k, pool_cap, admit_invalid).
    """

    def __init__(self, cfg: SearchConfig) -> None:
        self.cfg = cfg
        self._states: dict[int, State] = {}
        self._next_id = ROOT_ID + 1
        self.total_expansions = 0
        root = State(id=ROOT_ID, code="", reward=0.0, timestep=-1, code_hash=code_hash(""))
        self._states[ROOT_ID] = root

    # ------------------------------------------------------------------ access

    @property
    def root(self) -> State:
        """The root state s0."""
        return self._states[ROOT_ID]

    @property
    def states(self) -> list[State]:
        """All states, in creation order."""
        return list(self._states.values())

    @property
    def T(self) -> int:  # noqa: N802 - the paper's symbol
        """Total number of expanded parents so far."""
        return self.total_expansions

    def __len__(self) -> int:
        return len(self._states)

    def __contains__(self, state_id: object) -> bool:
        return state_id in self._states

    def get(self, state_id: int) -> State:
        """The state with this id.

        Raises:
            KeyError: no such state (never added or pruned).
        """
        return self._states[state_id]

    def find(self, state_id: int) -> State | None:
        """The state with this id, or ``None`` when it was never added or has been pruned."""
        return self._states.get(state_id)

    def best(self, accepted_only: bool = True) -> State | None:
        """The highest-reward state (oldest on ties); with ``accepted_only`` only accepted ones."""
        pool = [s for s in self._states.values() if s.accepted or not accepted_only]
        if not pool:
            return None
        return max(pool, key=lambda s: (s.reward, -s.id))

    def reward_range(self) -> float:
        """sigma of PUCT: R_max - R_min over the whole pool (root included)."""
        rewards = [s.reward for s in self._states.values()]
        return max(rewards) - min(rewards)

    def ranks(self) -> dict[int, int]:
        """Rank of each state by reward, 0 = best; ties broken by age (older ranks first)."""
        order = sorted(self._states.values(), key=lambda s: (-s.reward, s.id))
        return {s.id: i for i, s in enumerate(order)}

    def related(self, a: State, b: State) -> bool:
        """True when one state is an ancestor of the other (or they are the same state)."""
        return a.id == b.id or a.id in b.ancestors or b.id in a.ancestors

    # ------------------------------------------------------------------ updates

    def add_children(self, parent_id: int, children: Sequence[Child], step: int) -> list[State]:
        """Update the parent's Q and admit its top-k de-duplicated children.

        Args:
            parent_id: The expanded state (it may have been pruned meanwhile; then only
                admission happens, with the recorded lineage lost beyond the parent id).
            children: Every evaluated rollout of this parent in this step.
            step: The current step (the new states' timestep).

        Returns:
            The admitted states, best first.
        """
        parent = self._states.get(parent_id)
        rewards = [c.reward for c in children if c.reward is not None]
        if parent is not None and rewards:
            top = max(rewards)
            if parent.best_child_reward is None or top > parent.best_child_reward:
                parent.best_child_reward = top
        ancestors = (*parent.ancestors, parent.id) if parent is not None else (parent_id,)
        seen = {s.code_hash for s in self._states.values()}
        scored = [
            (float(c.reward), i, c)
            for i, c in enumerate(children)
            if c.reward is not None and (c.accepted or self.cfg.admit_invalid)
        ]
        scored.sort(key=lambda x: (-x[0], x[1]))
        admitted: list[State] = []
        for reward, _, child in scored:
            if len(admitted) >= self.cfg.top_k:
                break
            h = code_hash(child.code)
            if h in seen:
                continue
            seen.add(h)
            state = State(
                id=self._next_id,
                code=child.code,
                reward=reward,
                metrics={k: float(v) for k, v in child.metrics.items()},
                timestep=step,
                parent_id=parent_id,
                ancestors=ancestors,
                eval_hash=child.eval_hash,
                code_hash=h,
                accepted=child.accepted,
                feedback=child.feedback,
                focus=tuple(child.focus),
            )
            self._next_id += 1
            self._states[state.id] = state
            admitted.append(state)
        log.debug("parent %d: %d children, %d admitted", parent_id, len(children), len(admitted))
        return admitted

    def record_expansion(self, parent_ids: Iterable[int]) -> None:
        """Count one expansion per parent: N += 1 on it and each ancestor in the pool, T += 1."""
        for pid in parent_ids:
            self.total_expansions += 1
            parent = self._states.get(pid)
            chain = (*parent.ancestors, pid) if parent is not None else (pid,)
            for sid in chain:
                s = self._states.get(sid)
                if s is not None:
                    s.visits += 1

    def prune(self) -> list[int]:
        """Drop the lowest-reward states until the pool fits ``pool_cap``.

        The root and the best states (overall and accepted) are kept. Returns the removed ids.
        """
        excess = len(self._states) - self.cfg.pool_cap
        if excess <= 0:
            return []
        keep = {ROOT_ID}
        for accepted_only in (True, False):
            b = self.best(accepted_only)
            if b is not None:
                keep.add(b.id)
        victims = sorted(
            (s for s in self._states.values() if s.id not in keep), key=lambda s: (s.reward, s.id)
        )[:excess]
        for s in victims:
            del self._states[s.id]
        removed = [s.id for s in victims]
        log.debug("pruned %d states", len(removed))
        return removed

    def update(self, step: int, expansions: Mapping[int, Sequence[Child]]) -> list[State]:
        """One step's bookkeeping: admit children per parent, record expansions, prune.

        Returns:
            The admitted states that survived pruning.
        """
        admitted: list[State] = []
        for pid, children in expansions.items():
            admitted.extend(self.add_children(pid, children, step))
        self.record_expansion(expansions.keys())
        self.prune()
        return [s for s in admitted if s.id in self._states]

    # ------------------------------------------------------------------ persistence

    def to_json(self) -> dict[str, Any]:
        """The pool as a JSON-ready dict."""
        return {
            "version": _FORMAT_VERSION,
            "T": self.total_expansions,
            "next_id": self._next_id,
            "states": [s.to_json() for s in self._states.values()],
        }

    @classmethod
    def from_json(cls, cfg: SearchConfig, data: Mapping[str, Any]) -> StatePool:
        """Rebuild a pool saved by :meth:`to_json`.

        Raises:
            RtloptError: unknown format version or no root state.
        """
        if data.get("version") != _FORMAT_VERSION:
            raise RtloptError(
                f"unsupported pool format version {data.get('version')!r}", hint="start a new run"
            )
        pool = cls(cfg)
        pool._states = {}
        for d in data["states"]:
            s = State.from_json(d)
            pool._states[s.id] = s
        if ROOT_ID not in pool._states:
            raise RtloptError("pool file has no root state", hint="start a new run")
        pool._next_id = int(data["next_id"])
        pool.total_expansions = int(data["T"])
        return pool

    def save(self, path: Path) -> None:
        """Write the pool atomically (temporary file + ``os.replace``)."""
        path = Path(path)
        tmp = path.with_name(f".{path.name}.tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            json.dump(self.to_json(), fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)

    @classmethod
    def load(cls, cfg: SearchConfig, path: Path) -> StatePool:
        """Read a pool written by :meth:`save`.

        Raises:
            RtloptError: unreadable or invalid file.
        """
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise RtloptError(f"cannot read pool: {exc}", path=path) from None
        return cls.from_json(cfg, data)
