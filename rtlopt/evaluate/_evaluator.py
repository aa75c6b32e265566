"""The three-stage evaluator: syntax -> equivalence -> synthesis PPA.

Stages stop at the first failure: screen, compile (error count gives r_syn), interface,
simulation against the renamed reference, formal equivalence, synthesis, timing/power. The
reward is ``w_syn*r_syn + w_func*r_func + w_ppa*M_ref/M``. Tool crashes and timeouts give
``Status.TOOL_ERROR`` / ``Status.TIMEOUT`` with no reward: they are never scored.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import os
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from rtlopt.config import Config, to_dict
from rtlopt.eda._run import tool_versions
from rtlopt.errors import DesignError, EvaluationTimeout, InfrastructureError, ToolFailed
from rtlopt.evaluate._sources import library_files, source_hash
from rtlopt.evaluate.result import (
    PPA,
    EvalResult,
    FormalResult,
    Metric,
    SimResult,
    Stage,
    Status,
    Verdict,
)
from rtlopt.frontend.model import Design, Module

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
        from rtlopt.harness import build_testbench, reference_text

        self.design = design
        self.config = config
        self.pdk = pdk
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self._secret = secrets.token_hex(16)
        self._tb = build_testbench(design, config.harness, self._secret)
        self._ref_text = reference_text(design)
        self._local = threading.local()
        self._flows: list[Any] = []
        self._lock = threading.Lock()
        self._memo: dict[str, EvalResult] = {}
        self._reference: EvalResult | None = None
        self._versions = tool_versions(("iverilog", "vvp", "yosys", "sta"))
        self._counter = 0
        self._shared_dir = workdir / "shared"
        self._shared_dir.mkdir(exist_ok=True)
        (self._shared_dir / "reference.v").write_text(self._ref_text)
        self._fingerprint = self._make_fingerprint()
        self._cache_dir = self._make_cache_dir()

    # ------------------------------------------------------------------ bookkeeping

    def _make_fingerprint(self) -> str:
        cfg = self.config
        parts: dict[str, Any] = {
            "target": self.design.target.name,
            "ref": hashlib.sha256(self._ref_text.encode()).hexdigest(),
            "harness": to_dict(cfg.harness),
            "formal": to_dict(cfg.formal),
            "flow": to_dict(cfg.flow),
            "reward": to_dict(cfg.reward),
            "pdk": getattr(self.pdk, "md5", None) or getattr(self.pdk, "name", None),
            "tools": self._versions,
            "code": _code_fingerprint(),
        }
        return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[
            :16
        ]

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
    def metric_kind(self) -> str:
        """``adp`` or ``ppa``: the figure of merit in use."""
        return self.config.flow.metric_kind

    def provenance(self) -> dict[str, Any]:
        """Tool versions, flow settings and seeds behind every number."""
        prov: dict[str, Any] = {
            "tools": dict(self._versions),
            "harness": to_dict(self.config.harness),
            "formal": to_dict(self.config.formal),
            "reward": to_dict(self.config.reward),
            "metric": self.metric_kind,
            "evaluator_fingerprint": self._fingerprint,
        }
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
        """Stop long-lived tool workers."""
        with self._lock:
            flows, self._flows = self._flows, []
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
        """Synthesize the original module; its reward is w_syn + w_func + w_ppa by definition."""
        if self._reference is not None:
            return self._reference
        rw = self.config.reward
        start = time.monotonic()
        d = self._scratch("reference")
        ppa: PPA | None = None
        logs: dict[str, str] = {}
        if self._flow() is not None:
            from rtlopt.eda.yosys import reference_error

            try:
                meas = self._measure(list(self.design.closure), d)
            except ToolFailed as exc:  # the user's own design: an input error when Yosys says so
                raise reference_error(exc) from exc
            ppa, logs = meas.ppa, dict(meas.logs)
        self._reference = EvalResult(
            status=Status.OK,
            stage=Stage.DONE,
            reward=rw.w_syn + rw.w_func + rw.w_ppa,
            r_syn=1.0,
            r_func=1.0,
            r_ppa=1.0,
            ppa=ppa,
            metrics=_ppa_metrics(ppa) if ppa else {},
            source_hash=source_hash(self.design.target.text()),
            logs=logs,
            provenance=self.provenance(),
            duration_s=time.monotonic() - start,
        )
        return self._reference

    def _measure(self, files: Sequence[Path], d: Path) -> Any:
        flow = self._flow()
        assert flow is not None
        return flow.measure(
            files,
            self.design.target.name,
            self.design.target.clocks,
            d,
            include_dirs=self.design.include_dirs,
            defines=self.design.defines,
        )

    # ------------------------------------------------------------------ candidates

    def evaluate(self, text: str, *, equivalence: bool = True) -> EvalResult:
        """Evaluate one candidate (cached by normalized source hash).

        Args:
            text: The candidate's source (the target module and any helper modules).
            equivalence: False measures PPA without the equivalence stages (for changes that
                are not meant to keep behaviour, as in ``rtlopt check``); such a result is
                never ``accepted``-as-equivalent: its ``sim`` and ``formal`` are None.
        """
        h = source_hash(text) if equivalence else "ppa-" + source_hash(text)
        with self._lock:
            hit = self._memo.get(h)
        if hit is not None:
            return dataclasses.replace(hit, cached=True)
        disk = self._cache_load(h)
        if disk is not None:
            with self._lock:
                self._memo[h] = disk
            return dataclasses.replace(disk, cached=True)
        start = time.monotonic()
        d = self._scratch(h)
        try:
            res = self._evaluate(text, h, d, equivalence)
        except EvaluationTimeout as exc:
            res = EvalResult(
                status=Status.TIMEOUT, stage=self._stage_of(d), reason=exc.one_line(), source_hash=h
            )
        except InfrastructureError as exc:
            res = EvalResult(
                status=Status.TOOL_ERROR,
                stage=self._stage_of(d),
                reason=exc.one_line(),
                source_hash=h,
            )
        res = dataclasses.replace(
            res,
            duration_s=time.monotonic() - start,
            source_hash=h,
            provenance={"evaluator_fingerprint": self._fingerprint},
        )
        if not self.config.eval.keep_scratch and res.status is Status.OK:
            pass  # keep logs of accepted candidates for the report; others are small too
        with self._lock:
            self._memo[h] = res
        if not res.is_infrastructure_error:
            self._cache_store(h, res)
        return res

    def _stage_of(self, d: Path) -> Stage:
        marker = d / "STAGE"
        try:
            return Stage(marker.read_text().strip())
        except (OSError, ValueError):
            return Stage.SCREEN

    def _cache_load(self, h: str) -> EvalResult | None:
        if self._cache_dir is None:
            return None
        f = self._cache_dir / f"{h}.json"
        try:
            return EvalResult.from_json(json.loads(f.read_text()))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _cache_store(self, h: str, res: EvalResult) -> None:
        if self._cache_dir is None:
            return
        # unique across processes too (thread idents repeat between processes)
        tmp = self._cache_dir / f".{h}.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            tmp.write_text(json.dumps(res.to_json(), default=str))
            os.replace(tmp, self._cache_dir / f"{h}.json")
        except OSError:
            log.debug("cache write failed for %s", h)

    def evaluate_many(
        self, texts: Sequence[str], progress: Progress | None = None
    ) -> list[EvalResult]:
        """Evaluate a batch on a thread pool (workers each keep their own tool processes)."""
        workers = self.config.eval.workers or (os.cpu_count() or 1)
        workers = max(1, min(workers, len(texts)))
        results: list[EvalResult | None] = [None] * len(texts)

        def job(i: int) -> None:
            results[i] = self.evaluate(texts[i])
            if progress is not None:
                progress(i, results[i])  # type: ignore[arg-type]

        if workers == 1:
            for i in range(len(texts)):
                job(i)
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                list(pool.map(job, range(len(texts))))
        return [r for r in results if r is not None]

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

    def _evaluate(self, text: str, h: str, d: Path, equivalence: bool) -> EvalResult:
        from rtlopt.eda.iverilog import compile_sources, simulate, syntax_score
        from rtlopt.frontend import parse_text
        from rtlopt.harness import screen_candidate

        cfg = self.config
        sb = cfg.sandbox
        target = self.design.target
        stage_marker = d / "STAGE"

        def enter(stage: Stage) -> None:
            stage_marker.write_text(stage.value)

        enter(Stage.SCREEN)
        if len(text.encode()) > sb.max_source_bytes:
            return self._invalid(
                Stage.SCREEN, f"candidate larger than {sb.max_source_bytes} bytes", r_syn=0.0
            )
        violations = screen_candidate(text, self.design)
        if violations:
            return self._invalid(
                Stage.SCREEN, "rejected by screening: " + "; ".join(violations[:3]), r_syn=0.0
            )
        cand = d / "candidate.v"
        cand.write_text(text)

        # Stage 1: syntax. Parse to learn which modules the candidate defines and uses.
        enter(Stage.COMPILE)
        try:
            mods: list[Module] = parse_text(text, "candidate.v")
            defined = [m.name for m in mods]
            used = sorted({i for m in mods for i in m.instances} - set(defined))
        except DesignError:
            mods, defined, used = [], [], []
        lib = library_files(self.design, defined, used, d / "lib")
        comp = compile_sources(
            [*lib, cand],
            d,
            top=target.name,
            include_dirs=self.design.include_dirs,
            defines=self.design.defines,
            out=d / "candidate.vvp",
            timeout=sb.timeout_s,
            memory_mb=sb.memory_mb,
        )
        logs = {"compile": str(comp.log_path)}
        if not comp.ok:
            return self._invalid(
                Stage.COMPILE,
                f"does not compile: {comp.n_errors} error(s)",
                r_syn=syntax_score(comp, cfg.reward),
                compile_errors=comp.n_errors,
                logs=logs,
            )
        if not mods:
            return self._invalid(
                Stage.COMPILE,
                "the parser rejects the candidate",
                r_syn=cfg.reward.unparseable_syn,
                logs=logs,
            )

        # Interface: same ports, directions, widths, signedness.
        enter(Stage.INTERFACE)
        problem = interface_problem(target, {m.name: m for m in mods})
        if problem:
            return self._invalid(
                Stage.INTERFACE, problem, r_syn=cfg.reward.port_error_factor, logs=logs
            )
        if not equivalence:
            return self._synthesize(lib, cand, d, logs, None, None)

        # Stage 2: equivalence by simulation against the renamed reference.
        enter(Stage.SIMULATION)
        tb_dir = d / "tb"
        tb_dir.mkdir()
        tb_file = tb_dir / "rtlopt_tb.v"
        tb_file.write_text(self._tb.text)
        for name, content in self._tb.files.items():
            (d / name).write_text(content)
        sim_comp = compile_sources(
            [*lib, cand, self._shared_dir / "reference.v", tb_file],
            d,
            top="rtlopt_tb",
            include_dirs=self.design.include_dirs,
            defines=self.design.defines,
            out=d / "sim.vvp",
            timeout=sb.timeout_s,
            memory_mb=sb.memory_mb,
        )
        logs["sim_compile"] = str(sim_comp.log_path)
        if not sim_comp.ok:
            return self._invalid(
                Stage.SIMULATION,
                "does not compile beside the reference: " + _first_error(sim_comp.output),
                r_syn=cfg.reward.port_error_factor,
                logs=logs,
            )
        sim: SimResult = simulate(
            d / "sim.vvp",
            d,
            timeout=min(sb.timeout_s, cfg.harness.sim_timeout_s),
            memory_mb=sb.memory_mb,
            secret=self._secret,
            classes=self._tb.classes,
        )
        logs["simulation"] = str(d / "sim.log")
        if not sim.passed:
            reason = "not equivalent in simulation"
            if sim.first_mismatch is not None:
                fm = sim.first_mismatch
                ins = ", ".join(f"{k}={v}" for k, v in list(fm.inputs.items())[:6])
                reason += f": {fm.output} expected {fm.expected} got {fm.got} at {fm.time}"
                if ins:
                    reason += f" for inputs {ins}"
            return self._invalid(Stage.SIMULATION, reason, r_syn=1.0, sim=sim, logs=logs)

        # Formal equivalence where Yosys can decide it.
        enter(Stage.FORMAL)
        formal: FormalResult
        if cfg.formal.enabled:
            from rtlopt.eda.formal import check_equivalence

            formal = check_equivalence(
                self.design, [*lib, cand], d / "formal", cfg.formal, memory_mb=sb.memory_mb
            )
            logs["formal"] = str(d / "formal")
            if formal.verdict is Verdict.REFUTED:
                cex = ", ".join(f"{k}={v}" for k, v in list(formal.counterexample.items())[:6])
                return self._invalid(
                    Stage.FORMAL,
                    f"formally not equivalent (counterexample: {cex})",
                    r_syn=1.0,
                    sim=sim,
                    formal=formal,
                    logs=logs,
                )
            if formal.verdict is not Verdict.PROVEN and cfg.formal.require_proof:
                return self._invalid(
                    Stage.FORMAL,
                    f"equivalence not proven: {formal.reason}",
                    r_syn=1.0,
                    sim=sim,
                    formal=formal,
                    logs=logs,
                )
        else:
            formal = FormalResult(Verdict.SKIPPED, "disabled", "formal.enabled = false")

        return self._synthesize(lib, cand, d, logs, sim, formal)

    def _synthesize(
        self,
        lib: Sequence[Path],
        cand: Path,
        d: Path,
        logs: dict[str, str],
        sim: SimResult | None,
        formal: FormalResult | None,
    ) -> EvalResult:
        """Stage 3: synthesis and timing/power."""
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
        (d / "STAGE").write_text(Stage.SYNTHESIS.value)
        meas = self._measure([*lib, cand], d / "ppa")
        logs.update(meas.logs)
        ref = self.reference()
        assert ref.ppa is not None
        kind = self.metric_kind
        m_ref, m = ref.ppa.metric(kind), meas.ppa.metric(kind)
        r_ppa = m_ref / m if m > 0 else 0.0
        (d / "STAGE").write_text(Stage.DONE.value)
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
            metrics=_ppa_metrics(meas.ppa),
            logs=logs,
        )


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


def make_workdir(prefix: str = "rtlopt-eval-") -> Path:
    """A fresh scratch root in the system temp folder."""
    return Path(tempfile.mkdtemp(prefix=prefix))
