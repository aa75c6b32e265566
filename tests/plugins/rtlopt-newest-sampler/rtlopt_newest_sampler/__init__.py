"""A third-party parent sampler for rtlopt: the most recently admitted states first."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any


class NewestSampler:
    """``newest``: up to ``k`` distinct states, newest (highest id) first; the root when alone.

    Args:
        cfg: rtlopt's ``SearchConfig`` (unused: the sampler has no settings).
    """

    def __init__(self, cfg: Any) -> None:
        self.cfg = cfg

    def select(self, pool: Any, k: int, rng: random.Random) -> list[Any]:
        chosen = sorted(pool.states, key=lambda s: -s.id)[:k]
        log = os.environ.get("NEWEST_SAMPLER_LOG")
        if log:
            with Path(log).open("a") as fh:
                fh.write(f"pool {len(pool.states)} chose {[s.id for s in chosen]}\n")
        return chosen
