"""The acceptance cases' runner (tests/acceptance/runner.py) and bench/repos.py, the script
that measures them: the cases, their failure classes, and one real case through the CLI."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.acceptance import runner as bench
from tests.acceptance.edits import EditError, apply_edit, make_edit

REPO = Path(__file__).resolve().parents[3]
SCRIPT = REPO / "bench" / "repos.py"
REPOS = Path(os.environ.get("RTLOPT_BENCH_PATH", str(REPO.parent / "shared" / "bench"))) / "repos"


def _normal(text: str) -> str:
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    return " ".join(text.split())


def test_cases_cover_the_four_repositories_and_the_required_kinds() -> None:
    cases = bench.load_cases()
    assert len(cases) >= 30
    assert {c.repo for c in cases} >= {"picorv32", "serv", "ibex", "cv32e40p"}
    assert sum(c.rare for c in cases) >= 3
    kinds = " ".join(c.kind for c in cases).lower()
    for word in (
        "combinational",
        "no reset",
        "fsm",
        "multiplier",
        "divider",
        "filelist",
        "ifdef",
        "systemverilog",
    ):
        assert word in kinds, word
    names = [c.name for c in cases]
    assert len(names) == len(set(names))


@pytest.mark.skipif(not REPOS.is_dir(), reason=f"repositories not found at {REPOS}")
def test_every_rewrite_differs_from_the_original_and_from_the_other() -> None:
    for c in bench.load_cases():
        src = bench.repo_source(REPOS, c.repo) / c.target
        source = src.read_text(errors="replace")
        assert re.search(rf"\bmodule\s+{c.module}\b", source), c.name
        equiv = _normal(bench.candidate_text(c, "equiv", src))
        broken = _normal(bench.candidate_text(c, "broken", src))
        assert f"module {c.module}" in equiv and f"module {c.module}" in broken, c.name
        assert equiv not in _normal(source), f"{c.name}: equivalent rewrite is a verbatim copy"
        assert broken not in _normal(source), f"{c.name}: broken rewrite is a verbatim copy"
        assert equiv != broken, c.name


def test_failure_classes_of_raw_results() -> None:
    cv = bench.classify_view
    assert cv("inspect", 0, "", {}, False) == ("ok", "", "")
    crash = "internal error: AttributeError: 'TypeParameterSymbol' object has no attribute"
    assert cv("inspect", 3, crash, {}, False)[:2] == ("error", "internal error: AttributeError")
    screen = {
        "status": "invalid",
        "stage": "screen",
        "reason": "rejected by screening: line 32: compiler directive `ifdef is not allowed",
    }
    assert cv("self", 1, "", screen, False)[:2] == ("rejected", "screen: directives in the file")
    sat = {
        "status": "invalid",
        "stage": "formal",
        "reason": "equivalence not proven: x",
        "formal": {"verdict": "unknown", "reason": "SAT solving timed out after 107s"},
    }
    assert cv("equiv", 1, "", sat, False)[1] == "SAT timeout"
    noreset = {
        **sat,
        "formal": {
            "verdict": "unknown",
            "reason": "no reset: bounded check only; no counterexample",
        },
    }
    assert cv("equiv", 1, "", noreset, False)[1].startswith("unknown-proof: no reset")
    ok_unknown = {"status": "ok", "stage": "done", "formal": {"verdict": "unknown"}}
    assert cv("equiv", 0, "", ok_unknown, True)[1] == "accepted without proof (unknown)"
    assert cv("broken", 0, "", ok_unknown, True)[:2] == ("accepted", "ACCEPTED (not caught)")
    sim = {"status": "invalid", "stage": "simulation", "reason": "not equivalent in simulation"}
    assert cv("broken", 1, "", sim, False)[:2] == ("rejected", "sim mismatch")
    assert bench._is_weak(cv("broken", 1, "", sat, False)[1])
    assert not bench._is_weak(cv("broken", 1, "", sim, False)[1])


@pytest.mark.tools
@pytest.mark.skipif(not (REPOS / "serv").is_dir(), reason=f"serv not found at {REPOS}")
@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_one_real_case_runs_resumes_and_reports(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = [
        sys.executable,
        str(SCRIPT),
        "--only",
        "serv/serv_aligner",
        "--out",
        str(out),
        "--repos-path",
        str(REPOS),
    ]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    r = subprocess.run(args, capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr
    rec = json.loads((out / "results" / "serv__serv_aligner.json").read_text())
    steps = rec["steps"]
    assert steps["inspect"]["outcome"] == "ok"
    assert steps["self"]["outcome"] == "accepted"
    assert steps["equiv"]["outcome"] == "accepted"
    assert steps["equiv"]["formal"]["verdict"] == "proven"
    assert steps["broken"]["outcome"] == "rejected" and steps["broken"]["class"] == "sim mismatch"
    assert steps["check_equiv"]["rc"] == 0 and steps["check_broken"]["rc"] == 1
    assert steps["check_broken"]["class"] == "", steps["check_broken"]  # a counterexample
    assert "| serv/serv_aligner |" in (out / "table.md").read_text()
    # the user's copy is untouched, and a second run serves the stored result
    assert "modified by rtlopt" not in r.stderr
    again = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 0 and "case(s) to run" not in again.stdout


def test_edits_ship_no_upstream_lines_and_refuse_another_base(tmp_path: Path) -> None:
    """An edit stores only new lines; applied to a different upstream file it is refused."""
    base = b"// upstream\nmodule m(input a, output y);\n  assign y = a;\nendmodule\n// tail\n"
    new = "// mine\nmodule m(input a, output y);\n  assign y = ~~a;\nendmodule\n"
    edit = make_edit(base, new, "rtl/m.v")
    assert apply_edit(edit, base) == new
    assert "assign y = a;" not in edit and "upstream" not in edit and "tail" not in edit
    with pytest.raises(EditError, match="differs from the one the edit was made from"):
        apply_edit(edit, base.replace(b"tail", b"tale"))
    for f in bench.CASES.rglob("*"):
        assert f.suffix not in (".v", ".sv", ".vh", ".svh"), f"full third-party copy: {f}"


def test_fixture_repositories_cover_the_styles_of_real_ones() -> None:
    """Repositories written for rtlopt (they ship with the checkout): every style issue 22
    found, each with its two rewrites applying to the fixture's own file."""
    fixtures = [c for c in bench.load_cases() if (bench.FIXTURES / c.repo).is_dir()]
    kinds = " ".join(c.kind for c in fixtures).lower()
    for word in ("include folder", "inside the module", "vendor", "gate cell", "without reset"):
        assert word in kinds, word
    core = next(c for c in fixtures if c.repo == "fx_core")
    lines = (bench.FIXTURES / core.repo / core.target).read_text().count("\n")
    assert 2000 <= lines <= 4000, lines
    for c in fixtures:
        src = bench.FIXTURES / c.repo / c.target
        assert bench.repo_source(Path("/nonexistent"), c.repo) == bench.FIXTURES / c.repo
        for name in ("equiv", "broken"):
            assert _normal(bench.candidate_text(c, name, src)) != _normal(src.read_text())


