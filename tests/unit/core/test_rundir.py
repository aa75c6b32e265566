"""RunDir: every run file round-trips through its typed writer and reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtlopt.config import Config, RunConfig, load_config
from rtlopt.errors import UsageError
from rtlopt.results import PPA, EvalResult, Stage, Status
from rtlopt.rundir import RunDir, RunInfo, RunState, StepRecord


def _result(reward: float, area: float = 10.0) -> EvalResult:
    return EvalResult(
        status=Status.OK, stage=Stage.DONE, reward=reward, ppa=PPA(area, 100.0, 2.0),
        source_hash=f"h{reward}",
    )  # fmt: skip


def _step(step: int, mean: float) -> StepRecord:
    return StepRecord(
        step=step, max_reward=1.0, mean_reward=mean, best_reward=1.0, best_metric=None,
        ref_metric=1.0, metric="adp", delta=0.69, beta_mean=None, eff_n=None, const_frac=None,
        beta_max_rate=None, kl_ref=None, rule="fixed", valid_frac=0.5, accepted=1, rollouts=2,
        tokens=10, loss=None, time_s=0.1,
    )  # fmt: skip


def test_missing_files_read_as_none_and_the_layout_has_fixed_names(tmp_path: Path) -> None:
    rd = RunDir(tmp_path / "run")
    assert not rd.is_run()
    assert rd.read_info() is None and rd.read_state() is None and rd.read_best() is None
    assert rd.read_reference() is None and rd.read_provenance() == {}
    assert rd.read_config_table() == {} and rd.read_steps() == [] and not rd.policy_saved()
    assert list(rd.iter_candidates()) == []
    names = [
        rd.config,
        rd.run_json,
        rd.provenance,
        rd.reference,
        rd.pool,
        rd.steps,
        rd.state,
        rd.candidates,
        rd.policy,
        rd.best_v,
        rd.best_json,
        rd.report_md,
        rd.report_json,
        rd.pr_body,
        rd.workdir,
        rd.bench_json,
        rd.bench_best_v,
        rd.suite_tb,
    ]
    assert [p.name for p in names] == [
        "config.toml",
        "run.json",
        "provenance.json",
        "reference.json",
        "pool.json",
        "steps.jsonl",
        "state.json",
        "candidates",
        "policy",
        "best.v",
        "best.json",
        "report.md",
        "report.json",
        "pr_body.md",
        "work",
        "bench.json",
        "bench_best.v",
        "suite_tb",
    ]
    assert all(p.parent == rd.path for p in names)


def test_every_file_round_trips(tmp_path: Path) -> None:
    rd = RunDir(tmp_path / "run")
    rd.create()
    cfg = Config(run=RunConfig(steps=7))
    rd.write_config(cfg)
    assert rd.read_config_table()["run"]["steps"] == 7
    assert load_config(config_file=rd.config, env={}).config.run.steps == 7  # resume reads it
    info = RunInfo("r1", "m", "/x/m.v", "/x", "sky130hd", "running", ("rtlopt", "optimize"))
    rd.write_info(info)
    assert rd.is_run() and rd.read_info() == info
    rd.update_info(status="done", branch="rtlopt/m/r1", commit="abc")
    assert rd.read_info() == RunInfo(
        "r1", "m", "/x/m.v", "/x", "sky130hd", "done", ("rtlopt", "optimize"), "rtlopt/m/r1", "abc"
    )
    rd.write_provenance({"seed": 3})
    assert rd.read_provenance() == {"seed": 3}
    rd.write_reference(_result(11.1), "module m; endmodule\n")
    assert rd.read_reference() == (_result(11.1), "module m; endmodule\n")
    rd.write_state(RunState(4, {"kind": "fixed"}, 2.5))
    assert rd.read_state() == RunState(4, {"kind": "fixed"}, 2.5)
    rd.write_best("module m; endmodule\n", _result(3.0))
    assert rd.read_best() == (_result(3.0), "module m; endmodule\n")
    rd.write_candidate("aa", "module a; endmodule\n", _result(1.0), step=2, parent=5)
    assert rd.has_candidate("aa") and rd.read_candidate("aa") == _result(1.0)
    (rec,) = rd.iter_candidates()
    assert (rec.hash, rec.step, rec.parent, rec.code_path) == ("aa", 2, 5, rd.candidate_v("aa"))
    saved: list[Path] = []

    def save(folder: Path) -> None:  # a Policy.save: writes its folder
        assert not rd.policy_saved()  # the old marker is gone while saving
        folder.mkdir(exist_ok=True)
        saved.append(folder)

    rd.save_policy(save, step=4)
    rd.save_policy(save, step=5)
    assert saved == [rd.policy] * 2 and rd.policy_saved()


def test_steps_dedupe_a_redone_step_skip_torn_lines_and_truncate(tmp_path: Path) -> None:
    rd = RunDir(tmp_path)
    for step, mean in ((1, 0.1), (2, 0.2), (2, 0.25), (3, 0.3)):
        rd.append_step(_step(step, mean))
    with rd.steps.open("a") as fh:
        fh.write('{"step": 4, "mean_rew')  # killed mid-write
    assert [(r["step"], r["mean_reward"]) for r in rd.read_steps()] == [
        (1, 0.1), (2, 0.25), (3, 0.3)]  # fmt: skip
    rd.truncate_steps(2)
    assert [r["step"] for r in rd.read_steps()] == [1, 2]


def test_a_damaged_file_names_itself(tmp_path: Path) -> None:
    rd = RunDir(tmp_path)
    rd.state.write_text("{not json")
    with pytest.raises(UsageError, match=r"state\.json: cannot read"):
        rd.read_state()
    rd.run_json.write_text("[1, 2]")
    with pytest.raises(UsageError, match=r"run\.json: cannot read"):
        rd.read_info()
    rd.best_json.write_text(json.dumps({"status": "ok"}))  # no stage
    with pytest.raises(UsageError, match=r"best\.json"):
        rd.read_best()
    rd.create()
    (rd.candidates / "bad.json").write_text("{")
    rd.write_candidate("ok", "module a; endmodule\n", _result(1.0), step=1, parent=0)
    seen: list[Path] = []
    assert [c.hash for c in rd.iter_candidates(lambda p, e: seen.append(p))] == ["ok"]
    assert seen == [rd.candidates / "bad.json"] and rd.read_candidate("bad") is None


def test_run_info_of_an_older_run_keeps_what_it_has(tmp_path: Path) -> None:
    rd = RunDir(tmp_path)
    rd.run_json.write_text(json.dumps({"run_id": "x", "module": "m", "future": 1}))
    info = rd.read_info()
    assert info is not None and info.to_json() == {"run_id": "x", "module": "m", "command": []}
