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
import re
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rtlopt.config import Config, load_config
from rtlopt.errors import DesignError
from rtlopt.evaluate import Evaluator
from rtlopt.results import EvalResult, Stage, Status, Verdict
from rtlopt.verilog import ModuleSpan, module_spans

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
    tool_error: bool = False  # a tool crashed or timed out: not checked, no verdict
    proof: str = ""  # the second proof's replay folder (kept with run_check(proofs=...))

    @property
    def ok(self) -> bool:
        return not self.findings


@dataclass
class CheckReport:
    base: str
    metric: str
    threshold: float
    modules: list[ModuleCheck]
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(m.ok for m in self.modules)

    @property
    def could_not_check(self) -> bool:
        """Only tool failures stand in the way (exit 3, not a finding against the change)."""
        return not self.ok and all(m.ok or m.tool_error for m in self.modules)

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


def _relative(files: Sequence[Path], top: Path) -> list[str]:
    rels = []
    for f in files:
        p = Path(f).resolve() if Path(f).is_absolute() else (Path.cwd() / f).resolve()
        try:
            rels.append(p.relative_to(top).as_posix())
        except ValueError:
            raise DesignError("file is outside the repository", path=f) from None
    return rels


def run_check(
    start: Path,
    files: Sequence[Path] = (),
    *,
    base: str | None = None,
    overrides: dict[str, Any] | None = None,
    pdk: Any | None = None,
    proofs: Path | None = None,
) -> CheckReport:
    """Check the changed modules of the repository containing ``start``.

    Each changed module is judged in the context ``rtlopt evaluate`` uses: the repository
    after the change (the index for a commit, the work tree in CI, plus untracked files git
    does not ignore) with the changed files at their base version as the reference; the new
    file is the candidate, so messages point at its own lines.

    Args:
        start: A path inside the repository.
        files: Files to check (pre-commit passes the staged ones); default: every changed file.
            A named file whose change is not staged is judged from the work tree (noted).
        base: Compare with the merge base of this revision; default: HEAD vs the index.
        overrides: Configuration overrides (dotted keys).
        pdk: A resolved PDK for the PPA comparison, or None to resolve ``flow.pdk``.
        proofs: A folder receiving each proven module's replay files (the second proof's
            miter and ``replay.sh``, :mod:`rtlopt.formal.second`) as ``<module>/``.
    """
    from rtlopt.check._git import changed_files, open_repo, resolve_base

    repo, top = open_repo(start)
    cfg = load_config(top, overrides=overrides).config
    if cfg.sandbox.require == "auto":  # a gate: never judge a commit with unsandboxed tools
        cfg = dataclasses.replace(cfg, sandbox=dataclasses.replace(cfg.sandbox, require="always"))
    staged = base is None
    base_rev = resolve_base(repo, base)
    unstaged: set[str] = set()
    if files:
        wanted = set(changed_files(repo, base_rev, staged=staged))
        rels = []
        for r in _relative(files, top):
            if r in wanted:
                rels.append(r)
            elif staged and r in changed_files(repo, base_rev, staged=False):
                rels.append(r)  # named on the command line, edited but not staged
                unstaged.add(r)
    else:
        rels = changed_files(repo, base_rev, staged=staged)
    if pdk is None and cfg.check.ppa:
        from rtlopt.session import resolve_pdk

        pdk = resolve_pdk(cfg.flow)
    if not rels:  # nothing changed: no export, no tools
        report = CheckReport(base_rev, cfg.flow.metric_kind, cfg.check.ppa_threshold, [])
        pending = changed_files(repo, base_rev, staged=False) if staged else []
        if pending:
            report.notes.append(
                f"not staged, so not checked: {', '.join(pending[:5])}"
                + (" ..." if len(pending) > 5 else "")
                + " (git add them, or name them: rtlopt check FILE)"
            )
        return report
    tmp = Path(tempfile.mkdtemp(prefix="rtlopt-check-"))
    try:
        checked = _check_files(cfg, repo, top, base_rev, rels, unstaged, staged, pdk, tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    _keep_proofs(checked, proofs)
    if any(m.tool_error for m in checked):  # the crashed tool's log is named in the finding
        log.warning("logs of the tool failure kept in %s", tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return CheckReport(base_rev, cfg.flow.metric_kind, cfg.check.ppa_threshold, checked)


def _keep_proofs(checked: Sequence[ModuleCheck], proofs: Path | None) -> None:
    """Copy the replay folders out of the scratch folder (``proofs``), or forget them."""
    for mc in checked:
        if mc.proof and proofs is not None and Path(mc.proof).is_dir():
            dest = proofs / mc.module
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(mc.proof, dest)
            mc.proof = str(dest)
        else:
            mc.proof = ""


def _check_files(
    cfg: Config,
    repo: Any,
    top: Path,
    base_rev: str,
    rels: Sequence[str],
    unstaged: set[str],
    staged: bool,
    pdk: Any,
    tmp: Path,
) -> list[ModuleCheck]:
    """The changed modules of ``rels``: added and removed ones noted, changed ones evaluated
    in one context tree whose changed files hold their base version (a renamed file's base
    version is its old path's)."""
    from rtlopt.check._git import base_content, context_tree, new_content, renamed_files

    tree = context_tree(repo, top, tmp / "tree", staged=staged)
    renames = renamed_files(repo, base_rev, staged=staged)
    modules: list[ModuleCheck | _Job] = []
    removed: dict[str, tuple[str, str]] = {}  # name -> (file, its base text)
    added: dict[str, str] = {}  # name -> its new text
    for rel in rels:
        text = new_content(repo, top, rel, staged=staged and rel not in unstaged)
        if (tree / rel).is_symlink():  # what the tools read: the target's text
            text = (tree / rel).read_text(errors="replace") if (tree / rel).exists() else None
        if text is None:
            continue
        old_text = base_content(repo, base_rev, renames.get(rel, rel)) or ""
        if _file_changes(rel, text, old_text, modules, removed, added):
            # the reference: this file at its base version, in the context after the change
            (tree / rel).unlink(missing_ok=True)
            (tree / rel).write_text(old_text)
    _moved_modules(modules, removed, added)
    _duplicate_modules(tree, modules)
    done = _run_jobs(cfg, tree, [m for m in modules if isinstance(m, _Job)], pdk, tmp)
    out = [done[id(m)] if isinstance(m, _Job) else m for m in modules]
    for m in out:
        if m.file in unstaged:
            m.notes.append("not staged: judged the work tree's version (git add it to commit it)")
    return out


def _file_changes(
    rel: str,
    text: str,
    old_text: str,
    modules: list[ModuleCheck | _Job],
    removed: dict[str, tuple[str, str]],
    added: dict[str, str],
) -> bool:
    """Append one file's added, changed and removed modules; True when a module is to be
    evaluated. A change outside the modules (a `define, an `include, a `default_nettype the
    modules read) makes every module of the file a changed one."""
    new_mods = {m.name: m for m in module_spans(text)}
    old_mods = {m.name: m for m in module_spans(old_text)}
    outside = _outside_modules(text, new_mods.values()) != _outside_modules(
        old_text, old_mods.values()
    )
    changed = False
    for name, mod in new_mods.items():
        if name not in old_mods:
            modules.append(ModuleCheck(rel, name, "added", notes=["new module"]))
            added[name] = text[mod.start : mod.end]
            continue
        old = old_mods[name]
        # any byte counts: a comment can be a tool directive (translate_off, full_case)
        if not outside and old_text[old.start : old.end] == text[mod.start : mod.end]:
            continue
        changed = True
        modules.append(_Job(rel, name, text, mod.line))
    for name, old in old_mods.items():
        if name not in new_mods:
            modules.append(ModuleCheck(rel, name, "removed", notes=["module removed"]))
            removed[name] = (rel, old_text[old.start : old.end])
    return changed


def _duplicate_modules(tree: Path, modules: list[ModuleCheck | _Job]) -> None:
    """A new module whose name another file of the repository after the change also defines:
    which one a tool reads depends on its file order, so the change is a finding."""
    from rtlopt.check._git import VERILOG_SUFFIXES

    new = {m.module: m for m in modules if isinstance(m, ModuleCheck) and m.change == "added"}
    if not new:
        return
    for path in sorted(tree.rglob("*")):
        if not path.name.endswith(VERILOG_SUFFIXES) or not path.is_file():
            continue
        rel = path.relative_to(tree).as_posix()
        text = path.read_text(errors="replace")
        for span in module_spans(text):
            m = new.get(span.name)
            if m is None or rel == m.file or any("also defined" in f for f in m.findings):
                continue
            if path.resolve() != (tree / m.file).resolve():  # a symlink to it is the same file
                m.findings.append(
                    f"module {span.name} is also defined in {rel}: which one a tool reads "
                    "depends on the file order; rename one of them"
                )


def _outside_modules(text: str, spans: Iterable[ModuleSpan]) -> list[str]:
    """The text of a file between its modules."""
    parts, at = [], 0
    for m in sorted(spans, key=lambda m: m.start):
        if m.start < at:
            continue  # nested in the one before
        parts.append(text[at : m.start])
        at = m.end
    return [*parts, text[at:]]


def _moved_modules(
    modules: list[ModuleCheck | _Job], removed: dict[str, tuple[str, str]], added: dict[str, str]
) -> None:
    """A module removed from one file and added to another was moved: with any byte changed,
    the check cannot compare it (its reference would be defined twice in one context), so it
    is a finding, never a new module that passes."""
    for m in modules:
        if not isinstance(m, ModuleCheck) or m.change != "added" or m.module not in removed:
            continue
        src, old = removed[m.module]
        m.notes = [f"moved from {src}"]
        if added[m.module] == old:
            continue
        m.findings.append(
            f"module {m.module} moved from {src} and changed: rtlopt check compares a module "
            "only within its file; move it unchanged in a commit of its own, or keep it in "
            f"{src}"
        )


@dataclass(frozen=True)
class _Job:
    """A changed module waiting for its evaluation: the whole new file is the candidate."""

    rel: str
    name: str
    new_text: str
    line: int = 0


def _run_jobs(
    cfg: Config, base_tree: Path, jobs: Sequence[_Job], pdk: Any, tmp: Path
) -> dict[int, ModuleCheck]:
    """Evaluate the changed modules, several at once (``eval.workers``; 0: one per core):
    each has its own evaluator and tools, and the order of the report stays the file order."""
    workers = max(1, min(cfg.eval.workers or (os.cpu_count() or 1), len(jobs)))

    def one(job: _Job) -> ModuleCheck:
        # a folder per job: two files may define modules of one name
        return _check_module(cfg, base_tree, job, pdk, tmp / f"job{jobs.index(job)}")

    if workers == 1:
        return {id(j): one(j) for j in jobs}
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rtlopt-check") as pool:
        return {id(j): r for j, r in zip(jobs, pool.map(one, jobs), strict=True)}


_CANDIDATE_LINE = re.compile(r"\bcandidate\.v:(\d+)")


def gate_wording(reason: str, rel: str) -> str:
    """An evaluator's reason in the words of a gate: the user's file and its own lines, "the
    change" instead of "the candidate"."""
    text = _CANDIDATE_LINE.sub(lambda m: f"{rel}:{m.group(1)}", reason)
    text = text.replace("fix the candidate", "fix the change")
    text = re.sub(r"\bthe candidate\b", "the change", text)
    text = re.sub(r"\bcandidate\b", "change", text)
    first = re.search(re.escape(rel) + r":(\d+):?\s*", text)
    if first is None:
        return f"the change to {rel}: {text}"
    if first.start() == 0:  # "rel:N: message": said once
        text = text[first.end() :]
    return f"the change to {rel} at line {first.group(1)}: {text}"


def _trace_notes(res: EvalResult) -> list[str]:
    """The failing input and the kept waveform of a refuted module (its scratch folder goes)."""
    from rtlopt.evaluate import failing_lines, keep_trace, load_replay

    kept = keep_trace(res)
    path = kept.logs.get("trace")
    return failing_lines(load_replay(Path(path))) if path else []


def _failed_equivalence(res: EvalResult) -> str:
    """What a rejected module's equivalence column says: ``refuted`` (a formal
    counterexample), ``unknown`` (no proof either way: not a counterexample), ``mismatch``
    (simulation or the netlist disagreed), or the stage that stopped the check."""
    if res.formal is not None and res.stage == "formal":
        return "refuted" if res.formal.verdict is Verdict.REFUTED else "unknown"
    if res.stage in ("simulation", "netlist"):
        return "mismatch"
    return f"not checked ({res.stage})"


def _parse_change(design: Any, job: _Job, tmp: Path) -> None:
    """Parse the changed file as ``evaluate`` parses a candidate: with the design's sources
    and the macros the target's module sees in its file (its include folders, its in-module
    includes, the filelist's defines). A file that does not parse is an input error (exit 2),
    said at its own line."""
    from rtlopt.frontend import parse_text
    from rtlopt.harness import target_context_text

    tmp.mkdir(parents=True, exist_ok=True)
    context = tmp / "target_context.vh"
    context.write_text(target_context_text(design))
    sources = dataclasses.replace(design.sources, prelude=(*design.prelude, context))
    try:
        parse_text(job.new_text, job.rel, sources=sources)
    except DesignError as exc:
        rel = Path(job.rel)
        where = rel if exc.path in (None, rel, context) else exc.path
        raise DesignError(
            f"syntax error in the change: {exc.message.removeprefix('syntax error: ')}",
            path=where,
            line=None if exc.path == context else exc.line,
            hint="fix the change",
        ) from None


def _second_proof(ev: Evaluator, text: str, res: EvalResult) -> Any:
    """The second, independent proof of a module about to pass on a proof (``None`` when its
    pass does not rest on one): ``rtlopt.formal.second``."""
    if res.status is not Status.OK or res.formal is None:
        return None
    if res.formal.verdict is not Verdict.PROVEN:
        return None
    return ev.confirm(text, res)


def _check_module(cfg: Config, tree: Path, job: _Job, pdk: Any, tmp: Path) -> ModuleCheck:
    from rtlopt.frontend import load_design

    rel, name = job.rel, job.name
    mc = ModuleCheck(rel, name, "modified")
    try:
        design = load_design(tree / rel, name, cfg.project, root=tree)
    except DesignError as exc:
        mc.findings.append(f"could not check: the base version of {rel}: {exc.one_line()}")
        return mc
    _parse_change(design, job, tmp)
    new_src = job.new_text
    opt_only = _optimization_only(cfg, rel, name)
    with Evaluator(design, cfg, tmp / f"eval-{name}", pdk if cfg.check.ppa else None) as ev:
        res: EvalResult = ev.evaluate(new_src, equivalence=opt_only)
        ref = ev.reference() if cfg.check.ppa else None
        kind = ev.metric_kind
        second = _second_proof(ev, new_src, res) if opt_only else None
    if res.is_infrastructure_error:
        mc.findings.append(f"could not check the change to {rel}: {res.reason}")
        mc.tool_error = True
        return mc
    if res.status is not Status.OK and res.stage is Stage.INTERFACE:
        # the evaluator's interface stage: SystemVerilog ports through the elaborated view
        mc.interface = res.reason
        mc.findings.append(f"interface changed: {res.reason}")
        return mc
    if opt_only:
        if res.status is not Status.OK:
            mc.equivalence = _failed_equivalence(res)
            mc.findings.append(gate_wording(res.reason, rel))
            mc.notes += _trace_notes(res)
            return mc
        mc.equivalence = res.formal.verdict.value if res.formal else "simulated"
        if res.formal and res.formal.verdict is Verdict.UNKNOWN:
            mc.notes.append(f"formal: {res.formal.reason}")
        mc.proof = str(second.replay) if second is not None and second.replay else ""
        if second is not None and not second.agrees:
            mc.equivalence = "unknown"
            mc.findings.append(f"not kept: the two proofs disagree: {second.reason}")
            return mc
    else:
        mc.equivalence = "not required"
        if res.status is not Status.OK:
            mc.findings.append(gate_wording(res.reason, rel))
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