def test_check_steps_are_classified_by_exit_code_and_counterexample() -> None:
    cc = bench.classify_check
    cex = [
        {
            "module": "m",
            "equivalence": "mismatch",
            "findings": ["the change to rtl/m.v: not equivalent in simulation: y expected 0"],
            "notes": ["failing input at cycle 3, after the clock edge: a=1"],
        }
    ]
    assert cc("check_equiv", 0, "", []) == ("pass", "", "")
    assert cc("check_broken", 1, "", cex) == ("fail", "", "")
    assert cc("check_broken", 0, "", [])[:2] == ("pass", "PASSED (not caught)")
    unknown = [{**cex[0], "equivalence": "unknown", "notes": []}]
    unknown[0]["findings"] = ["the change to rtl/m.v: equivalence not proven: no proof"]
    assert cc("check_broken", 1, "", unknown)[1] == "rejected without counterexample"
    assert cc("check_equiv", 1, "", unknown)[1] == "gate: unknown proof"
    crash = [{**unknown[0], "findings": ["could not check the change to rtl/m.v: yosys died"]}]
    assert cc("check_broken", 3, "", crash)[:2] == ("could not check", "could not check (exit 3)")
    assert cc("check_equiv", 2, "error: rtl/m.v:3: syntax error", [])[1] == "parse"
    assert cc("check_equiv", -1, "modified", [])[1] == "modified the repository"


def test_the_gate_repository_lists_the_module_and_keeps_a_user_section(tmp_path: Path) -> None:
    case = next(c for c in bench.load_cases() if c.repo == "fx_incdir")
    root = bench.prepare_repo(bench.FIXTURES / case.repo, tmp_path / "src")
    gate = bench.gate_repo(case, root, tmp_path / "gate")
    toml = (gate / "rtlopt.toml").read_text()
    assert 'include_dirs = ["include"]' in toml
    assert f'optimization_only = ["{case.module}"]' in toml
    assert bench._git(gate, "status", "--porcelain").strip() == ""
    (root / "rtlopt.toml").write_text("[check]\nppa = false\n")
    bench._git(root, "commit", "-qam", "the user's own gate settings")
    with pytest.raises(bench.GateSetupError, match="already has a"):
        bench.gate_repo(case, root, tmp_path / "gate2")
