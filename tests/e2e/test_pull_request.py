"""The pull-request step of `rtlopt optimize`: push confirmed, PR body path, `gh pr create`.

The run is real (scripted candidates, real iverilog/Yosys/OpenSTA, real git with a local bare
remote); only ``gh`` is a fake script on PATH that records its argv and the body file it was
given (GitHub cannot be reached from a test).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import git
from tests.fork_run import run_rtlopt

# the runs optimize the same design with the same candidates: one user cache for the module
pytestmark = [pytest.mark.tools, pytest.mark.usefixtures("module_user_cache")]

RUN = ["optimize", "rtl/prio_enc.v", "-m", "prio_enc", "--candidates", "alternatives",
       "--steps", "1", "--parents", "1", "--rollouts", "4", "--pdk", "sky130"]  # fmt: skip

FAKE_GH = '''#!/usr/bin/env python3
"""Fake gh: records argv and the --body-file's text, prints a pull-request address."""
import json, os, sys
args = sys.argv[1:]
body = open(args[args.index("--body-file") + 1]).read() if "--body-file" in args else None
with open(os.environ["FAKE_GH_LOG"], "a") as f:
    f.write(json.dumps({"argv": args, "body": body, "cwd": os.getcwd()}) + "\\n")
if os.environ.get("FAKE_GH_FAIL"):
    print("GraphQL: Resource not accessible by integration (createPullRequest)", file=sys.stderr)
    sys.exit(1)
