"""Which embedder and card encoder a config asks for: the one place that follows `[embeddings]` (and
`RECOLLECT_EMBEDDINGS`) to a model object, for the index and for search.

- `embedder_for(config)`: the chunk and card embedder (the shipped static model by default), or None.
- `card_encoder_for(config)`: the full encoder over session cards, or None.
- `from_config(section, cache_dir)`: a provider by name ("static", "muse", "ollama", "openai").
- `semantic_enabled`, `semantic_state`: whether search by meaning is on, and what `doctor` says.

One model object per process and config; a model that fails to load is logged and kept in PROBLEMS
with its fix (search goes on without that arm). Imports no numpy: a sync with nothing new never loads
a model.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recollect.config import Config
from recollect.embed.base import EmbedError

if TYPE_CHECKING:
    from recollect.embed.base import Embedder

log = logging.getLogger(__name__)


def from_config(cfg: Mapping[str, Any], cache_dir: Path) -> Embedder | None:
    """Build the provider a config section asks for.

    Keys: ``provider`` ("static" default, "muse", "ollama", "openai"), ``model``, ``url``,
    ``api_key_env`` (name of an env var holding the key; the key itself is never
    configured), ``dim``, ``timeout``, ``allow_remote`` (default false: loopback only),
    ``threads``. Returns None for "muse" when the package is missing.
    """
    provider = str(cfg.get("provider", "static")).lower()
    threads = int(cfg.get("threads", 1))
    common: dict[str, Any] = {
        "dim": int(cfg["dim"]) if cfg.get("dim") is not None else None,
        "timeout": float(cfg.get("timeout", 120.0)),
        "allow_remote": bool(cfg.get("allow_remote", False)),
    }
    if provider == "static":
        from recollect.embed import default_embedder

        return default_embedder()
    if provider == "muse":
        from recollect.embed import MuseEmbedder, locate_source

        source = locate_source()
        return MuseEmbedder(source, threads=threads) if source is not None else None
    from recollect.embed.remote import OllamaEmbedder, OpenAIEmbedder

    if provider == "ollama":
        if not cfg.get("model"):
            raise EmbedError("ollama provider needs 'model' (e.g. nomic-embed-text)")
        return OllamaEmbedder(str(cfg["model"]), str(cfg.get("url", "http://127.0.0.1:11434")), **common)
    if provider == "openai":
        if not cfg.get("model") or not cfg.get("url"):
            raise EmbedError("openai provider needs 'model' and 'url' (e.g. http://127.0.0.1:8080/v1)")
        key_env = cfg.get("api_key_env")
        return OpenAIEmbedder(
            str(cfg["model"]), str(cfg["url"]), api_key_env=str(key_env) if key_env else None, **common
        )
    raise EmbedError(f"unknown embeddings provider {provider!r}: use static, muse, ollama or openai")


def model_cache_dir(config: Config) -> Path:
    """Where the full encoder's loaded form is kept: the user's cache (`$XDG_CACHE_HOME/recollect`),
    shared by every `RECOLLECT_HOME`; `RECOLLECT_MODEL_CACHE` points elsewhere (tests, CI)."""
    override = os.environ.get("RECOLLECT_MODEL_CACHE")
    if override:
        return Path(override).expanduser()
    from recollect.config import xdg_dir

    return xdg_dir("XDG_CACHE_HOME", ".cache") / "recollect"


def semantic_enabled(config: Config) -> bool:
    if os.environ.get("RECOLLECT_EMBEDDINGS", "").lower() in ("0", "off", "false", "no"):
        return False
    return config.section("embeddings").get("enabled", True) is not False


_EMBEDDERS: dict[str, object] = {}
_LOCK = threading.Lock()
_SOURCE: list[object] = []  # the installed model package, located once per process (hashing it costs ~30 ms)
# Why search by meaning cannot run in this process, with the fix, for each arm that failed to load.
PROBLEMS: dict[str, str] = {}


def _muse_source(cache_dir: Path):  # type: ignore[no-untyped-def]
    if not _SOURCE:
        from recollect.embed import muse

        _SOURCE.append(muse.locate_source(cache_dir))
    return _SOURCE[0]


def _memoized(key: str, make: Callable[[], object], what: str) -> object:
    """One model object per process and key; a failure is logged and kept in PROBLEMS, not cached
    (the next call retries)."""
    with _LOCK:
        if key in _EMBEDDERS:
            return _EMBEDDERS[key]
    try:
        model = make()
    except Exception as exc:  # semantic search is an addition: its failure must not break search
        log.info("%s unavailable: %s", what, exc)
        PROBLEMS[what] = (
            f"{what} unavailable ({exc}); fix: reinstall recollect (pip install --force-reinstall recollect)"
        )
        return None
    if model is not None:
        PROBLEMS.pop(what, None)
        with _LOCK:
            _EMBEDDERS[key] = model
    return model


def embedder_for(config: Config):  # type: ignore[no-untyped-def]
    """The configured embedder, or None when semantic search is off or unavailable. The default
    static model ships in the package: nothing is built."""
    if not semantic_enabled(config):
        return None
    section = config.section("embeddings")
    provider = str(section.get("provider", "static")).lower()
    cache_dir = model_cache_dir(config)

    def make():  # type: ignore[no-untyped-def]
        if provider == "static":
            return LazyStatic()
        return from_config(section, cache_dir)

    return _memoized(f"{provider}:{cache_dir}:{sorted(section.items())}", make, "search by meaning")


class LazyStatic:
    """The shipped static model, named from its meta.json and loaded (numpy, the mapped table, the
    tokenizer: ~0.1 s) only when something is embedded: a sync with nothing new never loads it."""

    def __init__(self) -> None:
        import recollect

        meta_file = Path(recollect.__file__).parent / "data" / "model" / "static-muse-v1" / "meta.json"
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
            self.model_id: str = str(meta["model_id"])
            self.dim: int = int(meta["dim"])
        except (OSError, ValueError, KeyError) as exc:
            raise EmbedError(f"static model at {meta_file.parent} is unreadable: {exc}") from exc
        self._model: object = None
        self._loading = threading.Lock()  # two threads asking at once load it once

    def load(self) -> None:
        """Load the model now (a thread that prepares a search ahead of it), once."""
        with self._loading:
            if self._model is None:
                from recollect.embed import default_embedder

                model = default_embedder()
                if model.model_id != self.model_id:
                    raise EmbedError(f"the shipped model's files disagree ({model.model_id} vs {self.model_id})")
                self._model = model

    def embed(self, texts):  # type: ignore[no-untyped-def]
        if self._model is None:
            self.load()
        return self._model.embed(texts)  # type: ignore[attr-defined]


def card_encoder_for(config: Config):  # type: ignore[no-untyped-def]
    """The full encoder over session cards (a second semantic arm), or None when semantic search is
    off, the model package is missing, or `[embeddings] cards = false`. Never loads the encoder."""
    if not semantic_enabled(config) or config.section("embeddings").get("cards", True) is False:
        return None
    cache_dir = model_cache_dir(config)

    def make():  # type: ignore[no-untyped-def]
        from recollect.embed.muse import INSTALL_HINT, PACKAGE, CardEncoder, MuseEmbedder

        source = _muse_source(cache_dir)
        if source is None:
            PROBLEMS["the session-card encoder"] = (
                f"session cards are not searched by meaning: {PACKAGE} is not installed; fix: {INSTALL_HINT}"
            )
            return None
        return CardEncoder(MuseEmbedder(source, cache_dir=cache_dir))

    return _memoized(f"cards:{cache_dir}", make, "the session-card encoder")


def semantic_state(config: Config) -> dict[str, Any]:
    """What `recollect doctor` (and its --json) says about search by meaning: whether it is on, why not,
    the fix, and both arms' models. Loads the static model to check it (~0.1 s), never the full encoder."""
    from recollect.embed import describe

    state: dict[str, object] = {"enabled": semantic_enabled(config)}
    if not state["enabled"]:
        why = (
            "RECOLLECT_EMBEDDINGS is set to off"
            if os.environ.get("RECOLLECT_EMBEDDINGS", "").lower() in ("0", "off", "false", "no")
            else f"[embeddings] enabled = false in {config.paths.config_file}"
        )
        state.update(status="off", reason=why, fix="unset RECOLLECT_EMBEDDINGS, or remove [embeddings] enabled = false")
        return state
    section = config.section("embeddings")
    provider = str(section.get("provider", "static")).lower()
    info = describe(model_cache_dir(config))
    cards_on = section.get("cards", True) is not False
    state.update(provider=provider, static=info, cards_enabled=cards_on)
    problems: list[str] = []
    if provider == "static" and not info.get("ready"):
        problems.append(f"the shipped model cannot be read ({info.get('problem')}); fix: {info.get('fix')}")
    card_info = info.get("card_encoder", {})
    if cards_on and isinstance(card_info, dict) and not card_info.get("installed"):
        problems.append(
            f"session cards are not searched by meaning: {card_info.get('problem')}; fix: {card_info.get('fix')}"
        )
    state["status"] = "on" if not problems else ("degraded" if provider != "static" or info.get("ready") else "broken")
    state["problems"] = problems
    return state
