"""The models an extraction can use, reached with the standard library only (`urllib`).

Two backends, one method (`complete(system, prompt)` -> the reply text):

* `OpenCodeBackend` asks the person's running OpenCode server. Each call is a throwaway worker
  session: its title carries `WORKER_TITLE_MARKER` (so the indexer and the extractor skip it), its
  permission ruleset denies everything and the prompt disables every tool, it lives in a directory
  of our own (not the person's project, so the project's plugins and session list stay out of it),
  and it is deleted afterwards. The model is the configured one, else the cheapest suitable one
  the server offers (`choose_model`).
* `OpenAIBackend` posts to any OpenAI-compatible `/chat/completions` endpoint (a local Ollama, a
  hosted API). Its key is read from the environment variable the config names, per request; no
  key is ever written anywhere by us.

Nothing here touches a person's conversation, and every failure is a `ModelError` whose message
says what to fix.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from recollect.errors import RecollectError
from recollect.extract.settings import OPENCODE_URL_ENV, ExtractSettings
from recollect.jsonish import typed
from recollect.text.markers import WORKER_TITLE_MARKER

if TYPE_CHECKING:
    pass

log = logging.getLogger("recollect.extract")

# What one extraction roughly costs, to rank models by price: a transcript of ~16k characters is
# ~4k input tokens, and an answer a few hundred output tokens. Prices are per million tokens.
TYPICAL_INPUT_TOKENS, TYPICAL_OUTPUT_TOKENS = 4_000, 500
DENY_ALL = [{"permission": "*", "pattern": "*", "action": "deny"}]
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


class ModelError(RecollectError):
    """No model answered: unreachable, refused, or not configured. The message names the fix."""


class NoBackend(ModelError):
    """Nothing is configured to extract with; raised before any network call."""


class Unreachable(ModelError):
    """Nothing answered at the address: no server listens there, or the network failed."""


# Seen with OpenCode 1.18.33: its TUI and `opencode run` hand plugins a serverUrl of http://localhost:4096 but
# listen on no port unless started with --port. The plugin hands the extraction a loopback bridge of its own
# to that OpenCode instead (opencode_plugin.js), so this is an address given by hand, or an older plugin's.
NOT_SERVING = (
    "OpenCode answers at an address of its own only as 'opencode serve' or when started with --port (for "
    "example 'opencode --port 4096'); the recollect plugin reaches a plain TUI or 'opencode run' through a "
    "bridge of its own (an older plugin did not: run 'recollect install opencode' again); or set [extract] "
    "endpoint and model in the config file for an OpenAI-compatible server (docs/extract.md)"
)
# The plugin's bridge lives as long as the OpenCode process it belongs to.
BRIDGE_GONE = (
    "the OpenCode process that ran the session has exited, and with it the recollect plugin's bridge to it "
    "(OpenCode waits at exit up to 60 s for an extraction); its turns wait for the next extraction"
)


@dataclass(frozen=True)
class ModelChoice:
    provider: str
    model: str
    context: int
    cost_input: float  # per million tokens
    cost_output: float
    reason: str  # why this one: "configured", "cheapest of 3 suitable models"

    @property
    def id(self) -> str:
        return f"{self.provider}/{self.model}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "context": self.context,
            "cost": {"input": self.cost_input, "output": self.cost_output},
            "reason": self.reason,
        }


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def typical_cost(model: Mapping[str, Any]) -> float:
    cost = _mapping(model.get("cost"))
    price_in, price_out = _number(cost.get("input")), _number(cost.get("output"))
    return (TYPICAL_INPUT_TOKENS * price_in + TYPICAL_OUTPUT_TOKENS * price_out) / 1e6


def _context(model: Mapping[str, Any]) -> int:
    limit = _mapping(model.get("limit"))
    return int(_number(limit.get("context")))


def _writes_text(model: Mapping[str, Any]) -> bool:
    caps = _mapping(model.get("capabilities"))
    output = _mapping(caps.get("output"))
    return output.get("text", True) is not False


def _choice(provider: str, model_id: str, info: Mapping[str, Any], reason: str) -> ModelChoice:
    cost = _mapping(info.get("cost"))
    return ModelChoice(
        provider, model_id, _context(info), _number(cost.get("input")), _number(cost.get("output")), reason
    )


def choose_model(
    providers: Sequence[Mapping[str, Any]],
    *,
    min_context: int = 8000,
    configured: str = "",
    preferred: Sequence[str] = (),
) -> ModelChoice:
    """The model to extract with, from OpenCode's `GET /config/providers` list.

    `configured` ("provider/model") wins when the server has it. Otherwise: the cheapest model by
    the price of a typical extraction, among those with a context window of at least
    `min_context`, not deprecated, that write text. Providers OpenCode enabled on its own
    (source "custom", e.g. free hosted models nobody chose) are left out unless the person's own
    `model` / `small_model` (`preferred`) use them: a conversation must not go to a service the
    person never picked. Ties go to `preferred` models, then to ids in order.
    """
    table: dict[tuple[str, str], tuple[Mapping[str, Any], Mapping[str, Any]]] = {}
    for provider in providers:
        models = provider.get("models")
        if not isinstance(models, Mapping):
            continue
        for model_key, info in models.items():
            if isinstance(info, Mapping):
                table[(str(provider.get("id")), str(info.get("id") or model_key))] = (provider, info)
    if configured:
        wanted_provider, _, wanted_model = configured.partition("/")
        found = table.get((wanted_provider, wanted_model))
        if found is None:
            offered = ", ".join(sorted(f"{p}/{m}" for p, m in table)) or "none"
            raise ModelError(
                f"the configured extract model {configured!r} is not offered by this OpenCode server "
                f"(offered: {offered}); fix [extract] model"
            )
        return _choice(wanted_provider, wanted_model, found[1], "configured")
    preferred_providers = {p.partition("/")[0] for p in preferred if p}
    suitable = [
        (provider_id, model_id, info)
        for (provider_id, model_id), (provider, info) in table.items()
        if _context(info) >= min_context
        and info.get("status") != "deprecated"
        and _writes_text(info)
        and (provider.get("source") != "custom" or provider_id in preferred_providers)
    ]
    if not suitable:
        raise ModelError(
            f"no model on this OpenCode server has a context window of at least {min_context} tokens "
            "from a provider you configured; set [extract] model to 'provider/model'"
        )
    rank = {p: i for i, p in enumerate(preferred)}

    def key(item: tuple[str, str, Mapping[str, Any]]) -> tuple[float, int, str, str]:
        provider_id, model_id, info = item
        return (typical_cost(info), rank.get(f"{provider_id}/{model_id}", len(rank)), provider_id, model_id)

    provider_id, model_id, info = min(suitable, key=key)
    reason = f"cheapest of {len(suitable)} suitable models (context >= {min_context})"
    return _choice(provider_id, model_id, info, reason)


class Backend(Protocol):
    label: str  # the model, as recorded in memories' author and the log: "fake/cheap"
    choice: ModelChoice | None  # how the model was chosen, once it was (OpenCode only)

    def complete(self, system: str, prompt: str, *, purpose: str) -> str: ...


def _request(
    method: str,
    url: str,
    body: Any = None,
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float,
    what: str,
) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    host = urllib.parse.urlsplit(url).hostname or ""
    # A proxy from the environment must never see a loopback conversation (OpenCode, Ollama).
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({})) if host in _LOOPBACK else None
    try:
        with (opener.open if opener else urllib.request.urlopen)(request, timeout=timeout) as response:
            text = response.read().decode("utf-8", errors="replace")
    except urllib.error.HTTPError as exc:
        detail = exc.read().decode("utf-8", errors="replace")[:300]
        raise ModelError(f"{what}: HTTP {exc.code} from {_safe(url)}: {detail}") from None
    except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise Unreachable(f"{what}: cannot reach {_safe(url)} ({reason})") from None
    try:
        return json.loads(text) if text.strip() else None
    except json.JSONDecodeError:
        raise ModelError(f"{what}: {_safe(url)} did not answer JSON") from None


def _safe(url: str) -> str:
    """A URL fit for a message: no user info, no query."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


