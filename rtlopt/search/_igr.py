"""Idea-Guided Refinement (EvolVE section 3.2, IGR): ideas first, then one refinement chain each.

1. *Idea generation*: the policy is asked for ``k = search.igr_ideas`` distinct optimization
   ideas for the module (each request sees the ideas so far, to keep them distinct), from its
   own knowledge and, optionally, a notes file (``search.igr_notes``). When the model gives
   fewer, the notes' lines and then a short built-in list of classic PPA rewrites fill in; every
   idea records where it came from.
2. *Sequential refinement*: idea ``I_k`` starts chain ``C_k`` whose first node implements it on
   the reference; each of the next ``m - 1`` steps (``m = search.igr_steps``) edits the chain's
   latest node with that node's feedback (for long modules with SEARCH/REPLACE edits). As in
   EvolVE a chain step makes one child (``search.igr_children = 1``), so ``k x m`` nodes run
   every idea to its end; the batched variant (``igr_children = 0``, ``--search igr-batched``)
   samples ``run.rollouts`` answers per step and continues from the best. Every scored design is
   a node. When no answer gives a design (no module, an edit that does not apply), the
   chain stays on its node and the next prompt carries that failure's feedback (debugging).
3. *Restart* (ACE-RTL, after stagnation: :meth:`IgrSearch.restart`): the chains of the step
   implement their ideas on the reference again; their earlier nodes are kept but never
   continued.

``search.parents`` chains advance in parallel; a finished chain makes room for the next idea.
The run ends when every chain is done (``k * m`` steps of chains) or the node budget is spent.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rtlopt.config import SearchConfig
from rtlopt.search._notes import read_igr_notes
from rtlopt.search._pool import ROOT_ID, Child
from rtlopt.search._strategy import (
    Expansion,
    IdeaSource,
    PlanContext,
    SearchFileState,
    split_budget,
)

__all__ = ["BUILTIN_IDEAS", "IgrSearch", "batched_igr", "normalize_idea"]

log = logging.getLogger(__name__)

_FORMAT = 1

BUILTIN_IDEAS: tuple[str, ...] = (
    "Share one arithmetic unit between operations that are never needed in the same cycle.",
    "Replace a long priority (if/else) chain by a parallel one-hot or tree structure.",
    "Remove redundant registers and logic whose values are never observed at the outputs.",
    "Simplify the Boolean logic: factor common subexpressions and constant-fold the rest.",
    "Narrow internal signals and arithmetic to the bit widths the outputs actually need.",
    "Restructure the critical path: move late-arriving signals closer to the output.",
    "Replace a multiplier or divider by constant by shifts and adds.",
    "Re-encode the state machine (e.g. binary vs one-hot) to cut next-state logic.",
    "Turn a wide multiplexer into a smaller one by selecting on fewer, earlier-decoded bits.",
    "Use a carry-save or tree adder instead of a ripple chain on wide additions.",
    "Merge comparisons that test the same operands into one subtraction or comparator.",
    "Precompute values that depend only on registered inputs one cycle earlier.",
)
"""Classic area/delay rewrites, used only when neither the model nor the notes give enough."""


def normalize_idea(text: str) -> str:
    """Lower-case words only: two ideas with the same words are the same idea."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


@dataclass
class _Node:
    id: int
    parent_id: int
    code: str
    reward: float
    accepted: bool
    feedback: str
    eval_hash: str
    chain: int
    step: int
    focus: tuple[int, ...] = ()


@dataclass
class _Chain:
    idea: int
    nodes: list[int] = field(default_factory=list)
    steps: int = 0
    pending_feedback: str | None = None
    done: bool = False
    start: int = 0
    """Index in ``nodes`` where the current trajectory begins (moved past by a restart)."""


