"""`rtlopt optimize` over several modules, with the real tools and a real git repository.

The fixture (tests/data/multi_soc) has a top with two blocks that each compute a product in two
forms and a rewrite each with one multiplier (the scripted policy's candidates in
``candidates/<module>/``): ``mulsel``'s product is an output the top uses, ``scale``'s only
drives a debug output the top leaves unconnected, so ``scale``'s gain vanishes once the top is
flattened while ``mulsel``'s survives.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rtlopt import session
from rtlopt.profile import CLAIM, measure_in_context
from rtlopt.report._multi import context_section
from tests.conftest import TEST_CACHE
from tests.e2e.conftest import git, tree_digest
from tests.integration._fixture_repo import fixture_repo, run_rtlopt

pytestmark = pytest.mark.tools

DATA = Path(__file__).resolve().parents[1] / "data" / "multi_soc"
TWO = ["optimize", "rtl/scale.v:scale", "rtl/mulsel.v:mulsel", "--candidates", "candidates"]


@dataclass(frozen=True)
class Shared:
    """The fixture as one repository of the module and its batch of both modules, measured in
    the top (one after another): what a batch writes is read from it, and the same batch run
    two at a time in this repository must give the same rows and commits."""

    repo: Path
    before: dict[str, str]
    run: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory, _module_cache_dir: Path) -> Iterator[Shared]:
    # module scope comes before each test's isolated HOME: this run gets its own (as the
    # conftest's _isolated_home makes it) and the module's user cache
    home = tmp_path_factory.mktemp("shared-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("XDG_CONFIG_HOME", str(home / ".config"))
        mp.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
        mp.setenv("RTLOPT_LIBERTY_CACHE", str(TEST_CACHE / "liberty"))
        mp.setenv("RTLOPT_MODEL_CACHE", str(TEST_CACHE / "models"))
        for var in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
            mp.setenv(var, "rtlopt-test")
        for var in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
            mp.setenv(var, "test@localhost")
        repo = fixture_repo(DATA, tmp_path_factory.mktemp("shared") / "soc", mp, _module_cache_dir)
        before = tree_digest(repo)
        run = run_rtlopt(repo, *TWO, "--in-context", "multi_top")
        yield Shared(repo, before, run)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module_user_cache: Path) -> Path:
    """The fixture as a fresh repository per test (its own branches and batch folders); the
    user cache is the module's (parse and evaluation results of the same modules: the first
    run on a worker computes them)."""
    return fixture_repo(DATA, tmp_path / "soc", monkeypatch, module_user_cache)


def _batch_dir(stdout: str) -> Path:
    m = re.search(r"batch directory: (\S+)", stdout)
    assert m, stdout
    return Path(m.group(1))


def _commits(repo: Path, branch: str) -> list[tuple[str, list[str]]]:
    """(subject, changed files) of each commit of ``branch`` above main, oldest first."""
    out = []
    for sha in git(repo, "rev-list", "--reverse", f"main..{branch}").split():
        subject = git(repo, "log", "-1", "--format=%s", sha).strip()
        files = git(repo, "show", "--name-only", "--format=", sha).split()
        out.append((subject, files))
    return out


def test_two_modules_write_two_commits_on_one_branch_and_one_report(shared: Shared) -> None:
    repo, r = shared.repo, shared.run
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert tree_digest(repo) == shared.before  # nothing the user owns is modified

    branch = re.search(r"branch: (rtlopt/multi/\S+)", r.stdout).group(1)  # type: ignore[union-attr]
    commits = _commits(repo, branch)
    assert [files for _, files in commits] == [["rtl/scale.v"], ["rtl/mulsel.v"]]
    assert "scale" in commits[0][0] and "mulsel" in commits[1][0]
    assert "assign p = a * b;" in git(repo, "show", f"{branch}:rtl/mulsel.v")
    assert "other" not in git(repo, "show", f"{branch}:rtl/scale.v")

    bd = _batch_dir(r.stdout)
    report = (bd / "report.md").read_text()
    rows = [line for line in report.splitlines() if line.startswith("| `")]
    assert [row.split("|")[1].strip() for row in rows[:2]] == ["`scale`", "`mulsel`"]
    assert all("improved" in row and "proven" in row for row in rows[:2])
    data = json.loads((bd / "report.json").read_text())
    assert [m["module"] for m in data["modules"]] == ["scale", "mulsel"]
    assert data["in_context"]["vanished"] == ["scale"]
    assert "its gain vanishes in context" in report and CLAIM in report
    body = (bd / "pr_body.md").read_text()
    assert "`scale`" in body and "`mulsel`" in body and "vanishes in context" in body
    # each module's run is an ordinary run folder with its own report
    assert (bd / "scale" / "report.md").is_file() and (bd / "mulsel" / "report.md").is_file()


def test_in_context_numbers_say_when_a_module_gain_vanishes(repo: Path, tmp_path: Path) -> None:
    top = session.open_target(
        session.TargetSpec(repo / "rtl" / "multi_top.v", "multi_top", {"flow.pdk": "nangate45"})
    )
    assert top.pdk is not None
    rewrites = {
        name: (DATA / "candidates" / name / f"{name}_one_mul.v").read_text()
        for name in ("scale", "mulsel")
    }
    ctx = measure_in_context(
        top.design, top.pdk, top.config.flow, top.config.sandbox, rewrites, tmp_path / "ctx"
    )
    gains = {m.module: m for m in ctx.modules}
    assert gains["scale"].area_ratio < 0.9 and gains["mulsel"].area_ratio < 0.9  # alone
    assert ctx.top_ratio(gains["scale"]) == pytest.approx(1.0, abs=0.005)  # in the top: none
    assert ctx.top_ratio(gains["mulsel"]) < 0.9
    assert ctx.vanished() == ["scale"]
    scale_line, mulsel_line = ctx.sentences()
    assert "0% smaller in the flattened top, its gain vanishes in context" in scale_line
    assert "vanishes" not in mulsel_line
    # both are faster alone; only mulsel's speed-up reaches the top
    assert "its speed-up does not reach the top" in scale_line
    assert "its delay -" in mulsel_line and "does not reach" not in mulsel_line
    text = "\n".join(context_section(ctx))
    assert "The gain of `scale` vanishes in context" in text and CLAIM in text
    assert "| `multi_top` with `scale` |" in text and "| `multi_top` with `mulsel` |" in text


@pytest.mark.slow
def test_each_mode_writes_a_branch_per_module(repo: Path) -> None:
    r = run_rtlopt(repo, *TWO, "--set", "writeback.multi_branch=each")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    branches = re.findall(r"branch: (rtlopt/\S+)", r.stdout)
    assert sorted(b.split("/")[1] for b in branches) == ["mulsel", "scale"]
    for b in branches:
        assert len(_commits(repo, b)) == 1
    bd = _batch_dir(r.stdout)
    report = (bd / "report.md").read_text()
    assert all(f"Branch: `{b}`" in report for b in branches)
    # resumed once finished: each branch is kept as written, not written again
    r = run_rtlopt(repo, "optimize", "--resume", str(bd))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert all(f"Branch: `{b}`" in (bd / "report.md").read_text() for b in branches)
    assert all(len(_commits(repo, b)) == 1 for b in branches)


@pytest.mark.slow
def test_paused_batch_resumes_to_one_branch(repo: Path) -> None:
    r = run_rtlopt(
        repo, *TWO, "--steps", "2", "--rollouts", "2", "--parents", "1", "--stop-after", "1"
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "paused; continue with: rtlopt optimize --resume" in r.stdout
    bd = _batch_dir(r.stdout)
    assert "not started" in (bd / "report.md").read_text()
    assert "rtlopt/multi/" not in git(repo, "branch", "--list")
    r = run_rtlopt(repo, "optimize", "--resume", str(bd))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    branch = re.search(r"branch: (rtlopt/multi/\S+)", r.stdout).group(1)  # type: ignore[union-attr]
    assert len(_commits(repo, branch)) == 2
    # a finished batch resumed again only reports: the branch and its commits stay
    r = run_rtlopt(repo, "optimize", "--resume", str(bd))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert len(_commits(repo, branch)) == 2
    assert len(json.loads((bd / "report.json").read_text())["modules"]) == 2


def test_bad_batch_input_is_a_usage_error(repo: Path) -> None:
    r = run_rtlopt(repo, *TWO, "--module", "scale")
    assert r.returncode == 2 and "--module names one module" in r.stderr
    r = run_rtlopt(repo, *TWO, "--in-context", "no_such_top")
    assert r.returncode == 2 and "no_such_top" in r.stderr
    r = run_rtlopt(repo, *TWO, "--in-context", "scale")
    assert r.returncode == 2 and "not part of scale's design" in r.stderr
    r = run_rtlopt(repo, "optimize", "rtl/scale.v:scale", "rtl/scale.v:scale")
    assert r.returncode == 2 and "named twice" in r.stderr
    r = run_rtlopt(repo, "optimize", "--from-profile", "2")
    assert r.returncode == 2 and "no profile under" in r.stderr and "rtlopt profile" in r.stderr
    assert git(repo, "branch", "--list").split() == ["*", "main"]


@pytest.mark.slow
def test_from_profile_runs_the_suggestions_and_measures_the_top(repo: Path) -> None:
    r = run_rtlopt(repo, "profile", "multi_top", "--pdk", "nangate45")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "rtlopt optimize --from-profile 2 --pdk nangate45" in r.stdout
    r = run_rtlopt(repo, "optimize", "--from-profile", "3", "--candidates", "candidates")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    data = json.loads((_batch_dir(r.stdout) / "report.json").read_text())
    status = {m["module"]: (m["status"], m["reason"]) for m in data["modules"]}
    assert status["mulsel"][0] == status["scale"][0] == "improved"
    # the top has no cells of its own: skipped, with the profile's reason
    assert status["multi_top"][0] == "skipped" and "no cells of its own" in status["multi_top"][1]
    assert data["in_context"]["top"] == "multi_top"  # the profile's top, by default
    assert data["in_context"]["vanished"] == ["scale"]


def _rows(bd: Path) -> list[dict[str, object]]:
    """The report's module rows without what differs between two runs (ids, folders)."""
    keep = ("module", "file", "status", "metric", "before", "after", "verdict", "reason")
    rows = json.loads((bd / "report.json").read_text())["modules"]
    return [{k: r.get(k) for k in keep} for r in rows]


