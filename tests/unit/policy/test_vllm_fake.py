"""vllm backend with a fake engine module (vLLM needs a GPU; these tests say "fake").

Covers the request code (SamplingParams carry n / seed / temperature / top_p / max_tokens) and
the weight sync (after every update the adapter is saved and hot-loaded with a new int id).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.errors import UsageError
from rtlopt.policy import Prompt, Sample, UpdateStats
from rtlopt.policy._vllm import VllmPolicy

ANSWER = "```verilog\nmodule m(input a, output y);\nassign y = a;\nendmodule\n```"


@dataclass
class _FakeEngine:
    kwargs: dict[str, Any]
    calls: list[dict[str, Any]] = field(default_factory=list)

    def generate(self, prompts: list[str], params: list[Any], *, lora_request: Any = None,
                 use_tqdm: bool = True) -> list[Any]:
        self.calls.append({"prompts": prompts, "params": params, "lora": lora_request})
        outs = []
        for text, sp in zip(prompts, params, strict=True):
            comps = [types.SimpleNamespace(text=ANSWER if i == 0 else f"junk {i}",
                                           token_ids=[7, 8, 9][: i + 1])
                     for i in range(sp.n)]
            outs.append(types.SimpleNamespace(prompt=text, prompt_token_ids=[1, 2, 3, 4],
                                              outputs=comps))
        return outs


class _SamplingParams:
    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)


@dataclass
class _LoRARequest:
    lora_name: str
    lora_int_id: int
    lora_path: str


class _FakeTrainer:
    trainable = True

    def __init__(self) -> None:
        self.recorded: list[tuple[str, list[int], list[int]]] = []
        self.saved: list[Path] = []

    def chat_text(self, prompt: Prompt) -> str:
        return "|".join(m["content"] for m in prompt) + "<assistant>"

    def record_tokens(self, prompt: Prompt, completion: str, prompt_ids: Sequence[int],
                      completion_ids: Sequence[int]) -> None:
        self.recorded.append((completion, list(prompt_ids), list(completion_ids)))

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        n = sum(1 for s in samples if s.advantage != 0)
        return UpdateStats(loss=0.5 if n else None, kl_ref=0.0, n_samples=n, tokens=3 * n,
                           grad_norm=1.0 if n else None, time_s=0.0)

    def save_adapter(self, path: Path) -> Path:
        path.mkdir(parents=True, exist_ok=True)
        (path / "adapter_model.safetensors").write_bytes(str(len(self.saved)).encode())
        self.saved.append(path)
        return path

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        (path / "trainable.pt").write_text("x")

    def load(self, path: Path) -> None:
        assert (path / "trainable.pt").is_file()

    def close(self) -> None:
        pass


@pytest.fixture
def fake_vllm(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[_FakeEngine]:
    engines: list[_FakeEngine] = []

    def make_llm(**kw: Any) -> _FakeEngine:
        e = _FakeEngine(kw)
        engines.append(e)
        return e

    vllm = types.ModuleType("vllm")
    vllm.LLM = make_llm  # type: ignore[attr-defined]
    vllm.SamplingParams = _SamplingParams  # type: ignore[attr-defined]
    lora = types.ModuleType("vllm.lora")
    req = types.ModuleType("vllm.lora.request")
    req.LoRARequest = _LoRARequest  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "vllm", vllm)
    monkeypatch.setitem(sys.modules, "vllm.lora", lora)
    monkeypatch.setitem(sys.modules, "vllm.lora.request", req)
    # The engine is pointed at a local model folder.
    (tmp_path / "model").mkdir()
    return engines


PROMPT = ({"role": "system", "content": "S"}, {"role": "user", "content": "U"})


def _policy(tmp_path: Path, trainer: _FakeTrainer) -> VllmPolicy:
    cfg = PolicyConfig(backend="vllm", model=str(tmp_path / "model"), temperature=0.8,
                       top_p=0.95, max_new_tokens=32, max_prompt_tokens=100)
    return VllmPolicy(cfg, TrainConfig(lora_r=8), seed=7, trainer=trainer,
                      workdir=tmp_path / "work")


def test_vllm_fake_requests_carry_sampling_settings(fake_vllm: list[_FakeEngine],
                                                    tmp_path: Path) -> None:
    trainer = _FakeTrainer()
    pol = _policy(tmp_path, trainer)
    engine = fake_vllm[0]
    assert engine.kwargs["enable_lora"] is True and engine.kwargs["max_lora_rank"] == 8
    assert engine.kwargs["model"] == str(tmp_path / "model")
    assert engine.kwargs["max_model_len"] == 132
    out = pol.generate([PROMPT, PROMPT], 3, seed=100)
    assert [len(g) for g in out] == [3, 3]
    assert out[0][0].verilog is not None and out[0][1].verilog is None
    assert (out[0][2].prompt_tokens, out[0][2].completion_tokens) == (4, 3)
    call = engine.calls[0]
    assert call["prompts"] == ["S|U<assistant>", "S|U<assistant>"]
    sp = call["params"]
    assert [(p.n, p.seed, p.temperature, p.top_p, p.max_tokens) for p in sp] == \
        [(3, 100, 0.8, 0.95, 32), (3, 101, 0.8, 0.95, 32)]
    assert call["lora"] is None  # before the first update the adapter is the identity
    assert len(trainer.recorded) == 6 and trainer.recorded[0][1] == [1, 2, 3, 4]


def test_vllm_fake_adapter_hot_loaded_with_new_id_each_step(fake_vllm: list[_FakeEngine],
                                                            tmp_path: Path) -> None:
    trainer = _FakeTrainer()
    pol = _policy(tmp_path, trainer)
    engine = fake_vllm[0]
    ids = []
    for step in range(3):
        pol.generate([PROMPT], 2, seed=step)
        stats = pol.update([Sample(PROMPT, "a", 1.0), Sample(PROMPT, "b", -1.0)])
        assert stats.n_samples == 2
        pol.generate([PROMPT], 2, seed=step)
        req = engine.calls[-1]["lora"]
        assert Path(req.lora_path) == trainer.saved[-1] and Path(req.lora_path).is_dir()
        ids.append(req.lora_int_id)
    assert ids == [1, 2, 3]
    assert len({r.lora_name for r in (c["lora"] for c in engine.calls) if r}) == 3
    # A degenerate batch (all advantages zero) trains nothing and keeps the adapter.
    pol.update([Sample(PROMPT, "a", 0.0)])
    pol.generate([PROMPT], 1, seed=0)
    assert engine.calls[-1]["lora"].lora_int_id == 3
    # Resume: the restored adapter is served under a fresh id.
    pol.save(tmp_path / "state")
    pol.load(tmp_path / "state")
    pol.generate([PROMPT], 1, seed=0)
    assert engine.calls[-1]["lora"].lora_int_id == 4
    pol.close()


def test_vllm_fake_full_finetuning_refused(fake_vllm: list[_FakeEngine], tmp_path: Path) -> None:
    cfg = PolicyConfig(backend="vllm", model=str(tmp_path / "model"))
    with pytest.raises(UsageError, match="LoRA adapters only"):
        VllmPolicy(cfg, TrainConfig(lora=False), seed=0, trainer=_FakeTrainer())
