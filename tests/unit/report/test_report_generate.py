"""Report generation from synthetic run directories."""

from __future__ import annotations

import json
import math
import random
import struct
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import Config, TrainConfig, to_toml
from rtlopt.report import generate_report, load_run, pareto_front
from rtlopt.results import (
    PPA,
    EvalResult,
    FormalResult,
    SimResult,
    Stage,
    Status,
    Verdict,
)

REF_CODE = """module lza(input [7:0] a, output [2:0] y);
  assign y = a[7] ? 3'd7 : a[6] ? 3'd6 : a[5] ? 3'd5 : 3'd0;
endmodule
"""
REF_PPA = PPA(area_um2=1552.74, delay_ps=2191.1, power_uw=None, cells=300)


def _ok(ppa: PPA, h: str) -> EvalResult:
    return EvalResult(
        status=Status.OK,
        stage=Stage.DONE,
        reward=0.1 + 1.0 + 10.0 * REF_PPA.adp / ppa.adp,
        r_syn=1.0,
        r_func=1.0,
        r_ppa=REF_PPA.adp / ppa.adp,
        ppa=ppa,
        sim=SimResult(
            passed=True, vectors=1050, mismatches=0, classes={"random": 1000, "sparse": 50}
        ),
        formal=FormalResult(verdict=Verdict.PROVEN, method="sat miter (combinational)"),
        source_hash=h,
    )


def _bad(h: str) -> EvalResult:
    return EvalResult(
        status=Status.INVALID,
        stage=Stage.SIMULATION,
        reason="mismatch",
        reward=0.1,
        r_syn=1.0,
        source_hash=h,
    )


