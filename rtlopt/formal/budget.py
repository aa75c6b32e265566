"""One time budget per verdict: the deadline every formal check of one evaluation shares.

``formal.timeout_s`` bounds the whole verdict of a candidate, the checks of the repository's
other parameterizations and of parameter probes included. The evaluator makes one
:class:`Deadline` for a verdict and hands each check a share of it (:meth:`Deadline.share`)
with :func:`within`; :func:`bounded` gives a formal check its limit: the configured one, or
less when the verdict's deadline comes sooner. The engines split that limit among themselves
(``Job.budget``), so no phase has a fixed limit of its own.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from rtlopt.config import FormalConfig

__all__ = ["Deadline", "bounded", "time_left", "within"]


@dataclass(frozen=True)
class Deadline:
    """A point in time (``time.monotonic``) by which a verdict must be made."""

    end: float

    @staticmethod
    def after(seconds: float) -> Deadline:
        """The deadline ``seconds`` from now."""
        return Deadline(time.monotonic() + max(0.0, seconds))

    def left(self) -> float:
        """Seconds until the deadline (0 once it has passed)."""
        return max(0.0, self.end - time.monotonic())

    def share(self, parts: int) -> Deadline:
        """The deadline of one of ``parts`` equal shares of the time left: the first of
        ``parts`` checks due in turn (a check that finishes early leaves its time to the
        others, which ask for their share when their turn comes)."""
        return Deadline(time.monotonic() + self.left() / max(1, parts))


_CURRENT: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar(
    "rtlopt_formal_deadline", default=None
)


@contextmanager
def within(deadline: Deadline) -> Iterator[Deadline]:
    """Formal checks run in this context (on this thread) end by ``deadline`` (or sooner,
    when an enclosing deadline is sooner)."""
    outer = _CURRENT.get()
    if outer is not None and outer.end < deadline.end:
        deadline = outer
    token = _CURRENT.set(deadline)
    try:
        yield deadline
    finally:
        _CURRENT.reset(token)


def bounded(cfg: FormalConfig) -> FormalConfig:
    """``cfg`` with ``timeout_s`` cut to the time left before the current deadline (at least
    one second: a check always starts, and reports a proof that did not finish as
    undecided)."""
    deadline = _CURRENT.get()
    if deadline is None or deadline.left() >= cfg.timeout_s:
        return cfg
    return replace(cfg, timeout_s=max(1.0, deadline.left()))


def time_left() -> float | None:
    """Seconds left before the current deadline (set by :func:`within`), None outside one:
    work that is no formal check (a search that evaluates one probe after another) stops
    when it has spent its share."""
    deadline = _CURRENT.get()
    return None if deadline is None else deadline.left()
