"""Several seeds and a frozen control per design (issue 32): the runs a seeded bench makes,
and the mean, spread and learning-minus-frozen difference it reports. No EDA tools: the one
optimization call is replaced by a fake that records its arguments."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rtlopt.benchmark import (
    FROZEN,
    FROZEN_CONTROL,
    LEARNING,
    BenchOptions,
    BenchStatus,
    DesignResult,
    SuiteDesign,
    _outputs,
    _seeds,
    arm_results,
    bench_trials,
    run_trials,
    seed_summaries,
    seeds_markdown,
)
from rtlopt.cli import bench as bench_cli


def _r(design: str, arm: str, seed: int, ratio: float | None, status: str = "") -> DesignResult:
    if not status:
        status = BenchStatus.NO_ACCEPTED if ratio is None else BenchStatus.IMPROVED
    return DesignResult(design, status, ref_metric=100.0, ratio=ratio, arm=arm, seed=seed)


def test_spread_and_paired_difference_per_design() -> None:
    results = [
        _r("a", LEARNING, 1, 0.5),
        _r("a", FROZEN, 1, 0.9),
        _r("a", LEARNING, 2, 0.7),
        _r("a", FROZEN, 2, 0.8),
        _r("a", LEARNING, 3, None),  # no accepted design: ratio 1
        _r("a", FROZEN, 3, 1.0, BenchStatus.NO_IMPROVEMENT),
        _r("b", LEARNING, 1, 0.9),
        _r("b", FROZEN, 1, 0.6),
        _r("b", LEARNING, 2, None, BenchStatus.ERROR),  # counts nowhere
        _r("b", FROZEN, 2, 0.7),
    ]
    a, b = seed_summaries(results)
    assert (a.learning.n, a.learning.low, a.learning.high) == (3, 0.5, 1.0)
    assert a.learning.mean == pytest.approx((0.5 + 0.7 + 1.0) / 3)
    assert a.learning.std == pytest.approx(0.2516611, rel=1e-5)
    assert a.frozen is not None and a.frozen.mean == pytest.approx(0.9)
    assert a.delta is not None
    assert (a.delta.low, a.delta.high) == (pytest.approx(-0.4), pytest.approx(0.0))
    assert a.verdict == "within spread"  # seed 3 tied: not "helped"
    assert b.learning.n == 1 and b.learning.std is None
    assert b.delta is not None and b.delta.n == 1 and b.delta.mean == pytest.approx(0.3)
    assert b.verdict == "hurt" and b.unscored == ("learning seed 2: error",)
    helped = seed_summaries([_r("c", LEARNING, 1, 0.5), _r("c", FROZEN, 1, 0.6)])
    assert helped[0].verdict == "helped"
    alone = seed_summaries([_r("c", LEARNING, 1, 0.5)])
    assert alone[0].frozen is None and alone[0].verdict == "no control"


def test_arm_results_give_the_mean_ratio_per_design() -> None:
    results = [
        _r("a", LEARNING, 1, 0.5),
        _r("a", LEARNING, 2, 0.7),
        _r("a", FROZEN, 1, 1.0, BenchStatus.NO_IMPROVEMENT),
        _r("b", LEARNING, 1, None, BenchStatus.LOAD_ERROR),
    ]
    a, b = arm_results(results, LEARNING)
    assert a.ratio == pytest.approx(0.6) and a.status == BenchStatus.IMPROVED
    assert "mean of 2 seed(s)" in a.detail and a.arm == LEARNING
    assert b.status == BenchStatus.LOAD_ERROR and b.ratio is None
    [f] = arm_results(results, FROZEN)
    assert f.ratio == 1.0 and f.status == BenchStatus.NO_IMPROVEMENT


def test_markdown_names_the_spread_and_the_verdict() -> None:
    text = seeds_markdown(
        seed_summaries([_r("a", LEARNING, 1, 0.5), _r("a", FROZEN, 1, 0.75)]), "mine"
    )
    assert "| mine: learning |" in text
    assert "| a | 1 | 0.500 (0.500 to 0.500) | 0.750 (0.750 to 0.750) |" in text
    assert "-0.250" in text and "helped" in text
    assert "Training helped on 1 and hurt on 0 of 1 design(s)" in text


def _design(tmp_path: Path, name: str) -> SuiteDesign:
    f = tmp_path / f"{name}.v"
    f.write_text(f"module {name}(input a, output y); assign y = a; endmodule\n")
    return SuiteDesign(name, tmp_path, f, name, name, "", None, (), None)


def test_fake_optimize_every_seed_runs_with_its_seed_and_the_control_frozen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same design, steps, parents and rollouts for both arms (the same sample budget);
    the control adds exactly the best-of-N row's overrides; every run has its own folder."""
    calls: list[dict[str, Any]] = []

    def fake_optimize(d: SuiteDesign, opts: BenchOptions, events: Any, **kw: Any) -> DesignResult:
        calls.append({"design": d.name, **kw, "opts": opts})
        return DesignResult(d.name, BenchStatus.IMPROVED, ratio=0.5, ref_metric=1.0)

    monkeypatch.setattr(_seeds, "guarded_optimize", fake_optimize)
    designs = [_design(tmp_path, "x"), _design(tmp_path, "y")]
    opts = BenchOptions(
        "folder",
        tmp_path,
        tmp_path / "out",
        overrides={"run.steps": 3, "run.rollouts": 2},
        seeds=(7, 8),
        frozen_control=True,
        jobs=2,
    )
    assert len(bench_trials(designs, opts)) == 8
    results = run_trials(opts, designs)
    assert [(r.design, r.arm, r.seed) for r in results] == [
        (d, arm, s) for d in ("x", "y") for s in (7, 8) for arm in (LEARNING, FROZEN)
    ]
    by_key = {(c["design"], c["rdir"].name): c for c in calls}
    assert set(by_key) == {
        (d, f"{arm}-seed{s}") for d in ("x", "y") for s in (7, 8) for arm in (LEARNING, FROZEN)
    }
    learn, frozen = by_key[("x", "learning-seed8")], by_key[("x", "frozen-seed8")]
    assert learn["overrides"] == {"run.seed": 8}
    assert frozen["overrides"] == {"run.seed": 8, **FROZEN_CONTROL}
    assert FROZEN_CONTROL["train.learning_rate"] == 0.0
    assert FROZEN_CONTROL["search.sampler"] == "none"
    assert learn["opts"].overrides == frozen["opts"].overrides  # same steps and rollouts
    assert learn["rdir"] == tmp_path / "out" / "runs" / "x" / "learning-seed8"
    no_control = BenchOptions("folder", tmp_path, tmp_path / "out", seeds=(1, 2, 3))
    assert {t.arm for t in bench_trials(designs, no_control)} == {LEARNING}


