"""The session service: opening a target, planning and resuming a run, evaluating."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rtlopt import session
from rtlopt.errors import ConfigError, RepoError, UsageError
from rtlopt.results import PPA, EvalResult, Stage, Status
from rtlopt.rundir import RunDir, RunInfo

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "priority_encoder"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The bundled example as a committed git repository."""
    repo = tmp_path / "example"
    shutil.copytree(EXAMPLE, repo)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "example"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True)
    return repo


def _spec(repo: Path, **kw: Any) -> session.TargetSpec:
    return session.TargetSpec(repo / "rtl" / "prio_enc.v", "prio_enc", **kw)


def _scripted(repo: Path) -> dict[str, str]:
    return {"policy.backend": "scripted", "policy.scripted_path": str(repo / "alternatives")}


def test_open_target_resolves_config_design_and_pdk(repo: Path) -> None:
    tgt = session.open_target(_spec(repo, overrides={"flow.metric": None}))
    assert tgt.design.target.name == "prio_enc" and tgt.config.flow.pdk == "nangate45"
    assert tgt.pdk is not None and tgt.pdk.name == "nangate45" and tgt.metric == "adp"
    bare = session.open_target(_spec(repo, with_pdk=False, overrides={"flow.metric": "auto"}))
    assert bare.pdk is None and bare.metric == "ppa"  # auto: power is measured by default


def test_open_target_refuses_bad_input_naming_it(repo: Path) -> None:
    with pytest.raises(UsageError, match="nope.v: target file not found"):
        session.open_target(session.TargetSpec(repo / "rtl" / "nope.v"))
    with pytest.raises(UsageError, match="expected a target file, got a directory"):
        session.open_target(session.TargetSpec(repo / "rtl"))
    with pytest.raises(ConfigError, match="unknown configuration key 'flow.pdkk'"):
        session.open_target(_spec(repo, overrides={"flow.pdkk": "x"}))
    with pytest.raises(UsageError, match="my.lib: liberty file not found"):
        session.open_target(_spec(repo, liberty=repo / "my.lib"))


def test_the_liberty_argument_wins_over_the_configuration(tmp_path: Path) -> None:
    from rtlopt.config import FlowConfig

    flow = FlowConfig(pdk="custom", liberty=str(tmp_path / "from_config.lib"))
    with pytest.raises(UsageError, match="from_argument.lib"):
        session.resolve_pdk(flow, tmp_path / "from_argument.lib")
    with pytest.raises(UsageError, match="from_config.lib"):
        session.resolve_pdk(flow)


def test_plan_run_checks_first_then_names_the_run(repo: Path) -> None:
    tgt = session.open_target(_spec(repo, overrides=_scripted(repo)))
    plan = session.plan_run(tgt, command=("rtlopt", "optimize"))
    assert plan.run_dir == repo / ".rtlopt" / "runs" / plan.run_id
    assert (repo / ".rtlopt" / "runs" / ".gitignore").read_text().endswith("*\n")
    assert not (repo / ".rtlopt" / ".gitignore").exists()
    assert plan.branch == f"rtlopt/prio_enc/{plan.run_id}" and not plan.resume
    assert plan.spec.startswith("Leading-one detector") and plan.workdir == plan.run_dir / "work"
    assert session.plan_run(tgt, branch=False).branch is None
    # The policy is checked before anything else happens.
    no_cands = session.open_target(
        _spec(
            repo,
            overrides={"policy.backend": "scripted", "policy.scripted_path": str(repo / "none")},
        )
    )
    with pytest.raises(UsageError, match="none"):
        session.plan_run(no_cands)
    f = repo / "rtl" / "prio_enc.v"
    f.write_text(f.read_text() + "// edited\n")
    with pytest.raises(RepoError, match="uncommitted changes"):
        session.plan_run(session.open_target(_spec(repo, overrides=_scripted(repo))))


