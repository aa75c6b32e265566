"""The stimulus judge: stimulus sets scored by the mutants their simulation kills.

GRPO-SMu's idea with rtlopt's own gate as the judge: mutants of the target module (operator
swaps, off-by-one constants, flipped case items; :mod:`rtlopt.benchmark.mutants`) are run
through the product's :class:`~rtlopt.evaluate.Evaluator` (equivalence only: screen,
compile, simulation; no formal check, no synthesis), once per stimulus set, all with the
same seed. A mutant is *killed* when simulation rejects it; mutants that do not compile
count for no set. Three sets are compared:

* ``random``: every class but the biased one (``harness.bias_constants = false``), i.e. the
  stimulus before compared constants were used;
* ``random+``: the same, with as many extra random vectors/cycles as the biased class adds
  (the fair budget: is it the constants or just more vectors?);
* ``biased``: the default, with the design's compared constants.

:func:`judge_stimulus` keeps the set with the most kills (ties go to the cheapest, i.e. the
fewest vectors): the harness settings to use for this design.
"""

from __future__ import annotations

import dataclasses
import logging
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rtlopt.config import Config, EvalConfig, HarnessConfig
from rtlopt.evaluate import Evaluator
from rtlopt.frontend.model import Design
from rtlopt.results import Stage, Status

__all__ = ["StimulusJudgement", "StimulusScore", "judge_stimulus", "stimulus_sets"]

log = logging.getLogger(__name__)

#: Stages where a mutant is "not a candidate" (it does not even compile): counted for no set.
_NOT_JUDGED = {Stage.SCREEN, Stage.COMPILE, Stage.INTERFACE}


@dataclass(frozen=True)
class StimulusScore:
    """How one stimulus set did on a design's mutants.

    Attributes:
        name: ``random``, ``random+`` or ``biased``.
        harness: The harness settings of the set.
        killed: Mutants rejected by simulation.
        judged: Mutants that compiled (the denominator).
        vectors: Vectors (combinational) or cycles (sequential) per simulation.
        sim_s: Median simulation time per mutant, seconds.
        killed_ids: Indexes (into the mutant list) of the killed mutants.
        stimulus: Seed, classes and compared constants of the set's testbench.
    """

    name: str
    harness: HarnessConfig
    killed: int
    judged: int
    vectors: int
    sim_s: float
    killed_ids: tuple[int, ...]
    stimulus: dict[str, object]

    @property
    def kill_rate(self) -> float:
        return self.killed / self.judged if self.judged else 0.0


@dataclass(frozen=True)
class StimulusJudgement:
    """Every set's score and the one kept."""

    scores: tuple[StimulusScore, ...]
    best: StimulusScore

    def score(self, name: str) -> StimulusScore:
        for s in self.scores:
            if s.name == name:
                return s
        raise KeyError(name)


def stimulus_sets(harness: HarnessConfig, sequential: bool) -> dict[str, HarnessConfig]:
    """The compared stimulus sets, derived from ``harness`` (same seed for all)."""
    plain = dataclasses.replace(harness, bias_constants=False)
    extra = harness.bias_vectors
    more = (
        dataclasses.replace(plain, sequence_cycles=plain.sequence_cycles + extra)
        if sequential
        else dataclasses.replace(plain, random_vectors=plain.random_vectors + extra)
    )
    return {
        "random": plain,
        "random+": more,
        "biased": dataclasses.replace(harness, bias_constants=True),
    }


def judge_stimulus(
    design: Design,
    config: Config,
    mutants: Sequence[str],
    workdir: Path,
    *,
    sets: Sequence[str] = ("random", "random+", "biased"),
) -> StimulusJudgement:
    """Score stimulus sets by the mutants their simulation kills; keep the best.

    Args:
        design: The target (the mutants are texts of its file).
        config: Base configuration; its harness settings are the ``biased`` set.
        mutants: Texts of the target's file, each with one mutation.
        workdir: Scratch folder (one evaluator folder per set).
        sets: Which sets to compare (names of :func:`stimulus_sets`).

    Raises:
        RtloptError: A tool is missing or fails on the reference (as the evaluator does).
    """
    variants = stimulus_sets(config.harness, design.target.is_sequential)
    base = dataclasses.replace(
        config,
        formal=dataclasses.replace(config.formal, enabled=False),
        eval=dataclasses.replace(
            config.eval if isinstance(config.eval, EvalConfig) else EvalConfig(),
            cache=False,
            netlist_check="never",
            workers=1,
        ),
    )
    compiled: set[int] | None = None
    raw: dict[
        str, tuple[HarnessConfig, list[int], list[int], int, list[float], dict[str, object]]
    ] = {}
    for name in sets:
        harness = variants[name]
        cfg = dataclasses.replace(base, harness=harness)
        killed: list[int] = []
        judged: list[int] = []
        times: list[float] = []
        with Evaluator(design, cfg, workdir / name.replace("+", "_plus"), None) as ev:
            tb = ev.testbench
            for i, text in enumerate(mutants):
                res = ev.evaluate(text)
                if res.status is Status.INVALID and res.stage in _NOT_JUDGED:
                    continue
                if res.status in (Status.TIMEOUT, Status.TOOL_ERROR):
                    log.warning("mutant %d on %s: %s (not judged)", i, name, res.status)
                    continue
                judged.append(i)
                if res.sim is not None and res.sim.duration_s:
                    times.append(res.sim.duration_s)
                if res.status is Status.INVALID and res.stage is Stage.SIMULATION:
                    killed.append(i)
            raw[name] = (harness, killed, judged, tb.total, times, tb.stimulus_record())
        compiled = set(judged) if compiled is None else compiled & set(judged)
    keep = compiled or set()
    scores = tuple(
        StimulusScore(
            name=name,
            harness=harness,
            killed=sum(1 for i in killed if i in keep),
            judged=len(keep),
            vectors=total,
            sim_s=statistics.median(times) if times else 0.0,
            killed_ids=tuple(i for i in killed if i in keep),
            stimulus=record,
        )
        for name, (harness, killed, _judged, total, times, record) in raw.items()
    )
    best = max(scores, key=lambda s: (s.killed, -s.vectors))
    return StimulusJudgement(scores, best)