@pytest.mark.slow
def test_parallel_batch_gives_the_sequential_result(
    shared: Shared, monkeypatch: pytest.MonkeyPatch, module_user_cache: Path
) -> None:
    """run.parallel_modules = 2 runs both modules at once: the same rows, the same commits in
    the order the modules are named, the same files on the branch (the sequential batch is the
    module's, in the same repository)."""
    repo, seq = shared.repo, shared.run
    monkeypatch.setenv("CODE_BASE_PATH", str(repo))
    assert seq.returncode == 0, seq.stdout[-2000:] + seq.stderr[-2000:]
    par = run_rtlopt(repo, *TWO, "--in-context", "multi_top", "--set", "run.parallel_modules=2")
    assert par.returncode == 0, par.stdout[-2000:] + par.stderr[-2000:]
    assert "2 modules 2 at a time" in par.stdout and "one after another" in seq.stdout
    branches = []
    for r in (seq, par):
        branches.append(re.search(r"branch: (rtlopt/multi/\S+)", r.stdout).group(1))  # type: ignore[union-attr]
    assert branches[0] != branches[1]
    a, b = (_commits(repo, br) for br in branches)
    assert a == b and [files for _, files in a] == [["rtl/scale.v"], ["rtl/mulsel.v"]]
    trees = [git(repo, "rev-parse", f"{br}^{{tree}}").strip() for br in branches]
    assert trees[0] == trees[1]
    assert _rows(_batch_dir(seq.stdout)) == _rows(_batch_dir(par.stdout))
    assert [line for line in par.stdout.splitlines() if line.startswith("module ")][:2] == [
        line for line in par.stdout.splitlines() if line.startswith("module scale")
    ] + [line for line in par.stdout.splitlines() if line.startswith("module mulsel")]
