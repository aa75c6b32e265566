"""vllm backend with a fake engine module (vLLM needs a GPU; these tests say "fake").

The fake ``vllm`` module stands in for ``LLM``, ``SamplingParams``, ``TokensPrompt`` and
``LoRARequest`` and fails like the real engine: every argument is checked against vLLM 0.11.1's
signatures recorded in tests/fixtures/vllm-0.11.1-signatures.json (``LLM``'s own parameters plus
``EngineArgs`` fields, ``generate``, ``sleep``, ``wake_up``, ``SamplingParams`` fields,
``LoRARequest`` with its id > 0, the dtype names); an engine takes ``gpu_memory_utilization`` of
a fake card and the next refuses to start when that much is not free (vLLM's message); the
adapter a request names is loaded from its files (adapter_config.json with PEFT's required
fields and a rank within ``max_lora_rank``, safetensors with LoRA keys of known modules); a
completion ends with the EOS token. It refuses prompts longer than ``max_model_len`` (vLLM
raises for the whole batch), derives each sample from its seed, and records sleep / wake-up /
shutdown calls. Where the trainer matters (token ids, BOS, prompt
fitting, answer prefix) the real transformers trainer runs on a tiny Llama on the CPU.
"""

from __future__ import annotations

import json
import random
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.errors import UsageError
from rtlopt.policy import Prompt, Sample, UpdateStats, build_prompt
from rtlopt.policy import _vllm as vmod
from rtlopt.policy._memory import KNOWN_SHAPES, GiB
from rtlopt.policy._vllm import KEEP_ADAPTERS, VllmPolicy
from rtlopt.results import PPA
from tests.tiny_llama import write_tiny_llama

ANSWER = "```verilog\nmodule m(input a, output y);\nassign y = a;\nendmodule\n```"
SIG = json.loads(
    (Path(__file__).resolve().parents[2] / "fixtures" / "vllm-0.11.1-signatures.json").read_text()
)
EOS = 2
FAKE_LOGPROB = -40.0  # far below the trainer's: every importance ratio is above the cap
LORA_MODULES = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


def _check_kwargs(what: str, given: Any, allowed: Sequence[str]) -> None:
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        raise TypeError(f"{what} got unexpected keyword argument(s) {unknown} (vLLM 0.11.1)")


def _load_adapter(path: Path, max_rank: int) -> None:
    """What vLLM does with a LoRARequest's folder before the first request that names it."""
    from safetensors import safe_open

    cfg_file = path / "adapter_config.json"
    if not cfg_file.is_file():
        raise ValueError(f"{cfg_file} not found")
    cfg = json.loads(cfg_file.read_text())
    missing = set(SIG["PEFTHelper.required"]) - set(cfg)
    if missing:
        raise ValueError(f"Missing required configuration fields: {missing}")
    if cfg["r"] > max_rank:
        raise ValueError(f"LoRA rank {cfg['r']} is greater than max_lora_rank {max_rank}.")
    with safe_open(str(path / "adapter_model.safetensors"), "pt") as f:
        keys = list(f.keys())
    if not keys:
        raise ValueError(f"{path} doesn't contain tensors")
    for k in keys:
        module = k.split(".lora_")[0].split(".")[-1]
        if ".lora_A." not in k and ".lora_B." not in k or module not in LORA_MODULES:
            raise ValueError(f"While loading {path}, expected target modules in {LORA_MODULES}")


def write_adapter(path: Path, rank: int, tag: int = 0) -> Path:
    """A small PEFT adapter folder in the layout vLLM loads."""
    import torch
    from safetensors.torch import save_file

    path.mkdir(parents=True, exist_ok=True)
    pre = "base_model.model.model.layers.0.self_attn.q_proj"
    save_file(
        {
            f"{pre}.lora_A.weight": torch.full((rank, 4), float(tag)),
            f"{pre}.lora_B.weight": torch.zeros(4, rank),
        },
        str(path / "adapter_model.safetensors"),
    )
    (path / "adapter_config.json").write_text(
        json.dumps({"r": rank, "lora_alpha": 2 * rank, "target_modules": ["q_proj"]})
    )
    return path


