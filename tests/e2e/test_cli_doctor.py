"""`rtlopt doctor`: the plan of a run, printed without starting it (real CLI, subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from rtlopt.policy._memory import KNOWN_SHAPES
from tests.fork_run import run_rtlopt

NO_GPU = not (Path("/dev/nvidia0").exists() or Path("/dev/nvidiactl").exists())


def _doctor(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", **(env or {})}
    return run_rtlopt(["doctor", *args], cwd=cwd, env=env, timeout=300)


def _hub_cache(root: Path, *names: str) -> dict[str, str]:
    """A Hugging Face cache holding only the config.json of each model (no weights needed)."""
    for name in names:
        s = KNOWN_SHAPES[name]
        snap = root / f"models--{name.replace('/', '--')}" / "snapshots" / "0123abcd"
        snap.mkdir(parents=True)
        (snap / "config.json").write_text(
            json.dumps(
                {
                    "hidden_size": s.hidden,
                    "intermediate_size": s.intermediate,
                    "num_hidden_layers": s.layers,
                    "num_attention_heads": s.heads,
                    "num_key_value_heads": s.kv_heads,
                    "head_dim": s.head_dim,
                    "vocab_size": s.vocab,
                    "tie_word_embeddings": s.tied,
                }
            )
        )
    return {"HF_HUB_CACHE": str(root)}


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
@pytest.mark.skipif(not NO_GPU, reason="checks the no-GPU wording")
def test_doctor_here_says_no_gpu_and_the_cpu_path(tmp_path: Path) -> None:
    r = _doctor(cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert "no CUDA GPU is visible" in out
    assert "the transformers backend on the CPU (fp32)" in out and "vLLM is not used" in out
    assert "SmolLM2-135M" in out and "downloads: none" in out
    assert "transformers" in out and ">=4.56" in out and "vllm" in out
    assert "trainer weights" in out and out.rstrip().endswith("ready")


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
@pytest.mark.skipif(not NO_GPU, reason="checks the no-GPU refusal")
def test_doctor_vllm_without_gpu_is_not_ready(tmp_path: Path) -> None:
    r = _doctor("--policy", "vllm", cwd=tmp_path)
    assert r.returncode == 1
    assert "the vllm backend needs a CUDA GPU and none is visible" in r.stdout
    assert "not ready" in r.stdout


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_doctor_plans_an_80gb_card_for_qwen3_8b(tmp_path: Path) -> None:
    env = _hub_cache(tmp_path / "hub", "Qwen/Qwen3-8B")
    r = _doctor(
        "--policy",
        "vllm",
        "--gpu-memory",
        "79.2",
        "--rollouts",
        "8",
        "--json",
        cwd=tmp_path,
        env=env,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    d = json.loads(r.stdout)
    assert d["ready"] and d["model"] == "Qwen/Qwen3-8B" and d["downloads"] == []
    assert d["model_source"] == "the local Hugging Face cache"
    plan = d["plan"]
    assert plan["params"] == KNOWN_SHAPES["Qwen/Qwen3-8B"].params
    assert plan["kv_need_tokens"] == 32 * plan["max_model_len"]  # 4 parents x 8 rollouts
    # 32 full-length sequences of Qwen3-8B do not fit beside the trainer: vLLM gets what is
    # left (never more than the need plus 10 %), and the plan says the rollouts run in waves
    assert plan["kv_tokens"] < plan["kv_need_tokens"] * 1.11
    assert plan["kv_tokens"] >= plan["kv_need_tokens"] or any("waves" in n for n in d["notes"])
    assert plan["dtype"] == "bfloat16" and plan["headroom_bytes"] > 0
    gen, upd = plan["phases"]
    assert gen["name"].startswith("generation") and upd["name"].startswith("update")
    assert max(gen["total_bytes"], upd["total_bytes"]) < plan["capacity_bytes"]
    assert {p["name"] for p in gen["parts"]} >= {
        "trainer weights",
        "vLLM weights",
        "vLLM KV cache",
    }
    if NO_GPU:
        assert "no CUDA GPU is visible; the memory plan is for a 79.2 GiB card" in d["path"]


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_doctor_24gb_card_refuses_8b_and_takes_4b(tmp_path: Path) -> None:
    env = _hub_cache(tmp_path / "hub", "Qwen/Qwen3-8B", "Qwen/Qwen3-4B")
    big = _doctor("--policy", "vllm", "--gpu-memory", "22.5", cwd=tmp_path, env=env)
    assert big.returncode == 1
    assert "use a smaller model" in big.stdout
    small = _doctor(
        "--policy",
        "vllm",
        "--gpu-memory",
        "22.5",
        "--model",
        "Qwen/Qwen3-4B",
        cwd=tmp_path,
        env=env,
    )
    assert small.returncode == 0, small.stdout
    # LoRA on every linear layer (0.49 GiB of trainer state) leaves vLLM 0.57 of the card
    assert "gpu_memory_utilization 0.57" in small.stdout


def test_doctor_bad_options_exit_2(tmp_path: Path) -> None:
    r = _doctor("--gpu-memory", "-1", cwd=tmp_path)
    assert r.returncode == 2 and "--gpu-memory must be positive" in r.stderr
    r = _doctor("--policy", "nosuch", cwd=tmp_path)
    assert r.returncode == 2 and "vllm" in r.stderr  # the known backends are listed


@pytest.mark.slow  # over 5 s (CPU or waiting): its module starts early
def test_doctor_for_a_frozen_remote_policy_loads_nothing(tmp_path: Path) -> None:
    r = _doctor("--policy", "openai", cwd=tmp_path)
    assert r.returncode == 0
    assert "no model is loaded on this machine" in r.stdout
