"""A real local OpenAI-compatible HTTP server whose answers a test chooses (canned content)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = Callable[[dict[str, Any]], str]
"""Maps a chat request body to the assistant's content."""


class JsonHandler(BaseHTTPRequestHandler):
    """A request handler that answers in JSON (``_send``) and logs nothing."""

    def log_message(self, *args: Any) -> None:
        pass

    def _send(self, code: int, obj: Any) -> None:
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class LocalOpenAIServer:
    """``GET /v1/models`` and ``POST /v1/chat/completions`` on 127.0.0.1, every request kept.

    Args:
        answer: The content of each reply, from the request body.
        model: The one model the server lists.
    """

    def __init__(self, answer: Answer, model: str = "reflector-model") -> None:
        self.requests: list[dict[str, Any]] = []
        self.answer = answer
        self.lock = threading.Lock()
        outer = self

        class Handler(JsonHandler):
            def do_GET(self) -> None:  # noqa: N802
                if self.path == "/v1/models":
                    self._send(200, {"data": [{"id": model}]})
                else:
                    self._send(404, {"error": "no"})

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with outer.lock:
                    outer.requests.append(body)
                content = outer.answer(body)
                self._send(
                    200,
                    {
                        "choices": [
                            {"index": 0, "message": {"role": "assistant", "content": content}}
                        ],
                        "usage": {"prompt_tokens": 10, "completion_tokens": 10},
                    },
                )

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        """Stop serving."""
        self.httpd.shutdown()
        self.httpd.server_close()