@dataclass
class _FakeEngine:
    kwargs: dict[str, Any]
    events: list[str]
    calls: list[dict[str, Any]] = field(default_factory=list)
    sleeping: bool = False

    loaded: dict[int, str] = field(default_factory=dict)
    card: dict[str, float] | None = None

    def __post_init__(self) -> None:
        _check_kwargs(
            "LLM()", self.kwargs, [*SIG["LLM.__init__"]["params"], *SIG["EngineArgs.fields"]]
        )
        if self.kwargs.get("dtype", "auto") not in SIG["ModelDType"]:
            raise ValueError(f"unknown dtype {self.kwargs['dtype']!r}")
        share = float(self.kwargs.get("gpu_memory_utilization", 0.9))
        if self.card is not None:
            want = share * self.card["total"]
            if want > self.card["free"]:
                raise ValueError(
                    SIG["free memory error"].format(
                        free=round(self.card["free"] / GiB, 2),
                        total=round(self.card["total"] / GiB, 2),
                        share=share,
                        requested=round(want / GiB, 2),
                    )
                )
            self.card["free"] -= want
        core = types.SimpleNamespace(shutdown=self._shutdown)
        self.llm_engine = types.SimpleNamespace(engine_core=core)

    def _shutdown(self) -> None:
        self.events.append("shutdown")
        if self.card is not None:
            self.card["free"] += (
                float(self.kwargs.get("gpu_memory_utilization", 0.9)) * (self.card["total"])
            )

    def generate(
        self,
        prompts: list[dict[str, Any]],
        sampling_params: list[Any] | None = None,
        *,
        use_tqdm: bool = True,
        lora_request: Any = None,
        priority: list[int] | None = None,
    ) -> list[Any]:
        params = sampling_params
        assert params is not None
        assert not self.sleeping, "generate on a sleeping engine"
        if lora_request is not None:
            if not self.kwargs.get("enable_lora"):
                raise ValueError("LoRA is not enabled")
            if lora_request.lora_int_id not in self.loaded:
                _load_adapter(Path(lora_request.lora_path), self.kwargs.get("max_lora_rank", 16))
                self.loaded[lora_request.lora_int_id] = lora_request.lora_path
        assert isinstance(prompts, list) and len(prompts) == len(params)
        for p in prompts:
            # vLLM refuses the whole batch when one prompt is longer than max_model_len.
            if len(p["prompt_token_ids"]) > self.kwargs["max_model_len"]:
                raise ValueError("prompt longer than max_model_len")
        self.events.append("generate" + (f"[{lora_request.lora_name}]" if lora_request else ""))
        self.calls.append({"prompts": prompts, "params": params, "lora": lora_request})
        outs = []
        for p, sp in zip(prompts, params, strict=True):
            assert sp.n == 1
            rng = random.Random(sp.seed)  # a sample is a function of its seed and prompt
            text = ANSWER if sp.seed % 2 == 0 else f"sample {rng.random():.12f}"
            comp = types.SimpleNamespace(text=text, token_ids=[7, 8, EOS], finish_reason="stop")
            if getattr(sp, "logprobs", None) is not None:  # the sampled token's, as vLLM's
                comp.logprobs = [
                    {t: types.SimpleNamespace(logprob=FAKE_LOGPROB)} for t in comp.token_ids
                ]
            outs.append(
                types.SimpleNamespace(
                    prompt=None, outputs=[comp], prompt_token_ids=p["prompt_token_ids"]
                )
            )
        return outs

    def sleep(self, level: int = 1) -> None:
        if not self.kwargs.get("enable_sleep_mode"):
            raise ValueError("Sleep mode is not enabled")
        self.events.append(f"sleep({level})")
        self.sleeping = True
        if level == 2:
            self.loaded.clear()

    def wake_up(self, tags: list[str] | None = None) -> None:
        self.events.append("wake_up")
        self.sleeping = False


class _SamplingParams:
    def __init__(self, **kw: Any) -> None:
        _check_kwargs("SamplingParams()", kw, SIG["SamplingParams.fields"])
        self.__dict__.update(kw)


@dataclass
class _LoRARequest:
    lora_name: str
    lora_int_id: int
    lora_path: str = ""

    def __post_init__(self) -> None:
        if self.lora_int_id < 1:
            raise ValueError(f"id must be > 0, got {self.lora_int_id}")
        assert self.lora_path, "lora_path cannot be empty"


def _tokens_prompt(**kw: Any) -> dict[str, Any]:
    _check_kwargs("TokensPrompt()", kw, SIG["TokensPrompt.keys"])
    return dict(kw)  # vllm.inputs.TokensPrompt is a TypedDict


class _FakeTrainer:
    """Counts words as tokens; records what the backend does to it into ``events``."""

    trainable = True

    def __init__(self, events: list[str], prefix: str = "") -> None:
        self.events = events
        self.answer_prefix = prefix
        self.recorded: list[tuple[str, list[int], list[int]]] = []
        self.saved: list[Path] = []
        self.fail = False
        self.rank = 8

    def fitted_prompt_ids(self, prompt: Prompt) -> list[int] | None:
        return [len(w) for w in " ".join(m["content"] for m in prompt).split()]

    def overlong_error(self, prompt: Prompt) -> str:
        return "too long"

    def record_tokens(
        self,
        prompt: Prompt,
        completion: str,
        prompt_ids: Sequence[int],
        completion_ids: Sequence[int],
        logprobs: Sequence[float] | None = None,
        forced: Sequence[int] = (),
    ) -> None:
        self.recorded.append((completion, list(prompt_ids), list(completion_ids)))

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        self.events.append("train")
        if self.fail:
            raise RuntimeError("CUDA out of memory")
        n = sum(1 for s in samples if s.advantage != 0)
        return UpdateStats(
            loss=0.5 if n else None,
            kl_ref=0.0,
            n_samples=n,
            tokens=3 * n,
            grad_norm=1.0 if n else None,
            time_s=0.0,
        )

    def save_adapter(self, path: Path) -> Path:
        self.events.append("save_adapter")
        write_adapter(path, self.rank, tag=len(self.saved))
        self.saved.append(path)
        return path

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        (path / "trainable.pt").write_text("x")

    def load(self, path: Path) -> None:
        assert (path / "trainable.pt").is_file()

    def close(self) -> None:
        self.events.append("trainer.close")


