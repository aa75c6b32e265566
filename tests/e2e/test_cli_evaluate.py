"""`rtlopt evaluate` / `inspect` / bad input, run as a user would (real tools, real files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import rtlopt

pytestmark = pytest.mark.tools


def test_help_works_without_heavy_imports(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys, runpy; sys.argv=['rtlopt','--help']\n"
        "try:\n  runpy.run_module('rtlopt', run_name='__main__')\nexcept SystemExit: pass\n"
        "bad=[m for m in ('torch','transformers','peft','vllm') if m in sys.modules]\n"
        "print('HEAVY', bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert "optimize" in out.stdout and "HEAVY []" in out.stdout, out.stdout + out.stderr


def test_evaluate_accepts_an_equivalent_smaller_design(example_repo: Path) -> None:
    r = rtlopt(
        [
            "evaluate",
            "rtl/prio_enc.v",
            "-m",
            "prio_enc",
            "--candidate",
            "alternatives/b_loop.v",
            "--json",
        ],
        example_repo,
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    cand, ref = out["candidate"], out["reference"]
    assert out["accepted"] and cand["formal"]["verdict"] == "proven"
    assert cand["sim"]["vectors"] >= 1000 and cand["sim"]["mismatches"] == 0
    assert cand["ppa"]["area_um2"] < ref["ppa"]["area_um2"]
    assert cand["reward"] > ref["reward"] == pytest.approx(11.1)
    assert out["candidate"]["provenance"]["evaluator_fingerprint"]


def test_evaluate_rejects_a_non_equivalent_design_with_exit_1(example_repo: Path) -> None:
    r = rtlopt(
        [
            "evaluate",
            "rtl/prio_enc.v",
            "-m",
            "prio_enc",
            "--candidate",
            "alternatives/c_wrong_last_group.v",
        ],
        example_repo,
    )
    assert r.returncode == 1, r.stdout + r.stderr
    assert "REJECTED" in r.stdout and "pos" in r.stdout


def test_evaluate_table_shows_side_by_side(example_repo: Path) -> None:
    r = rtlopt(
        ["evaluate", "rtl/prio_enc.v", "-m", "prio_enc", "--candidate", "alternatives/a_grouped.v"],
        example_repo,
    )
    assert r.returncode == 0, r.stderr
    for word in ("area", "delay", "power", "ADP", "PPA product", "ACCEPTED", "proven"):
        assert word in r.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["evaluate", "rtl/nope.v", "--candidate", "alternatives/a_grouped.v"], "not found"),
        (
            [
                "evaluate",
                "rtl/prio_enc.v",
                "-m",
                "nosuch",
                "--candidate",
                "alternatives/a_grouped.v",
            ],
            "module 'nosuch' not found",
        ),
        (
            [
                "evaluate",
                "rtl/prio_enc.v",
                "-m",
                "prio_enc",
                "--candidate",
                "alternatives/a_grouped.v",
                "--pdk",
                "tsmc3",
            ],
            "unknown PDK 'tsmc3'",
        ),
        (["evaluate", "rtl/broken.v", "--candidate", "alternatives/a_grouped.v"], "syntax error"),
        (["evaluate", "rtl/two.v", "--candidate", "alternatives/a_grouped.v"], "--module"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(example_repo: Path, args: list[str], needle: str) -> None:
    (example_repo / "rtl" / "two.v").write_text(
        "module a(input x, output y); assign y = x; endmodule\n"
        "module b(input x, output y); assign y = ~x; endmodule\n"
    )
    if "broken" in args[1]:
        (example_repo / "rtl" / "broken.v").write_text(
            "module broken(input a, output b)\n  assign b = a;\nendmodule\n"
        )
    r = rtlopt(args, example_repo)
    assert r.returncode == 2, r.stdout + r.stderr
    lines = [ln for ln in r.stderr.strip().splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], r.stderr
    if "broken" in args[1]:
        assert "broken.v:" in lines[0]


def test_inspect_shows_interface_and_harness(example_repo: Path) -> None:
    r = rtlopt(["inspect", "rtl/prio_enc.v", "-m", "prio_enc", "--json"], example_repo)
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert [p["name"] for p in info["ports"]] == ["vec", "en", "pos", "zero"]
    assert info["clocks"] == [] and Path(info["harness"], "rtlopt_tb.v").exists()
    assert info["stimulus"]["seed"] == 42 and isinstance(info["stimulus"]["constants"], list)
    assert not (example_repo / ".rtlopt").exists()
