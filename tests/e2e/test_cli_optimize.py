"""`rtlopt optimize` end to end with the scripted policy: selection, write-back, resume, report."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import git, rtlopt, tree_digest

pytestmark = pytest.mark.tools


def _run_dir(stdout: str) -> Path:
    m = re.search(r"run directory: (\S+)", stdout)
    assert m, stdout
    return Path(m.group(1))


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_scripted_run_selects_best_equivalent_and_leaves_user_work_untouched(
    example_repo: Path,
) -> None:
    # Uncommitted work elsewhere in the repository: a modified tracked file and a staged one.
    (example_repo / "alternatives" / "b_loop.v").write_text(
        (example_repo / "alternatives" / "b_loop.v").read_text() + "// edited\n"
    )
    notes = example_repo / "notes.txt"
    notes.write_text("work in progress\n")
    git(example_repo, "add", "notes.txt")
    before = tree_digest(example_repo)

    r = rtlopt(
        [
            "optimize",
            "rtl/prio_enc.v",
            "-m",
            "prio_enc",
            "--candidates",
            "alternatives",
            "--steps",
            "2",
            "--parents",
            "1",
            "--rollouts",
            "4",
        ],
        example_repo,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert tree_digest(example_repo) == before

    branch = re.search(r"branch: (rtlopt/prio_enc/\S+)", r.stdout).group(1)  # type: ignore[union-attr]
    changed = git(example_repo, "diff", "--name-only", "main", branch).split()
    assert changed == ["rtl/prio_enc.v"]
    new_file = git(example_repo, "show", f"{branch}:rtl/prio_enc.v")
    old_file = (example_repo / "rtl" / "prio_enc.v").read_text()
    # Exactly one module changed: the neighbour and the header comment are identical.
    assert (
        old_file[old_file.index("// A neighbour") :] == new_file[new_file.index("// A neighbour") :]
    )
    assert new_file.startswith(old_file[: old_file.index("module prio_enc")])
    assert "integer i" in new_file  # the loop form (b_loop) is the best ADP of the alternatives
    msg = git(example_repo, "log", "-1", "--format=%B", branch)
    for word in ("area", "delay", "power", "ADP", "proven"):
        assert word in msg
    rd = _run_dir(r.stdout)
    best = json.loads((rd / "best.json").read_text())
    assert best["formal"]["verdict"] == "proven" and best["accepted"]
    # The wrong alternative was evaluated and rejected, never selected.
    cands = [json.loads(p.read_text()) for p in (rd / "candidates").glob("*.json")]
    assert any(c["stage"] == "simulation" and c["status"] == "invalid" for c in cands)
    assert "5'd14" not in new_file
    assert (rd / "report.md").exists() and (rd / "config.toml").exists()
    # the second, independent proof ran before the branch, and its replay is in the run folder
    assert "Second proof: **proven**" in (rd / "pr_body.md").read_text()
    replay = subprocess.run(["sh", str(rd / "proof" / "replay.sh")], capture_output=True)
    assert replay.returncode == 0, replay.stdout
    # progress per rollout in a pipe (issue 25, finding 8), every rollout kept with its reason
    out = r.stdout + r.stderr
    assert "prio_enc step 1: 4 rollout(s) generated" in out and "\r" not in out
    assert re.search(r"prio_enc step 1: candidate 1/\d+ (accepted|invalid)", out), out
    rows = [json.loads(x) for x in (rd / "rollouts.jsonl").read_text().splitlines()]
    assert len(rows) == 8 and all({"stage", "reason", "text"} <= set(x) for x in rows)
    assert "## Rollouts" in (rd / "report.md").read_text()


def test_no_improvement_exits_1_without_branch(example_repo: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    for name in ("c_wrong_last_group.v", "d_syntax_error.v"):
        (bad / name).write_text((example_repo / "alternatives" / name).read_text())
    r = rtlopt(
        [
            "optimize",
            "rtl/prio_enc.v",
            "-m",
            "prio_enc",
            "--candidates",
            str(bad),
            "--steps",
            "1",
            "--parents",
            "1",
            "--rollouts",
            "2",
        ],
        example_repo,
    )
    assert r.returncode == 1, r.stdout + r.stderr
    assert "no equivalent design beat the reference" in r.stdout
    assert "rtlopt/" not in git(example_repo, "branch", "--list")


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_pause_and_resume_loses_nothing(example_repo: Path) -> None:
    args = [
        "optimize",
        "rtl/prio_enc.v",
        "-m",
        "prio_enc",
        "--candidates",
        "alternatives",
        "--steps",
        "3",
        "--parents",
        "1",
        "--rollouts",
        "2",
        "--no-branch",
    ]
    r1 = rtlopt([*args, "--stop-after", "2"], example_repo)
    assert r1.returncode == 0, r1.stdout + r1.stderr
    rd = _run_dir(r1.stdout)
    steps = [json.loads(x) for x in (rd / "steps.jsonl").read_text().splitlines()]
    assert [s["step"] for s in steps] == [1, 2]
    pool_before = json.loads((rd / "pool.json").read_text())
    assert json.loads((rd / "run.json").read_text())["status"] == "paused"

    r2 = rtlopt(["optimize", "--resume", str(rd), "--no-branch"], example_repo)
    assert r2.returncode == 0, r2.stdout + r2.stderr
    steps = [json.loads(x) for x in (rd / "steps.jsonl").read_text().splitlines()]
    assert [s["step"] for s in steps] == [1, 2, 3]
    pool_after = json.loads((rd / "pool.json").read_text())
    ids_before = {s["id"] for s in pool_before["states"]}
    assert ids_before <= {s["id"] for s in pool_after["states"]}
    assert json.loads((rd / "run.json").read_text())["status"] == "done"


def test_optimize_bad_input_fails_before_work(example_repo: Path, tmp_path: Path) -> None:
    r = rtlopt(
        ["optimize", "rtl/prio_enc.v", "-m", "prio_enc", "--candidates", str(tmp_path / "none")],
        example_repo,
    )
    assert r.returncode == 2 and "not found" in r.stderr
    r = rtlopt(
        [
            "optimize",
            "rtl/prio_enc.v",
            "-m",
            "prio_enc",
            "--policy",
            "openai",
            "--endpoint",
            "http://127.0.0.1:9/v1",
        ],
        example_repo,
    )
    assert r.returncode == 2, r.stdout + r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (example_repo / ".rtlopt" / "runs").exists() or not any(
        (example_repo / ".rtlopt" / "runs").iterdir()
    )
    # The target module has uncommitted changes: refused before any work.
    f = example_repo / "rtl" / "prio_enc.v"
    f.write_text(f.read_text().replace("5'd16;", "5'd16; "))
    r = rtlopt(
        ["optimize", "rtl/prio_enc.v", "-m", "prio_enc", "--candidates", "alternatives"],
        example_repo,
    )
    assert r.returncode == 2 and "uncommitted" in r.stderr, r.stderr


def test_optimize_help_explains_every_option() -> None:
    r = rtlopt(["optimize", "--help"], Path.cwd())
    assert r.returncode == 0
    for opt in (
        "--policy",
        "--model",
        "--steps",
        "--parents",
        "--rollouts",
        "--seed",
        "--delta",
        "--reuse",
        "--advantage",
        "--resume",
        "--pdk",
        "--module",
        "--spec",
        "--push",
    ):
        assert opt in r.stdout, opt
