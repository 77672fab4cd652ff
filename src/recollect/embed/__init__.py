"""Search by meaning, offline: one ``Embedder`` interface and its providers.

- ``default_embedder()``: the static model distilled from the multilingual Universal Sentence
  Encoder, shipped prebuilt in the package (nothing is built or downloaded at first use).
- ``factory``: which embedder and card encoder a config asks for (``embedder_for``,
  ``card_encoder_for``, ``from_config``), and whether search by meaning is on.
- ``top_k(matrix, query_vec, k, mask)``: exact cosine top-k in numpy.
- ``describe(cache_dir)``: what ``recollect doctor`` prints (the shipped model, and the full
  encoder of the card arm with its load cache in ``cache_dir``).

Vectors from different ``model_id`` values are different spaces: store the id next to
every vector and never compare across ids.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from recollect import lazy_names

from .base import Embedder, EmbedError, l2_normalize
from .muse import (
    INSTALL_HINT,
    PACKAGE,
    PINNED_SHA256,
    PINNED_VERSION,
    MuseEmbedder,
    MuseSource,
    encoder_cache_path,
    locate_source,
)

if TYPE_CHECKING:
    from .remote import OllamaEmbedder, OpenAIEmbedder
    from .static import StaticEmbedder
    from .topk import top_k

# Imported on first use (PEP 562): `base` and `muse` import no numpy at module level, so a process that
# only needs a model id (a sync with nothing new) never pays for numpy, the static table or urllib.
_LAZY = {
    **dict.fromkeys(("OllamaEmbedder", "OpenAIEmbedder"), ".remote"),
    "StaticEmbedder": ".static",
    "top_k": ".topk",
}
__getattr__ = lazy_names(__name__, _LAZY)

__all__ = [
    "EmbedError",
    "Embedder",
    "MuseEmbedder",
    "OllamaEmbedder",
    "OpenAIEmbedder",
    "StaticEmbedder",
    "default_embedder",
    "describe",
    "l2_normalize",
    "top_k",
]

REINSTALL_HINT = "pip install --force-reinstall recollect"


def default_embedder() -> Embedder:
    """The static model shipped in the package (~0.1 s to load; raises EmbedError if its files are
    missing or damaged, which only a broken install does)."""
    from .static import shipped_model

    return shipped_model()


def describe(cache_dir: Path) -> dict[str, Any]:
    """State of both semantic arms for ``recollect doctor``: the shipped static model (chunks and
    cards) and the full encoder (cards), whose loaded form is cached in ``cache_dir``. Loads the
    static model (~0.1 s) to check it; never loads the full encoder."""
    from .static import SHIPPED_DIR, shipped_model

    info: dict[str, Any] = {"provider": "static", "model_path": str(SHIPPED_DIR)}
    try:
        model = shipped_model()
        info.update(ready=True, model_id=model.model_id, dim=model.dim)
    except EmbedError as exc:
        info.update(ready=False, problem=str(exc), fix=REINSTALL_HINT)
    source: MuseSource | None = locate_source()
    encoder: dict[str, Any] = {"package": PACKAGE, "pinned_version": PINNED_VERSION, "installed": source is not None}
    if source is None:
        encoder.update(problem=f"{PACKAGE} is not installed", fix=INSTALL_HINT)
    else:
        cache = encoder_cache_path(Path(cache_dir), source)
        encoder.update(
            version=source.version,
            pinned=source.pinned,
            model_id=f"muse-v3:{source.sha256[:12]}",
            cache_path=str(cache),
            cached=cache.is_file(),  # False: the first index loads it from the package (~2 s) and keeps it
        )
        if not source.pinned:
            encoder["warning"] = (
                f"{PACKAGE} {source.version} (sha256 {source.sha256[:12]}) is not the tested "
                f"{PINNED_VERSION} ({PINNED_SHA256[:12]}); its card vectors get their own model id"
            )
    info["card_encoder"] = encoder
    return info
