"""The three-stage evaluator: syntax -> equivalence -> synthesis PPA.

Stages stop at the first failure: screen, compile (error count gives r_syn), interface,
simulation against the renamed reference, formal equivalence (with the clock/reset structure
check), synthesis, the netlist check (the synthesized netlist simulated against the reference,
beside timing), timing/power. The reward is ``w_syn*r_syn + w_func*r_func + w_ppa*M_ref/M``.
Tool crashes and timeouts give ``Status.TOOL_ERROR`` / ``Status.TIMEOUT`` with no reward: they
are never scored.

Results are cached by the exact bytes of the candidate under a fingerprint of everything that
can change a verdict; screening and the size limit run before any lookup.

The parts live beside this file: :mod:`._setup` (the fixed inputs and the flows),
:mod:`._cache` (fingerprint and cache), :mod:`._reference` (the reference measurement),
:mod:`._pipeline` and :mod:`._stages` (the stages), :mod:`._provenance`. The evaluator only
wires them together; where a batch runs (threads, Ray) is its caller's executor.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rtlopt.config import Config
from rtlopt.errors import EvaluationTimeout, InfrastructureError
from rtlopt.evaluate._batch import Progress, evaluate_on_threads
from rtlopt.evaluate._cache import ResultCache, make_fingerprint
from rtlopt.evaluate._candidate import Progress as StageProgress
from rtlopt.evaluate._candidate import invalid
from rtlopt.evaluate._messages import compile_error_summary, interface_problem
from rtlopt.evaluate._netlist import NetlistGold
from rtlopt.evaluate._params import ParameterCheck
from rtlopt.evaluate._pipeline import Pipeline
from rtlopt.evaluate._provenance import provenance
from rtlopt.evaluate._reference import ReferenceMeasurement
from rtlopt.evaluate._setup import FlowPool, open_setup
from rtlopt.frontend.model import Design
from rtlopt.results import EvalResult, Stage, Status
from rtlopt.tools import configure_sandbox
from rtlopt.verilog import source_hash

__all__ = [
    "Evaluator",
    "Progress",
    "compile_error_summary",
    "interface_problem",
    "make_workdir",
]


class Evaluator:
    """Scores candidate rewrites of one design's target module.

    Args:
        design: The parsed design (target module in its repository).
        config: Resolved configuration.
        workdir: Scratch root; each candidate gets its own folder below it.
        pdk: A resolved PDK (``rtlopt.pdk.PdkInfo``); None skips synthesis (equivalence only).

    One Evaluator may be shared by threads: each thread keeps its own long-lived
    synthesis/timing flow. Batches run on an executor the caller owns
    (``executor.evaluate(evaluator, texts)``); :meth:`evaluate_many` runs one on local threads.
    """

    def __init__(
        self, design: Design, config: Config, workdir: Path, pdk: Any | None = None
    ) -> None:
        self.design = design
        self.config = config
        self.pdk = pdk
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        apply_sandbox(config.sandbox.enabled, config.sandbox.require)
        self._setup = open_setup(design, config, workdir, pdk)
        self._view = self._setup.view
        activity = None
        if config.flow.power and config.flow.power_mode == "activity":
            from rtlopt.evaluate._activity import netlist_activity

            activity = netlist_activity
        self._flows = FlowPool(self._setup, activity)
        self._lock = threading.Lock()
        self._memo: dict[str, EvalResult] = {}
        self._inflight: dict[str, threading.Event] = {}  # keys being evaluated right now
        self._counter = 0
        self._gold = NetlistGold()
        self._fingerprint = make_fingerprint(self._setup)
        self._cache = ResultCache(self._setup, self._fingerprint)
        self._reference = ReferenceMeasurement(
            self._setup, self._flows, self._cache, self._gold, self._scratch, self.provenance
        )
        # the repository's other parameterizations of the target (harness.parameterizations)
        self._params = ParameterCheck(design, config, workdir, type(self))
        self._pipeline = Pipeline(
            self._setup, self._flows, self._reference, self._gold, self._params
        )

    @property
    def testbench(self) -> Any:
        """The generated equivalence testbench (``rtlopt.harness.Testbench``)."""
        return self._setup.tb

    @property
    def fingerprint(self) -> str:
        """Hash of everything besides a candidate's bytes that can change a verdict (two
        evaluators with the same fingerprint give the same result for the same bytes)."""
        return self._fingerprint

    @property
    def metric_kind(self) -> str:
        """``adp`` or ``ppa``: the figure of merit in use."""
        return self.config.flow.metric_kind

    def provenance(self) -> dict[str, Any]:
        """Tool versions, flow settings and seeds behind every number."""
        return provenance(self._setup, self._fingerprint, self._gold, self._flows.flow())

    def reference(self) -> EvalResult:
        """The original module's result (see :meth:`ReferenceMeasurement.get`)."""
        return self._reference.get()

    def close(self) -> None:
        """Stop long-lived tool workers."""
        self._flows.close()
        self._params.close()

    def __enter__(self) -> Evaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _scratch(self, tag: str) -> Path:
        with self._lock:
            self._counter += 1
            n = self._counter
        d = self.workdir / f"{n:05d}-{tag[:12]}"
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        return d

    def screen(self, text: str) -> EvalResult | None:
        """The size limit and screening (no tool runs): the rejection, or None when clean."""
        from rtlopt.harness import event_violations, screen_candidate

        sb = self.config.sandbox
        rw = self.config.reward
        if len(text.encode("utf-8", "surrogatepass")) > sb.max_source_bytes:
            return dataclasses.replace(
                invalid(
                    rw,
                    Stage.SCREEN,
                    f"candidate larger than {sb.max_source_bytes} bytes",
                    r_syn=0.0,
                ),
                reward=rw.screened,
            )
        violations = screen_candidate(text, self.design, dotted_names=self._view is not None)
        violations += event_violations(text, self.design.target.text())
        if violations:
            reason = "rejected by screening: " + "; ".join(violations[:3])
            return dataclasses.replace(
                invalid(rw, Stage.SCREEN, reason, r_syn=0.0), reward=rw.screened
            )
        return None

    def evaluate(self, text: str, *, equivalence: bool = True) -> EvalResult:
        """Evaluate one candidate (cached by its exact bytes, after screening).

        Args:
            text: The candidate's source (the target module and any helper modules).
            equivalence: False measures PPA without the equivalence stages (for changes that
                are not meant to keep behaviour, as in ``rtlopt check``); such a result is
                never ``accepted``-as-equivalent: its ``sim`` and ``formal`` are None.
        """
        start = time.monotonic()
        h = source_hash(text)
        key = h if equivalence else "ppa-" + h
        timings: dict[str, float] = {}
        # the size limit and screening come before any cache lookup: a cached verdict is only
        # ever served to a candidate that would be evaluated now
        early = self.screen(text)
        timings["screen"] = time.monotonic() - start
        if early is not None:
            return dataclasses.replace(
                early,
                source_hash=h,
                provenance={"evaluator_fingerprint": self._fingerprint},
                duration_s=time.monotonic() - start,
                timings=timings,
            )
        while True:
            with self._lock:
                hit = self._memo.get(key)
                running = self._inflight.get(key) if hit is None else None
                if hit is None and running is None:
                    mine = self._inflight[key] = threading.Event()
                    break
            if hit is not None:
                return dataclasses.replace(hit, cached=True, duration_s=time.monotonic() - start)
            assert running is not None
            running.wait()  # the same bytes on another thread: its result, at no cost
        try:
            return self._evaluate_new(text, key, h, equivalence, start, timings)
        finally:
            with self._lock:
                self._inflight.pop(key, None)
            mine.set()

    def _evaluate_new(
        self,
        text: str,
        key: str,
        h: str,
        equivalence: bool,
        start: float,
        timings: dict[str, float],
    ) -> EvalResult:
        """A candidate not in memory: the disk cache, else the stages."""
        disk = self._cache.load(key)
        if disk is not None and disk.source_hash == h:
            with self._lock:
                self._memo[key] = disk
            return dataclasses.replace(disk, cached=True, duration_s=time.monotonic() - start)
        timings["cache"] = time.monotonic() - start - timings["screen"]
        d = self._scratch(h)
        progress = StageProgress()
        try:
            res = self._pipeline.run(text, d, equivalence, progress, timings)
        except EvaluationTimeout as exc:
            res = EvalResult(status=Status.TIMEOUT, stage=progress.stage, reason=exc.one_line())
        except InfrastructureError as exc:
            res = EvalResult(status=Status.TOOL_ERROR, stage=progress.stage, reason=exc.one_line())
        res = dataclasses.replace(
            res,
            duration_s=time.monotonic() - start,
            source_hash=h,
            provenance={"evaluator_fingerprint": self._fingerprint},
            timings=dict(timings),
        )
        with self._lock:
            self._memo[key] = res
        if not res.is_infrastructure_error:
            self._cache.store(key, res)
        return res

    def evaluate_many(
        self, texts: Sequence[str], progress: Progress | None = None
    ) -> list[EvalResult]:
        """Evaluate a batch on ``eval.workers`` threads of this process (each keeps its own
        tool processes); results in submission order. Another executor (``eval.executor``,
        e.g. Ray) is the caller's: ``make_executor(cfg.eval).evaluate(evaluator, texts)``."""
        return evaluate_on_threads(self.evaluate, texts, self.config.eval.workers, progress)


def apply_sandbox(enabled: bool, require: str) -> None:
    """Put the ``[sandbox]`` settings in force for this process's tools (and its children).

    ``require = "auto"`` refuses to run without bubblewrap under CI (``CI`` or
    ``GITHUB_ACTIONS`` set); ``rtlopt check`` turns ``auto`` into ``always`` itself.
    """
    ci = any(os.environ.get(k, "").lower() not in ("", "0", "false") for k in _CI_VARS)
    configure_sandbox(enabled, require == "always" or (require == "auto" and ci))


_CI_VARS = ("CI", "GITHUB_ACTIONS")


def make_workdir(prefix: str = "rtlopt-eval-") -> Path:
    """A fresh scratch root in the system temp folder."""
    return Path(tempfile.mkdtemp(prefix=prefix))