print("Creating pull request for rtlopt/x into main in example/prio\\n")
print("https://github.com/example/prio/pull/7")
'''


def _path_without_gh() -> str:
    return os.pathsep.join(
        p
        for p in os.environ.get("PATH", "").split(os.pathsep)
        if p and not (Path(p) / "gh").exists()
    )


def _run(
    args: list[str], cwd: Path, path: str, tmp: Path, **env: str
) -> subprocess.CompletedProcess[str]:
    full = dict(os.environ, PATH=path, FAKE_GH_LOG=str(tmp / "gh.jsonl"), COLUMNS="200", **env)
    return run_rtlopt(args, cwd=cwd, env=full, timeout=900)


@pytest.fixture
def remote(example_repo: Path, tmp_path: Path) -> Path:
    bare = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    git(example_repo, "remote", "add", "origin", str(bare))
    return bare


@pytest.fixture
def fake_gh(tmp_path: Path) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    gh = folder / "gh"
    gh.write_text(FAKE_GH)
    gh.chmod(0o755)
    return folder


def _branch(stdout: str) -> str:
    m = re.search(r"^branch: (rtlopt/prio_enc/\S+)", stdout, re.M)
    assert m, stdout
    return m.group(1)


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_pr_pushes_the_branch_and_calls_gh_with_the_body_file(
    example_repo: Path, remote: Path, fake_gh: Path, tmp_path: Path
) -> None:
    r = _run([*RUN, "--pr"], example_repo, f"{fake_gh}{os.pathsep}{_path_without_gh()}", tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    branch = _branch(r.stdout)
    # pushed: the bare remote holds the branch at the local branch's commit
    remote_sha = git(remote, "rev-parse", f"refs/heads/{branch}").strip()
    assert remote_sha == git(example_repo, "rev-parse", branch).strip()
    assert f"pushed: {branch} -> origin" in r.stdout
    body_path = Path(re.search(r"^pull request body: (\S+)", r.stdout, re.M).group(1))  # type: ignore[union-attr]
    assert body_path.name == "pr_body.md" and body_path.is_file()
    (call,) = [json.loads(line) for line in (tmp_path / "gh.jsonl").read_text().splitlines()]
    subject = git(example_repo, "log", "-1", "--format=%s", branch).strip()
    assert call["argv"] == [
        "pr",
        "create",
        "--head",
        branch,
        "--base",
        "main",
        "--title",
        subject,
        "--body-file",
        str(body_path),
    ]
    assert call["body"] == body_path.read_text() and "## rtlopt: `prio_enc`" in call["body"]
    assert Path(call["cwd"]).resolve() == example_repo.resolve()
    assert "pull request: https://github.com/example/prio/pull/7" in r.stdout
    # the run used the PDK the alias names
    run_json = json.loads((body_path.parent / "run.json").read_text())
    assert run_json["pdk"] == "sky130hd" and run_json["branch"] == branch


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_without_gh_the_command_and_the_compare_page_are_printed(
    example_repo: Path, remote: Path, tmp_path: Path
) -> None:
    # fetch from GitHub (for the page), push into the local bare repository
    git(example_repo, "remote", "set-url", "origin", "git@github.com:example/prio.git")
    git(example_repo, "remote", "set-url", "--push", "origin", str(remote))
    r = _run([*RUN, "--push", "origin", "--pr"], example_repo, _path_without_gh(), tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    branch = _branch(r.stdout)
    assert git(remote, "rev-parse", f"refs/heads/{branch}").strip()
    body = re.search(r"^pull request body: (\S+)", r.stdout, re.M).group(1)  # type: ignore[union-attr]
    assert "gh is not installed; open the pull request with:" in r.stdout
    assert (
        f"gh pr create --head {branch} --base main --title " in r.stdout
        and f"--body-file {body} --repo example/prio" in r.stdout
    )
    assert (
        f"or in the browser: https://github.com/example/prio/compare/main...{branch}?expand=1"
    ) in r.stdout
    assert not (tmp_path / "gh.jsonl").exists()


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_a_failing_gh_is_a_tool_error_and_the_branch_stays_pushed(
    example_repo: Path, remote: Path, fake_gh: Path, tmp_path: Path
) -> None:
    r = _run(
        [*RUN, "--pr"],
        example_repo,
        f"{fake_gh}{os.pathsep}{_path_without_gh()}",
        tmp_path,
        FAKE_GH_FAIL="1",
    )
    assert r.returncode == 3, r.stdout + r.stderr
    branch = _branch(r.stdout)
    assert git(remote, "rev-parse", f"refs/heads/{branch}").strip()
    assert "gh pr create failed: GraphQL: Resource not accessible by integration" in r.stderr
    assert f"gh pr create --head {branch}" in r.stdout


def test_a_missing_remote_fails_before_any_work(example_repo: Path, tmp_path: Path) -> None:
    r = _run([*RUN, "--pr"], example_repo, _path_without_gh(), tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "git remote 'origin' does not exist" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert "reference:" not in r.stdout and not (example_repo / ".rtlopt" / "runs").exists()
    r = _run([*RUN, "--pr", "--no-branch"], example_repo, _path_without_gh(), tmp_path)
    assert r.returncode == 2 and "a pull request needs the result branch" in r.stderr


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_push_alone_confirms_and_prints_the_body_path(
    example_repo: Path, remote: Path, tmp_path: Path
) -> None:
    r = _run([*RUN, "--push", "origin"], example_repo, _path_without_gh(), tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    branch = _branch(r.stdout)
    assert f"pushed: {branch} -> origin" in r.stdout
    assert re.search(r"^pull request body: \S+pr_body\.md$", r.stdout, re.M)
    assert "gh pr create" not in r.stdout
    # not a terminal: one plain line per step with the counter and the best result, uncut
    steps = [ln for ln in r.stdout.splitlines() if ln.startswith("step ")]
    assert len(steps) == 1 and re.match(
        r"step 1/1 \| best reward [\d.]+, ADP [\d,.e+]+ \(-[\d.]+%\) \| valid \d+% \| mean "
        r"-?[\d.]+ \| delta [\d.]+ \| (updated: |no update \(|learning: )[^|]+ \| "
        r"\d:\d\d:\d\d$",
        steps[0],
    ), steps
    assert "\x1b" not in r.stdout and "━" not in r.stdout
