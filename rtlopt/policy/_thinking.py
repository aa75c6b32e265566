"""Thinking control: the chat template's ``enable_thinking`` switch and the think budget.

``policy.enable_thinking`` reaches a chat template only where the template reads the variable
(Qwen3's does; SmolLM2's and most others' do not, and are rendered as before): the
transformers trainer renders every prompt, also the token ids the vLLM backend sends, so both
in-process backends follow it; the openai backend sends it as ``chat_template_kwargs``.

The think budget (``policy.think_budget``). A row still inside its ``<think>`` block after
``budget`` answer tokens has the block closed for it: :data:`THINK_CLOSE` (Qwen's advice for a
thinking budget: a short note and ``</think>``) is written into the answer as tokens, and the
model goes on to answer within ``policy.max_new_tokens``. Closing rather than counting such an
answer as cut off fits rtlopt's generation: the transformers backend samples token by token in
its own loop (a row can be fed given tokens), and vLLM continues any token-id prompt (a second
request after the forced tokens); the answer that follows is still the policy's own, scored
and learnt from, while a cut-off answer would be lost to both the search and the loss. The
forced tokens were not sampled: they stay out of the loss (``TokenizedSample.forced``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rtlopt.config import PolicyConfig
from rtlopt.policy._extract import in_thought

THINK_CLOSE = (
    "\n\nConsidering the limited time by the user, I have to give the solution based on the "
    "thinking directly now.\n</think>\n\n"
)
"""What closes a think block at the budget (the wording of Qwen3's guide to a thinking
budget)."""


def template_reads_thinking(tokenizer: Any) -> bool:
    """Whether the tokenizer's chat template reads ``enable_thinking``."""
    tpl = getattr(tokenizer, "chat_template", None)
    if isinstance(tpl, dict):
        tpl = " ".join(str(v) for v in tpl.values())
    return isinstance(tpl, str) and "enable_thinking" in tpl


def template_kwargs(tokenizer: Any, cfg: PolicyConfig) -> dict[str, Any]:
    """Extra variables for ``apply_chat_template``: ``enable_thinking`` where it is read."""
    return {"enable_thinking": cfg.enable_thinking} if template_reads_thinking(tokenizer) else {}


def budget_tokens(cfg: PolicyConfig) -> int:
    """The think budget in tokens, 0 when none applies (thinking off, ``think_budget = 0``, or
    a budget that leaves no room before ``max_new_tokens``)."""
    if not cfg.enable_thinking:
        return 0
    budget = cfg.think_budget if cfg.think_budget is not None else cfg.max_new_tokens // 2
    return budget if 0 < budget < cfg.max_new_tokens else 0


@dataclass(frozen=True)
class ThinkBudget:
    """The budget of one prompt's rollouts.

    Attributes:
        tokens: Answer tokens after which a row still thinking has its block closed.
        close_ids: The token ids of :data:`THINK_CLOSE`.
        opened: The rendered prompt itself ends inside a ``<think>`` block (templates that open
            it for the model).
        decode: Token ids to text, special tokens kept.
    """

    tokens: int
    close_ids: tuple[int, ...]
    opened: bool
    decode: Callable[[Sequence[int]], str]

    def thinking(self, ids: Sequence[int]) -> bool:
        """Whether an answer of these token ids is inside an unterminated think block."""
        return in_thought(("<think>" if self.opened else "") + self.decode(ids))


def think_budget(tokenizer: Any, cfg: PolicyConfig, chat_text: str) -> ThinkBudget | None:
    """The budget for a prompt rendered as ``chat_text``; None when none applies."""
    tokens = budget_tokens(cfg)
    if tokens == 0:
        return None
    close = tokenizer(THINK_CLOSE, add_special_tokens=False)["input_ids"]
    return ThinkBudget(
        tokens=tokens,
        close_ids=tuple(int(i) for i in close),
        opened=in_thought(chat_text),
        decode=lambda ids: str(tokenizer.decode(list(ids), skip_special_tokens=False)),
    )


class ForcedClose:
    """Per-row state of the think budget in a token-by-token sampling loop.

    After :meth:`check` at the budget, :meth:`next_token` hands the rows still thinking the
    tokens of :data:`THINK_CLOSE` one per step; :attr:`forced` lists, per row, the completion
    positions that were forced.
    """

    def __init__(self, budget: ThinkBudget | None, rows: int) -> None:
        self.budget = budget
        self.queue: list[list[int]] = [[] for _ in range(rows)]
        self.forced: list[list[int]] = [[] for _ in range(rows)]

    def check(self, ids: Sequence[Sequence[int]], done: Sequence[bool]) -> None:
        """Queue the close for every unfinished row whose answer just reached the budget while
        still thinking."""
        b = self.budget
        if b is None:
            return
        for r, row in enumerate(ids):
            if not done[r] and len(row) == b.tokens and b.thinking(row):
                self.queue[r] = list(b.close_ids)

    def next_token(self, r: int, position: int) -> int | None:
        """The forced token of row ``r`` at completion ``position``, or None (sample)."""
        if not self.queue[r]:
            return None
        self.forced[r].append(position)
        return self.queue[r].pop(0)
