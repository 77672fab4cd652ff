"""Choosing the model, and reaching an OpenAI-compatible endpoint without ever storing its key."""

from __future__ import annotations

import base64
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from recollect.config import ConfigError
from recollect.extract import ExtractSettings, ModelError, NoBackend, OpenAIBackend, choose_model, open_backend
from recollect.extract.models import OpenCodeBackend


def _model(mid: str, *, inp: float, out: float, context: int, **extra: Any) -> dict[str, Any]:
    return {"id": mid, "cost": {"input": inp, "output": out}, "limit": {"context": context, "output": 4096}, **extra}


PROVIDERS = [
    {
        "id": "acme",
        "source": "config",
        "models": {
            "tiny": _model("tiny", inp=0.01, out=0.01, context=4000),  # cheapest, but context < 8k
            "cheap": _model("cheap", inp=0.15, out=0.6, context=128_000),
            "big": _model("big", inp=3, out=15, context=200_000),
            "old": _model("old", inp=0.05, out=0.1, context=32_000, status="deprecated"),
        },
    },
    # Free hosted models OpenCode enables by itself: nobody chose to send conversations there.
    {"id": "zen", "source": "custom", "models": {"free": _model("free", inp=0, out=0, context=200_000)}},
    {"id": "local", "source": "config", "models": {"llama": _model("llama", inp=0.2, out=0.2, context=8192)}},
]


def test_cheapest_suitable_model_wins() -> None:
    choice = choose_model(PROVIDERS, min_context=8000)
    assert choice.id == "acme/cheap"
    assert "cheapest of 3 suitable" in choice.reason


def test_min_context_is_configurable() -> None:
    assert choose_model(PROVIDERS, min_context=2000).id == "acme/tiny"


def test_a_provider_opencode_enabled_by_itself_counts_only_when_the_person_uses_it() -> None:
    assert choose_model(PROVIDERS, preferred=["zen/free"]).id == "zen/free"


def test_ties_go_to_the_persons_small_model() -> None:
    providers = [
        {"id": "a", "source": "config", "models": {"x": _model("x", inp=0, out=0, context=9000)}},
        {"id": "b", "source": "config", "models": {"y": _model("y", inp=0, out=0, context=9000)}},
    ]
    assert choose_model(providers).id == "a/x"
    assert choose_model(providers, preferred=["b/y", "a/x"]).id == "b/y"


def test_a_configured_model_wins_and_must_exist() -> None:
    assert choose_model(PROVIDERS, configured="acme/big").reason == "configured"
    with pytest.raises(ModelError, match="not offered"):
        choose_model(PROVIDERS, configured="acme/nope")


def test_no_suitable_model_says_what_to_set() -> None:
    with pytest.raises(ModelError, match=r"\[extract\] model"):
        choose_model(PROVIDERS, min_context=10**7)


# --- backends from settings ---------------------------------------------------------------------


def test_without_a_server_or_endpoint_extraction_fails_before_any_network_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RECOLLECT_OPENCODE_URL", raising=False)
    with pytest.raises(NoBackend, match="no model to extract with"):
        open_backend(ExtractSettings(), tmp_path)


def test_opencode_address_comes_from_the_environment_the_plugin_sets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RECOLLECT_OPENCODE_URL", "http://127.0.0.1:4096/")
    backend = open_backend(ExtractSettings(opencode_url="http://127.0.0.1:1"), tmp_path)
    assert isinstance(backend, OpenCodeBackend) and backend.url == "http://127.0.0.1:4096"


def test_an_endpoint_needs_a_model_and_its_key_variable_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(NoBackend, match="no model is named"):
        open_backend(ExtractSettings(endpoint="http://127.0.0.1:11434/v1"), tmp_path)
    monkeypatch.delenv("RECOLLECT_TEST_KEY", raising=False)
    settings = ExtractSettings(
        endpoint="http://127.0.0.1:11434/v1", model="qwen2.5:3b", api_key_env="RECOLLECT_TEST_KEY"
    )
    with pytest.raises(NoBackend, match=r"\$RECOLLECT_TEST_KEY"):
        open_backend(settings, tmp_path)
    monkeypatch.setenv("RECOLLECT_TEST_KEY", "sk-test")
    assert isinstance(open_backend(settings, tmp_path), OpenAIBackend)