@dataclass
class _Fake:
    engines: list[_FakeEngine]
    events: list[str]
    model: Path
    card: dict[str, float] | None = None


@pytest.fixture
def fake_vllm(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> _Fake:
    events: list[str] = []
    engines: list[_FakeEngine] = []

    def make_llm(**kw: Any) -> _FakeEngine:
        e = _FakeEngine(kw, events, card=fake.card)
        engines.append(e)
        return e

    vllm = types.ModuleType("vllm")
    vllm.LLM = make_llm  # type: ignore[attr-defined]
    vllm.SamplingParams = _SamplingParams  # type: ignore[attr-defined]
    inputs = types.ModuleType("vllm.inputs")
    inputs.TokensPrompt = _tokens_prompt  # type: ignore[attr-defined]
    lora = types.ModuleType("vllm.lora")
    req = types.ModuleType("vllm.lora.request")
    req.LoRARequest = _LoRARequest  # type: ignore[attr-defined]
    for name, mod in (
        ("vllm", vllm),
        ("vllm.inputs", inputs),
        ("vllm.lora", lora),
        ("vllm.lora.request", req),
    ):
        monkeypatch.setitem(sys.modules, name, mod)
    monkeypatch.setattr(vmod, "release_cuda_cache", lambda: events.append("empty_cache"))
    monkeypatch.setattr(vmod, "cuda_card_bytes", lambda: None)  # no GPU here
    model = tmp_path / "model"
    model.mkdir()
    fake = _Fake(engines, events, model)
    return fake


PROMPT: Prompt = ({"role": "system", "content": "S"}, {"role": "user", "content": "U"})


def _cfg(fake: _Fake, **kw: Any) -> PolicyConfig:
    base: dict[str, Any] = {
        "backend": "vllm",
        "model": str(fake.model),
        "temperature": 0.8,
        "top_p": 0.95,
        "max_new_tokens": 32,
        "max_prompt_tokens": 100,
    }
    base.update(kw)
    return PolicyConfig(**base)


def _policy(
    fake: _Fake, tmp_path: Path, trainer: Any, train: TrainConfig | None = None, **kw: Any
) -> VllmPolicy:
    return VllmPolicy(
        _cfg(fake, **kw),
        train or TrainConfig(lora_r=8),
        seed=7,
        trainer=trainer,
        workdir=tmp_path / "work",
    )


def test_vllm_fake_engine_settings(fake_vllm: _Fake, tmp_path: Path) -> None:
    pol = _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events))
    kw = fake_vllm.engines[0].kwargs
    assert kw["enable_lora"] is True and kw["max_lora_rank"] == 8 and kw["max_loras"] == 1
    assert kw["enable_sleep_mode"] is True
    assert kw["model"] == str(fake_vllm.model) and kw["max_model_len"] == 132
    # No card and no model shape: the fallback share; the setting wins when given.
    assert kw["gpu_memory_utilization"] == vmod.FALLBACK_GPU_MEMORY_UTILIZATION
    pol.close()
    _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events), gpu_memory_utilization=0.3)
    assert fake_vllm.engines[-1].kwargs["gpu_memory_utilization"] == 0.3


@pytest.mark.parametrize(
    ("rank", "max_rank"),
    [
        (1, 1),
        (2, 8),
        (8, 8),
        (9, 16),
        (16, 16),
        (17, 32),
        (33, 64),
        (100, 128),
        (200, 256),
        (300, 320),
        (321, 512),
        (512, 512),
    ],
)
def test_vllm_fake_lora_rank_rounded_up_to_an_allowed_value(
    fake_vllm: _Fake, tmp_path: Path, rank: int, max_rank: int
) -> None:
    _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events), TrainConfig(lora_r=rank))
    assert fake_vllm.engines[-1].kwargs["max_lora_rank"] == max_rank


def test_vllm_fake_rank_above_512_refused_before_the_engine(
    fake_vllm: _Fake, tmp_path: Path
) -> None:
    with pytest.raises(UsageError, match="up to 512"):
        _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events), TrainConfig(lora_r=600))
    assert fake_vllm.engines == []


