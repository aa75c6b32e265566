"""`rtlopt bench` end to end: usage errors, reference pass, paper comparison, model smoke."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO, rtlopt

BENCH = Path(os.environ["RTLOPT_BENCH_PATH"])
RTLLM = BENCH / "rtllm"
needs_rtllm = pytest.mark.skipif(not RTLLM.is_dir(), reason="RTLLM not found")
#: ``rtlopt bench`` over RTLLM with nangate45; the designs follow
RTLLM_BENCH = ("bench", "rtllm", "--suite-path", str(RTLLM), "--pdk", "nangate45", "--designs")
# bench/long_tests.py (case bench) runs the model smoke at full size
FULL = os.environ.get("RTLOPT_TEST_FULL_SIZE", "") == "1"


def test_unknown_suite_kind_lists_known_ones(tmp_path: Path) -> None:
    res = rtlopt(["bench", "nosuch", "--suite-path", str(tmp_path)], cwd=tmp_path)
    assert res.returncode == 2, res.stderr
    assert "unknown suite kind 'nosuch'" in res.stderr
    for kind in ("rtllm", "folder", "c910-ablation"):
        assert kind in res.stderr


@pytest.mark.tools
@needs_rtllm
def test_unknown_design_is_a_usage_error(tmp_path: Path) -> None:
    res = rtlopt(
        [
            *RTLLM_BENCH,
            "adder_8bit,nope",
            "--reference-only",
        ],
        cwd=tmp_path,
    )
    assert res.returncode == 2 and "nope" in res.stderr


@pytest.mark.tools
@needs_rtllm
def test_reference_only_counts_measurable_designs(tmp_path: Path) -> None:
    out = tmp_path / "refs"
    res = rtlopt(
        [
            *RTLLM_BENCH,
            "adder_8bit,synchronizer,counter_12",
            "--reference-only",
            "--out",
            str(out),
            "--jobs",
            "2",
        ],
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "2/3 designs measurable" in res.stdout
    csv_text = (out / "references.csv").read_text()
    assert csv_text.splitlines()[0].startswith("design,status,area_um2,delay_ps,power_uw")
    assert "synchronizer,unmeasurable" in csv_text


@pytest.mark.tools
@needs_rtllm
def test_compare_paper_prints_published_geomeans(tmp_path: Path) -> None:
    out = tmp_path / "bench"
    res = rtlopt(
        [
            *RTLLM_BENCH,
            "adder_8bit",
            "--candidates",
            str(REPO / "examples" / "rtllm_rewrites"),
            "--steps",
            "1",
            "--parents",
            "1",
            "--rollouts",
            "2",
            "--out",
            str(out),
            "--compare",
            "paper",
            "--seeds",  # one run, no control: the seeded bench is tests/unit/benchmark
            "1",
            "--no-frozen-control",
        ],
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    # The paper's Table 1 (N=44 common designs): EvolVE, VeriAgent, REvolution, TTT-RTL.
    for method, geomean in (
        ("EvolVE", "0.872"),
        ("VeriAgent", "0.813"),
        ("REvolution", "0.739"),
        ("TTT-RTL", "0.349"),
    ):
        line = next(
            ln for ln in res.stdout.splitlines() if ln.startswith(f"| {method} |") and "/49 |" in ln
        )
        assert f"| {geomean} |" in line, line
    header = (out / "benchmark.csv").read_text().splitlines()[0]
    assert header.startswith("design,ref_metric,rtlopt,EvolVE")
    assert (out / "ratios.png").stat().st_size > 10_000
    assert "1/1 designs improved" in res.stdout


def _state_step(run_dir: Path) -> int:
    try:
        return int(json.loads((run_dir / "state.json").read_text())["step"])
    except (OSError, ValueError, KeyError):
        return 0


def _comparator_variants(folder: Path, n: int) -> Path:
    """``n`` different, equivalent texts of RTLLM's comparator_3bit (each a full evaluation:
    no cache hit between steps), as scripted candidates ``<folder>/comparator_3bit/*.v``."""
    out = folder / "comparator_3bit"
    out.mkdir(parents=True)
    for k in range(n):
        (out / f"c{k:02d}.v").write_text(
            "module comparator_3bit(input [2:0] A, input [2:0] B,\n"
            "    output A_greater, output A_equal, output A_less);\n"
            f"  wire gt_{k} = A > B;\n  wire eq_{k} = A == B;\n"
            f"  assign A_greater = gt_{k};\n  assign A_equal = eq_{k};\n"
            f"  assign A_less = ~(gt_{k} | eq_{k});\nendmodule\n"
        )
    return folder


@pytest.mark.tools
@pytest.mark.slow
@needs_rtllm
def test_bench_interrupted_resumes_where_it_stopped(tmp_path: Path) -> None:
    """Ctrl-C in the middle of a benchmark: exit 130, the run stays resumable, and the same
    command finishes it without redoing a committed step. The suite interrupts the scripted
    policy (a new candidate every rollout, so each step runs the tools); bench/long_tests.py
    (case bench) runs the CPU model on two designs (the model's own kill and resume is
    tests/e2e/test_model_run.py)."""
    out = tmp_path / "bench"
    steps = 2 if FULL else 8
    policy = (
        ["--policy", "transformers", "--max-new-tokens", "16"]
        if FULL
        else ["--candidates", str(_comparator_variants(tmp_path / "cands", 2 * steps))]
    )
    args = [
        sys.executable,
        "-m",
        "rtlopt",
        *RTLLM_BENCH,
        # the second design (the suite: none) shows a later design starts fresh, not resumed
        "comparator_3bit,counter_12" if FULL else "comparator_3bit",
        *policy,
        "--steps",
        str(steps),
        "--parents",
        "1",
        "--rollouts",
        "2",
        "--jobs",
        "1",
        "--seeds",
        "1",
        "--no-frozen-control",
        "--out",
        str(out),
    ]
    first = out / "runs" / "comparator_3bit"
    proc = subprocess.Popen(
        args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    # interrupt at the first commit point (state.json of step 1), with steps left to run; the
    # deadline is a hang guard, not a speed check: at load 20 on 2 cores a model step alone
    # took more than 600 s
    deadline = time.monotonic() + 2400
    while _state_step(first) < 1 and proc.poll() is None:
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"step 1 took longer than 40 minutes: {proc.communicate()}")
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert not (first / "bench.json").exists()
    stopped = _state_step(first)
    assert 1 <= stopped < steps

    res = rtlopt(args[3:], cwd=tmp_path, timeout=3600)  # a hang guard
    assert res.returncode in (0, 1), res.stdout + res.stderr
    done = json.loads((first / "bench.json").read_text())
    assert done["resumed"] is True and done["steps"] == steps
    records = [json.loads(ln) for ln in (first / "steps.jsonl").read_text().splitlines()]
    # every step once: the committed ones were not redone, the rest ran after the resume
    assert [r["step"] for r in records] == list(range(1, steps + 1))
    if FULL:
        second = json.loads((out / "runs" / "counter_12" / "bench.json").read_text())
        assert second["resumed"] is False and second["steps"] == 2
        assert (first / "policy" / "done").read_text() == "2"
    else:
        assert all(r["rollouts"] == 2 for r in records), records
        # every candidate is equivalent: a tool the interrupt killed left no score behind
        # (neither in the step it cut short nor in a cache the resumed run reads)
        rollouts = [json.loads(ln) for ln in (first / "rollouts.jsonl").read_text().splitlines()]
        assert {r["status"] for r in rollouts} == {"ok"}, rollouts
    assert "coverage" in res.stdout.lower() or "Coverage" in res.stdout
