"""`rtlopt check`: guard a repository's modules on every commit or pull request.

For every Verilog file changed against a base revision (HEAD for a pre-commit hook, the merge
base with ``--base REF`` in CI), each changed module is checked against its version at the base:
the interface must be unchanged; modules the configuration marks as optimization-only must be
equivalent (simulation and formal); and the figure of merit must not worsen by more than
``check.ppa_threshold``.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import logging
import os
import shutil
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.config import Config, load_config
from rtlopt.errors import DesignError
from rtlopt.evaluate import Evaluator, interface_problem
from rtlopt.results import EvalResult, Status, Verdict

log = logging.getLogger(__name__)


@dataclass
class ModuleCheck:
    """The verdict on one changed module."""

    file: str
    module: str
    change: str  # modified, added, removed
    interface: str = "same"  # "same" or what changed
    equivalence: str = "-"  # proven, unknown, refuted, mismatch, not required
    before: Any = None  # PPA
    after: Any = None  # PPA
    metric_change: float | None = None  # relative change of the figure of merit
    findings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings


@dataclass
class CheckReport:
    base: str
    metric: str
    threshold: float
    modules: list[ModuleCheck]

    @property
    def ok(self) -> bool:
        return all(m.ok for m in self.modules)

    def markdown(self) -> str:
        lines = [
            f"### rtlopt check against `{self.base[:12]}`",
            "",
            "| module | file | change | interface | equivalence | area | delay | "
            f"{self.metric.upper()} | result |",
            "|---|---|---|---|---|---:|---:|---:|---|",
        ]
        for m in self.modules:

            def delta(attr: str, m: ModuleCheck = m) -> str:
                if m.before is None or m.after is None:
                    return "-"
                old, new = getattr(m.before, attr), getattr(m.after, attr)
                return f"{(new / old - 1) * 100:+.1f}%" if old else "-"

            mc = f"{m.metric_change * 100:+.1f}%" if m.metric_change is not None else "-"
            result = "pass" if m.ok else "FAIL: " + "; ".join(m.findings)
            lines.append(
                f"| `{m.module}` | `{m.file}` | {m.change} | {m.interface} | {m.equivalence} "
                f"| {delta('area_um2')} | {delta('delay_ps')} | {mc} | {result} |"
            )
        if not self.modules:
            lines.append("| - | - | no Verilog module changed | | | | | | pass |")
        return "\n".join(lines) + "\n"


def _optimization_only(cfg: Config, rel: str, name: str) -> bool:
    """Whether a module must stay equivalent: patterns match module names or file paths."""
    return any(
        fnmatch.fnmatchcase(name, pat) or fnmatch.fnmatchcase(rel, pat)
        for pat in cfg.check.optimization_only
    )


def run_check(
    start: Path,
    files: Sequence[Path] = (),
    *,
    base: str | None = None,
    overrides: dict[str, Any] | None = None,
    pdk: Any | None = None,
) -> CheckReport:
    """Check the changed modules of the repository containing ``start``.

    Args:
        start: A path inside the repository.
        files: Files to check (pre-commit passes the staged ones); default: every changed file.
        base: Compare with the merge base of this revision; default: HEAD vs the index.
        overrides: Configuration overrides (dotted keys).
        pdk: A resolved PDK for the PPA comparison, or None to resolve ``flow.pdk``.
    """
    from rtlopt.check._git import changed_files, export_tree, new_content, open_repo, resolve_base
    from rtlopt.frontend import parse_text

    repo, top = open_repo(start)
    cfg = load_config(top, overrides=overrides).config
    if cfg.sandbox.require == "auto":  # a gate: never judge a commit with unsandboxed tools
        cfg = dataclasses.replace(cfg, sandbox=dataclasses.replace(cfg.sandbox, require="always"))
    staged = base is None
    base_rev = resolve_base(repo, base)
    if files:
        rels = []
        for f in files:
            p = Path(f).resolve() if Path(f).is_absolute() else (Path.cwd() / f).resolve()
            try:
                rels.append(str(p.relative_to(top)))
            except ValueError:
                raise DesignError("file is outside the repository", path=f) from None
        wanted = set(changed_files(repo, base_rev, staged=staged))
        rels = [r for r in rels if r in wanted]
    else:
        rels = changed_files(repo, base_rev, staged=staged)
    if pdk is None and cfg.check.ppa:
        from rtlopt.session import resolve_pdk

        pdk = resolve_pdk(cfg.flow)
    modules: list[ModuleCheck | _Job] = []
    if not rels:  # nothing changed: no export, no tools
        return CheckReport(base_rev, cfg.flow.metric_kind, cfg.check.ppa_threshold, [])
    tmp = Path(tempfile.mkdtemp(prefix="rtlopt-check-"))
    try:
        base_tree = export_tree(repo, base_rev, tmp / "base")
        for rel in rels:
            text = new_content(repo, top, rel, staged=staged)
            if text is None:
                continue
            new_mods = {m.name: m for m in parse_text(text, rel)}
            old_path = base_tree / rel
            old_text = old_path.read_text(errors="replace") if old_path.exists() else ""
            old_mods = {m.name: m for m in parse_text(old_text, rel)} if old_text else {}
            for name, mod in new_mods.items():
                new_src = text[mod.start : mod.end]
                if name not in old_mods:
                    modules.append(ModuleCheck(rel, name, "added", notes=["new module"]))
                    continue
                old = old_mods[name]
                # any byte counts: a comment can be a tool directive (translate_off, full_case)
                if old_text[old.start : old.end] == new_src:
                    continue
                modules.append(_Job(rel, name, new_src))
            for name in old_mods:
                if name not in new_mods:
                    modules.append(ModuleCheck(rel, name, "removed", notes=["module removed"]))
        done = _run_jobs(cfg, base_tree, [m for m in modules if isinstance(m, _Job)], pdk, tmp)
        checked = [done[id(m)] if isinstance(m, _Job) else m for m in modules]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return CheckReport(base_rev, cfg.flow.metric_kind, cfg.check.ppa_threshold, checked)


@dataclass(frozen=True)
class _Job:
    """A changed module waiting for its evaluation."""

    rel: str
    name: str
    new_src: str


def _run_jobs(
    cfg: Config, base_tree: Path, jobs: Sequence[_Job], pdk: Any, tmp: Path
) -> dict[int, ModuleCheck]:
    """Evaluate the changed modules, several at once (``eval.workers``; 0: one per core):
    each has its own evaluator and tools, and the order of the report stays the file order."""
    workers = max(1, min(cfg.eval.workers or (os.cpu_count() or 1), len(jobs)))

    def one(job: _Job) -> ModuleCheck:
        # a folder per job: two files may define modules of one name
        return _check_module(
            cfg, base_tree, job.rel, job.name, job.new_src, pdk, tmp / f"job{jobs.index(job)}"
        )

    if workers == 1:
        return {id(j): one(j) for j in jobs}
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rtlopt-check") as pool:
        return {id(j): r for j, r in zip(jobs, pool.map(one, jobs), strict=True)}


def _trace_notes(res: EvalResult) -> list[str]:
    """The failing input and the kept waveform of a refuted module (its scratch folder goes)."""
    from rtlopt.evaluate import failing_lines, keep_trace, load_replay

    kept = keep_trace(res)
    path = kept.logs.get("trace")
    return failing_lines(load_replay(Path(path))) if path else []


def _check_module(
    cfg: Config, base_tree: Path, rel: str, name: str, new_src: str, pdk: Any, tmp: Path
) -> ModuleCheck:
    from rtlopt.frontend import load_design, parse_text

    mc = ModuleCheck(rel, name, "modified")
    design = load_design(base_tree / rel, name, cfg.project)
    cand_mods = {m.name: m for m in parse_text(new_src, rel, sources=design.sources)}
    problem = interface_problem(design.target, cand_mods)
    if problem:
        mc.interface = problem
        mc.findings.append(f"interface changed: {problem}")
        return mc
    opt_only = _optimization_only(cfg, rel, name)
    with Evaluator(design, cfg, tmp / f"eval-{name}", pdk if cfg.check.ppa else None) as ev:
        res: EvalResult = ev.evaluate(new_src, equivalence=opt_only)
        ref = ev.reference() if cfg.check.ppa else None
        kind = ev.metric_kind
    if res.is_infrastructure_error:
        mc.findings.append(f"could not be checked: {res.reason}")
        return mc
    if opt_only:
        if res.status is not Status.OK:
            mc.equivalence = (
                "refuted" if res.formal and res.formal.verdict is Verdict.REFUTED else "mismatch"
            )
            mc.findings.append(res.reason)
            mc.notes += _trace_notes(res)
            return mc
        mc.equivalence = res.formal.verdict.value if res.formal else "simulated"
        if res.formal and res.formal.verdict is Verdict.UNKNOWN:
            mc.notes.append(f"formal: {res.formal.reason}")
    else:
        mc.equivalence = "not required"
        if res.status is not Status.OK:
            mc.findings.append(res.reason)
            return mc
    if ref is not None and ref.ppa is not None and res.ppa is not None:
        mc.before, mc.after = ref.ppa, res.ppa
        old, new = ref.ppa.metric(kind), res.ppa.metric(kind)
        mc.metric_change = new / old - 1 if old else None
        if mc.metric_change is not None and mc.metric_change > cfg.check.ppa_threshold:
            mc.findings.append(
                f"{kind.upper()} worse by {mc.metric_change * 100:.1f}% "
                f"(threshold {cfg.check.ppa_threshold * 100:.1f}%)"
            )
    return mc
