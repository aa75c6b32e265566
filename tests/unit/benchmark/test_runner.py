"""Bench runner pieces that need no EDA tools: candidate ranking, rows, resume, the grid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtlopt.benchmark import (
    ABLATION_GRID,
    AblationConfig,
    AblationRow,
    BenchOptions,
    BenchStatus,
    DesignResult,
    SuiteDesign,
    ablation_markdown,
    accepted_candidates,
    bench_rows,
    default_workers,
    optimize_design,
    select_configs,
)
from rtlopt.benchmark._runner import _with_helpers
from rtlopt.config import load_config
from rtlopt.errors import UsageError
from rtlopt.results import PPA, EvalResult, Stage, Status


def _write_candidate(run_dir: Path, h: str, status: Status, area: float | None) -> None:
    cands = run_dir / "candidates"
    cands.mkdir(parents=True, exist_ok=True)
    ppa = PPA(area, 100.0, 2.0) if area is not None else None
    res = EvalResult(status=status, stage=Stage.DONE, reward=1.0, ppa=ppa, source_hash=h)
    (cands / f"{h}.json").write_text(json.dumps(res.to_json()))
    (cands / f"{h}.v").write_text(f"module m_{h}(); endmodule\n")


def test_accepted_candidates_are_ranked_by_metric_and_skip_rejected(tmp_path: Path) -> None:
    _write_candidate(tmp_path, "bbb", Status.OK, 30.0)
    _write_candidate(tmp_path, "aaa", Status.OK, 10.0)
    _write_candidate(tmp_path, "ccc", Status.INVALID, 1.0)  # cheaper but not equivalent
    _write_candidate(tmp_path, "ddd", Status.OK, None)  # no PPA numbers
    (tmp_path / "candidates" / "torn.json").write_text("{not json")
    got = accepted_candidates(tmp_path, "ppa")
    assert [h for _m, h, _p in got] == ["aaa", "bbb"]
    assert got[0][0] == pytest.approx(10.0 * 100.0 * 2.0)
    assert [m for m, _h, _p in accepted_candidates(tmp_path, "adp")] == [1000.0, 3000.0]


def test_helper_modules_of_the_reference_travel_with_a_candidate() -> None:
    ref = (
        "module top(input a, output y); helper h(.a(a), .y(y)); endmodule\n"
        "module helper(input a, output y); assign y = a; endmodule\n"
    )
    cand = "module top(input a, output y); helper h(.a(a), .y(y)); endmodule\n"
    out = _with_helpers(cand, ref, "top")
    assert out.count("module helper") == 1 and out.count("module top") == 1
    own = cand + "module helper(input a, output y); assign y = ~~a; endmodule\n"
    assert _with_helpers(own, ref, "top") == own


def test_bench_rows_carry_ratio_status_and_suite_tb_failures() -> None:
    results = [
        DesignResult("a", BenchStatus.IMPROVED, ratio=0.5, ref_metric=10.0, suite_tb="passed"),
        DesignResult(
            "b", BenchStatus.TB_REJECTED, ref_metric=20.0, suite_tb="failed: mismatch at 3"
        ),
        DesignResult("c", BenchStatus.LOAD_ERROR, "syntax error"),
    ]
    rows = bench_rows(results, "mine")
    assert [r.ratio("mine") for r in rows] == [0.5, None, None]
    assert rows[1].status == BenchStatus.TB_REJECTED and "mismatch at 3" in rows[1].detail
    assert rows[2].detail == "syntax error" and rows[0].detail == ""


def test_design_result_json_round_trip() -> None:
    r = DesignResult(
        "x",
        BenchStatus.IMPROVED,
        "d",
        "adp",
        3.0,
        1.5,
        0.5,
        20.0,
        21.0,
        "h",
        "passed",
        1,
        "/r",
        2,
        1.5,
        True,
    )
    assert DesignResult.from_json({**r.to_json(), "future_field": 1}) == r


def test_finished_design_is_not_run_again(tmp_path: Path) -> None:
    d = SuiteDesign("x", tmp_path, tmp_path / "missing.v", "x", "x", "", None, (), None)
    opts = BenchOptions("folder", tmp_path, tmp_path / "out")
    rdir = tmp_path / "out" / "runs" / "x"
    rdir.mkdir(parents=True)
    done = DesignResult("x", BenchStatus.IMPROVED, ratio=0.25, run_dir=str(rdir))
    (rdir / "bench.json").write_text(json.dumps(done.to_json()))
    # The reference file does not exist: anything but the recorded result would fail.
    assert optimize_design(d, opts) == done


def test_default_workers_share_the_cores() -> None:
    assert default_workers(1) >= 1
    assert default_workers(10_000) == 1
    assert default_workers(1) >= default_workers(2)


def test_ablation_grid_matches_the_paper_rows_and_builds_valid_configs() -> None:
    assert len(ABLATION_GRID) == 9
    assert len({c.slug for c in ABLATION_GRID}) == len(ABLATION_GRID)
    by_axis = {c.axis for c in ABLATION_GRID}
    assert by_axis == {"full", "delta", "train", "reuse", "combined"}
    for c in ABLATION_GRID:
        cfg = load_config(None, overrides={**c.overrides, "flow.metric": "adp"}).config
        assert cfg.flow.metric == "adp"
    full = load_config(None, overrides=dict(ABLATION_GRID[0].overrides)).config
    assert (full.search.sampler, full.train.advantage, full.train.delta) == (
        "puct",
        "entropic",
        "adaptive",
    )
    bon = load_config(None, overrides=dict(ABLATION_GRID[-1].overrides)).config
    assert bon.train.learning_rate == 0.0 and bon.search.sampler == "none"
    # reuse and train axes hold delta at the fixed ln 2 (paper section 4.3)
    for c in ABLATION_GRID:
        if c.axis in ("reuse", "train", "combined"):
            assert c.overrides["train.delta"] == "fixed"


def test_select_configs_by_slug_and_unknown_lists_known() -> None:
    assert select_configs(["no-reuse"])[0].name == "no reuse"
    assert select_configs(None) == list(ABLATION_GRID)
    with pytest.raises(UsageError, match="known: .*no-reuse"):
        select_configs(["nope"])


def test_ablation_markdown_has_table3_shape() -> None:
    rows = [
        AblationRow(
            AblationConfig("good", "full"),
            DesignResult(
                "good", BenchStatus.IMPROVED, best_metric=1.0e6, ratio=0.4, max_reward=25.0
            ),
        ),
        AblationRow(
            AblationConfig("never correct", "combined"),
            DesignResult("never correct", BenchStatus.NO_ACCEPTED, max_reward=0.89),
        ),
    ]
    text = ablation_markdown(rows, 2.5e6, 11.1)
    lines = text.splitlines()
    assert lines[0] == "| Configuration | Best reward | Best ADP (um^2*ps) | ADP reduction |"
    assert "| Reference | 11.10 | 2,500,000 | |" in lines
    assert "| good | 25.00 | 1,000,000 | -60.0% |" in lines
    assert "| never correct | 0.89 | — | — |" in lines
