"""Finishing a run: the report, and the best design on a git branch with a PR body."""

from __future__ import annotations

import hashlib
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rtlopt.config import Config
from rtlopt.errors import RtloptError
from rtlopt.frontend.model import Design
from rtlopt.report import generate_report
from rtlopt.results import EvalResult
from rtlopt.run._loop import RunOutcome
from rtlopt.rundir import RunDir
from rtlopt.shown import md_code, md_text

if TYPE_CHECKING:  # gitpython is imported only by runs that write a branch
    from rtlopt.writeback import BranchResult, PullRequest

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FinishResult:
    """What finishing a run produced.

    Attributes:
        report: The markdown report.
        branch: The result branch, if one was written.
        commit: Its commit.
        pr_body: The pull-request description (empty when nothing beat the reference).
        pr_body_path: The file holding it (``pr_body.md`` in the run directory).
        pushed_to: The remote the branch was pushed to.
        base: The branch the result branch was made from.
        pull_request: The pull-request step's outcome (``--pr``), else ``None``.
        rejected: Why the best design was not kept although it beat the reference (the
            second proof disagrees with the first: :mod:`rtlopt.formal.second`), else "".
    """

    report: Path
    branch: str | None
    commit: str | None
    pr_body: str
    pr_body_path: Path | None = None
    pushed_to: str | None = None
    base: str | None = None
    pull_request: PullRequest | None = None
    rejected: str = ""


def _pct(new: float | None, old: float | None) -> str:
    if new is None or old is None or old == 0:
        return "-"
    return f"{(new / old - 1) * 100:+.1f}%"


def pr_body(
    design: Design,
    ref: EvalResult,
    best: EvalResult,
    metric: str,
    run_id: str,
    report_rel: str | None = None,
) -> str:
    """A pull-request description in markdown (names, paths and reasons escaped:
    ``rtlopt.shown``)."""
    assert ref.ppa is not None and best.ppa is not None
    r, b = ref.ppa, best.ppa
    rows = [
        ("Area (um^2)", r.area_um2, b.area_um2),
        ("Delay (ps)", r.delay_ps, b.delay_ps),
        ("Power (uW)", r.power_uw, b.power_uw),
        ("ADP (um^2*ps)", r.adp, b.adp),
    ]
    if r.ppa_product is not None and b.ppa_product is not None:
        rows.append(("PPA product", r.ppa_product, b.ppa_product))
    lines = [
        f"## rtlopt: {md_code(design.target.name)} "
        f"({metric.upper()} {_pct(b.metric(metric), r.metric(metric))})",
        "",
        f"Rewrites {md_code(design.target.name)} in "
        f"{md_code(design.target.file.relative_to(design.root))}; "
        "its ports and cycle behaviour are unchanged.",
        "",
        "| metric | before | after | change |",
        "|---|---:|---:|---:|",
    ]
    for label, old, new in rows:
        lines.append(f"| {label} | {_num(old)} | {_num(new)} | {_pct(new, old)} |")
    f = best.formal
    verdict = md_text(f"{f.verdict.value} ({f.method})" if f else "not run")
    sim = f"{best.sim.vectors} vectors, 0 mismatches" if best.sim else "not run"
    lines += [
        "",
        f"- Equivalence, formal: **{verdict}**"
        + (f" - {md_text(f.reason)}" if f and f.reason else ""),
        f"- Equivalence, simulation: {sim}",
        f"- Run: {md_code(run_id)}" + (f", report {md_code(report_rel)}" if report_rel else ""),
    ]
    prov = best.provenance or {}
    if prov:
        lines.append(f"- Evaluator: {md_code(prov.get('evaluator_fingerprint', ''))}")
    return "\n".join(lines) + "\n"


def _num(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x:,.0f}" if abs(x) >= 1e4 else f"{x:.4g}"