class OpenCodeBackend:
    """Extraction through the person's running OpenCode: the plugin's bridge to the OpenCode process it runs
    in, or an OpenCode server's own address (`opencode serve`, or a TUI started with --port)."""

    def __init__(self, url: str, settings: ExtractSettings, worker_dir: Path, *, model: str = "") -> None:
        # Credentials in the address (http://user:secret@host:port, as the OpenCode plugin hands over
        # its loopback bridge) are sent as basic auth and kept out of the URL, so out of every message.
        parts = urllib.parse.urlsplit(url.rstrip("/"))
        self._userinfo = (
            (urllib.parse.unquote(parts.username or ""), urllib.parse.unquote(parts.password or ""))
            if parts.username is not None or parts.password is not None
            else None
        )
        self.url = _safe(url).rstrip("/") if self._userinfo else url.rstrip("/")
        self.settings = settings
        self.worker_dir = worker_dir
        self.configured = model or settings.model
        self.choice: ModelChoice | None = None
        self.label = self.configured or "opencode (model not chosen yet)"

    def _headers(self) -> dict[str, str]:
        if self._userinfo is not None:
            user, password = self._userinfo
        else:
            variable = self.settings.opencode_password_env
            password = (os.environ.get(variable) or "") if variable else ""
            if not password:
                return {}
            user = os.environ.get("OPENCODE_SERVER_USERNAME", "opencode")
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        return {"authorization": f"Basic {token}"}

    def _api(self, method: str, path: str, body: Any = None, *, what: str) -> Any:
        sep = "&" if "?" in path else "?"
        url = f"{self.url}{path}{sep}directory={urllib.parse.quote(str(self.worker_dir))}"
        return _request(method, url, body, headers=self._headers(), timeout=self.settings.timeout, what=what)

    def choose(self) -> ModelChoice:
        if self.choice is None:
            self.worker_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            try:
                listing = self._api("GET", "/config/providers", what="listing OpenCode's models")
            except Unreachable as exc:
                raise Unreachable(f"{exc}: {BRIDGE_GONE if self._userinfo else NOT_SERVING}") from None
            providers = listing.get("providers") if isinstance(listing, dict) else None
            if not isinstance(providers, list):
                raise ModelError(f"{_safe(self.url)} does not look like an OpenCode server (no provider list)")
            preferred: list[str] = []
            if not self.configured:
                config = self._api("GET", "/config", what="reading OpenCode's config")
                if isinstance(config, dict):
                    preferred = [v for k in ("small_model", "model") if isinstance(v := config.get(k), str)]
            self.choice = choose_model(
                providers, min_context=self.settings.min_context, configured=self.configured, preferred=preferred
            )
            self.label = self.choice.id
        return self.choice

    def complete(self, system: str, prompt: str, *, purpose: str) -> str:
        choice = self.choose()
        title = f"{WORKER_TITLE_MARKER} {purpose}"[:200]
        session = self._api(
            "POST", "/session", {"title": title, "permission": DENY_ALL}, what="creating a worker session"
        )
        session_id = session.get("id") if isinstance(session, dict) else None
        if not isinstance(session_id, str):
            raise ModelError("OpenCode did not return a session id for the worker session")
        finished = False
        try:
            reply = self._api(
                "POST",
                f"/session/{session_id}/message",
                {
                    "parts": [{"type": "text", "text": prompt}],
                    "model": {"providerID": choice.provider, "modelID": choice.model},
                    "system": system,
                    "tools": {"*": False},  # with the deny-all ruleset: the worker can run nothing
                },
                what=f"prompting {choice.id}",
            )
            finished = True
        finally:
            if not finished:
                # A timed-out prompt may still be generating: stop it before it is deleted.
                with contextlib.suppress(ModelError):
                    self._api("POST", f"/session/{session_id}/abort", {}, what="aborting the worker session")
            self._delete(session_id)
        info = reply.get("info") if isinstance(reply, dict) else None
        if not isinstance(info, dict):
            raise ModelError(f"{choice.id}: OpenCode returned no message")
        error = info.get("error")
        if error:
            data = error.get("data") if isinstance(error, dict) else None
            message = data.get("message") if isinstance(data, dict) else None
            name = error.get("name") if isinstance(error, dict) else None
            raise ModelError(f"{choice.id} failed: {': '.join(str(x) for x in (name, message) if x) or error}")
        parts = typed(reply.get("parts"), list, [])
        return "".join(
            str(p.get("text") or "")
            for p in parts
            if isinstance(p, dict) and p.get("type") == "text" and not p.get("synthetic")
        )

    def _delete(self, session_id: str) -> None:
        try:
            self._api("DELETE", f"/session/{session_id}", what="deleting the worker session")
        except ModelError as exc:
            # Its title marker still keeps it out of the index and of extraction.
            log.warning("worker session %s was not deleted: %s", session_id, exc)


