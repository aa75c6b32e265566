"""Per-rollout sampling seeds, shared by every backend.

A step asks for ``n`` completions of each of ``B`` prompts. Every one of those ``B * n``
rollouts gets its own seed, derived by hashing ``(step seed, prompt index, sample index)``:

* no arithmetic pattern can make two rollouts share a seed. ``seed + i + j`` (the old vLLM
  request scheme, and what vLLM's parallel sampling does inside one request: child ``j`` of a
  request with seed ``s`` uses ``s + j``) gives rollout (i, j) the seed of rollout (i+1, j-1),
  so B copies of the root prompt (the ``none`` sampler) collapse to about ``B + n`` distinct
  samples;
* the prompt index is part of the key, so repeated prompts get different seeds;
* seeds of consecutive steps do not overlap either (the step seed is hashed, not added).

Within one call distinctness is guaranteed, not just likely: a 31-bit collision is re-drawn.
Seeds stay below 2**31 because some OpenAI-compatible servers store the seed as a 32-bit int.
"""

from __future__ import annotations

import hashlib

SEED_LIMIT = 2**31
"""Seeds are in ``[0, SEED_LIMIT)``."""


def rollout_seed(seed: int, prompt_index: int, sample_index: int, salt: int = 0) -> int:
    """The seed of sample ``sample_index`` of prompt ``prompt_index`` in a step seeded ``seed``."""
    key = f"rtlopt-rollout:{seed}:{prompt_index}:{sample_index}:{salt}".encode()
    digest = hashlib.blake2b(key, digest_size=8).digest()
    return int.from_bytes(digest, "big") % SEED_LIMIT


def rollout_seeds(seed: int, n_prompts: int, n: int) -> list[list[int]]:
    """Distinct seeds for ``n`` samples of each of ``n_prompts`` prompts (outer list: prompts)."""
    seen: set[int] = set()
    out: list[list[int]] = []
    for i in range(n_prompts):
        row = []
        for j in range(n):
            salt = 0
            s = rollout_seed(seed, i, j)
            while s in seen:
                salt += 1
                s = rollout_seed(seed, i, j, salt)
            seen.add(s)
            row.append(s)
        out.append(row)
    return out