def _write_config(model: Path, name: str) -> None:
    s = KNOWN_SHAPES[name]
    (model / "config.json").write_text(
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


def test_vllm_fake_memory_preflight_sets_the_share_or_refuses(
    fake_vllm: _Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_config(fake_vllm.model, "Qwen/Qwen3-8B")
    monkeypatch.setattr(vmod, "cuda_card_bytes", lambda: int(79.2 * GiB))
    monkeypatch.setattr(vmod, "host_available_bytes", lambda: 64 * GiB)
    pol = _policy(
        fake_vllm,
        tmp_path,
        _FakeTrainer(fake_vllm.events),
        max_prompt_tokens=8192,
        max_new_tokens=2048,
    )
    share = fake_vllm.engines[-1].kwargs["gpu_memory_utilization"]
    assert pol.memory_plan is not None and pol.memory_plan.fits
    assert share == pol.memory_plan.gpu_memory_utilization
    kv = pol.memory_plan.kv_tokens
    assert kv is not None and 1.1 <= kv / (16 * 10240) < 1.11  # the need plus 10 %
    kwargs = fake_vllm.engines[-1].kwargs
    assert kwargs["max_model_len"] == 10240 and kwargs["dtype"] == "bfloat16"
    # The trainer's resident memory fits beside vLLM's share.
    resident = sum(p.bytes for p in pol.memory_plan.phases[0].parts if p.name.startswith("trainer"))
    assert share * 79.2 * GiB + resident < 79.2 * GiB
    # Qwen3-8B on a 24 GB card: refused with the fix, before any engine starts.
    n = len(fake_vllm.engines)
    monkeypatch.setattr(vmod, "cuda_card_bytes", lambda: int(22.5 * GiB))
    with pytest.raises(UsageError, match="smaller model"):
        _policy(
            fake_vllm,
            tmp_path,
            _FakeTrainer(fake_vllm.events),
            max_prompt_tokens=8192,
            max_new_tokens=2048,
        )
    assert len(fake_vllm.engines) == n
    # too little host memory for sleep level 1's copy of the weights: refused before LLM()
    monkeypatch.setattr(vmod, "cuda_card_bytes", lambda: int(79.2 * GiB))
    monkeypatch.setattr(vmod, "host_available_bytes", lambda: 8 * GiB)
    with pytest.raises(UsageError, match="pinned host memory"):
        _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events))
    assert len(fake_vllm.engines) == n


def test_vllm_fake_every_rollout_its_own_request_and_seed(fake_vllm: _Fake, tmp_path: Path) -> None:
    trainer = _FakeTrainer(fake_vllm.events)
    pol = _policy(fake_vllm, tmp_path, trainer)
    engine = fake_vllm.engines[0]
    # The `none` sampler: the root prompt four times, 8 rollouts each.
    out = pol.generate([PROMPT] * 4, 8, seed=100)
    assert [len(g) for g in out] == [8] * 4
    params = engine.calls[-1]["params"]
    assert len(params) == 32 and all(p.n == 1 for p in params)
    assert [(p.temperature, p.top_p, p.max_tokens) for p in params] == [(0.8, 0.95, 32)] * 32
    seeds = [c.seed for g in out for c in g]
    assert seeds == [p.seed for p in params]
    assert len(set(seeds)) == 32  # seed + i + j gave only 4 + 8 - 1 = 11 distinct
    assert len({c.text for g in out for c in g}) > 16  # repeated prompts, distinct samples
    # The next step's seeds do not overlap this step's either.
    nxt = pol.generate([PROMPT] * 4, 8, seed=101)
    assert not set(seeds) & {c.seed for g in nxt for c in g}
    # Same seed, same samples (reproducible).
    again = pol.generate([PROMPT] * 4, 8, seed=100)
    assert [c.text for g in again for c in g] == [c.text for g in out for c in g]


def test_vllm_fake_sleep_train_release_wake_in_order(fake_vllm: _Fake, tmp_path: Path) -> None:
    trainer = _FakeTrainer(fake_vllm.events)
    pol = _policy(fake_vllm, tmp_path, trainer)
    ev = fake_vllm.events
    pol.generate([PROMPT], 2, seed=0)
    pol.update([Sample(PROMPT, "a", 1.0), Sample(PROMPT, "b", -1.0)])
    pol.generate([PROMPT], 2, seed=1)
    assert ev == [
        "generate",
        "sleep(1)",
        "train",
        "save_adapter",
        "empty_cache",
        "wake_up",
        "generate[rtlopt-1]",
    ]
    # A failing update still wakes the engine (and releases the cache first).
    ev.clear()
    trainer.fail = True
    with pytest.raises(RuntimeError, match="out of memory"):
        pol.update([Sample(PROMPT, "a", 1.0), Sample(PROMPT, "b", -1.0)])
    assert ev == ["sleep(1)", "train", "empty_cache", "wake_up"]
    # A frozen policy never puts the engine to sleep.
    ev.clear()
    trainer.fail = False
    trainer.trainable = False
    frozen = _policy(fake_vllm, tmp_path, trainer)
    frozen.update([Sample(PROMPT, "a", 1.0)])
    assert "sleep(1)" not in ev


def test_vllm_fake_adapter_hot_loaded_with_new_id_each_step(
    fake_vllm: _Fake, tmp_path: Path
) -> None:
    trainer = _FakeTrainer(fake_vllm.events)
    pol = _policy(fake_vllm, tmp_path, trainer)
    engine = fake_vllm.engines[0]
    pol.generate([PROMPT], 2, seed=0)
    assert engine.calls[0]["lora"] is None  # before the first update the adapter is identity
    ids = []
    for step in range(3):
        pol.update([Sample(PROMPT, "a", 1.0), Sample(PROMPT, "b", -1.0)])
        pol.generate([PROMPT], 2, seed=step)
        req = engine.calls[-1]["lora"]
        assert Path(req.lora_path) == trainer.saved[-1] and Path(req.lora_path).is_dir()
        ids.append(req.lora_int_id)
    assert ids == [1, 2, 3]
    # A degenerate batch (all advantages zero) has nothing to learn: no sleep, no step, and the
    # same adapter stays served under its id (no sleep: its LoRA slot was never dropped).
    seen = len(fake_vllm.events)
    pol.update([Sample(PROMPT, "a", 0.0)])
    assert "sleep(1)" not in fake_vllm.events[seen:] and "train" not in fake_vllm.events[seen:]
    pol.generate([PROMPT], 1, seed=0)
    req = engine.calls[-1]["lora"]
    assert req.lora_int_id == 3 and Path(req.lora_path) == trainer.saved[-1]
    assert len(trainer.saved) == 3
    # Resume: the restored adapter is served under a fresh id.
    pol.save(tmp_path / "state")
    pol.load(tmp_path / "state")
    pol.generate([PROMPT], 1, seed=0)
    assert engine.calls[-1]["lora"].lora_int_id == 4
    ids = [c["lora"].lora_int_id for c in engine.calls if c["lora"]]
    assert ids == sorted(ids)  # a new adapter always gets a new id