class IgrSearch(SearchFileState):
    """EvolVE's idea-guided refinement (see the module docstring).

    Args:
        cfg: ``igr_ideas`` (k), ``igr_steps`` (m), ``igr_notes``, ``parents`` (chains in
            parallel).
    """

    default_temperature = 0.6
    """EvolVE's sampling temperature (section 4), unless ``search.temperature`` is set."""

    def __init__(self, cfg: SearchConfig) -> None:
        self.cfg = cfg
        self.ideas: list[str] = []
        self.sources: list[str] = []
        self.asked = False
        self.chains: list[_Chain] = []
        self.nodes: dict[int, _Node] = {}
        self.next_id = ROOT_ID + 1

    # ------------------------------------------------------------------ ideas

    def _notes(self) -> tuple[str, list[str]]:
        """The notes file's text and its idea lines (non-empty, not comments)."""
        return read_igr_notes(self.cfg.igr_notes)

    def _gather(self, source: IdeaSource) -> None:
        """Ask for ``k`` ideas once; fill up from the notes, then the built-in list."""
        k = self.cfg.igr_ideas
        seen: set[str] = set()

        def add(items: Sequence[str], origin: str) -> None:
            for raw in items:
                idea = " ".join(raw.split())
                key = normalize_idea(idea)
                if len(self.ideas) >= k or not key or key in seen:
                    continue
                seen.add(key)
                self.ideas.append(idea)
                self.sources.append(origin)

        add(source([], k), "model")
        if len(self.ideas) < k:
            add(self._notes()[1], "notes")
        if len(self.ideas) < k:
            add(BUILTIN_IDEAS, "built-in")
        self.asked = True
        counts = {o: self.sources.count(o) for o in ("model", "notes", "built-in")}
        log.info(
            "IGR: %d ideas (%s)",
            len(self.ideas),
            ", ".join(f"{v} {k_}" for k_, v in counts.items() if v),
        )

    def notes_text(self) -> str:
        """The notes file's content for the idea prompt (empty without one)."""
        return self._notes()[0]

    # ------------------------------------------------------------------ planning

    def _active(self, ctx: PlanContext) -> list[_Chain]:
        """The chains this step advances: the unfinished ones, new chains filling up to
        ``search.parents``."""
        if not self.asked:
            self._gather(ctx.ideas)
        active = [c for c in self.chains if not c.done]
        while len(active) < self.cfg.parents and len(self.chains) < len(self.ideas):
            chain = _Chain(idea=len(self.chains))
            self.chains.append(chain)
            active.append(chain)
        return active

    def _children(self, ctx: PlanContext) -> int:
        return self.cfg.igr_children or ctx.rollouts

    def plan(self, ctx: PlanContext) -> list[Expansion]:
        """Advance up to ``search.parents`` unfinished chains by one step each."""
        active = self._active(ctx)
        ns = split_budget([self._children(ctx)] * len(active), ctx.budget)
        return [self._expansion(c, n) for c, n in zip(active, ns, strict=True) if n > 0]

    def restart(self, ctx: PlanContext) -> list[Expansion]:
        """The chains :meth:`plan` would advance, each implementing its idea on the reference
        again: their trajectories so far are left behind (kept as nodes, never continued),
        the failure feedback dropped, and the chain goes on from the restart's best design."""
        active = self._active(ctx)
        ns = split_budget([self._children(ctx)] * len(active), ctx.budget)
        out = []
        for c, n in zip(active, ns, strict=True):
            if n > 0:
                c.start = len(c.nodes)
                c.pending_feedback = None
                out.append(self._expansion(c, n))
        return out

    def _expansion(self, chain: _Chain, n: int) -> Expansion:
        idea = self.ideas[chain.idea]
        if len(chain.nodes) <= chain.start:
            return Expansion(
                ROOT_ID, "", chain.pending_feedback or "", "", "", n, idea=idea, tag=chain.idea
            )
        node = self.nodes[chain.nodes[-1]]
        parent = self.nodes.get(node.parent_id)
        prev_hash = parent.eval_hash if parent is not None else ""
        return Expansion(
            node.id,
            node.code,
            chain.pending_feedback or node.feedback,
            node.eval_hash,
            prev_hash,
            n,
            idea=idea,
            focus=node.focus,
            tag=chain.idea,
        )

    def observe(
        self, step: int, expansions: Sequence[Expansion], children: Sequence[Sequence[Child]]
    ) -> None:
        """Each chain continues from its best new design (or keeps its node, with the
        failure's feedback, when no answer gave one)."""
        for e, kids in zip(expansions, children, strict=True):
            if not 0 <= e.tag < len(self.chains) or self.chains[e.tag].done:
                continue
            chain = self.chains[e.tag]
            usable = [c for c in kids if c.code and c.reward is not None]
            new: list[_Node] = []
            for c in usable:
                node = _Node(
                    self.next_id,
                    e.node_id,
                    c.code,
                    float(c.reward or 0.0),
                    c.accepted,
                    c.feedback,
                    c.eval_hash,
                    chain.idea,
                    step,
                    tuple(c.focus),
                )
                self.nodes[node.id] = node
                self.next_id += 1
                new.append(node)
            if new:
                best = max(new, key=lambda x: (x.reward, -x.id))
                chain.nodes.append(best.id)
                chain.pending_feedback = None
            else:
                scored = [c for c in kids if c.reward is not None]
                if scored:
                    closest = max(scored, key=lambda c: c.reward or 0.0)
                    chain.pending_feedback = closest.feedback or None
            chain.steps += 1
            if chain.steps >= self.cfg.igr_steps:
                chain.done = True

    def finished(self) -> bool:
        """Every idea's chain has run its ``m`` steps."""
        return (
            self.asked and len(self.chains) == len(self.ideas) and all(c.done for c in self.chains)
        )

    # ------------------------------------------------------------------ persistence

    def to_json(self) -> dict[str, Any]:
        """The whole state as a JSON-ready dict."""
        return {
            "strategy": "igr",
            "version": _FORMAT,
            "ideas": [
                {"text": t, "source": s} for t, s in zip(self.ideas, self.sources, strict=True)
            ],
            "asked": self.asked,
            "chains": [asdict(c) for c in self.chains],
            "nodes": [{**asdict(n), "focus": list(n.focus)} for n in self.nodes.values()],
            "next_id": self.next_id,
        }

    def load_json(self, data: dict[str, Any]) -> None:
        """Inverse of :meth:`to_json`.

        Raises:
            UsageError: the state belongs to another strategy or format.
        """
        self.check_state(data, "igr", _FORMAT)
        self.ideas = [str(i["text"]) for i in data["ideas"]]
        self.sources = [str(i["source"]) for i in data["ideas"]]
        self.asked = bool(data["asked"])
        self.chains = [
            _Chain(
                idea=int(c["idea"]),
                nodes=[int(x) for x in c["nodes"]],
                steps=int(c["steps"]),
                pending_feedback=c["pending_feedback"],
                done=bool(c["done"]),
                start=int(c.get("start", 0)),
            )
            for c in data["chains"]
        ]
        self.nodes = {}
        for d in data["nodes"]:
            n = _Node(**{**d, "focus": tuple(int(i) for i in d.get("focus", ()))})
            self.nodes[n.id] = n
        self.next_id = int(data["next_id"])


def batched_igr(cfg: SearchConfig) -> IgrSearch:
    """``--search igr-batched``: ``run.rollouts`` answers per chain step, the best continues."""
    return IgrSearch(dataclasses.replace(cfg, igr_children=0))
