"""`rtlopt bench`'s options reach the runners unchanged (no tools: the runner is replaced by
one that keeps its arguments)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rtlopt.cli import bench as bench_cli


def _captured(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> bench_cli._Args:
    seen: list[bench_cli._Args] = []
    monkeypatch.setattr(bench_cli, "_run_suite", seen.append)
    res = CliRunner().invoke(bench_cli.bench, args, catch_exceptions=False)
    assert res.exit_code == 0, res.output
    (a,) = seen
    return a


def test_every_option_reaches_the_runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cands = tmp_path / "cands"
    cands.mkdir()
    cfg = tmp_path / "rtlopt.toml"
    cfg.write_text("")
    a = _captured(
        monkeypatch,
        [
            "folder",
            "--suite-path", str(tmp_path), "--pdk", "sky130", "--metric", "adp",
            "--config", str(cfg), "--designs", "a, b,", "--jobs", "3", "--eval-workers", "2",
            "--out", str(tmp_path / "out"), "--reference-only", "--compare", "paper",
            "--no-suite-tb", "--method-name", "mine", "--rows", "r1,r2",
            "--model", "m", "--endpoint", "http://x/v1", "--steps", "5", "--parents", "2",
            "--rollouts", "3", "--seed", "9", "--delta", "adaptive", "--search", "mcts",
            "--budget", "40", "--advantage", "expected", "--lr", "0.001",
            "--max-new-tokens", "64", "--executor", "local", "--ray-address", "auto",
            "--candidates", str(cands),
        ],
    )  # fmt: skip
    assert a.overrides == {
        "flow.pdk": "sky130hd",
        "flow.metric": "adp",
        "policy.backend": "scripted",  # --candidates implies the scripted policy
        "policy.model": "m",
        "policy.endpoint": "http://x/v1",
        "policy.max_new_tokens": 64,
        "run.steps": 5,
        "run.rollouts": 3,
        "run.seed": 9,
        "harness.seed": 9,
        "search.parents": 2,
        "search.sampler": "mcts",
        "search.node_budget": 40,
        "train.delta": "adaptive",
        "train.advantage": "expected",
        "train.learning_rate": 0.001,
        "eval.workers": 2,
    }
    assert (a.suite, a.suite_path, a.out) == ("folder", tmp_path.resolve(), tmp_path / "out")
    assert (a.designs, a.jobs, a.config_file, a.candidates) == (("a", "b"), 3, cfg, cands)
    assert (a.reference_only, a.compare, a.suite_tb, a.method) == (True, "paper", False, "mine")
    assert (a.rows, a.executor, a.ray_address, a.liberty) == (("r1", "r2"), "local", "auto", None)


def test_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    a = _captured(monkeypatch, ["folder", "--suite-path", str(tmp_path)])
    assert a.overrides == {}
    assert a.out == (tmp_path / "rtlopt-bench" / "folder-default").resolve()
    assert (a.designs, a.rows, a.candidates, a.executor, a.method) == (
        None,
        (),
        None,
        "local",
        "rtlopt",
    )
    assert a.jobs >= 1 and a.suite_tb and not a.reference_only


def test_bad_options_are_usage_errors(tmp_path: Path) -> None:
    res = CliRunner().invoke(
        bench_cli.bench, ["folder", "--suite-path", str(tmp_path), "--jobs", "0"]
    )
    assert res.exit_code == 2 and "--jobs must be at least 1" in res.output
    res = CliRunner().invoke(bench_cli.bench, ["folder", "--candidates", str(tmp_path / "none")])
    assert res.exit_code == 2 and "candidates not found" in res.output


def test_a_gpu_policy_runs_designs_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25, finding 2: `--policy vllm` defaulted to one design per core, each building
    its own engine on the one GPU."""
    a = _captured(monkeypatch, ["folder", "--suite-path", str(tmp_path), "--policy", "vllm"])
    assert a.jobs == 1 and "one at a time" in a.jobs_note and "vllm" in a.jobs_note
    monkeypatch.setattr(bench_cli, "_run_suite", lambda a: None)
    res = CliRunner().invoke(
        bench_cli.bench,
        ["folder", "--suite-path", str(tmp_path), "--policy", "vllm", "--jobs", "2"],
    )
    assert res.exit_code == 2 and "2 engines on one GPU" in res.output
    monkeypatch.setattr(bench_cli, "_has_gpu", lambda: True)
    a = _captured(monkeypatch, ["folder", "--suite-path", str(tmp_path)])  # transformers, auto
    assert a.jobs == 1 and "transformers" in a.jobs_note
    monkeypatch.setattr(bench_cli, "_has_gpu", lambda: False)
    a = _captured(monkeypatch, ["folder", "--suite-path", str(tmp_path)])
    assert a.jobs == (os.cpu_count() or 1) and "per core" in a.jobs_note


def test_seeds_and_frozen_control_are_on_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: three seeds from run.seed and a frozen control unless told otherwise; one
    seed without control is the bench's one run per design (no seeds)."""
    a = _captured(monkeypatch, ["folder", "--suite-path", str(tmp_path)])
    assert (a.seeds, a.frozen_control) == ((42, 43, 44), True)
    a = _captured(monkeypatch, ["folder", "--suite-path", str(tmp_path), "--seed", "7"])
    assert a.seeds == (7, 8, 9)
    args = ["folder", "--suite-path", str(tmp_path), "--seeds", "2", "--no-frozen-control"]
    a = _captured(monkeypatch, args)
    assert (a.seeds, a.frozen_control) == ((42, 43), False)
    args = ["folder", "--suite-path", str(tmp_path), "--seeds", "1", "--no-frozen-control"]
    assert _captured(monkeypatch, args).seeds == ()
    cfg = tmp_path / "rtlopt.toml"
    cfg.write_text("[bench]\nseeds = 5\nfrozen_control = false\n")
    a = _captured(monkeypatch, ["folder", "--suite-path", str(tmp_path), "--config", str(cfg)])
    assert (a.seeds, a.frozen_control) == ((42, 43, 44, 45, 46), False)
    res = CliRunner().invoke(
        bench_cli.bench, ["folder", "--suite-path", str(tmp_path), "--seeds", "0"]
    )
    assert res.exit_code == 2 and "--seeds must be at least 1" in res.output