def test_vllm_fake_only_the_last_adapters_are_kept(fake_vllm: _Fake, tmp_path: Path) -> None:
    trainer = _FakeTrainer(fake_vllm.events)
    pol = _policy(fake_vllm, tmp_path, trainer)
    for _ in range(6):
        pol.update([Sample(PROMPT, "a", 1.0), Sample(PROMPT, "b", -1.0)])
    kept = sorted(p.name for p in (tmp_path / "work" / "lora").iterdir())
    assert kept == [f"step-{k}" for k in range(7 - KEEP_ADAPTERS, 7)]
    assert Path(pol.lora_request.lora_path).is_dir()


def test_vllm_fake_close_shuts_the_engine_down(fake_vllm: _Fake, tmp_path: Path) -> None:
    pol = _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events))
    pol.close()
    assert fake_vllm.events[-3:] == ["shutdown", "trainer.close", "empty_cache"]
    assert pol.llm is None
    # An engine with LLM.shutdown() (newer vLLM) is stopped through it.
    pol = _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events))
    pol.llm.shutdown = lambda: fake_vllm.events.append("LLM.shutdown")
    pol.close()
    assert "LLM.shutdown" in fake_vllm.events


def test_vllm_fake_full_finetuning_refused(fake_vllm: _Fake, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="LoRA adapters only"):
        _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events), TrainConfig(lora=False))


# --------------------------------------------------------------- with the real trainer


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama(tmp_path_factory.mktemp("tiny"))


def _real_trainer(tiny_dir: Path, **kw: Any) -> Any:
    from rtlopt.policy._transformers import TransformersPolicy

    cfg = PolicyConfig(model=str(tiny_dir), device="cpu", cpu_threads=1, **kw)
    return TransformersPolicy(cfg, TrainConfig(lora_r=4, learning_rate=1e-2), seed=0)


def test_vllm_fake_token_id_prompts_single_bos(
    fake_vllm: _Fake, tmp_path: Path, tiny_dir: Path
) -> None:
    trainer = _real_trainer(tiny_dir, max_prompt_tokens=4000)
    pol = VllmPolicy(
        _cfg(fake_vllm, model=str(tiny_dir), max_prompt_tokens=4000),
        TrainConfig(lora_r=4),
        seed=0,
        trainer=trainer,
        workdir=tmp_path / "w",
    )
    pol.generate([PROMPT], 2, seed=3)
    sent = fake_vllm.engines[0].calls[-1]["prompts"]
    ids = trainer.prompt_ids(PROMPT)
    assert [p["prompt_token_ids"] for p in sent] == [ids, ids]
    bos = trainer.tokenizer.bos_token_id
    assert ids.count(bos) == 1
    # What vLLM would have done with the text: its tokenizer adds a second BOS.
    as_text = trainer.tokenizer(trainer.chat_text(PROMPT))["input_ids"]
    assert as_text.count(bos) == 2
    # The trainer scores exactly the ids that were sent.
    assert trainer._tokens and all(p == tuple(ids) for p, *_ in trainer._tokens.values())
    pol.close()


def test_vllm_fake_answer_prefix_prepended(
    fake_vllm: _Fake, tmp_path: Path, tiny_dir: Path
) -> None:
    trainer = _real_trainer(tiny_dir, answer_prefix="```verilog\n")
    pol = VllmPolicy(
        _cfg(fake_vllm, model=str(tiny_dir), answer_prefix="```verilog\n"),
        TrainConfig(lora_r=4),
        seed=0,
        trainer=trainer,
        workdir=tmp_path / "w",
    )
    engine = fake_vllm.engines[0]
    out = pol.generate([PROMPT], 4, seed=5)
    for c in out[0]:
        assert c.text.startswith("```verilog\n")
    # The fake's ANSWER starts with its own fence; a raw module continuation gets the prefix.
    engine_text = "module m(input a, output y);\nassign y = a;\nendmodule\n```"
    engine.generate = lambda prompts, params, **kw: [
        types.SimpleNamespace(
            outputs=[types.SimpleNamespace(text=engine_text, token_ids=[1, 2])],
            prompt_token_ids=p["prompt_token_ids"],
        )
        for p in prompts
    ]
    c = pol.generate([PROMPT], 1, seed=0)[0][0]
    assert c.text == "```verilog\n" + engine_text
    assert c.verilog is not None and c.verilog.startswith("module m")
    assert (json.dumps([[m["role"], m["content"]] for m in PROMPT]), c.text) in trainer._tokens
    pol.close()


