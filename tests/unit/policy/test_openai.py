"""openai backend against a real local HTTP server (a real round trip, canned answers)."""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from typing import Any

import pytest

from rtlopt.config import PolicyConfig, TrainConfig
from rtlopt.errors import InfrastructureError, UsageError
from rtlopt.policy import Policy, create_policy, preflight_policy
from tests.openai_server import JsonHandler

ANSWER = (
    "<think>smaller</think>\n```verilog\nmodule m(input a, output y);\n"
    "  assign y = a;\nendmodule\n```"
)


class _Server:
    def __init__(
        self, max_choices: int = 100, refuse_template_kwargs: bool = False, finish: str = "stop"
    ) -> None:
        self.requests: list[dict[str, Any]] = []
        self.refuse_template_kwargs = refuse_template_kwargs
        self.finish = finish
        self.headers: list[dict[str, str]] = []
        self.max_choices = max_choices
        outer = self

        class Handler(JsonHandler):
            def do_GET(self) -> None:  # noqa: N802
                outer.headers.append(dict(self.headers))
                if self.path == "/v1/models":
                    self._send(200, {"data": [{"id": "served-model"}]})
                else:
                    self._send(404, {"error": "no"})

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(body)
                outer.headers.append(dict(self.headers))
                if outer.refuse_template_kwargs and "chat_template_kwargs" in body:
                    # what api.openai.com answers to a field it does not know
                    msg = "Unrecognized request argument supplied: chat_template_kwargs"
                    self._send(400, {"error": {"message": msg}})
                    return
                k = min(body["n"], outer.max_choices)
                choices = [
                    {
                        "index": i,
                        "message": {"role": "assistant", "content": ANSWER if i % 2 == 0 else "no"},
                        "finish_reason": outer.finish,
                    }
                    for i in range(k)
                ]
                self._send(
                    200,
                    {
                        "choices": choices,
                        "usage": {"prompt_tokens": 11, "completion_tokens": 7 * k},
                    },
                )

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[_Server]:
    s = _Server()
    yield s
    s.close()


PROMPT = ({"role": "system", "content": "sys"}, {"role": "user", "content": "make it small"})


def test_generate_round_trip(server: _Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTLOPT_TEST_KEY", "sk-test")
    cfg = PolicyConfig(
        backend="openai",
        endpoint=server.url,
        api_key_env="RTLOPT_TEST_KEY",
        temperature=0.7,
        top_p=0.9,
        max_new_tokens=64,
    )
    pol = create_policy(cfg, TrainConfig(), seed=0)
    assert pol.trainable is False and isinstance(pol, Policy)
    out = pol.generate([PROMPT, PROMPT], 3, seed=5)
    assert [len(g) for g in out] == [3, 3]
    assert out[0][0].verilog is not None and out[0][0].verilog.startswith("module m")
    assert out[0][0].prompt_tokens == 11 and out[0][0].completion_tokens == 7
    # One request per rollout, n = 1, each with its own seed.
    assert len(server.requests) == 6
    for req in server.requests:
        assert req["model"] == "served-model"  # "auto" takes the first listed model
        assert (req["n"], req["temperature"], req["top_p"], req["max_tokens"]) == (1, 0.7, 0.9, 64)
        assert req["messages"] == [dict(m) for m in PROMPT]
    assert sorted(r["seed"] for r in server.requests) == sorted(c.seed for g in out for c in g)
    assert server.headers[-1]["Authorization"] == "Bearer sk-test"
    assert pol.update([]).loss is None


def test_repeated_prompts_get_distinct_seeds_across_steps(server: _Server) -> None:
    pol = create_policy(
        PolicyConfig(backend="openai", endpoint=server.url, model="x"), TrainConfig(), seed=0
    )
    pol.generate([PROMPT] * 4, 8, seed=100)
    step1 = [r["seed"] for r in server.requests]
    assert len(step1) == 32 and len(set(step1)) == 32
    pol.generate([PROMPT] * 4, 8, seed=101)
    assert not set(step1) & {r["seed"] for r in server.requests[32:]}


def test_server_returning_no_choice_is_an_infrastructure_error() -> None:
    s = _Server(max_choices=0)
    try:
        pol = create_policy(
            PolicyConfig(backend="openai", endpoint=s.url, model="x"), TrainConfig(), seed=0
        )
        with pytest.raises(InfrastructureError, match="no choices"):
            pol.generate([PROMPT], 2, seed=0)
    finally:
        s.close()


def test_unreachable_endpoint_is_a_usage_error() -> None:
    s = _Server()
    url = s.url
    s.close()
    with pytest.raises(UsageError, match="unreachable") as err:
        preflight_policy(PolicyConfig(backend="openai", endpoint=url))
    assert err.value.exit_code == 2
    assert "\n" not in str(err.value)
    with pytest.raises(UsageError, match="needs an endpoint"):
        preflight_policy(PolicyConfig(backend="openai"))


def test_fake_vllm_server_gets_enable_thinking_and_reports_cut_off_answers() -> None:
    """A vLLM server reads ``chat_template_kwargs``; a hosted API that refuses the field is
    asked again without it (once), so the run goes on with the model's own default."""
    s = _Server(max_choices=2)
    try:
        cfg = PolicyConfig(backend="openai", endpoint=s.url, model="x", enable_thinking=True)
        pol = create_policy(cfg, TrainConfig(), seed=0)
        out = pol.generate([PROMPT], 1, seed=0)
        assert s.requests[-1]["chat_template_kwargs"] == {"enable_thinking": True}
        assert out[0][0].truncated is False
        default = create_policy(
            dataclasses.replace(cfg, enable_thinking=False), TrainConfig(), seed=0
        )
        default.generate([PROMPT], 1, seed=0)
        assert s.requests[-1]["chat_template_kwargs"] == {"enable_thinking": False}
    finally:
        s.close()
    s = _Server(max_choices=2, refuse_template_kwargs=True)
    try:
        pol = create_policy(dataclasses.replace(cfg, endpoint=s.url), TrainConfig(), seed=0)
        (group,) = pol.generate([PROMPT], 1, seed=0)
        assert len(s.requests) == 2 and "chat_template_kwargs" not in s.requests[1]
        assert group[0].verilog is not None
        pol.generate([PROMPT], 1, seed=1)
        assert len(s.requests) == 3  # not offered again
    finally:
        s.close()


def test_fake_server_finish_reason_length_marks_the_answer_cut_off() -> None:
    for finish, cut in (("length", True), ("stop", False)):
        s = _Server(finish=finish)
        try:
            cfg = PolicyConfig(backend="openai", endpoint=s.url, model="x")
            (group,) = create_policy(cfg, TrainConfig(), seed=0).generate([PROMPT], 2, seed=0)
            assert [c.truncated for c in group] == [cut, cut]
        finally:
            s.close()