def test_config_refuses_a_key_where_a_variable_name_belongs() -> None:
    with pytest.raises(ConfigError, match="NAME of an environment variable"):
        ExtractSettings.from_section({"api_key_env": "sk-live-abc123"})
    with pytest.raises(ConfigError, match="not a setting"):
        ExtractSettings.from_section({"api_key": "sk-live-abc123"})
    assert ExtractSettings.from_section({"min_turns": 2}).min_turns == 2


class _Recorder(BaseHTTPRequestHandler):
    seen: ClassVar[list[dict[str, Any]]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.seen.append({"path": self.path, "auth": self.headers.get("authorization"), "body": body})
        data = json.dumps({"choices": [{"message": {"role": "assistant", "content": '{"memories": []}'}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def recorder() -> Iterator[str]:
    _Recorder.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_the_key_is_read_from_the_environment_per_request(recorder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECOLLECT_TEST_KEY", "sk-from-env")
    backend = OpenAIBackend(recorder, ExtractSettings(api_key_env="RECOLLECT_TEST_KEY"), model="qwen2.5:3b")
    assert backend.complete("sys", "prompt", purpose="t") == '{"memories": []}'
    (seen,) = _Recorder.seen
    assert seen["path"] == "/v1/chat/completions" and seen["auth"] == "Bearer sk-from-env"
    assert seen["body"]["model"] == "qwen2.5:3b" and seen["body"]["stream"] is False
    assert [m["role"] for m in seen["body"]["messages"]] == ["system", "user"]
    assert "tools" not in seen["body"]


def test_an_unreachable_endpoint_is_a_model_error_naming_it() -> None:
    backend = OpenAIBackend("http://127.0.0.1:9/v1", ExtractSettings(timeout=5), model="m")
    with pytest.raises(ModelError, match=re.escape("cannot reach http://127.0.0.1:9/v1")):
        backend.complete("s", "p", purpose="t")


def test_an_opencode_that_serves_no_api_is_named_with_how_to_start_it(tmp_path: Path) -> None:
    # OpenCode 1.18.33's TUI and `opencode run` give the plugin http://localhost:4096 and listen on nothing.
    backend = OpenCodeBackend("http://127.0.0.1:9", ExtractSettings(timeout=5), tmp_path / "worker")
    with pytest.raises(ModelError) as caught:
        backend.choose()
    said = str(caught.value)
    assert said.startswith("listing OpenCode's models: cannot reach http://127.0.0.1:9/config/providers")  # control
    assert "'opencode --port 4096'" in said and "[extract] endpoint and model" in said


def test_a_proxy_from_the_environment_never_sees_a_loopback_conversation(
    recorder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")  # a dead proxy: using it would fail the call
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    backend = OpenAIBackend(recorder, ExtractSettings(), model="m")
    assert backend.complete("sys", "prompt", purpose="t") == '{"memories": []}'


class _FakeOpenCode(BaseHTTPRequestHandler):
    seen: ClassVar[list[dict[str, Any]]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.seen.append({"path": self.path, "auth": self.headers.get("authorization")})
        self.send_response(401 if "providers" in self.path else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()


def test_credentials_in_the_address_are_sent_as_basic_auth_and_never_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The OpenCode plugin hands its loopback bridge over as http://recollect:SECRET@127.0.0.1:PORT.
    _FakeOpenCode.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeOpenCode)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    monkeypatch.setenv("OPENCODE_SERVER_PASSWORD", "not-this-one")
    try:
        plain = OpenCodeBackend(f"http://127.0.0.1:{port}", ExtractSettings(timeout=5), tmp_path / "w")
        with pytest.raises(ModelError):
            plain.choose()
        secret = "s3cr3t" * 8
        bridged = OpenCodeBackend(
            f"http://recollect:{secret}@127.0.0.1:{port}", ExtractSettings(timeout=5), tmp_path / "w"
        )
        with pytest.raises(ModelError) as caught:
            bridged.choose()
    finally:
        server.shutdown()
        server.server_close()
    first, second = _FakeOpenCode.seen
    assert first["auth"] == "Basic " + base64.b64encode(b"opencode:not-this-one").decode()  # control: the variable's
    assert second["auth"] == "Basic " + base64.b64encode(f"recollect:{secret}".encode()).decode()
    assert second["path"].startswith("/config/providers?directory=")
    assert bridged.url == f"http://127.0.0.1:{port}" and secret not in str(caught.value)
    assert f"HTTP 401 from http://127.0.0.1:{port}/config/providers" in str(caught.value)