def _long_prompt(body_lines: int) -> Prompt:
    code = (
        "module big(input [7:0] a, input [7:0] b, output [7:0] y);\n"
        + "".join(f"  wire w{i} = a[{i % 8}] ^ b[{(i + 3) % 8}];\n" for i in range(body_lines))
        + "  assign y = a & b;\nendmodule"
    )
    return build_prompt(
        code, PPA(area_um2=100.0, delay_ps=200.0, power_uw=None), "A wide AND.", "adp"
    )


def test_vllm_fake_long_prompts_are_shortened_not_fatal(
    fake_vllm: _Fake, tmp_path: Path, tiny_dir: Path
) -> None:
    limit = 1500  # byte-level tokens
    trainer = _real_trainer(tiny_dir, max_prompt_tokens=limit, max_new_tokens=8)
    pol = VllmPolicy(
        _cfg(fake_vllm, model=str(tiny_dir), max_prompt_tokens=limit, max_new_tokens=8),
        TrainConfig(lora_r=4),
        seed=0,
        trainer=trainer,
        workdir=tmp_path / "w",
    )
    long = _long_prompt(200)
    assert len(trainer.prompt_ids(long)) > 3 * limit
    out = pol.generate([long, PROMPT], 2, seed=1)
    assert all(c.error is None for g in out for c in g)
    sent = fake_vllm.engines[0].calls[-1]["prompts"]
    assert max(len(p["prompt_token_ids"]) for p in sent) <= limit
    text = trainer.tokenizer.decode(sent[0]["prompt_token_ids"])
    assert "module big(input [7:0] a, input [7:0] b, output [7:0] y);" in text
    assert "endmodule" in text and "lines omitted to fit the prompt budget" in text
    assert "Write a complete Verilog module with ADP lower than" in text
    assert "Output only Verilog code within ```verilog fences." in text
    # A prompt whose instruction alone is over the limit: its rollouts carry an error, the
    # other prompt is still served.
    tiny = VllmPolicy(
        _cfg(fake_vllm, model=str(tiny_dir), max_prompt_tokens=60, max_new_tokens=8),
        TrainConfig(lora_r=4),
        seed=0,
        trainer=_real_trainer(tiny_dir, max_prompt_tokens=60, max_new_tokens=8),
        workdir=tmp_path / "w2",
    )
    out = tiny.generate([long, PROMPT], 2, seed=1)
    assert [c.error is not None for c in out[0]] == [True, True]
    assert "does not fit policy.max_prompt_tokens = 60" in (out[0][0].error or "")
    assert [c.error for c in out[1]] == [None, None]
    assert len(fake_vllm.engines[-1].calls[-1]["prompts"]) == 2


def test_vllm_fake_frozen_policy_keeps_no_trainer_copy(
    fake_vllm: _Fake, tmp_path: Path, tiny_dir: Path
) -> None:
    """Issue 25, finding 4: at lr = 0 the vLLM backend built a full trainer (a second copy of
    the model on the GPU) that never trained; now a tokenizer only, and no update phase."""
    from rtlopt.policy._transformers import FrozenTrainer

    pol = VllmPolicy(
        _cfg(fake_vllm, model=str(tiny_dir), max_prompt_tokens=4000),
        TrainConfig(learning_rate=0.0),
        seed=0,
        workdir=tmp_path / "w",
    )
    assert isinstance(pol.trainer, FrozenTrainer) and not hasattr(pol.trainer, "model")
    out = pol.generate([PROMPT], 2, seed=3)
    assert len(out[0]) == 2
    stats = pol.update([Sample(PROMPT, c.text, 1.0) for c in out[0]])
    assert stats.n_samples == 0
    assert not any(e.startswith("sleep") for e in fake_vllm.events)  # never slept
    plan = pol.memory_plan
    if plan is not None:
        assert not any(p.name.startswith("trainer") for ph in plan.phases for p in ph.parts)
        assert len(plan.phases) == 1
    pol.close()


def test_frozen_transformers_policy_keeps_no_token_records(tiny_dir: Path) -> None:
    """Issue 25, finding 4: a frozen policy returned before clearing its token records, so a
    frozen run's memory grew with every rollout."""
    from rtlopt.policy._transformers import TransformersPolicy

    cfg = PolicyConfig(model=str(tiny_dir), device="cpu", cpu_threads=1, max_new_tokens=8)
    pol = TransformersPolicy(cfg, TrainConfig(learning_rate=0.0), seed=0)
    for step in range(2):
        out = pol.generate([PROMPT], 2, seed=step)
        pol.update([Sample(PROMPT, c.text, 1.0) for c in out[0]])
        assert pol._tokens == {}
    trained = TransformersPolicy(cfg, TrainConfig(lora_r=4, learning_rate=1e-2), seed=0)
    out = trained.generate([PROMPT], 2, seed=0)
    assert trained._tokens  # the trainable one keeps them until its update
    trained.update([Sample(PROMPT, c.text, float(i)) for i, c in enumerate(out[0])])
    assert trained._tokens == {}