def test_resume_point_and_plan_keep_the_recorded_run(repo: Path, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not a run directory"):
        session.read_resume(tmp_path)
    rd = RunDir(tmp_path / "run")
    rd.create()
    rd.write_info(
        RunInfo(
            "r7",
            "prio_enc",
            str(repo / "rtl" / "prio_enc.v"),
            str(repo),
            "nangate45",
            "interrupted",
        )
    )
    point = session.read_resume(rd.path)
    assert (point.run_id, point.module, point.target_file) == (
        "r7",
        "prio_enc",
        repo / "rtl" / "prio_enc.v",
    )
    assert point.config_file == rd.config
    tgt = session.open_target(_spec(repo, overrides=_scripted(repo)))
    plan = session.plan_run(tgt, resume=point, branch=False)
    assert (plan.run_id, plan.run_dir, plan.resume) == ("r7", rd.path, True)


def test_metric_value_only_for_comparable_results() -> None:
    def res(ppa: PPA | None) -> EvalResult:
        return EvalResult(status=Status.OK, stage=Stage.DONE, ppa=ppa)

    assert session.metric_value(res(None), "adp") is None
    assert session.metric_value(res(PPA(2.0, 3.0, None)), "ppa") is None  # no power measured
    assert session.metric_value(res(PPA(0.0, 3.0, 1.0)), "adp") is None
    assert session.metric_value(res(PPA(2.0, 3.0, 4.0)), "ppa") == 24.0


@pytest.mark.tools
def test_evaluate_scores_a_candidate_against_the_reference(repo: Path, tmp_path: Path) -> None:
    tgt = session.open_target(_spec(repo))
    phases: list[str] = []
    text = (repo / "alternatives" / "a_grouped.v").read_text()
    ev = session.evaluate(tgt, text, tmp_path / "work", on_phase=phases.append)
    assert phases == ["evaluating the candidate ...", "measuring the reference ..."]
    assert ev.candidate.accepted and ev.metric == "adp" and ev.reference.ppa is not None
    assert ev.candidate.formal is not None and ev.candidate.formal.verdict.value == "proven"


@pytest.mark.tools
def test_a_candidate_rejected_before_synthesis_does_not_synthesize_the_reference(
    repo: Path, tmp_path: Path
) -> None:
    """The reference is measured where a candidate needs it (its PPA beside the candidate's):
    a candidate refuted by simulation leaves it unmeasured; the next accepted one measures it."""
    tgt = session.open_target(_spec(repo))
    wrong = (repo / "alternatives" / "c_wrong_last_group.v").read_text()
    ev = session.evaluate(tgt, wrong, tmp_path / "work", on_phase=None)
    assert not ev.candidate.accepted and ev.candidate.ppa is None
    assert ev.reference.ppa is None and ev.reference.reward > 0
    assert not list((tmp_path / "work").rglob("*reference*/synth*"))
    good = (repo / "alternatives" / "a_grouped.v").read_text()
    ev2 = session.evaluate(tgt, good, tmp_path / "work2", on_phase=None)
    assert ev2.candidate.accepted and ev2.reference.ppa is not None


def test_gitignore_only_inside_a_runs_folder_rtlopt_creates(repo: Path) -> None:
    """runs_dir = rtl/runs: rtl/runs/.gitignore, never rtl/.gitignore (it would hide the user's
    new sources from git status); an existing folder (the user's rtl/) gets nothing, and a
    user's .gitignore is never touched."""
    import subprocess

    nested = session.plan_run(
        session.open_target(_spec(repo, overrides={**_scripted(repo), "run.runs_dir": "rtl/runs"}))
    )
    assert nested.run_dir.parent == repo / "rtl" / "runs"
    assert not (repo / "rtl" / ".gitignore").exists()
    assert (repo / "rtl" / "runs" / ".gitignore").read_text() == "# rtlopt run data\n*\n"
    new_source = repo / "rtl" / "new_module.v"
    new_source.write_text("module new_module; endmodule\n")
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "rtl/new_module.v" in status and "runs" not in status
    new_source.unlink()
    before = sorted(p.name for p in (repo / "rtl").iterdir())
    session.plan_run(
        session.open_target(_spec(repo, overrides={**_scripted(repo), "run.runs_dir": "rtl"}))
    )
    assert sorted(p.name for p in (repo / "rtl").iterdir()) == before  # the user's folder
    mine = repo / "own"
    mine.mkdir()
    (mine / ".gitignore").write_text("keep-me\n")
    session.plan_run(
        session.open_target(_spec(repo, overrides={**_scripted(repo), "run.runs_dir": "own"}))
    )
    assert (mine / ".gitignore").read_text() == "keep-me\n"
