"""The three-stage evaluator: syntax -> equivalence -> synthesis PPA.

Stages stop at the first failure: screen, compile (error count gives r_syn), interface,
simulation against the renamed reference, formal equivalence (with the clock/reset structure
check), synthesis, the netlist check (the synthesized netlist simulated against the reference,
beside timing), timing/power. The reward is ``w_syn*r_syn + w_func*r_func + w_ppa*M_ref/M``.
Tool crashes and timeouts give ``Status.TOOL_ERROR`` / ``Status.TIMEOUT`` with no reward: they
are never scored.

Results are cached by the exact bytes of the candidate under a fingerprint of everything that
can change a verdict, rtlopt's own code included: a stored result is served at once (the same
bytes pass the same screening now); a miss is screened (size limit first) before any tool runs,
and the view, the testbench and its stimulus are built on the first miss.

The parts live beside this file: :mod:`._setup` (the fixed inputs and the flows),
:mod:`._cache` (fingerprint and cache), :mod:`._reference` (the reference measurement),
:mod:`._pipeline` and :mod:`._stages` (the stages), :mod:`._provenance`. The evaluator only
wires them together; where a batch runs (threads, Ray) is its caller's executor.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt.config import Config
from rtlopt.errors import EvaluationTimeout, InfrastructureError
from rtlopt.evaluate._batch import Progress, evaluate_on_threads
from rtlopt.evaluate._cache import (
    CacheInputs,
    ResultCache,
    evaluator_tools,
    fingerprint_observations,
    make_fingerprint,
)
from rtlopt.evaluate._candidate import Progress as StageProgress
from rtlopt.evaluate._candidate import invalid
from rtlopt.evaluate._config_check import ConfigurationCheck
from rtlopt.evaluate._messages import compile_error_summary, interface_problem
from rtlopt.evaluate._netlist import NetlistGold
from rtlopt.evaluate._params import ParameterCheck
from rtlopt.evaluate._pipeline import Pipeline, refuted_by_proof
from rtlopt.evaluate._provenance import provenance
from rtlopt.evaluate._reference import ReferenceMeasurement
from rtlopt.evaluate._repo_texts import claim_scratch
from rtlopt.evaluate._setup import EvalSetup, FlowPool, open_setup
from rtlopt.evaluate._view import view_reason
from rtlopt.frontend.model import Design
from rtlopt.inputs import observe_all
from rtlopt.results import EvalResult, Stage, Status
from rtlopt.tools import configure_sandbox, tool_paths
from rtlopt.verilog import source_hash

if TYPE_CHECKING:
    from rtlopt.formal.second import SecondProof

__all__ = [
    "Evaluator",
    "Progress",
    "compile_error_summary",
    "interface_problem",
    "make_workdir",
]


#: Stages whose rejection says nothing about how the tools read the original.
_BEFORE_TOOLS = frozenset({Stage.SCREEN, Stage.SIMULATION})


class Evaluator:
    """Scores candidate rewrites of one design's target module.

    Args:
        design: The parsed design (target module in its repository).
        config: Resolved configuration.
        workdir: Scratch root; each candidate gets its own folder below it.
        pdk: A resolved PDK (``rtlopt.pdk.PdkInfo``); None skips synthesis (equivalence only).
        reorder_ports: Evaluate a candidate with its ports in the reference's order (the
            written-back module gets the same order). False where the text is kept as it is
            (``rtlopt check`` judges a commit): another order is then an interface change.
        whole_file: A candidate is the target's whole new file, whose every changed module is
            judged on its own (``rtlopt check``): the other modules of the target's file are
            then its own, not helpers (elsewhere a candidate may define the target and new
            helper modules only: ``harness._redefined``).

    One Evaluator may be shared by threads: each thread keeps its own long-lived
    synthesis/timing flow. Batches run on an executor the caller owns
    (``executor.evaluate(evaluator, texts)``); :meth:`evaluate_many` runs one on local threads.
    """

    def __init__(
        self,
        design: Design,
        config: Config,
        workdir: Path,
        pdk: Any | None = None,
        *,
        reorder_ports: bool = True,
        whole_file: bool = False,
    ) -> None:
        self.design = design
        self.reorder_ports = reorder_ports
        self.whole_file = whole_file
        self.config = config
        self.pdk = pdk
        self.workdir = workdir
        claim_scratch(workdir)
        workdir.mkdir(parents=True, exist_ok=True)
        apply_sandbox(config.sandbox.enabled, config.sandbox.require)
        # the fingerprint and the cache come from bytes: the view, the testbench and its
        # stimulus are built on the first evaluation the cache cannot answer
        self._sv = bool(view_reason(design, config, workdir))
        self._fingerprint = make_fingerprint(
            design,
            config,
            pdk,
            systemverilog=self._sv,
            whole_file=whole_file,
        )
        self._cache = ResultCache(config, pdk, evaluator_tools(config), self._fingerprint)
        _check_encoding(design, config)
        self._lock = threading.Lock()
        self._parts_lock = threading.Lock()
        self._parts: _Parts | None = None
        self._memo: dict[str, EvalResult] = {}
        self._inflight: dict[str, threading.Event] = {}  # keys being evaluated right now
        self._counter = 0
        self._gold = NetlistGold()
        self._reference = ReferenceMeasurement(
            design,
            workdir / "shared",
            self._setup_and_flows,
            self._cache,
            self._gold,
            self._scratch,
            self.provenance,
        )
        # the repository's other parameterizations of the target (harness.parameterizations)
        second = functools.partial(type(self), whole_file=whole_file)
        self._params = ParameterCheck(design, config, workdir, second)
        self._configs = ConfigurationCheck(design, config, workdir, second)

    def _built(self) -> _Parts:
        """The view, the testbench, the shared files and the stage pipeline (built once)."""
        with self._parts_lock:
            if self._parts is None:
                setup = open_setup(
                    self.design, self.config, self.workdir, self.pdk, whole_file=self.whole_file
                )
                activity = None
                if self.config.flow.power and self.config.flow.power_mode == "activity":
                    from rtlopt.evaluate._activity import netlist_activity

                    activity = netlist_activity
                flows = FlowPool(setup, activity)
                pipeline = Pipeline(
                    setup, flows, self._reference, self._gold, self._params, self._configs
                )
                self._parts = _Parts(setup, flows, pipeline)
            return self._parts

    def _setup_and_flows(self) -> tuple[EvalSetup, FlowPool]:
        parts = self._built()
        return parts.setup, parts.flows

    @property
    def testbench(self) -> Any:
        """The generated equivalence testbench (``rtlopt.harness.Testbench``)."""
        return self._built().setup.tb

    @property
    def fingerprint(self) -> str:
        """Hash of everything besides a candidate's bytes that can change a verdict (two
        evaluators with the same fingerprint give the same result for the same bytes)."""
        return self._fingerprint

    def cache_inputs(self) -> CacheInputs:
        """Where this evaluator's results are kept and what its fingerprint was made from, as
        observations with their values now (for a memo of a command answered from this cache:
        ``rtlopt.inputs``; made right after the fingerprint, they are what it read)."""
        observed = observe_all(
            fingerprint_observations(self.design, self.config, self.pdk, systemverilog=self._sv)
        )
        tools = evaluator_tools(self.config)
        return CacheInputs(
            self._cache.dir, tuple(observed), tool_paths(tools), self._cache.liberty()
        )

    @property
    def metric_kind(self) -> str:
        """``adp`` or ``ppa``: the figure of merit in use."""
        return self.config.flow.metric_kind

    def provenance(self) -> dict[str, Any]:
        """Tool versions, flow settings and seeds behind every number."""
        parts = self._built()
        return provenance(parts.setup, self._fingerprint, self._gold, parts.flows.flow())

    def reference(self) -> EvalResult:
        """The original module's result (see :meth:`ReferenceMeasurement.get`)."""
        return self._reference.get()

    def reference_for(self, result: EvalResult) -> EvalResult:
        """The reference to show beside ``result``: measured where the candidate was
        synthesized (then it is already), failed on a tool or was rejected at a stage whose
        tools read the original too (compile, interface, formal: measuring the reference says
        whether the user's own design is what the tools cannot read, an input error), else
        the measured or cached one, or none measured (:meth:`ReferenceMeasurement.unmeasured`:
        a candidate the screen refused or a simulation or a proof refuted is not worth a
        synthesis of the reference)."""
        # a candidate the screen refused or a simulation refuted left every tool reading of
        # the original as it was, a proof that refuted it read the original; any other later
        # stage may have failed on the original's text
        before = result.stage in _BEFORE_TOOLS and not result.is_infrastructure_error
        if result.ppa is None and (before or refuted_by_proof(result)):
            return self._reference.known() or self._reference.unmeasured()
        return self._reference.get()

    def confirm(self, text: str, result: EvalResult) -> SecondProof:
        """The second, independent proof of a design to keep (``result``: its evaluation):
        once per kept design, before ``optimize`` writes it back or ``check`` passes it
        (:mod:`rtlopt.formal.second`). Not cached: it is the check of the cache's claim."""
        from rtlopt.evaluate._confirm import confirm
        from rtlopt.formal.second import SecondProof

        if result.formal is None:
            return SecondProof(False, "", "unchecked: the design has no formal proof", 0.0)
        staged: list[Any] = []
        proof = confirm(self._built().setup, text, self._scratch("second"), result.formal, staged)
        if not proof.agrees:
            return proof
        # the same under each other configuration of the repository the first proof proved:
        # its parameterizations, and the other `ifdef configurations and builds
        label, other, spent = self._params.confirm_configurations(text)
        if other is None and staged:
            c = staged[0]
            label, other, more = self._configs.confirm_configurations(
                text, c.macros, c.other_configs, c.builds
            )
            spent += more
        if other is None:
            return dataclasses.replace(proof, duration_s=proof.duration_s + spent)
        return dataclasses.replace(
            other,
            reason=f"{label}: {other.reason}",
            duration_s=proof.duration_s + spent,
        )

    def evaluate_confirmed(self, text: str) -> EvalResult:
        """:meth:`evaluate`, then, for a candidate accepted on the first proof, the second,
        independent proof (:meth:`confirm`) before it counts as accepted (``rtlopt
        evaluate``'s verdict on one candidate; a search runs it on the kept design only).

        The outcome is recorded in the result (``formal.second``) and kept in the cache with
        it: a stored result accepted on the first proof alone (a search's) gets the second
        proof here once; a disagreement rejects (:func:`~rtlopt.evaluate._confirm.with_second`).
        A tool crash of the second proof is a tool error, never a verdict, and not stored."""
        from rtlopt.evaluate._confirm import lasting, needs_second, with_second

        res = self.evaluate(text)
        if not needs_second(res):
            return res
        try:
            proof = self.confirm(self.in_reference_order(text), res)
        except InfrastructureError as exc:
            why = f"the second proof: {exc.one_line()}"
            return dataclasses.replace(res, status=Status.TOOL_ERROR, reason=why)
        out = with_second(self.config.reward, res, proof)
        if lasting(proof):
            kept = dataclasses.replace(out, cached=False)
            with self._lock:
                self._memo[res.source_hash] = kept
            self._cache.store(res.source_hash, kept)
        return out

    def close(self) -> None:
        """Stop long-lived tool workers."""
        if self._parts is not None:
            self._parts.flows.close()
        self._params.close()
        self._configs.close()

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
        violations = screen_candidate(
            text, self.design, dotted_names=self._sv, whole_file=self.whole_file
        )
        violations += event_violations(text, self.design.target.text())
        if violations:
            reason = "rejected by screening: " + "; ".join(violations[:3])
            return dataclasses.replace(
                invalid(rw, Stage.SCREEN, reason, r_syn=0.0), reward=rw.screened
            )
        return None

    def in_reference_order(self, text: str) -> str:
        """``text`` with the target's port list in the reference's order (port order is not
        a design change; the same rewrite is applied to the written-back module)."""
        from rtlopt.harness import in_reference_order

        if not self.reorder_ports:
            return text
        target = self.design.target
        return in_reference_order(text, target.name, [p.name for p in target.ports])

    def evaluate(self, text: str, *, equivalence: bool = True) -> EvalResult:
        """Evaluate one candidate (cached by its exact bytes; a miss is screened first).

        Args:
            text: The candidate's source (the target module and any helper modules).
            equivalence: False measures PPA without the equivalence stages (for changes that
                are not meant to keep behaviour, as in ``rtlopt check``); such a result is
                never ``accepted``-as-equivalent: its ``sim`` and ``formal`` are None.
        """
        start = time.monotonic()
        h = source_hash(text)
        # a text already in the reference's port order gets the same verdict whether or not
        # ports are reordered, so one entry serves both modes; a reordered text is judged in
        # the reference's order, under a key of its own
        ordered = self.in_reference_order(text)
        key = ("" if equivalence else "ppa-") + ("" if ordered == text else "ordered-") + h
        timings: dict[str, float] = {}
        # a stored result was screened by the same code (rtlopt's sources are part of the
        # fingerprint) against the same design and settings: the same bytes pass screening
        # now, so it is served before any screening or tool runs
        stored = self._stored(key, h)
        if stored is not None:
            return dataclasses.replace(stored, cached=True, duration_s=time.monotonic() - start)
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
            return self._evaluate_new(ordered, key, h, equivalence, start, timings)
        finally:
            with self._lock:
                self._inflight.pop(key, None)
            mine.set()

    def _stored(self, key: str, h: str) -> EvalResult | None:
        """The result under ``key`` in memory or on disk (kept in memory), or None."""
        with self._lock:
            hit = self._memo.get(key)
        if hit is not None:
            return hit
        disk = self._cache.load(key)
        if disk is None or disk.source_hash != h:
            return None
        with self._lock:
            self._memo.setdefault(key, disk)
        return disk

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
            res = self._built().pipeline.run(text, d, equivalence, progress, timings)
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


@dataclasses.dataclass(frozen=True)
class _Parts:
    """What an evaluation the cache cannot answer needs, built on the first one."""

    setup: EvalSetup
    flows: FlowPool
    pipeline: Pipeline


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


def _check_encoding(design: Design, config: Config) -> None:
    """Refuse a design whose sources' code holds a byte that is not UTF-8: rtlopt would judge
    another reference than the tools compile (:mod:`rtlopt.frontend._encoding`)."""
    from rtlopt.evaluate._sources import deps_dir, files_read
    from rtlopt.frontend._encoding import check_sources

    read = files_read(design, config.sandbox.timeout_s, deps_dir(config))
    check_sources({*read, *design.prelude, *design.closure, design.target.file})