def test_vllm_fake_refuses_what_vllm_0_11_refuses(fake_vllm: _Fake, tmp_path: Path) -> None:
    """The fake is held to vLLM 0.11.1's recorded signatures and checks, so a wrong call in
    rtlopt fails here as it would on the GPU."""
    import vllm  # the fake module

    with pytest.raises(TypeError, match="enable_sleep"):
        vllm.LLM(model="m", enable_sleep=True)
    with pytest.raises(ValueError, match="dtype"):
        vllm.LLM(model="m", dtype="bf16")
    with pytest.raises(TypeError, match="max_new_tokens"):
        vllm.SamplingParams(max_new_tokens=5)
    from vllm.lora.request import LoRARequest

    with pytest.raises(ValueError, match="id must be > 0"):
        LoRARequest("a", 0, str(tmp_path))
    engine = vllm.LLM(model="m", enable_lora=True, max_lora_rank=8, max_model_len=64)
    prompt = [{"prompt_token_ids": [1, 2]}]
    params = [vllm.SamplingParams(n=1, seed=0, max_tokens=4)]
    big = write_adapter(tmp_path / "r16", 16)
    with pytest.raises(ValueError, match="greater than max_lora_rank 8"):
        engine.generate(prompt, params, lora_request=LoRARequest("a", 1, str(big)))
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "adapter_config.json").write_text('{"r": 8, "lora_alpha": 16}')
    with pytest.raises(ValueError, match="target_modules"):
        engine.generate(prompt, params, lora_request=LoRARequest("b", 2, str(junk)))
    with pytest.raises(ValueError, match="Sleep mode is not enabled"):
        engine.sleep(level=1)
    [out] = engine.generate(
        prompt, params, lora_request=LoRARequest("c", 3, str(write_adapter(tmp_path / "ok", 8)))
    )
    assert out.outputs[0].token_ids[-1] == EOS and out.outputs[0].finish_reason == "stop"


def test_vllm_fake_second_engine_on_one_card_fails_the_free_memory_check(
    fake_vllm: _Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25, finding 2: two designs' engines on one GPU. The second fails vLLM's start-up
    check, which is why `rtlopt bench` runs designs one at a time with a GPU policy."""
    _write_config(fake_vllm.model, "Qwen/Qwen3-4B")
    card = 79.2 * GiB
    fake_vllm.card = {"total": card, "free": card}
    monkeypatch.setattr(vmod, "cuda_card_bytes", lambda: int(card))
    monkeypatch.setattr(vmod, "host_available_bytes", lambda: 64 * GiB)
    one = _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events), max_prompt_tokens=8192)
    assert one.gpu_memory_utilization < 0.5
    # what the first engine and its trainer leave is less than the share a second asks for
    fake_vllm.card["free"] -= 0.6 * card
    with pytest.raises(ValueError, match="less than desired GPU memory utilization"):
        _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events), max_prompt_tokens=8192)
    one.close()
    fake_vllm.card["free"] += 0.6 * card
    two = _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events), max_prompt_tokens=8192)
    two.close()


def test_vllm_fake_completions_end_with_eos_for_the_trainer(
    fake_vllm: _Fake, tmp_path: Path
) -> None:
    trainer = _FakeTrainer(fake_vllm.events)
    pol = _policy(fake_vllm, tmp_path, trainer)
    pol.generate([PROMPT], 2, seed=1)
    assert trainer.recorded and all(c_ids[-1] == EOS for _, _, c_ids in trainer.recorded)
    pol.close()


def test_vllm_fake_logprobs_requested_and_the_correction_applied(
    fake_vllm: _Fake, tmp_path: Path, tiny_dir: Path
) -> None:
    """Every request asks vLLM for the sampled token's log-probability after the temperature;
    the trainer weights each token by min(pi_train / pi_vllm, is_cap) and reports the gap."""
    trainer = _real_trainer(tiny_dir)
    pol = VllmPolicy(
        _cfg(fake_vllm, model=str(tiny_dir)),
        TrainConfig(lora_r=4),
        seed=0,
        trainer=trainer,
        workdir=tmp_path / "w",
    )
    (group,) = pol.generate([PROMPT], 2, seed=3)
    engine = fake_vllm.engines[0]
    assert engine.kwargs["logprobs_mode"] == "processed_logprobs"
    assert all(sp.logprobs == 0 for sp in engine.calls[-1]["params"])
    assert all(lps == (FAKE_LOGPROB,) * 3 for _, _, lps, _ in trainer._tokens.values())
    assert not any(c.truncated for c in group)
    stats = pol.update([Sample(PROMPT, group[0].text, 1.0), Sample(PROMPT, group[1].text, -1.0)])
    assert stats.updated and stats.n_samples == 2
    # the trainer's log-probabilities are near -ln(vocab), far above -40: every ratio capped
    assert stats.is_clipped == 1.0
    assert stats.logprob_gap is not None and stats.logprob_gap > 30
    pol.close()


def test_vllm_fake_stays_awake_when_the_plan_fits(
    fake_vllm: _Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card the update fits on beside the awake engine: no sleep / wake-up cycle."""
    _write_config(fake_vllm.model, "Qwen/Qwen3-8B")
    monkeypatch.setattr(vmod, "host_available_bytes", lambda: 64 * GiB)
    small = {"max_prompt_tokens": 2048, "max_new_tokens": 1024}
    monkeypatch.setattr(vmod, "cuda_card_bytes", lambda: int(79.2 * GiB))
    pol = _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events), **small)
    assert pol.memory_plan is not None and pol.memory_plan.update_awake
    ev = fake_vllm.events
    pol.generate([PROMPT], 2, seed=0)
    pol.update([Sample(PROMPT, "a", 1.0), Sample(PROMPT, "b", -1.0)])
    pol.generate([PROMPT], 2, seed=1)
    assert "sleep(1)" not in ev and "wake_up" not in ev
    assert ev[-1] == "generate[rtlopt-1]"  # the new adapter is served all the same
    # the default share on a 40 GB card leaves no room awake: the cycle is kept
    ev.clear()
    monkeypatch.setattr(vmod, "cuda_card_bytes", lambda: int(39.4 * GiB))
    tight = _policy(fake_vllm, tmp_path, _FakeTrainer(fake_vllm.events), **small)
    assert tight.memory_plan is not None and not tight.memory_plan.update_awake
    tight.generate([PROMPT], 2, seed=0)
    tight.update([Sample(PROMPT, "a", 1.0), Sample(PROMPT, "b", -1.0)])
    assert "sleep(1)" in ev and "wake_up" in ev


