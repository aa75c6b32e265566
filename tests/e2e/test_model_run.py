"""A real test-time-training run on CPU with SmolLM2-135M on a benchmark design.

Generation, evaluation and the weight update all run for real; the run is killed (SIGKILL) once
step 1 is committed and resumed for step 2, and nothing already recorded is lost. The suite runs it on RTLLM counter_12
with nangate45 (a short prompt: generation and the update cost less); ``RTLOPT_TEST_FULL_SIZE=1``
runs it on the C910 LZA with sky130hd (bench/long_tests.py times both).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rtlopt.config import RewardConfig
from tests.conftest import bench_path
from tests.e2e.conftest import git

pytestmark = [pytest.mark.model, pytest.mark.tools, pytest.mark.slow]

FULL_SIZE = os.environ.get("RTLOPT_TEST_FULL_SIZE", "") == "1"
# the design's folder, its target file and the PDK
if FULL_SIZE:
    SOURCE, TARGET, PDK = (
        bench_path() / "c910" / "lza_simd_half",
        "ct_vfmau_lza_simd_half.v",
        "sky130hd",
    )
else:
    SOURCE, TARGET, PDK = (
        bench_path() / "rtllm" / "counter_12",
        "verified_counter_12.v",
        "nangate45",
    )


@pytest.fixture
def design_repo(tmp_path: Path) -> Path:
    if not (SOURCE / TARGET).exists():
        pytest.skip(f"benchmark design not found: {SOURCE / TARGET} (set RTLOPT_BENCH_PATH)")
    repo = tmp_path / "design"
    (repo / "rtl").mkdir(parents=True)
    for f in SOURCE.glob("*.v"):
        if f.name != "testbench.v":
            shutil.copy(f, repo / "rtl" / f.name)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "design")
    return repo


def _steps(run_dir: Path) -> list[dict[str, object]]:
    f = run_dir / "steps.jsonl"
    if not f.exists():
        return []
    return [json.loads(x) for x in f.read_text().splitlines() if x.strip()]


def _committed(run_dir: Path) -> int:
    try:
        return int(json.loads((run_dir / "state.json").read_text())["step"])
    except (OSError, ValueError, KeyError):
        return 0


def test_cpu_model_run_updates_weights_and_resumes_after_kill(
    design_repo: Path, model_cpu_share: None
) -> None:
    torch = pytest.importorskip("torch")
    run_dir = design_repo.parent / "run"
    args = [
        sys.executable,
        "-m",
        "rtlopt",
        "optimize",
        f"rtl/{TARGET}",
        "--pdk",
        PDK,
        "--metric",
        "adp",
        "--steps",
        "2",
        "--parents",
        "1",
        "--rollouts",
        "2",
        "--max-new-tokens",
        "16",
        "--lr",
        "1e-3",
        "--seed",
        "7",
        "--run-dir",
        str(run_dir),
        "--no-branch",
    ]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen(
        args,
        cwd=design_repo,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    # a hang guard, not a speed check: at load 15 on 2 cores the first step alone took 531 s
    deadline = time.monotonic() + 2400
    # state.json is the run's commit point (written after the step record, pool and policy):
    # kill at the first one, so that the resumed run has a step left to do.
    while _committed(run_dir) < 1:
        if proc.poll() is not None:
            pytest.fail(
                f"run ended early ({proc.returncode}):\n{proc.stdout.read() if proc.stdout else ''}"
            )
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail("one step took longer than 40 minutes")
        time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = _steps(run_dir)
    assert [s["step"] for s in before][:1] == [1]
    pool_before = json.loads((run_dir / "pool.json").read_text())
    state = json.loads((run_dir / "state.json").read_text())
    done = int(state["step"])
    assert done >= 1
    # Every step generated, evaluated (rewards recorded) and trained.
    assert all(s["rollouts"] == 2 and s["tokens"] > 0 for s in before)
    cands = list((run_dir / "candidates").glob("*.json"))
    assert cands, "no candidate reached the evaluator"

    r = subprocess.run(
        [sys.executable, "-m", "rtlopt", "optimize", "--resume", str(run_dir), "--no-branch"],
        cwd=design_repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=2400,
    )
    # 16 new tokens cannot hold an equivalent design: the run ends with "no improvement" (exit 1),
    # not with a crash (3) or a usage error (2).
    assert r.returncode == 1, r.stdout + r.stderr
    assert "no equivalent design beat the reference" in r.stdout, r.stdout
    after = _steps(run_dir)
    assert [s["step"] for s in after] == [1, 2]
    assert after[:done] == before[:done]
    pool_after = json.loads((run_dir / "pool.json").read_text())
    assert {s["id"] for s in pool_before["states"]} <= {s["id"] for s in pool_after["states"]}
    assert json.loads((run_dir / "run.json").read_text())["status"] == "done"
    for f in ("config.toml", "provenance.json", "reference.json", "report.md", "rewards.png"):
        assert (run_dir / f).exists(), f

    # Rewards were recorded: every evaluated candidate has one, the model's partial modules
    # earn the syntax credit, and the steps' maxima are the candidates' rewards.
    results = [json.loads(p.read_text()) for p in (run_dir / "candidates").glob("*.json")]
    rewards = [c["reward"] for c in results]
    assert all(isinstance(x, float) for x in rewards), rewards
    assert max(rewards) > 0, results
    assert max(s["max_reward"] for s in after) == pytest.approx(max(rewards))
    # the lowest reward is a module-less answer's (below zero, so that weak groups still rank)
    floor = RewardConfig().no_module
    assert all(floor <= s["mean_reward"] <= s["max_reward"] + 1e-9 for s in after)
    assert all(s["step"] in (1, 2) for s in results)

    # LoRA starts with B = 0: any non-zero B means the policy-gradient step changed the weights.
    trained = [s for s in after if s["loss"] is not None]
    assert trained, f"no step had a non-degenerate group: {after}"
    state_dict = torch.load(run_dir / "policy" / "trainable.pt", map_location="cpu")
    lora_b = [v for k, v in state_dict.items() if "lora_B" in k]
    assert lora_b and any(float(v.abs().sum()) > 0 for v in lora_b)