def finish_run(
    outcome: RunOutcome,
    design: Design,
    config: Config,
    *,
    branch: str | None,
    push: str | None = None,
    pr: bool = False,
) -> FinishResult:
    """Write the report; when a design beat the reference, the PR body and, with ``branch``, the
    branch (pushed to ``push``; with ``pr`` a pull request is opened from it, or the way to
    open one is returned)."""
    rd = RunDir(outcome.run_dir)
    paths = generate_report(rd.path)
    info = rd.read_info()
    run_id = info.run_id if info is not None and info.run_id else rd.path.name
    if not (outcome.improved and outcome.best is not None and outcome.best_code is not None):
        return FinishResult(Path(paths.markdown), None, None, "")
    proof = second_proof(outcome, design, config, rd)
    if proof.startswith("rejected: "):
        return FinishResult(Path(paths.markdown), None, None, "", rejected=proof[10:])
    body = pr_body(design, outcome.reference, outcome.best, outcome.metric, run_id) + proof
    rd.write_pr_body(body)  # before the branch: `gh pr create --body-file` reads it
    if branch is None:
        return FinishResult(Path(paths.markdown), None, None, body, rd.pr_body)
    res, title = _write_branch(outcome, design, branch, run_id, push)
    rd.update_info(branch=res.branch, commit=res.commit_sha)
    request = None
    if pr and res.pushed_to is not None:
        from rtlopt.writeback import open_pull_request

        request = open_pull_request(
            design.root,
            res.pushed_to,
            branch=res.branch,
            base=res.base,
            title=title,
            body_file=rd.pr_body,
            workdir=rd.workdir,
        )
    return FinishResult(
        Path(paths.markdown),
        res.branch,
        res.commit_sha,
        body,
        rd.pr_body,
        res.pushed_to,
        res.base,
        request,
    )


#: The run folder's copy of the second proof's replay files (miter, script, sources).
PROOF_DIR = "proof"


def second_proof(outcome: RunOutcome, design: Design, config: Config, rd: RunDir) -> str:
    """The second, independent proof of the best design (:mod:`rtlopt.formal.second`), once
    per run, before anything is written back: the pull-request body's lines on it and its
    replay files (copied to :data:`PROOF_DIR` in the run folder), or ``"rejected: <why>"``
    when the two proofs disagree; "" when the design is kept without a proof (as ``check``
    passes one: ``formal.require_proof`` off)."""
    from rtlopt.evaluate import Evaluator, Verdict

    assert outcome.best is not None and outcome.best_code is not None
    if outcome.best.formal is None or outcome.best.formal.verdict is not Verdict.PROVEN:
        return ""  # kept without a proof (formal.require_proof off): nothing to prove again
    with Evaluator(design, config, rd.workdir / "second_proof", None) as ev:
        found = ev.confirm(outcome.best_code, outcome.best)
    target = rd.path / PROOF_DIR
    if found.replay is not None and found.replay.is_dir():
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(found.replay, target)
    if not found.agrees:
        log.warning("the best design is not kept: the two proofs disagree: %s", found.reason)
        (rd.path / "second_proof.txt").write_text(found.reason + "\n")
        return f"rejected: {found.reason}"
    digest = hashlib.sha256((target / "miter.aig").read_bytes()).hexdigest()
    return (
        f"- Second proof: **proven** ({found.method}, {found.duration_s:.1f} s)\n"
        f"- Replay without rtlopt: `sh {PROOF_DIR}/replay.sh` in the run folder (stock "
        f"`yosys-abc` on `{PROOF_DIR}/miter.aig`, sha256 `{digest[:16]}`)\n"
    )


def _write_branch(
    outcome: RunOutcome, design: Design, branch: str, run_id: str, push: str | None
) -> tuple[BranchResult, str]:
    """Commit the best design on ``branch``; returns the result and the commit's subject."""
    # Lazy: importing gitpython adds ~0.25 s to every command's start-up (evaluate, inspect,
    # report), and only a finished run that writes a branch needs it.
    from rtlopt.writeback import commit_message_for, results_kept, write_branch

    assert outcome.best_code is not None
    msg = commit_message_for(design.target.name, outcome, run_id)
    try:
        res = write_branch(
            design.root,
            design.target.file,
            design.target.name,
            outcome.best_code.strip() + "\n",
            branch=branch,
            message=msg,
            push=push,
            design=design,
        )
    except RtloptError as exc:
        raise results_kept(exc, outcome.run_dir) from None
    return res, msg.splitlines()[0]