def make_run_dir(
    root: Path, steps: int = 12, adaptive: bool = True, finished: bool = True, seed: int = 7
) -> Path:
    """A run directory as the run loop writes it, with plausible numbers."""
    rng = random.Random(seed)
    rd = root / "run"
    (rd / "candidates").mkdir(parents=True)
    cfg = Config(train=TrainConfig(delta="adaptive" if adaptive else "fixed"))
    (rd / "config.toml").write_text(to_toml(cfg))
    (rd / "run.json").write_text(
        json.dumps(
            {
                "run_id": "20260101-000000-abcd",
                "module": "lza",
                "target_file": "rtl/lza.v",
                "pdk": "sky130hd",
                "status": "done" if finished else "interrupted",
            }
        )
    )
    (rd / "provenance.json").write_text(
        json.dumps(
            {
                "tools": {"yosys": "0.23", "iverilog": "11.0", "sta": "2.0.17"},
                "flow": {
                    "pdk": "sky130hd",
                    "corner": "tt",
                    "clock_period_ns": 10.0,
                    "synth_script": "read_verilog -sv <sources>\nsynth -top <top>\n",
                },
                "metric": "adp",
                "seed": 42,
                "command": "rtlopt optimize rtl/lza.v",
            }
        )
    )
    ref = EvalResult(
        status=Status.OK,
        stage=Stage.DONE,
        reward=11.1,
        r_syn=1.0,
        r_func=1.0,
        r_ppa=1.0,
        ppa=REF_PPA,
    ).to_json()
    ref["code"] = REF_CODE
    (rd / "reference.json").write_text(json.dumps(ref))
    best: tuple[float, EvalResult, str] | None = None
    best_reward = 0.0
    delta = math.log(2.0)
    lines = []
    n = 0
    for step in range(1, steps + 1):
        rewards = []
        accepted = 0
        for _ in range(4):
            n += 1
            h = f"{n:04x}" + "ab" * 14
            code = REF_CODE.replace("3'd0", f"3'd{n % 8}") + f"// candidate {n}\n"
            if rng.random() < 0.35:
                res = _bad(h)
            else:
                shrink = 1.0 - 0.04 * step * rng.random()
                res = _ok(
                    PPA(
                        REF_PPA.area_um2 * shrink * rng.uniform(0.9, 1.15),
                        REF_PPA.delay_ps * rng.uniform(0.8, 1.1),
                        None,
                        280,
                    ),
                    h,
                )
                accepted += 1
            data = res.to_json()
            data.update({"step": step, "parent": rng.randrange(0, 5)})
            (rd / "candidates" / f"{h}.json").write_text(json.dumps(data))
            (rd / "candidates" / f"{h}.v").write_text(code)
            assert res.reward is not None
            rewards.append(res.reward)
            if res.accepted and (best is None or res.reward > best[0]):
                best = (res.reward, res, code)
        best_reward = max(best_reward, *rewards)
        rule = (
            ("warmup" if step <= 3 else rng.choice(["P2", "P3", "P4", "hold"]))
            if adaptive
            else "fixed"
        )
        rec: dict[str, Any] = {
            "step": step,
            "max_reward": max(rewards),
            "mean_reward": sum(rewards) / 4,
            "best_reward": best_reward,
            "best_metric": best[1].ppa.adp if best and best[1].ppa else None,
            "ref_metric": REF_PPA.adp,
            "metric": "adp",
            "delta": delta,
            "beta_mean": 3.2,
            "eff_n": 2.5,
            "const_frac": 0.25,
            "beta_max_rate": 0.0,
            "kl_ref": None if step == 1 else 0.01 * step,
            "rule": rule,
            "valid_frac": accepted / 4,
            "accepted": accepted,
            "rollouts": 4,
            "tokens": 900,
            "loss": 0.5 / step,
            "time_s": 2.5,
        }
        lines.append(json.dumps(rec))
        if adaptive:
            delta = {"P2": delta * 0.85, "P3": delta * 0.85, "P4": min(delta * 1.2, 2.77)}.get(
                rule, delta
            )
    text = "\n".join(lines) + "\n"
    if not finished:
        text += '{"step": 99, "max_rew'  # torn last line
    (rd / "steps.jsonl").write_text(text)
    if finished and best is not None:
        (rd / "best.json").write_text(json.dumps(best[1].to_json()))
        (rd / "best.v").write_text(best[2])
    return rd


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_report_of_finished_run(tmp_path: Path) -> None:
    rd = make_run_dir(tmp_path)
    paths = generate_report(rd)
    assert paths.markdown == rd / "report.md" and paths.json == rd / "report.json"
    names = [p.name for p in paths.plots]
    assert names == ["rewards.png", "metric.png", "pareto.png", "kl_budget.png"]
    for p in paths.plots:
        w, h = _png_size(p)
        assert w > 300 and h > 200 and p.stat().st_size > 5000

    rep = json.loads(paths.json.read_text())
    steps = [json.loads(line) for line in (rd / "steps.jsonl").read_text().splitlines()]
    assert rep["steps"] == steps
    assert rep["summary"]["steps_done"] == 12
    assert rep["summary"]["best_reward"] == steps[-1]["best_reward"]
    assert rep["summary"]["best_metric"] == steps[-1]["best_metric"]
    assert rep["summary"]["rollouts"] == sum(s["rollouts"] for s in steps)
    assert rep["summary"]["accepted"] == sum(s["accepted"] for s in steps)
    assert rep["reference"]["reward"] == pytest.approx(11.1)
    assert rep["reference"]["metric"] == pytest.approx(REF_PPA.adp)
    best = json.loads((rd / "best.json").read_text())
    assert rep["best"]["reward"] == best["reward"]
    best_adp = best["ppa"]["area_um2"] * best["ppa"]["delay_ps"]
    assert rep["best"]["metric"] == pytest.approx(best_adp)
    assert rep["best"]["metric"] == pytest.approx(steps[-1]["best_metric"])
    assert rep["best"]["improvement_pct"] == pytest.approx(100 * (1 - best_adp / REF_PPA.adp))
    assert rep["best"]["equivalence"]["verdict"] == "proven"
    assert (rd / "candidates" / f"{rep['best']['hash']}.v").read_text() == (
        rd / "best.v"
    ).read_text()
    top = rep["top_candidates"]
    assert top[0]["reward"] == best["reward"]
    assert [c["reward"] for c in top if c["accepted"]] == sorted(
        (c["reward"] for c in top if c["accepted"]), reverse=True
    )
    assert rep["tools"]["yosys"] == "0.23"
    assert rep["pareto"]

    md = paths.markdown.read_text()
    assert "# rtlopt report: `lza`" in md
    assert "```diff" in md and "--- reference/lza.v" in md and "+++ optimized/lza.v" in md
    assert "proven" in md and "sat miter (combinational)" in md
    assert "| yosys | `0.23` |" in md and "| corner | `tt` |" in md
    assert "<details><summary>synth_script</summary>" in md and "\nsynth -top <top>\n" in md
    assert "![Reward trajectory](rewards.png)" in md and "kl_budget.png" in md
    assert f"{rep['best']['hash'][:12]}" in md


