"""A batch of candidates on threads of this process (the local executor's way, and
``Evaluator.evaluate_many``'s)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from rtlopt.results import EvalResult

__all__ = ["Progress", "evaluate_on_threads"]

Progress = Callable[[int, EvalResult], None]
"""Told ``(index, result)`` as each candidate of a batch finishes (in completion order)."""


def evaluate_on_threads(
    evaluate: Callable[[str], EvalResult],
    texts: Sequence[str],
    workers: int,
    progress: Progress | None = None,
) -> list[EvalResult]:
    """``evaluate`` over ``texts`` on ``workers`` threads (0: one per core); results in
    submission order."""
    workers = max(1, min(workers or (os.cpu_count() or 1), len(texts)))
    results: list[EvalResult | None] = [None] * len(texts)

    def job(i: int) -> None:
        res = evaluate(texts[i])
        results[i] = res
        if progress is not None:
            progress(i, res)

    if workers == 1:
        for i in range(len(texts)):
            job(i)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(job, range(len(texts))))
    return [r for r in results if r is not None]
