"""A fake embeddings server on 127.0.0.1 for tests and the benchmark.

Speaks both Ollama's ``POST /api/embed`` and OpenAI's ``POST /v1/embeddings`` with
deterministic vectors (seeded by the text), so the real HTTP providers can be exercised
end to end without a model. Stdlib only; runs in a daemon thread.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np


def fake_vector(text: str, dim: int) -> list[float]:
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    return np.random.default_rng(seed).standard_normal(dim).round(6).tolist()


@dataclass
class FakeState:
    dim: int = 8
    requests: list[dict[str, Any]] = field(default_factory=list)
    fail_status: int | None = None  # answer every request with this HTTP status
    reverse_openai: bool = True  # answer OpenAI items out of order, as some servers do
    required_key: str | None = None  # OpenAI endpoint demands "Bearer <key>"


class FakeEmbeddingServer:
    """``with FakeEmbeddingServer(dim=8) as srv: srv.url`` -> ``http://127.0.0.1:PORT``."""

    def __init__(self, dim: int = 8) -> None:
        self.state = FakeState(dim=dim)
        state = self.state

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                pass

            def _send(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    self._send(400, {"error": "bad json"})
                    return
                state.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                if state.fail_status is not None:
                    self._send(state.fail_status, {"error": "injected failure"})
                    return
                inputs = body.get("input")
                if isinstance(inputs, str):
                    inputs = [inputs]
                if not isinstance(inputs, list) or not body.get("model"):
                    self._send(400, {"error": "need model and input"})
                    return
                vecs = [fake_vector(t, state.dim) for t in inputs]
                if self.path == "/api/embed":
                    self._send(200, {"model": body["model"], "embeddings": vecs})
                elif self.path == "/v1/embeddings":
                    if state.required_key and self.headers.get("Authorization") != f"Bearer {state.required_key}":
                        self._send(401, {"error": {"message": "invalid api key"}})
                        return
                    items = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vecs)]
                    if state.reverse_openai:
                        items.reverse()
                    self._send(200, {"object": "list", "model": body["model"], "data": items})
                else:
                    self._send(404, {"error": f"no route {self.path}"})

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # short poll: shutdown() waits up to one poll interval (0.5 s by default, per test)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeEmbeddingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