def test_report_of_interrupted_run(tmp_path: Path) -> None:
    rd = make_run_dir(tmp_path, steps=5, adaptive=False, finished=False)
    assert not (rd / "best.json").exists()
    paths = generate_report(rd)
    rep = json.loads(paths.json.read_text())
    assert rep["status"] == "interrupted"
    assert [s["step"] for s in rep["steps"]] == [1, 2, 3, 4, 5]  # torn line skipped
    # The best accepted candidate is found among the candidates.
    data = load_run(rd)
    acc = [c for c in data.candidates if c.result.accepted]
    assert acc and rep["best"]["reward"] == max(c.result.reward or 0 for c in acc)
    assert "kl_budget" not in rep["plots"]  # fixed schedule, constant delta
    md = paths.markdown.read_text()
    assert "interrupted" in md


def test_report_of_empty_run(tmp_path: Path) -> None:
    rd = tmp_path / "empty"
    rd.mkdir()
    (rd / "run.json").write_text(json.dumps({"run_id": "x", "module": "m", "status": "running"}))
    paths = generate_report(rd)
    rep = json.loads(paths.json.read_text())
    assert rep["steps"] == [] and rep["best"] is None
    assert rep["reference"]["reward"] == pytest.approx(11.1)  # w_syn + w_func + w_ppa defaults
    assert paths.plots == ()  # nothing to draw yet
    assert "No step has been recorded yet." in paths.markdown.read_text()


def test_report_without_accepted_design_shows_reference(tmp_path: Path) -> None:
    rd = make_run_dir(tmp_path, steps=2)
    for f in (rd / "candidates").glob("*.json"):
        f.unlink()
    (rd / "best.json").unlink()
    (rd / "best.v").unlink()
    paths = generate_report(rd)
    md = paths.markdown.read_text()
    assert "No candidate has passed every equivalence gate yet" in md
    assert "Reference: area 1553 µm², delay 2191 ps, ADP 3,402,209, reward 11.1." in md
    assert "```diff" not in md
    assert json.loads(paths.json.read_text())["best"] is None


def test_reference_reward_from_config_weights(tmp_path: Path) -> None:
    rd = make_run_dir(tmp_path, steps=2)
    ref = json.loads((rd / "reference.json").read_text())
    ref["reward"] = None
    (rd / "reference.json").write_text(json.dumps(ref))
    (rd / "config.toml").write_text("[reward]\nw_syn = 0.5\nw_func = 2.0\nw_ppa = 5.0\n")
    assert load_run(rd).reference_reward == pytest.approx(7.5)


def test_pareto_front() -> None:
    pts = [(1.0, 5.0), (2.0, 3.0), (2.5, 4.0), (3.0, 1.0), (4.0, 1.0), (1.0, 6.0)]
    assert pareto_front(pts) == [(1.0, 5.0), (2.0, 3.0), (3.0, 1.0)]
    assert pareto_front([]) == []
