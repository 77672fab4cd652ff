"""The HTTP providers against a fake server on 127.0.0.1: real sockets, real JSON."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from bench.eval.fakeserver import FakeEmbeddingServer, fake_vector
from recollect.embed import EmbedError, OllamaEmbedder, OpenAIEmbedder
from recollect.embed.factory import from_config


@pytest.fixture
def server() -> Iterator[FakeEmbeddingServer]:
    with FakeEmbeddingServer(dim=8) as srv:
        yield srv


def _expected(texts: list[str], dim: int = 8) -> np.ndarray:
    v = np.array([fake_vector(t, dim) for t in texts], dtype=np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_ollama_round_trip(server: FakeEmbeddingServer) -> None:
    emb = OllamaEmbedder("nomic-embed-text", server.url)
    texts = ["the flaky login test", "部署脚本", "token bucket"]
    out = emb.embed(texts)
    assert out.dtype == np.float32 and out.shape == (3, 8)
    assert np.allclose(out, _expected(texts), atol=1e-6)
    assert emb.dim == 8
    assert emb.model_id == f"ollama:{server.url.removeprefix('http://')}/nomic-embed-text"
    req = server.state.requests[-1]
    assert req["path"] == "/api/embed"
    assert req["body"]["model"] == "nomic-embed-text" and req["body"]["input"] == texts


def test_openai_round_trip_reorders_by_index_and_batches(server: FakeEmbeddingServer) -> None:
    emb = OpenAIEmbedder("text-embedding-3-small", server.url + "/v1")
    texts = [f"chunk number {i}" for i in range(150)]
    out = emb.embed(texts)
    # the fake answers items in reverse order; the provider must put them back
    assert np.allclose(out, _expected(texts), atol=1e-6)
    sizes = [len(r["body"]["input"]) for r in server.state.requests]
    assert sizes == [64, 64, 22]
    assert all(r["path"] == "/v1/embeddings" for r in server.state.requests)
    assert "Authorization" not in server.state.requests[0]["headers"]


def test_empty_texts_get_zero_rows_and_are_not_sent(server: FakeEmbeddingServer) -> None:
    emb = OpenAIEmbedder("m", server.url + "/v1", dim=8)
    out = emb.embed(["", "real text", "   "])
    assert np.allclose(np.linalg.norm(out, axis=1), [0, 1, 0], atol=1e-6)
    assert server.state.requests[-1]["body"]["input"] == ["real text"]
    assert emb.embed([]).shape == (0, 8)


def test_dim_is_probed_once_when_unknown(server: FakeEmbeddingServer) -> None:
    emb = OllamaEmbedder("m", server.url)
    assert emb.dim == 8
    assert emb.dim == 8
    assert len(server.state.requests) == 1


def test_api_key_is_read_from_the_named_env_var(server: FakeEmbeddingServer, monkeypatch: pytest.MonkeyPatch) -> None:
    server.state.required_key = "sk-test-123"
    emb = OpenAIEmbedder("m", server.url + "/v1", api_key_env="RECOLLECT_TEST_EMBED_KEY")
    monkeypatch.delenv("RECOLLECT_TEST_EMBED_KEY", raising=False)
    with pytest.raises(EmbedError, match="RECOLLECT_TEST_EMBED_KEY is not set"):
        emb.embed(["x"])
    monkeypatch.setenv("RECOLLECT_TEST_EMBED_KEY", "wrong")
    with pytest.raises(EmbedError, match="HTTP 401"):
        emb.embed(["x"])
    monkeypatch.setenv("RECOLLECT_TEST_EMBED_KEY", "sk-test-123")
    assert emb.embed(["x"]).shape == (1, 8)
    assert server.state.requests[-1]["headers"]["Authorization"] == "Bearer sk-test-123"


def test_http_errors_become_embed_errors(server: FakeEmbeddingServer) -> None:
    server.state.fail_status = 500
    with pytest.raises(EmbedError, match="HTTP 500"):
        OllamaEmbedder("m", server.url).embed(["x"])
    server.state.fail_status = None
    with pytest.raises(EmbedError, match="HTTP 404"):
        OpenAIEmbedder("m", server.url + "/nope").embed(["x"])


def test_unreachable_server_is_an_embed_error() -> None:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(EmbedError, match="cannot reach"):
        OllamaEmbedder("m", f"http://127.0.0.1:{port}", timeout=5).embed(["x"])


def test_wrong_dim_from_server_is_caught(server: FakeEmbeddingServer) -> None:
    with pytest.raises(EmbedError, match="dim 8, expected 16"):
        OllamaEmbedder("m", server.url, dim=16).embed(["x"])


def test_non_loopback_urls_are_refused_unless_allowed() -> None:
    for url in ("http://10.0.0.5:11434", "https://api.openai.com/v1", "http://example.com"):
        with pytest.raises(EmbedError, match="non-loopback"):
            OpenAIEmbedder("m", url)
    for url in ("http://localhost:11434", "http://127.0.0.2:8080", "http://[::1]:8080"):
        OllamaEmbedder("m", url)  # loopback: fine
    # explicit opt-in: constructed, and nothing is sent until embed() is called
    assert OpenAIEmbedder("m", "https://api.example.com/v1", allow_remote=True).model_id.startswith("openai:")
    with pytest.raises(EmbedError, match="bad embeddings URL"):
        OllamaEmbedder("m", "ftp://127.0.0.1")


def test_from_config_builds_the_http_providers(server: FakeEmbeddingServer, tmp_path: Path) -> None:
    emb = from_config({"provider": "ollama", "model": "m", "url": server.url}, tmp_path)
    assert isinstance(emb, OllamaEmbedder) and emb.embed(["a"]).shape == (1, 8)
    emb = from_config({"provider": "openai", "model": "m", "url": server.url + "/v1", "dim": 8}, tmp_path)
    assert isinstance(emb, OpenAIEmbedder) and emb.dim == 8
    with pytest.raises(EmbedError, match="needs 'model'"):
        from_config({"provider": "ollama"}, tmp_path)
    with pytest.raises(EmbedError, match="unknown embeddings provider"):
        from_config({"provider": "word2vec"}, tmp_path)
