"""ACE-RTL's restart mechanism (section 3.3, "Coordinator"): start again from the reference when
the search is stuck.

After every step the run loop shows the :class:`RestartCoordinator` the step's results and the
run's best figure of merit. A step is *stagnant* when it did not lower the best figure of merit
(the reference's, or the best accepted design's) and at least one rollout was rejected. Each
rejection has a *failure signature*: the failing stage and the first line of its reason,
normalised (numbers, paths and spacing blurred) so that the same error on another vector,
line or scratch folder reads the same. Consecutive stagnant steps form a streak as long as some
signature occurs in every one of them (the same error persists); an improvement, a step
without rejections, or a step sharing no signature with the streak ends it.

When a streak reaches ``reflect.restart_after`` steps, the next step is a *restart*: every
strategy plans it through :meth:`~rtlopt.search.SearchStrategy.restart` (expansions from the
reference, their children attributed to the root), and its prompts carry, after the
playbook's lessons, a note naming the error that persisted. The restart step starts a new
streak. The coordinator's state is part of the run's checkpoint, so a resumed run restarts at
the same step as an uninterrupted one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rtlopt.results import EvalResult, Status

__all__ = ["RestartCoordinator", "failure_signature"]

_MAX_SIGNATURE = 160
_PATH = re.compile(r"(?:[\w.+-]*/)+(?=[\w.+-])")
_NUMBER = re.compile(r"(?:\d+'[sS]?[bodhBODH][0-9a-fA-FxzXZ?_]+|0x[0-9a-fA-F]+|\d+(?:\.\d+)?)")
_HEX_WORD = re.compile(r"\b[0-9a-f]{6,}\b")


def failure_signature(res: EvalResult) -> str | None:
    """The normalised ``stage: first reason line`` of a rejected rollout; ``None`` for an
    accepted one or an infrastructure error (those say nothing about the trajectory)."""
    if res.status is not Status.INVALID:
        return None
    first = next((ln.strip() for ln in res.reason.splitlines() if ln.strip()), "")
    text = _PATH.sub("", first.lower())
    text = _HEX_WORD.sub("#", _NUMBER.sub("#", text))
    text = " ".join(text.split())[:_MAX_SIGNATURE]
    return f"{res.stage.value}: {text}"


@dataclass
class RestartCoordinator:
    """Detects stagnation and schedules restarts (see the module docstring).

    Args:
        restart_after: Stagnant steps with a repeating failure before a restart; 0 disables.

    Attributes:
        streak: Stagnant steps in the current streak.
        common: Signatures seen in every step of the streak, with their counts over it.
        example: One raw reason per signature of the streak (for the prompt's note).
        best_metric: The lowest figure of merit so far (reference included), None before the
            first step.
        pending: The next step restarts.
        restarts: Steps that were restarts.
    """

    restart_after: int
    streak: int = 0
    common: dict[str, int] = field(default_factory=dict)
    example: dict[str, str] = field(default_factory=dict)
    best_metric: float | None = None
    pending: bool = False
    restarts: list[int] = field(default_factory=list)

    def begin(self, step: int) -> str | None:
        """Whether ``step`` is a restart: its prompt note (recorded as a restart), else None."""
        if not self.pending:
            return None
        note = self.note()
        self.pending = False
        self._reset()
        if step not in self.restarts:
            self.restarts.append(step)
        return note

    def observe(self, step: int, results: Sequence[EvalResult], best_metric: float | None) -> bool:
        """Take in a finished step: its rollouts' results and the run's best figure of merit
        after it (reference included; set :attr:`best_metric` to the reference's before the
        first step). Returns whether the next step restarts."""
        before = self.best_metric
        improved = (
            best_metric is not None and before is not None and best_metric < before * (1 - 1e-9)
        )
        if best_metric is not None and (before is None or best_metric < before):
            self.best_metric = best_metric
        sigs: Counter[str] = Counter()
        for res in results:
            sig = failure_signature(res)
            if sig is not None:
                sigs[sig] += 1
                self.example.setdefault(sig, res.reason.strip().splitlines()[0][:200])
        if improved or not sigs:
            self._reset()
            return False
        if self.streak == 0:
            self.common = dict(sigs)
        else:
            self.common = {s: n + sigs[s] for s, n in self.common.items() if s in sigs}
        if not self.common:  # a different error: this step starts a new streak
            self.common = dict(sigs)
            self.streak = 1
        else:
            self.streak += 1
        self.example = {s: e for s, e in self.example.items() if s in self.common}
        if self.restart_after > 0 and self.streak >= self.restart_after:
            self.pending = True
        return self.pending

    def _reset(self) -> None:
        self.streak = 0
        self.common = {}
        self.example = {}

    def persistent(self) -> str | None:
        """The signature of the streak seen most often (ties: alphabetical), None without one."""
        if not self.common:
            return None
        return min(self.common, key=lambda s: (-self.common[s], s))

    def note(self) -> str:
        """The restart step's prompt note: what kept failing, and that this starts afresh."""
        sig = self.persistent()
        what = ""
        if sig is not None:
            stage = sig.split(":", 1)[0]
            what = f" (rejected at {stage}: {self.example.get(sig, sig)})"
        return (
            f"Restart: the last {self.streak} steps kept failing the same way{what} without "
            "improving; earlier attempts are discarded and this one starts again from the "
            "reference. Take a different approach."
        )

    def to_json(self) -> dict[str, Any]:
        """The state for ``state.json``."""
        return {
            "streak": self.streak,
            "common": dict(self.common),
            "example": dict(self.example),
            "best_metric": self.best_metric,
            "pending": self.pending,
            "restarts": list(self.restarts),
        }

    def load_json(self, data: dict[str, Any]) -> None:
        """Inverse of :meth:`to_json` (an empty dict, from an older run, keeps the fresh
        state)."""
        self.streak = int(data.get("streak", 0))
        self.common = {str(k): int(v) for k, v in dict(data.get("common") or {}).items()}
        self.example = {str(k): str(v) for k, v in dict(data.get("example") or {}).items()}
        best = data.get("best_metric")
        self.best_metric = float(best) if best is not None else None
        self.pending = bool(data.get("pending", False))
        self.restarts = [int(s) for s in data.get("restarts") or []]
