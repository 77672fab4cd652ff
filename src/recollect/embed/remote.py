"""Embedding endpoints over HTTP: Ollama (``/api/embed``) and OpenAI-compatible
(``/v1/embeddings``). Stdlib ``urllib`` only.

Loopback by default: recollect promises that a user's history never leaves the machine,
so a non-loopback URL is refused unless the config says ``allow_remote = true``.
No API key is ever stored: config names an environment variable to read it from.
"""

from __future__ import annotations

import ipaddress
import json
import os
import urllib.parse
from collections.abc import Sequence
from typing import Any

import numpy as np

from .base import EmbedError, l2_normalize

DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434"
_BATCH = 64  # inputs per request: servers cap request size; 64 short chunks is safe


def is_loopback_url(url: str) -> bool:
    host = urllib.parse.urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _HttpEmbedder:
    """Shared plumbing: URL policy, batching, JSON POST, dim discovery, normalising."""

    provider = "http"

    def __init__(self, base_url: str, model: str, *, dim: int | None, timeout: float, allow_remote: bool):
        parts = urllib.parse.urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise EmbedError(f"bad embeddings URL {base_url!r}: need http(s)://host[:port]")
        if not allow_remote and not is_loopback_url(base_url):
            raise EmbedError(
                f"refusing non-loopback embeddings URL {base_url!r}: your history would leave "
                "this machine; set allow_remote = true in the config to allow it"
            )
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout = timeout
        self._dim = dim

    @property
    def model_id(self) -> str:
        host = urllib.parse.urlsplit(self.base_url).netloc
        return f"{self.provider}:{host}/{self.model}"

    @property
    def dim(self) -> int:
        if self._dim is None:
            # Unknown until the server answers once; one tiny request settles it.
            self._dim = int(self._request(["dimension probe"]).shape[1])
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # Servers reject or mis-embed "", and the contract says nothing -> zero row.
        keep = [i for i, t in enumerate(texts) if t.strip()]
        parts = [self._request([texts[i] for i in keep[s : s + _BATCH]]) for s in range(0, len(keep), _BATCH)]
        if parts:
            got = np.concatenate(parts)
            if self._dim is None:
                self._dim = int(got.shape[1])
            elif got.shape[1] != self._dim:
                raise EmbedError(f"{self.model_id}: server returned dim {got.shape[1]}, expected {self._dim}")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if parts:
            out[keep] = got
        return l2_normalize(out)

    # subclasses: endpoint path, request body, and how to read vectors back
    def _path(self) -> str:
        raise NotImplementedError

    def _body(self, texts: list[str]) -> dict[str, Any]:
        raise NotImplementedError

    def _vectors(self, reply: Any, n: int) -> list[list[float]]:
        raise NotImplementedError

    def _headers(self) -> dict[str, str]:
        return {"Content-Type": "application/json"}

    def _request(self, texts: list[str]) -> np.ndarray:
        # imported here: urllib.request pulls in http.client, email and ssl (~35 ms), which
        # a CLI run that never calls an endpoint should not pay for
        import urllib.error
        import urllib.request

        url = self.base_url + self._path()
        data = json.dumps(self._body(texts)).encode("utf-8")
        req = urllib.request.Request(url, data=data, headers=self._headers(), method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                reply = json.loads(resp.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            detail = e.read(500).decode("utf-8", "replace").strip()
            raise EmbedError(f"{self.model_id}: HTTP {e.code} from {url}: {detail}") from e
        except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
            raise EmbedError(f"{self.model_id}: cannot reach {url}: {e}") from e
        except ValueError as e:
            raise EmbedError(f"{self.model_id}: {url} did not return JSON: {e}") from e
        try:
            vecs = np.asarray(self._vectors(reply, len(texts)), dtype=np.float32)
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise EmbedError(f"{self.model_id}: unexpected reply shape from {url}: {e}") from e
        if vecs.ndim != 2 or vecs.shape[0] != len(texts) or vecs.shape[1] == 0:
            raise EmbedError(f"{self.model_id}: expected {len(texts)} vectors, got shape {vecs.shape}")
        if not np.isfinite(vecs).all():
            raise EmbedError(f"{self.model_id}: server returned non-finite values")
        return vecs


class OllamaEmbedder(_HttpEmbedder):
    """Ollama's batch endpoint ``POST /api/embed {"model", "input": [...]}``."""

    provider = "ollama"

    def __init__(
        self,
        model: str,
        base_url: str = DEFAULT_OLLAMA_URL,
        *,
        dim: int | None = None,
        timeout: float = 120.0,
        allow_remote: bool = False,
    ) -> None:
        super().__init__(base_url, model, dim=dim, timeout=timeout, allow_remote=allow_remote)

    def _path(self) -> str:
        return "/api/embed"

    def _body(self, texts: list[str]) -> dict[str, Any]:
        # truncate: a chunk longer than the model's context is cut, not an error
        return {"model": self.model, "input": texts, "truncate": True}

    def _vectors(self, reply: Any, n: int) -> list[list[float]]:
        if "error" in reply:
            raise ValueError(reply["error"])
        return reply["embeddings"]


class OpenAIEmbedder(_HttpEmbedder):
    """Any OpenAI-compatible ``POST {base_url}/embeddings`` (llama.cpp, vLLM, LM Studio...).

    ``base_url`` includes the version prefix, as OpenAI clients expect, e.g.
    ``http://127.0.0.1:8080/v1``. The key, if any, is read from ``api_key_env`` at request
    time and never kept on disk.
    """

    provider = "openai"

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key_env: str | None = None,
        dim: int | None = None,
        timeout: float = 120.0,
        allow_remote: bool = False,
    ) -> None:
        super().__init__(base_url, model, dim=dim, timeout=timeout, allow_remote=allow_remote)
        self.api_key_env = api_key_env

    def _path(self) -> str:
        return "/embeddings"

    def _headers(self) -> dict[str, str]:
        headers = super()._headers()
        if self.api_key_env:
            key = os.environ.get(self.api_key_env)
            if not key:
                raise EmbedError(f"{self.model_id}: environment variable {self.api_key_env} is not set")
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _body(self, texts: list[str]) -> dict[str, Any]:
        return {"model": self.model, "input": texts, "encoding_format": "float"}

    def _vectors(self, reply: Any, n: int) -> list[list[float]]:
        items = reply["data"]
        # The spec gives each item an index; servers may answer out of order.
        if all(isinstance(it, dict) and "index" in it for it in items):
            items = sorted(items, key=lambda it: it["index"])
        return [it["embedding"] for it in items]
