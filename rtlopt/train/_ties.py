"""Ties within the PPA flow's noise floor (``train.ppa_tie``).

Two measured answers of a group whose figures of merit differ by less than the flow's noise
floor are as good as each other: ranking them would push the policy towards one of them for a
difference the flow cannot tell from noise (a renaming, an operand order). Before the advantage
is computed, such answers are clustered and every member's reward becomes the cluster's mean
reward; ``train.degenerate_eps`` then sees a group whose measured answers all tie as constant
(no gradient), and the entropic estimator sees the tied best answers as ``m`` winners (bounded
advantages) instead of one lone winner.

Clusters are built greedily from the best (lowest) figure of merit: the lowest unclustered
value anchors a cluster that takes every unclustered value within ``rel`` of it
(``(m - anchor) / anchor < rel``), so no cluster spans more than the floor (a chain of small
steps does not merge a whole group). Answers without a figure of merit (rejected, screened, no
module) keep their rewards: those classes are deterministic, not noisy.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["tie_rewards"]


def tie_rewards(
    rewards: Sequence[float | None], metrics: Sequence[float | None], rel: float
) -> tuple[list[float | None], int]:
    """Rewards with the answers whose figures of merit tie within ``rel`` merged.

    Args:
        rewards: One group's rewards (``None``: no reward, left alone).
        metrics: The figure of merit of each answer (lower is better), ``None`` for answers
            that were not measured.
        rel: The relative noise floor; ``<= 0``: nothing is tied.

    Returns:
        The rewards (tied members replaced by their cluster's mean) and how many answers are
        in a cluster of two or more.
    """
    if len(rewards) != len(metrics):
        raise ValueError("rewards and metrics must have the same length")
    out = list(rewards)
    if rel <= 0:
        return out, 0
    todo = sorted(
        (m, i)
        for i, (m, r) in enumerate(zip(metrics, rewards, strict=True))
        if m is not None and r is not None and m > 0
    )
    tied = 0
    while todo:
        anchor = todo[0][0]
        members = [i for m, i in todo if (m - anchor) / anchor < rel]
        todo = [(m, i) for m, i in todo if (m - anchor) / anchor >= rel]
        if len(members) < 2:
            continue
        vals = [float(r) for i in members if (r := rewards[i]) is not None]
        mean = sum(vals) / len(vals)
        for i in members:
            out[i] = mean
        tied += len(members)
    return out, tied
