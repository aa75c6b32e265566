"""Acceptance over real repositories (issue 22): every case of ``tests/acceptance/cases``
through the CLI as a new user runs it (``runner.py`` says how), with default settings.

- The fixture repositories (``repos/fx_*``, written for rtlopt in the styles of real ones:
  macros from an include folder, an in-module include, a vendor cell behind parameters, a gate
  cell between clocks, registers without reset, a generated 2,447-line core) run one test per
  command: inspect, self-evaluation, the equivalent rewrite (accepted, proven), the broken one
  (rejected), and ``rtlopt check`` on a git repository with each rewrite staged (equivalent:
  exit 0; broken: exit 1 with a counterexample). A case's commands run once, in this order
  with one user cache as a user runs them (the first of its tests runs them all).
- Commands that take minutes (a case's ``long`` list in its ``meta.toml``, measured) and the
  cases over the four real repositories (picorv32, serv, ibex, cv32e40p: minutes each) are
  marked ``slow`` and skipped unless ``RTLOPT_ACCEPTANCE_FULL=1``; ``python bench/repos.py``
  runs them all and prints the table.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.runner import (
    FIXTURES,
    STEPS,
    Case,
    _git,
    default_repos_path,
    load_cases,
    prepare_repo,
    repo_env,
    repo_source,
    run_case,
)
from tests.conftest import ACCEPTANCE_FULL_SKIP_REASON

pytestmark = [pytest.mark.acceptance, pytest.mark.tools]

FULL = os.environ.get("RTLOPT_ACCEPTANCE_FULL", "").strip() == "1"
#: The skip reason starts with conftest's, so that the skip stands in CI mode (a choice, not a
#: missing tool or data set).
FULL_SKIP_REASON = f"{ACCEPTANCE_FULL_SKIP_REASON} to run it"
#: The benchmark's own limit per command (the product's limits are the defaults).
TIMEOUT = 900.0

CASES = load_cases()


def _long(reason: str) -> list[pytest.MarkDecorator]:
    return [pytest.mark.slow, pytest.mark.skipif(not FULL, reason=f"{FULL_SKIP_REASON} ({reason})")]


def _fixture_params() -> list[Any]:
    params = []
    for c in CASES:
        if not c.fixture:
            continue
        for step in STEPS:
            marks = _long(f"{step} takes minutes") if step in c.long else []
            params.append(pytest.param(c, step, id=f"{c.name}:{step}", marks=marks))
    return params


def _real_params() -> list[Any]:
    return [
        pytest.param(c, id=c.name, marks=_long("a real repository")) for c in CASES if not c.fixture
    ]


def _env(root: Path, repo: str) -> dict[str, str]:
    return {**os.environ, **repo_env(repo, root)}


def _expect(step: str, s: Mapping[str, Any], case: Case) -> None:
    """What each command must show; a case's ``unknown`` list names the broken rewrites whose
    rejection is a missing proof, not a refutation, ``equiv_differs`` an "equivalent"
    rewrite that holds only for some parameters, and ``unchecked`` why every rewrite of the
    module is unchecked, a known false rejection (said in its ``meta.toml``)."""
    where = f"{case.name} {step}: {s['class']} {s['detail'] or s['error']}"
    if step == "inspect":
        assert s["outcome"] == "ok", where
    elif step == "self":
        assert s["outcome"] == "accepted", where
    elif case.unchecked and step in ("equiv", "broken"):
        assert s["outcome"] == "rejected" and case.unchecked in where, where
    elif case.unchecked and step == "check_equiv":  # the gate: the module fails, unchecked
        assert s["rc"] == 1 and s["outcome"] == "fail", where
        mod = next(m for m in s["check"] if m["module"] == case.module)
        assert any(case.unchecked in str(f) for f in [*mod["findings"], *mod["notes"]]), mod
    elif case.equiv_unchecked and step == "equiv":
        assert s["outcome"] == "rejected" and case.equiv_unchecked in where, where
    elif case.equiv_unchecked and step == "check_equiv":
        assert s["rc"] == 1 and s["outcome"] == "fail" and case.equiv_unchecked in where, where
    elif step == "equiv" and case.equiv_differs:
        assert s["outcome"] == "rejected" and "under parameters" in where, where
    elif step == "check_equiv" and case.equiv_differs:
        assert s["rc"] == 1 and s["outcome"] == "fail", where
    elif step == "equiv":
        assert s["outcome"] == "accepted", where
        assert (s["formal"] or {}).get("verdict") == "proven", where
    elif step == "broken":
        assert s["rc"] == 1 and s["outcome"] == "rejected", where
        if "broken" not in case.unknown:
            assert s["class"] in ("sim mismatch", "formal refuted"), where
    elif step == "check_equiv":
        assert s["rc"] == 0 and s["outcome"] == "pass", where
    else:
        assert s["rc"] == 1 and s["outcome"] == "fail", where
        mod = next(m for m in s["check"] if m["module"] == case.module)
        assert any(case.target in f for f in mod["findings"]), where
        if "check_broken" in case.unknown:
            assert mod["equivalence"] == "unknown", where
        else:
            assert s["class"] == "", where  # a counterexample shown


@pytest.fixture
def repo_copy(tmp_path: Path) -> Callable[[Case], Path]:
    def make(case: Case) -> Path:
        src = repo_source(default_repos_path(), case.repo)
        if not src.is_dir():
            pytest.skip(f"repository {case.repo} not found at {src} (RTLOPT_BENCH_PATH)")
        return prepare_repo(src, tmp_path / "work" / case.repo)

    return make


def _run_steps(case: Case) -> list[str]:
    """The commands of a fixture case the suite runs (the long ones with
    ``RTLOPT_ACCEPTANCE_FULL=1`` only)."""
    return [step for step in STEPS if FULL or step not in case.long]


@pytest.fixture(scope="module")
def fixture_runs(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[Case, Callable[[Case], Path]], tuple[dict[str, Any], str]]:
    """Each fixture case's commands run once, one after another with one user cache, as a user
    runs them (and as ``bench/repos.py`` does): the first of its step tests runs them, each
    step test judges its own command. (The record, the repository's ``git status`` after.)"""
    runs: dict[str, tuple[dict[str, Any], str]] = {}

    def run(case: Case, repo_copy: Callable[[Case], Path]) -> tuple[dict[str, Any], str]:
        if case.name not in runs:
            root = repo_copy(case)
            out = tmp_path_factory.mktemp("out")
            env = _env(root, case.repo)
            rec = run_case(case, root, out, env, "nangate45", TIMEOUT, _run_steps(case))
            runs[case.name] = (rec, _dirty(root))
        return runs[case.name]

    return run


@pytest.mark.parametrize(("case", "step"), _fixture_params())
def test_fixture_repository(
    case: Case,
    step: str,
    repo_copy: Callable[[Case], Path],
    fixture_runs: Callable[[Case, Callable[[Case], Path]], tuple[dict[str, Any], str]],
) -> None:
    rec, dirty = fixture_runs(case, repo_copy)
    _expect(step, rec["steps"][step], case)
    assert not dirty, dirty  # nothing the user owns is modified


@pytest.mark.parametrize("case", _real_params())
def test_real_repository(case: Case, tmp_path: Path, repo_copy: Callable[[Case], Path]) -> None:
    """Every command of a case over picorv32, serv, ibex or cv32e40p (minutes)."""
    root = repo_copy(case)
    rec = run_case(case, root, tmp_path / "out", _env(root, case.repo), "nangate45", TIMEOUT)
    failed = []
    for step in STEPS:
        try:
            _expect(step, rec["steps"][step], case)
        except AssertionError as exc:
            failed.append(str(exc).splitlines()[0])
    assert not failed, failed
    assert not _dirty(root), _dirty(root)


def _dirty(root: Path) -> str:
    return _git(root, "status", "--porcelain").strip()


def test_fixture_repositories_ship_with_the_checkout() -> None:
    """The default run needs no data outside the checkout."""
    fixtures = [c for c in CASES if c.fixture]
    assert {c.repo for c in fixtures} == {p.name for p in FIXTURES.iterdir() if p.is_dir()}
    for c in fixtures:
        assert repo_source(Path("/nonexistent"), c.repo) == FIXTURES / c.repo
