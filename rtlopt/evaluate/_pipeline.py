"""The stage pipeline: the equivalence stages in order, then synthesis, the netlist check
(beside timing) and the PPA score.

With ``eval.overlap`` the formal check runs on the calling thread while synthesis and timing
run on another; the verdict is the one of the sequential order.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from rtlopt.errors import EvaluationTimeout, InfrastructureError
from rtlopt.evaluate._candidate import Candidate, Progress, invalid
from rtlopt.evaluate._config_check import ConfigurationCheck
from rtlopt.evaluate._messages import mismatch_reason
from rtlopt.evaluate._netlist import NetlistGold, NetlistOutcome, netlist_check, netlist_sources
from rtlopt.evaluate._param_scope import PENDING, reached, with_configurations, with_defaults
from rtlopt.evaluate._params import ParameterCheck
from rtlopt.evaluate._reference import ReferenceMeasurement
from rtlopt.evaluate._setup import EvalSetup, FlowPool, ppa_metrics
from rtlopt.evaluate._stages import (
    compile_stage,
    formal_stage,
    interface_stage,
    preprocess_stage,
    simulation_stage,
)
from rtlopt.formal.budget import Deadline, within
from rtlopt.results import EvalResult, FormalResult, SimResult, Stage, Status, Verdict

__all__ = ["Pipeline", "refuted_by_proof"]

_Stage = Callable[[EvalSetup, Candidate], EvalResult | None]


class Pipeline:
    """Runs one candidate through the stages (shared by the evaluator's threads)."""

    def __init__(
        self,
        setup: EvalSetup,
        flows: FlowPool,
        reference: ReferenceMeasurement,
        gold: NetlistGold,
        params: ParameterCheck | None = None,
        configs: ConfigurationCheck | None = None,
    ) -> None:
        self._s = setup
        self._flows = flows
        self._reference = reference
        self._gold = gold
        self._params = params
        self._configs = configs

    def run(
        self, text: str, d: Path, equivalence: bool, progress: Progress, timings: dict[str, float]
    ) -> EvalResult:
        """The stages in order, the result with the scope of the parameter check."""
        c = Candidate(text, d, d / "candidate.v", progress, timings=timings)
        res = self._run(c, equivalence)
        if c.unjudged and res.accepted:  # what the verdict leaves out: verification code
            res = dataclasses.replace(res, scope="; ".join(filter(None, [res.scope, c.unjudged])))
        if not c.configurations:
            return res
        rows = with_defaults(c.configurations, c.formal)
        rows = rows if res.accepted else reached(rows)
        scope = c.scope if res.accepted else ""  # a rejection's reason says what failed
        if scope and c.unjudged:
            scope = f"{scope}; {c.unjudged}"
        return dataclasses.replace(res, scope=scope, configurations=rows)

    def _run(self, c: Candidate, equivalence: bool) -> EvalResult:
        """The stages in order; each returns the rejection that ends the evaluation, or None."""
        s = self._s
        c.file.write_text(c.text)
        overlap = equivalence and s.config.eval.overlap and self._flows.flow() is not None
        stages: list[tuple[str, _Stage]] = [
            ("preprocess", preprocess_stage),
            ("compile", compile_stage),
            ("interface", interface_stage),
        ]
        if equivalence:
            stages.append(("simulation", simulation_stage))
        if equivalence and not overlap:
            stages.append(("formal", formal_stage))
        if equivalence and s.config.harness.parameterizations and self._params is not None:
            stages.append(("parameters", self._parameter_stage))
        if equivalence and self._configs is not None:
            stages.append(("configurations", self._configuration_stage))
        for name, stage in stages:
            t0 = time.monotonic()
            try:
                if name in ("formal", "parameters", "configurations"):
                    with within(_deadline(s, c)):
                        rejected = stage(s, c)
                else:
                    rejected = stage(s, c)
            finally:
                c.timings[name] = time.monotonic() - t0
            if rejected is not None:
                return self._traced(c, rejected)
        if c.reach and not equivalence:  # no formal stage to say so (evaluate/_stages.py)
            reason = "unchecked: " + c.reach
            return invalid(s.config.reward, Stage.SCREEN, reason, r_syn=0.0, logs=c.logs)
        if not equivalence:
            return self._synthesize(c, check=False)
        if overlap:
            return self._traced(c, self._formal_and_synthesis(c))
        return self._synthesize(c, check=self._needs_netlist_check(c.formal))

    def _traced(
        self, c: Candidate, res: EvalResult, netlist: tuple[Path, Path] | None = None
    ) -> EvalResult:
        """A refuted candidate with its counterexample replayed as a VCD (``eval.traces``).

        ``netlist``: (synthesized netlist, its gold) for a netlist-check mismatch."""
        s = self._s
        stages = (Stage.SIMULATION, Stage.FORMAL, Stage.NETLIST)
        if not s.config.eval.traces or res.stage not in stages:
            return res
        from rtlopt.evaluate._trace import record_trace
        from rtlopt.harness import power_up_file

        sb = s.config.sandbox
        # what the simulation compiled: the candidate under the power-up model, or the
        # netlist check's netlist (with Yosys's cell models when it still instantiates cells)
        sources = [*c.lib, power_up_file(c.file, s.config.harness.initial_values)]
        reference = s.reference_file
        zero: list[str] = []
        if _from_shared_power_up(res):
            # both sides power up as the search's did: initial values kept, else 0
            sources, reference = [*c.lib, c.file], _initialised_reference(s, c)
            zero = _zeroed(s.tools.target.name, reference, c.file)
        elif _from_stated_power_up(res):
            # both sides from their stated power-up values, the others x (as the proof)
            sources, reference = [*c.lib, c.file], _initialised_reference(s, c)
        if res.stage is Stage.NETLIST:
            if netlist is None:
                return res
            sources, reference = netlist_sources(s, netlist[0]), netlist[1]
        target = s.tools.target
        if res.stage is Stage.FORMAL and target.resets:
            # a reset the repository ties off is not forced by the proof: nor by its replay
            from rtlopt.frontend._reset_ties import reset_ties

            tied = {t.reset for t in reset_ties(s.tools)}
            target = dataclasses.replace(
                target, resets=tuple(r for r in target.resets if r not in tied)
            )
        t0 = time.monotonic()
        traced = record_trace(
            res,
            target=target,
            tb=s.tb,
            sources=sources,
            reference=reference,
            out_dir=c.dir / "trace",
            root=s.workdir,
            include_dirs=s.tools.include_dirs,
            defines=s.tools.defines,
            strict_x=s.config.harness.strict_x,
            timeout=sb.timeout_s,
            memory_mb=sb.memory_mb,
            zero=zero,
        )
        c.timings["trace"] = time.monotonic() - t0
        return traced

    def _parameter_stage(self, s: EvalSetup, c: Candidate) -> EvalResult | None:
        """The repository's other parameterizations of the target (evaluate/_params.py),
        within what is left of the verdict's one time budget (``formal.timeout_s``)."""
        assert self._params is not None
        deadline = _deadline(s, c)
        if c.formal is None:  # the defaults' formal check runs after (beside synthesis)
            deadline = deadline.share(2)
        base = PENDING if c.formal is None else c.formal.verdict.value
        outcome = self._params.check(c.text, deadline, base)
        if outcome is None:
            return None
        c.scope, c.configurations = outcome.scope, outcome.configurations
        if outcome.rejection is None:
            return None
        stage, reason, sub = outcome.rejection
        if sub is not None and sub.status is not Status.INVALID:
            # a tool crash or timeout there is an infrastructure error here too
            return dataclasses.replace(sub, reason=reason, logs=c.logs)
        # the defaults' own simulation (and formal check, when it ran first) as they ended
        return invalid(
            s.config.reward, stage, reason, r_syn=1.0, sim=c.sim, formal=c.formal, logs=c.logs
        )

    def _configuration_stage(self, s: EvalSetup, c: Candidate) -> EvalResult | None:
        """The other configurations of the module's `ifdef in which the candidate reads
        differently, and the other builds of its submodules (evaluate/_config_check.py),
        within the verdict's one time budget; each is a row of the verdict's scope."""
        if not (c.other_configs or c.builds) or self._configs is None:
            return None
        deadline = _deadline(s, c)
        if c.formal is None:  # the defaults' formal check runs after (beside synthesis)
            deadline = deadline.share(2)
        rows: list[dict[str, str]] = []
        rejection = self._configs.check(c.text, c.macros, c.other_configs, deadline, c.builds, rows)
        c.scope, c.configurations = with_configurations(c.scope, c.configurations, rows, c.formal)
        if rejection is None:
            return None
        stage, reason, sub = rejection
        if sub is not None and sub.status is not Status.INVALID:
            return dataclasses.replace(sub, reason=reason, logs=c.logs)
        return invalid(
            s.config.reward, stage, reason, r_syn=1.0, sim=c.sim, formal=c.formal, logs=c.logs
        )

    def _needs_netlist_check(self, formal: FormalResult | None) -> bool:
        mode = self._s.config.eval.netlist_check
        return mode == "always" or (
            mode == "auto" and (formal is None or formal.verdict is not Verdict.PROVEN)
        )

    def _gold_missing(self, c: Candidate) -> EvalResult:
        return invalid(
            self._s.config.reward,
            Stage.NETLIST,
            f"the netlist check is {self._gold.note}",
            r_syn=1.0,
            sim=c.sim,
            formal=c.formal,
            logs=c.logs,
        )

    def _formal_and_synthesis(self, c: Candidate) -> EvalResult:
        """The formal check on this thread while the candidate's synthesis and timing run on
        another, after the reference's measurement (once, it has its own lock).

        The verdict is the one of the sequential order: a formal rejection (or a formal
        timeout/tool error) wins over whatever synthesis found; the netlist check, which
        depends on the formal verdict, waits for it on the flow's second thread. A reference
        not measured yet (one ``evaluate`` or ``check`` on a cold cache) is measured once the
        formal verdict is in: a candidate the proof refutes, or whose proof fails, costs no
        synthesis at all (nothing of it would be shown: :meth:`Evaluator.reference_for`).
        """
        formal_done = threading.Event()
        stop = threading.Event()  # the formal stage refuted the candidate or raised
        refused = threading.Event()  # the formal stage rejected the candidate
        timed: dict[str, float] = {}
        flow = self._flows.flow()

        def measure() -> tuple[EvalResult, Any]:
            t0 = time.monotonic()
            try:
                if self._reference.known() is None:
                    formal_done.wait()  # not measured yet: only for a verdict that needs it
                if stop.is_set():
                    return self._reference.unmeasured(), None
                ref = self._reference.get(flow)
                if refused.is_set():  # shown beside the rejection: nothing to compare
                    return ref, None
                # the netlist check's gold is chosen by the reference's measurement
                along = self._overlapped_check(c, formal_done)
                return ref, self._flows.measure([*c.lib, c.file], c.dir / "ppa", along, flow)
            finally:
                timed["synthesis"] = time.monotonic() - t0

        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rtlopt-synth")
        rejected: EvalResult | None = None
        try:
            synth = pool.submit(measure)
            t0 = time.monotonic()
            try:
                with within(_deadline(self._s, c)):
                    rejected = formal_stage(self._s, c)
            except BaseException:
                stop.set()
                raise
            finally:
                c.timings["formal"] = time.monotonic() - t0
                if rejected is not None:
                    refused.set()
                    if refuted_by_proof(rejected):
                        stop.set()
                formal_done.set()
            try:
                ref, meas = synth.result()
                synth_error: BaseException | None = None
            except (InfrastructureError, EvaluationTimeout) as exc:
                meas, synth_error = None, exc
        finally:
            formal_done.set()
            pool.shutdown(wait=True)
        c.timings["synthesis"] = timed.get("synthesis", 0.0)
        if rejected is not None:
            return rejected
        if synth_error is not None:
            c.progress.stage = Stage.SYNTHESIS
            raise synth_error
        assert meas is not None and ref.ppa is not None
        return self._after_overlap(c, ref, meas)

    def _overlapped_check(
        self, c: Candidate, formal_done: threading.Event
    ) -> Callable[[Path], Any] | None:
        """The netlist check for the flow's second thread: it waits for the formal verdict
        and runs only when that verdict asks for it."""
        gold = self._gold.path
        if self._s.config.eval.netlist_check == "never" or gold is None:
            return None

        def along(netlist: Path) -> NetlistOutcome | None:
            formal_done.wait()
            if c.formal is None or not self._needs_netlist_check(c.formal):
                return None
            return netlist_check(self._s, c.dir / "netlist", gold, netlist)

        return along

    def _after_overlap(self, c: Candidate, ref: EvalResult, meas: Any) -> EvalResult:
        _record_flow_timings(c.timings, meas.timings)
        check = self._needs_netlist_check(c.formal)
        if check and self._gold.path is None:
            return self._gold_missing(c)
        if not check:
            c.timings.pop("netlist", None)  # the callable only waited for the formal verdict
        return self._score(c, ref, meas, check=check)

    def _synthesize(self, c: Candidate, *, check: bool) -> EvalResult:
        """Synthesis, the netlist check (beside timing) and timing/power."""
        rw = self._s.config.reward
        if self._flows.flow() is None:
            return EvalResult(
                status=Status.OK,
                stage=Stage.DONE,
                reward=rw.w_syn + rw.w_func,
                r_syn=1.0,
                r_func=1.0,
                sim=c.sim,
                formal=c.formal,
                logs=c.logs,
            )
        ref = self._reference.get()
        assert ref.ppa is not None
        along = None
        if check:
            gold = self._gold.path
            if gold is None:
                return self._gold_missing(c)
            along = functools.partial(netlist_check, self._s, c.dir / "netlist", gold)
        c.progress.stage = Stage.SYNTHESIS
        t0 = time.monotonic()
        try:
            meas = self._flows.measure([*c.lib, c.file], c.dir / "ppa", alongside=along)
        finally:
            c.timings.setdefault("synthesis", time.monotonic() - t0)
        _record_flow_timings(c.timings, meas.timings)
        return self._score(c, ref, meas, check=along is not None)

    def _score(self, c: Candidate, ref: EvalResult, meas: Any, *, check: bool) -> EvalResult:
        """The netlist check's verdict, then the PPA reward of a measured candidate."""
        assert ref.ppa is not None
        rw = self._s.config.reward
        c.logs.update(meas.logs)
        netlist: SimResult | None = None
        if check:
            netlist, rejected = self._netlist_verdict(c, meas.alongside)
            if rejected is not None:
                gold, generic = self._gold.path, meas.generic_netlist
                pair = (generic, gold) if generic is not None and gold is not None else None
                return self._traced(c, rejected, pair)
        kind = self._s.config.flow.metric_kind
        m_ref, m = ref.ppa.metric(kind), meas.ppa.metric(kind)
        r_ppa = m_ref / m if m > 0 else 0.0
        c.progress.stage = Stage.DONE
        return EvalResult(
            status=Status.OK,
            stage=Stage.DONE,
            reward=rw.w_syn + rw.w_func + rw.w_ppa * r_ppa,
            r_syn=1.0,
            r_func=1.0,
            r_ppa=r_ppa,
            ppa=meas.ppa,
            sim=c.sim,
            formal=c.formal,
            netlist=netlist,
            metrics=ppa_metrics(meas.ppa),
            logs=c.logs,
        )

    def _netlist_verdict(
        self, c: Candidate, outcome: NetlistOutcome
    ) -> tuple[SimResult | None, EvalResult | None]:
        """The netlist check's result and the rejection it makes, if any.

        Raises:
            EvaluationTimeout: the netlist simulation ran out of time (never scored).
        """
        c.progress.stage = Stage.NETLIST
        c.logs["netlist"] = str(c.dir / "netlist")
        if outcome.timeout:
            raise EvaluationTimeout(
                f"netlist check: {outcome.reason}", hint=f"see {c.dir / 'netlist'}"
            )
        netlist = outcome.result
        if netlist is not None and netlist.passed:
            return netlist, None
        reason = "the synthesized netlist is not equivalent to the reference"
        if netlist is not None and netlist.first_mismatch is not None:
            reason = mismatch_reason(reason, netlist)
        elif outcome.reason:
            reason += f": {outcome.reason}"
        rejected = invalid(
            self._s.config.reward,
            Stage.NETLIST,
            reason,
            r_syn=1.0,
            sim=c.sim,
            formal=c.formal,
            netlist=netlist,
            logs=c.logs,
        )
        return netlist, rejected


def _from_shared_power_up(res: EvalResult) -> bool:
    """A refutation by a failing input from the power-up state the reference and the
    candidate share (``rtlopt.formal.powerup_search``)."""
    from rtlopt.formal import POWERUP_METHOD

    return res.formal is not None and res.formal.method == POWERUP_METHOD


def _from_stated_power_up(res: EvalResult) -> bool:
    """A refutation from the stated power-up values (``rtlopt.formal.engines.stated``)."""
    from rtlopt.formal.engines.stated import METHOD

    return res.formal is not None and res.formal.method.endswith(METHOD)


def _initialised_reference(s: EvalSetup, c: Candidate) -> Path:
    """The renamed reference with its initial values (the formal check's text), which
    simulation's copy drops (``harness.initial_values``)."""
    if s.formal_reference is not None:
        return s.formal_reference
    from rtlopt.harness import reference_text

    out = c.dir / "reference_initialised.v"
    out.write_text(reference_text(s.tools))
    return out


def _zeroed(name: str, reference: Path, candidate: Path) -> list[str]:
    """The replay testbench's names of the target's registers without an initial value, in
    the reference and the candidate (the search gave them 0); submodules keep theirs, and
    an escaped name is left out (the replay then shows it x)."""
    from rtlopt.evaluate._replay_files import CAND_INSTANCE, REF_INSTANCE
    from rtlopt.harness import ref_name, uninitialised_registers

    try:
        ref = uninitialised_registers(reference.read_text(errors="replace"), ref_name(name))
        cand = uninitialised_registers(candidate.read_text(errors="replace"), name)
    except (OSError, RuntimeError):  # no names: the replay keeps the initial values alone
        return []
    plain = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
    return [f"{REF_INSTANCE}.{n}" for n in ref if plain.fullmatch(n)] + [
        f"{CAND_INSTANCE}.{n}" for n in cand if plain.fullmatch(n)
    ]


def refuted_by_proof(result: EvalResult) -> bool:
    """``result`` is a formal refutation: the proof read the reference and the candidate
    and found them to differ (the reference's own text is readable by the tools)."""
    return (
        result.stage is Stage.FORMAL
        and not result.is_infrastructure_error
        and result.formal is not None
        and result.formal.verdict is Verdict.REFUTED
    )


def _deadline(s: EvalSetup, c: Candidate) -> Deadline:
    """The candidate's one verdict deadline, ``formal.timeout_s`` from its first formal or
    parameter check (``rtlopt.formal.budget``)."""
    if c.deadline is None:
        c.deadline = Deadline.after(s.config.formal.timeout_s)
    return c.deadline


def _record_flow_timings(timings: dict[str, float], flow: Mapping[str, float]) -> None:
    """The flow's own split of its wall time: synthesis, timing, and the netlist check beside
    timing."""
    for key, name in (
        ("synth_s", "synthesis"),
        ("alongside_s", "netlist"),
        ("sta_s", "timing"),
        ("activity_s", "activity"),
    ):
        if key in flow:
            timings[name] = flow[key]