def test_fake_bench_cli_writes_the_seed_table_and_a_frozen_column(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "m.v").write_text("module m(input a, output y); assign y = a; endmodule\n")
    ratios = {(LEARNING, 42): 0.5, (LEARNING, 43): 0.6, (FROZEN, 42): 0.9, (FROZEN, 43): 0.8}

    def fake_trials(opts: BenchOptions, designs: list[SuiteDesign], events: Any) -> list[Any]:
        return [
            DesignResult(
                t.design.name, BenchStatus.IMPROVED, ref_metric=10.0, ratio=ratios[(t.arm, t.seed)],
                arm=t.arm, seed=t.seed, rollouts=12 if t.arm == LEARNING else 16,
            )
            for t in bench_trials(designs, opts)
        ]  # fmt: skip

    monkeypatch.setattr(bench_cli, "run_trials", fake_trials)

    def no_chart(*a: Any, **k: Any) -> None:
        raise ImportError("the chart is not under test")  # matplotlib costs seconds

    monkeypatch.setattr(_outputs, "plot_ratios", no_chart)
    out = tmp_path / "out"
    res = CliRunner().invoke(
        bench_cli.bench,
        ["folder", "--suite-path", str(suite), "--seeds", "2", "--out", str(out), "--jobs", "1"],
        catch_exceptions=False,
    )
    assert res.exit_code == 0, res.output
    seeds_md = (out / "seeds.md").read_text()
    assert (
        "| m | 2 | 0.550 (0.500 to 0.600, sd 0.071) | 0.850 (0.800 to 0.900, sd 0.071) |"
        in seeds_md
    )
    assert "-0.300 (-0.400 to -0.200, sd 0.141) | helped | 24 / 32 |" in seeds_md
    header, row = (out / "benchmark.csv").read_text().splitlines()[:2]
    assert header.startswith("design,ref_metric,rtlopt,rtlopt frozen")
    assert row.startswith("m,10,0.55,0.85")
    assert "helped" in res.output


def test_the_control_is_a_valid_frozen_configuration(tmp_path: Path) -> None:
    """The overrides a frozen trial gets resolve to a frozen policy sampling from the root
    with the learning run's steps, parents and rollouts."""
    from rtlopt.config import load_config

    d = _design(tmp_path, "z")
    base = {"run.steps": 3, "search.parents": 2, "run.rollouts": 4}
    learn, frozen = (
        load_config(d.reference_file, overrides={**base, **_seeds.Trial(d, arm, 5).overrides()})
        .config for arm in (LEARNING, FROZEN)
    )  # fmt: skip
    assert frozen.train.learning_rate == 0.0 and frozen.search.sampler == "none"
    assert learn.train.learning_rate > 0.0 and learn.search.sampler == "puct"
    for cfg in (learn, frozen):
        assert (cfg.run.seed, cfg.run.steps, cfg.search.parents, cfg.run.rollouts) == (5, 3, 2, 4)
    assert learn.harness.seed == frozen.harness.seed  # both checked against the same vectors
