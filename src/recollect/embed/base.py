"""The one interface every embedding provider implements, plus small shared helpers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:  # numpy is imported where vectors are made: a process that only names a model needs none
    import numpy as np

from recollect.errors import RecollectError


class EmbedError(RecollectError, RuntimeError):
    """A provider could not produce vectors (endpoint down, bad answer, model missing)."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors.

    ``model_id`` names the exact model (and for local models its content hash); vectors
    with different ``model_id`` or ``dim`` live in different spaces and must never be
    compared, so a store keys every vector by it. Both are read-only: a provider may compute them
    (an HTTP provider learns ``dim`` from its first answer).
    """

    @property
    def model_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return float32 array of shape ``(len(texts), dim)`` with unit-length rows.

        A text with nothing embeddable (empty, only punctuation) gets an all-zero row:
        cosine 0 against everything, instead of a NaN that would poison a top-k.
        """
        ...


def l2_normalize(mat: np.ndarray) -> np.ndarray:
    """Return a float32 copy with unit-length rows; zero rows stay zero."""
    import numpy as np

    out = np.array(mat, dtype=np.float32, copy=True)
    if out.ndim != 2:
        raise ValueError(f"expected a 2-D array, got shape {out.shape}")
    norms = np.sqrt(np.einsum("ij,ij->i", out, out))
    norms[norms == 0] = 1.0
    out /= norms[:, None]
    return out
