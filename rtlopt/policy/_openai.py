"""openai backend: any OpenAI-compatible chat endpoint (a vLLM server, a hosted model).

The policy is frozen (search only). Requests use the standard library: POST
``{endpoint}/chat/completions`` with ``n = 1``, ``temperature``, ``top_p``, ``seed`` and
``max_tokens``; the API key comes from the environment variable ``policy.api_key_env``.
``policy.enable_thinking`` goes as ``chat_template_kwargs`` (vLLM's and SGLang's servers hand
it to the chat template); a server that refuses the field (HTTP 4xx naming it) is asked again
without it, once per run, with a warning. ``finish_reason == "length"`` marks an answer cut off
at ``max_tokens`` (``Completion.truncated``). The think budget cannot be applied here (no
server writes into an answer it is generating): answers that think past ``max_tokens`` are
counted as cut off.

Every rollout is its own request with its own seed (``rtlopt.policy._seeds``): a server asked
for ``n`` choices with one seed derives the choices' seeds from it (vLLM's server uses seed,
seed+1, ...), so two prompts' requests would share samples. Up to
:data:`MAX_CONCURRENT_REQUESTS` requests are in flight at once; the server batches them.
"""

from __future__ import annotations

import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.errors import InfrastructureError, UsageError
from rtlopt.policy._extract import extract_verilog
from rtlopt.policy._preflight import auth_headers, check_endpoint
from rtlopt.policy._seeds import rollout_seeds
from rtlopt.policy._types import Completion, Prompt, Sample, UpdateStats, frozen_stats

log = logging.getLogger(__name__)

PREFLIGHT_TIMEOUT_S = 5.0

MAX_CONCURRENT_REQUESTS = 8
"""Requests in flight at once (one per rollout)."""


class OpenAIPolicy:
    """A frozen policy behind an OpenAI-compatible HTTP API.

    Args:
        cfg: ``endpoint``, ``model`` (``auto``: the first model the server lists),
            ``api_key_env``, sampling settings and ``request_timeout_s``.
        train: Unused (the policy is frozen).
        seed: Unused; each ``generate`` call passes its own seed.
    """

    name = "openai"
    trainable = False

    @classmethod
    def preflight(cls, cfg: PolicyConfig) -> None:
        """The endpoint answers ``GET /models`` within a few seconds."""
        check_endpoint(cfg.endpoint, cfg.api_key_env, PREFLIGHT_TIMEOUT_S)

    def __init__(
        self, cfg: PolicyConfig, train: TrainConfig | None = None, *, seed: int = 0
    ) -> None:
        if not cfg.endpoint:
            raise UsageError("the openai backend needs an endpoint", hint="pass --endpoint URL")
        self.cfg = cfg
        self.base = cfg.endpoint.rstrip("/")
        self.model = cfg.model if cfg.model != "auto" else self._first_model()
        self.template_kwargs = True  # send chat_template_kwargs until the server refuses it

    def _request(
        self, method: str, route: str, body: dict[str, Any] | None, timeout: float
    ) -> dict[str, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            self.base + route, data=data, method=method, headers=auth_headers(self.cfg.api_key_env)
        )
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310
                payload: dict[str, Any] = json.loads(resp.read())
                return payload
        except urllib.error.HTTPError as exc:
            detail = exc.read(2000).decode(errors="replace").strip().replace("\n", " ")
            if exc.code in (400, 401, 403, 404, 422):
                raise UsageError(
                    f"endpoint {self.base} refused the request (HTTP {exc.code}): {detail[:300]}",
                    hint="check --model and --endpoint",
                ) from exc
            raise InfrastructureError(
                f"endpoint {self.base} failed (HTTP {exc.code}): {detail[:300]}"
            ) from exc
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise InfrastructureError(
                f"endpoint {self.base} request failed: {getattr(exc, 'reason', exc)}"
            ) from exc

    def _first_model(self) -> str:
        listing = self._request("GET", "/models", None, PREFLIGHT_TIMEOUT_S)
        models = listing.get("data") or []
        if not models:
            raise UsageError(f"endpoint {self.base} lists no models", hint="pass --model NAME")
        return str(models[0]["id"])

    def _chat(self, prompt: Prompt, seed: int) -> Completion:
        """One rollout: a request for one choice with its own seed."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [dict(m) for m in prompt],
            "n": 1,
            "temperature": self.cfg.temperature,
            "top_p": self.cfg.top_p,
            "seed": seed,
            "max_tokens": self.cfg.max_new_tokens,
        }
        if self.template_kwargs:
            body["chat_template_kwargs"] = {"enable_thinking": self.cfg.enable_thinking}
        try:
            resp = self._request("POST", "/chat/completions", body, self.cfg.request_timeout_s)
        except UsageError as exc:
            if "chat_template_kwargs" not in body or "chat_template_kwargs" not in exc.message:
                raise
            if self.template_kwargs:
                log.warning(
                    "endpoint %s refuses chat_template_kwargs: policy.enable_thinking is not "
                    "sent (the model's own default applies)",
                    self.base,
                )
            self.template_kwargs = False
            del body["chat_template_kwargs"]
            resp = self._request("POST", "/chat/completions", body, self.cfg.request_timeout_s)
        choices = resp.get("choices") or []
        if not choices:
            raise InfrastructureError(f"endpoint {self.base} returned no choices")
        usage = resp.get("usage") or {}
        text = str((choices[0].get("message") or {}).get("content") or "")
        return Completion(
            text=text,
            verilog=extract_verilog(text),
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            seed=seed,
            truncated=choices[0].get("finish_reason") == "length",
        )

    def generate(self, prompts: Sequence[Prompt], n: int, *, seed: int) -> list[list[Completion]]:
        """``n`` requests per prompt, every rollout with its own seed."""
        t0 = time.perf_counter()
        seeds = rollout_seeds(seed, len(prompts), n)
        jobs = [(p, s) for p, row in zip(prompts, seeds, strict=True) for s in row]
        if not jobs:
            return [[] for _ in prompts]
        with ThreadPoolExecutor(max_workers=min(MAX_CONCURRENT_REQUESTS, len(jobs))) as pool:
            flat = list(pool.map(lambda job: self._chat(*job), jobs))
        log.debug("openai: %d prompts x %d in %.1f s", len(prompts), n, time.perf_counter() - t0)
        return [flat[i * n : (i + 1) * n] for i in range(len(prompts))]

    def update(self, samples: Sequence[Sample]) -> UpdateStats:
        """Frozen: nothing to learn."""
        return frozen_stats()

    def save(self, path: Path) -> None:
        """Record which endpoint and model were used."""
        path.mkdir(parents=True, exist_ok=True)
        (path / "frozen.json").write_text(
            json.dumps({"endpoint": self.base, "model": self.model}) + "\n"
        )

    def load(self, path: Path) -> None:
        """Nothing to restore."""

    def close(self) -> None:
        """Nothing to release (connections are per request)."""