class OpenAIBackend:
    """Extraction through an OpenAI-compatible chat endpoint (Ollama, llama.cpp, a hosted API)."""

    def __init__(self, endpoint: str, settings: ExtractSettings, *, model: str = "") -> None:
        self.endpoint = endpoint.rstrip("/")
        self.settings = settings
        self.model = model or settings.model
        self.label = self.model
        self.choice: ModelChoice | None = None  # the endpoint serves the model it is told to
        if not self.model:
            raise NoBackend(
                f"[extract] endpoint is {_safe(self.endpoint)} but no model is named; set [extract] model "
                "to one the endpoint serves (e.g. 'qwen2.5:3b' for Ollama)"
            )

    def _headers(self) -> dict[str, str]:
        name = self.settings.api_key_env
        if not name:
            return {}
        key = os.environ.get(name)
        if not key:
            raise NoBackend(f"[extract] api_key_env names ${name}, which is not set in this environment")
        return {"authorization": f"Bearer {key}"}

    def complete(self, system: str, prompt: str, *, purpose: str) -> str:
        body = {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": prompt}],
            "temperature": 0,
            "stream": False,
        }
        reply = _request(
            "POST",
            f"{self.endpoint}/chat/completions",
            body,
            headers=self._headers(),
            timeout=self.settings.timeout,
            what=f"prompting {self.model}",
        )
        try:
            content = reply["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise ModelError(f"{self.model}: the endpoint's answer has no choices[0].message.content") from None
        return content if isinstance(content, str) else ""


def open_backend(settings: ExtractSettings, worker_dir: Path, *, opencode_url: str = "", model: str = "") -> Backend:
    """The backend the settings name, checked without any network call (so a misconfiguration fails fast)."""
    url = (opencode_url or settings.resolved_opencode_url()).rstrip("/")
    backend = settings.backend
    if backend == "auto":
        backend = "openai" if settings.endpoint else "opencode"
    if backend == "openai":
        if not settings.endpoint:
            raise NoBackend("[extract] backend is 'openai' but no endpoint is set (e.g. http://127.0.0.1:11434/v1)")
        openai = OpenAIBackend(settings.endpoint, settings, model=model)
        openai._headers()  # a missing key variable is a configuration error: say so before any work
        return openai
    if not url:
        raise NoBackend(
            "no model to extract with: run OpenCode's server ('opencode serve', or OpenCode started with "
            "--port, e.g. 'opencode --port 4096') and pass its address (--opencode-url http://127.0.0.1:4096, "
            f"${OPENCODE_URL_ENV} or [extract] opencode_url), or set [extract] endpoint and model "
            "for an OpenAI-compatible server"
        )
    if not re.match(r"^https?://", url):
        raise NoBackend(f"the OpenCode address {url!r} is not an http(s) URL")
    return OpenCodeBackend(url, settings, worker_dir, model=model)