def test_vllm_fake_think_budget_continues_after_the_forced_close(
    fake_vllm: _Fake, tmp_path: Path, tiny_dir: Path
) -> None:
    """With a think budget each request first asks for ``budget`` tokens; an answer that used
    them all goes on in a second request from its own ids, after the close of its think block
    when it is still thinking (the forced tokens out of the loss), else straight on."""
    import math

    from rtlopt.policy._thinking import THINK_CLOSE

    budget, max_new = 10, 200
    kw = {"enable_thinking": True, "think_budget": budget, "max_new_tokens": max_new}
    trainer = _real_trainer(tiny_dir, **kw)
    tok = trainer.tokenizer
    tok.chat_template += "{% if add_generation_prompt %}<think>\n{% endif %}"  # opened for it
    pol = VllmPolicy(
        _cfg(fake_vllm, model=str(tiny_dir), **kw),
        TrainConfig(lora_r=4),
        seed=0,
        trainer=trainer,
        workdir=tmp_path / "w",
    )
    engine = fake_vllm.engines[0]
    calls: list[tuple[list[list[int]], list[Any]]] = []
    code = "```verilog\nmodule m;\nendmodule\n```"

    def generate(prompts: list[dict[str, Any]], params: list[Any], **_: Any) -> list[Any]:
        calls.append(([p["prompt_token_ids"] for p in prompts], params))
        outs = []
        for r, sp in enumerate(params):
            if sp.max_tokens == budget:  # first request: thinking (row 0) or answering (row 1)
                text, finish = ("a" * budget if r == 0 else "</think>bb"), "length"
                ids = tok(text, add_special_tokens=False)["input_ids"]
            else:
                text, finish = code, "stop"
                ids = [*tok(text, add_special_tokens=False)["input_ids"], tok.eos_token_id]
            comp = types.SimpleNamespace(
                text=text,
                token_ids=ids,
                finish_reason=finish,
                logprobs=[{t: types.SimpleNamespace(logprob=-1.0)} for t in ids],
            )
            outs.append(types.SimpleNamespace(outputs=[comp]))
        return outs

    engine.generate = generate  # type: ignore[method-assign]
    (group,) = pol.generate([PROMPT], 2, seed=3)
    assert len(calls) == 2 and [sp.max_tokens for sp in calls[0][1]] == [budget, budget]
    p_ids = trainer.prompt_ids(PROMPT)
    close = list(trainer.think_budget(PROMPT).close_ids)
    first = [tok("a" * budget)["input_ids"][-budget:], tok("</think>bb")["input_ids"][-budget:]]
    assert calls[1][0] == [[*p_ids, *first[0], *close], [*p_ids, *first[1]]]
    assert [sp.max_tokens for sp in calls[1][1]] == [
        max_new - budget - len(close),
        max_new - budget,
    ]
    assert {sp.seed for sp in calls[1][1]}.isdisjoint({sp.seed for sp in calls[0][1]})
    assert [c.think_closed for c in group] == [True, False]
    assert THINK_CLOSE in group[0].text and THINK_CLOSE not in group[1].text
    assert all(c.verilog == "module m;\nendmodule\n" and not c.truncated for c in group)
    _, c_ids, lps, forced = trainer._tokens[(next(iter(trainer._tokens))[0], group[0].text)]
    assert forced == tuple(range(budget, budget + len(close)))
    assert lps is not None and [k for k, x in enumerate(lps) if math.isnan(x)] == list(forced)
    stats = pol.update([Sample(PROMPT, c.text, a) for c, a in zip(group, (1.0, -1.0), strict=True)])
    assert stats.updated and stats.tokens == sum(c.completion_tokens for c in group) - len(close)
    pol.close()
