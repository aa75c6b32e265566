"""Monte Carlo Tree Search over candidate designs (EvolVE section 3.2, equations 6 and 7).

The tree's root is the reference (the user's module). Every node holds its code, score and
feedback, a visit count ``C`` and a cumulative quality ``Q``. One expansion:

1. *Selection*: from the root, repeatedly step to the child of highest

       UCT = +inf                                          if C(child) = 0
             Q(child)/C(child) + c*sqrt(max(1, C(parent)))/(1 + C(child))   otherwise

   (``c = search.mcts_c`` = 1.4; ties go to the node of the latest restart, then to the older
   node) until a leaf.
2. *Expansion*: the leaf's code and feedback prompt ``search.mcts_children`` (3) rollouts; each
   scored rollout becomes a child node. Its score is its reward when accepted (proven
   equivalent with PPA; larger is better, the reward is monotone in the figure of merit), else
   ``search.mcts_penalty`` (-1e5), as EvolVE's failing nodes.
3. *Backpropagation*: every ancestor of the new node, up to the root, gets ``C += 1`` and
   ``Q += score``. As in the paper, ``Q`` aggregates what was propagated from a node's children:
   a new node starts at ``C = 0`` and so is expanded before its visited siblings (the paper's
   "unexplored children are prioritized maximally").

A restart (:meth:`MctsSearch.restart`, after stagnation) expands the root again: the new
children join the root's, unvisited and of a new *epoch*, so the next selections descend into
them before the unvisited nodes of the stagnant trajectory.

A rollout that gave no design (no module, an edit that does not apply) is a failing node without
code: expanding it prompts with its nearest ancestor's code and its own feedback (the error),
so the next rollouts repair it. Infrastructure failures make no node.

As in EvolVE one leaf is selected, expanded and backed up per iteration (``search.mcts_leaves =
1``): every selection sees the scores of all earlier expansions. The batched variant
(``mcts_leaves = 0``, ``--search mcts-batched``) expands ``search.parents`` leaves per step,
selection running again for each and skipping leaves already chosen this step (and subtrees with
no other leaf), with no back-up between them.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rtlopt.config import SearchConfig
from rtlopt.search._pool import ROOT_ID, Child
from rtlopt.search._strategy import Expansion, PlanContext, SearchFileState, split_budget

__all__ = ["MctsSearch", "batched_mcts", "uct"]

log = logging.getLogger(__name__)

_FORMAT = 1


def uct(q: float, c_child: int, c_parent: int, c: float) -> float:
    """Equation (6): ``+inf`` for an unvisited child, else mean quality plus exploration."""
    if c_child == 0:
        return math.inf
    return q / c_child + c * math.sqrt(max(1, c_parent)) / (1 + c_child)


@dataclass
class MctsNode:
    """A node of the tree.

    Attributes:
        id: Node id (the root, the reference, is 0).
        parent_id: Parent node, None for the root.
        code: The design ("" for the root, and for a rollout that gave no design).
        score: Its score (reward when accepted, else the penalty); None for the root.
        reward: Its three-stage reward.
        accepted: Proven equivalent with PPA.
        feedback: Its feedback lines.
        eval_hash: Its candidate hash.
        visits: C(N).
        value: Q(N), the sum of the scores backed up through it.
        children: Child node ids, in creation order.
        depth: Root 0.
        step: Step that created it.
        focus: Lines of ``code`` changed against the parent.
        epoch: Restarts before the node was made (ties of selection go to the latest).
    """

    id: int
    parent_id: int | None
    code: str
    score: float | None
    reward: float
    accepted: bool
    feedback: str
    eval_hash: str
    visits: int = 0
    value: float = 0.0
    children: list[int] = field(default_factory=list)
    depth: int = 0
    step: int = -1
    focus: tuple[int, ...] = ()
    epoch: int = 0


class MctsSearch(SearchFileState):
    """EvolVE's MCTS (see the module docstring).

    Args:
        cfg: ``mcts_c``, ``mcts_children``, ``mcts_penalty``, ``parents`` (leaves per step).
    """

    default_temperature = 0.6
    """EvolVE's sampling temperature (section 4), unless ``search.temperature`` is set."""

    def __init__(self, cfg: SearchConfig) -> None:
        self.cfg = cfg
        self.nodes: dict[int, MctsNode] = {
            ROOT_ID: MctsNode(ROOT_ID, None, "", None, 0.0, True, "", "")
        }
        self.next_id = ROOT_ID + 1
        self.epoch = 0

    @property
    def root(self) -> MctsNode:
        """The root (the reference)."""
        return self.nodes[ROOT_ID]

    # ------------------------------------------------------------------ selection

    def uct_of(self, node: MctsNode) -> float:
        """The selection score of ``node`` under its parent."""
        parent = self.nodes[node.parent_id] if node.parent_id is not None else node
        return uct(node.value, node.visits, parent.visits, self.cfg.mcts_c)

    def select(self, blocked: set[int] | None = None) -> list[MctsNode] | None:
        """The path from the root to the leaf of highest UCT, avoiding ``blocked`` leaves;
        None when every leaf is blocked."""
        blocked = blocked or set()
        full: dict[int, bool] = {}

        def is_full(n: MctsNode) -> bool:  # no selectable leaf below (iterative: deep trees)
            if n.id in full:
                return full[n.id]
            stack = [n]
            while stack:
                top = stack[-1]
                pending = [self.nodes[c] for c in top.children if c not in full]
                if pending:
                    stack.extend(pending)
                    continue
                stack.pop()
                full[top.id] = (
                    top.id in blocked if not top.children else all(full[c] for c in top.children)
                )
            return full[n.id]

        if is_full(self.root):
            return None
        path = [self.root]
        node = self.root
        while node.children:
            options = [self.nodes[c] for c in node.children if not is_full(self.nodes[c])]
            node = max(options, key=lambda n: (self.uct_of(n), n.epoch, -n.id))
            path.append(node)
        return path

    def _base(self, node: MctsNode) -> MctsNode:
        """The node itself, or for a node without a design its nearest ancestor with one (or
        the root)."""
        cur = node
        while not cur.code and cur.parent_id is not None:
            cur = self.nodes[cur.parent_id]
        return cur

    # ------------------------------------------------------------------ a step

    def plan(self, ctx: PlanContext) -> list[Expansion]:
        """``search.mcts_leaves`` distinct leaves (0: ``search.parents``), ``search.mcts_children``
        rollouts each."""
        chosen: list[MctsNode] = []
        blocked: set[int] = set()
        for _ in range(self.cfg.mcts_leaves or self.cfg.parents):
            path = self.select(blocked)
            if path is None:
                break
            leaf = path[-1]
            chosen.append(leaf)
            blocked.add(leaf.id)
        ns = split_budget([self.cfg.mcts_children] * len(chosen), ctx.budget)
        return [self._expansion(n_, k) for n_, k in zip(chosen, ns, strict=True) if k > 0]

    def restart(self, ctx: PlanContext) -> list[Expansion]:
        """``search.parents`` expansions of the root, ``search.mcts_children`` rollouts each.
        Their children are new, unvisited children of the root (UCT +inf) of a new epoch:
        ties of selection (every unvisited node's +inf) go to the latest epoch, so selection
        descends into them before the stagnant trajectory's unvisited nodes."""
        self.epoch += 1
        leaves = self.cfg.mcts_leaves or self.cfg.parents
        ns = split_budget([self.cfg.mcts_children] * leaves, ctx.budget)
        return [Expansion(ROOT_ID, "", "", "", "", k) for k in ns if k > 0]

    def _expansion(self, leaf: MctsNode, n: int) -> Expansion:
        base = self._base(leaf)
        if base.id == ROOT_ID:
            return Expansion(leaf.id, "", leaf.feedback, "", "", n)
        parent = self.nodes[base.parent_id] if base.parent_id is not None else self.root
        prev_hash = parent.eval_hash if parent.id != ROOT_ID else ""
        return Expansion(
            leaf.id,
            base.code,
            leaf.feedback or base.feedback,
            base.eval_hash,
            prev_hash,
            n,
            focus=base.focus,
        )

    def observe(
        self, step: int, expansions: Sequence[Expansion], children: Sequence[Sequence[Child]]
    ) -> None:
        """Add each scored rollout as a child of its leaf and back its score up to the root."""
        for e, kids in zip(expansions, children, strict=True):
            leaf = self.nodes.get(e.node_id)
            if leaf is None:
                continue
            for c in kids:
                if c.reward is None:
                    continue  # infrastructure failure: no node, no score
                score = float(c.reward) if c.accepted else float(self.cfg.mcts_penalty)
                node = MctsNode(
                    self.next_id,
                    leaf.id,
                    c.code,
                    score,
                    float(c.reward),
                    c.accepted,
                    c.feedback,
                    c.eval_hash,
                    depth=leaf.depth + 1,
                    step=step,
                    focus=tuple(c.focus),
                    epoch=self.epoch,
                )
                self.next_id += 1
                self.nodes[node.id] = node
                leaf.children.append(node.id)
                self.backup(leaf, score)

    def backup(self, start: MctsNode, score: float) -> None:
        """Equation (7) on ``start`` and every ancestor: ``C += 1``, ``Q += score``."""
        cur: MctsNode | None = start
        while cur is not None:
            cur.visits += 1
            cur.value += score
            cur = self.nodes[cur.parent_id] if cur.parent_id is not None else None

    def finished(self) -> bool:
        """The tree can always grow."""
        return False

    # ------------------------------------------------------------------ persistence

    def to_json(self) -> dict[str, Any]:
        """The tree as a JSON-ready dict."""
        return {
            "strategy": "mcts",
            "version": _FORMAT,
            "next_id": self.next_id,
            "epoch": self.epoch,
            "nodes": [{**asdict(n), "focus": list(n.focus)} for n in self.nodes.values()],
        }

    def load_json(self, data: dict[str, Any]) -> None:
        """Inverse of :meth:`to_json`.

        Raises:
            UsageError: the state belongs to another strategy or format.
        """
        self.check_state(data, "mcts", _FORMAT)
        self.nodes = {}
        for d in data["nodes"]:
            n = MctsNode(
                **{
                    **d,
                    "children": [int(c) for c in d["children"]],
                    "focus": tuple(int(i) for i in d.get("focus", ())),
                }
            )
            self.nodes[n.id] = n
        self.next_id = int(data["next_id"])
        self.epoch = int(data.get("epoch", 0))


def batched_mcts(cfg: SearchConfig) -> MctsSearch:
    """``--search mcts-batched``: ``search.parents`` leaves per step, no back-up between them."""
    return MctsSearch(dataclasses.replace(cfg, mcts_leaves=0))
