"""Exact top-k cosine search in pure numpy.

Why exact and not an ANN index: a personal history is at most a few hundred thousand
chunks; one float32 mat-vec over 200k x 256 takes ~10 ms here, which beats building and
persisting an approximate index, and the answer is exact and deterministic.
"""

from __future__ import annotations

import numpy as np

_BLOCK = 16_384  # rows converted to float32 at a time when the matrix is quantized (~16 MB at 256-d)


def _dot(mat: np.ndarray, q: np.ndarray, rows: np.ndarray | None, scales: np.ndarray | None) -> np.ndarray:
    """``mat[rows] @ q`` (all rows when None), times each row's scale: a float32 matrix in one BLAS
    call, a quantized one (int8) block by block, so memory stays bounded whatever the size."""
    if mat.dtype == np.float32 and scales is None:
        return mat @ q if rows is None else mat[rows] @ q
    n = mat.shape[0] if rows is None else rows.shape[0]
    out = np.empty(n, dtype=np.float32)
    for s in range(0, n, _BLOCK):
        e = min(n, s + _BLOCK)
        block = mat[s:e] if rows is None else mat[rows[s:e]]
        out[s:e] = block.astype(np.float32) @ q
    if scales is not None:
        out *= scales if rows is None else scales[rows]
    return out


def top_k(
    matrix: np.ndarray,
    query_vec: np.ndarray,
    k: int,
    mask: np.ndarray | None = None,
    scales: np.ndarray | None = None,
    slots: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(indices, scores)`` of the ``k`` rows most similar to ``query_vec``.

    Rows of ``matrix`` and ``query_vec`` are expected to be L2-normalised, so the dot
    product is the cosine. ``mask`` is an optional boolean array of length ``n``: only
    rows where it is True are candidates. Results are sorted by descending score; ties
    go to the lower row index, so the output is deterministic. Fewer than ``k`` results
    come back when fewer rows are candidates. ``scales`` (one per row) makes ``scale * row`` the
    vector: an int8 matrix of ``recollect.index.vectors.pack``. With ``slots``, row ``i`` is
    ``matrix[slots[i]]`` (and ``mask`` and the indices returned are over those rows): the vectors of
    an index are stored once each, and rows that share a text share a slot.
    """
    if slots is not None:
        return _top_k_slots(np.asarray(matrix), query_vec, k, mask, scales, np.asarray(slots, dtype=np.int64))
    mat = np.asarray(matrix)
    if mat.ndim != 2:
        raise ValueError(f"matrix must be 2-D, got shape {mat.shape}")
    q = np.asarray(query_vec, dtype=np.float32).reshape(-1)
    if mat.shape[0] and q.shape[0] != mat.shape[1]:
        raise ValueError(f"query has dim {q.shape[0]}, matrix has dim {mat.shape[1]}")
    empty = (np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32))
    if k <= 0 or mat.shape[0] == 0:
        return empty

    cand: np.ndarray | None = None  # the rows scored, when not all of them
    if mask is not None:
        m = np.asarray(mask, dtype=bool)
        if m.shape != (mat.shape[0],):
            raise ValueError(f"mask must have shape ({mat.shape[0]},), got {m.shape}")
        rows = np.flatnonzero(m)
        if rows.size == 0:
            return empty
        # Scoring only the candidates keeps a narrow filter (one project) cheap.
        scores = _dot(mat, q, rows if rows.size < mat.shape[0] else None, scales)
        if rows.size < mat.shape[0]:
            cand = rows
    else:
        scores = _dot(mat, q, None, scales)
    idx, out_scores = _best(np.asarray(scores, dtype=np.float32), k)
    if cand is not None:
        idx = cand[idx]
    return idx.astype(np.int64), out_scores


def _best(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices and scores of the `k` best, best first, ties to the lower index; NaN never wins."""
    scores = np.where(np.isnan(scores), np.float32(-np.inf), scores)
    n = scores.shape[0]
    k = min(k, n)
    if k < n:
        part = np.argpartition(-scores, k - 1)[:k]
        # argpartition may cut through a run of equal scores; widen to every row that
        # ties the k-th score so the lower-index tie-break below is exact.
        kth = scores[part].min()
        part = np.flatnonzero(scores >= kth)
    else:
        part = np.arange(n)
    order = np.lexsort((part, -scores[part]))[:k]
    idx = part[order]
    return idx, scores[idx].astype(np.float32)


def _top_k_slots(
    matrix: np.ndarray,
    query_vec: np.ndarray,
    k: int,
    mask: np.ndarray | None,
    scales: np.ndarray | None,
    slots: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """`top_k` over rows that point into `matrix`: each slot the candidate rows use is scored once."""
    if mask is not None and np.asarray(mask).shape != slots.shape:
        raise ValueError(f"mask must have shape {slots.shape}, got {np.asarray(mask).shape}")
    rows = np.arange(slots.shape[0]) if mask is None else np.flatnonzero(np.asarray(mask, dtype=bool))
    empty = (np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32))
    if k <= 0 or rows.size == 0 or matrix.shape[0] == 0:
        return empty
    q = np.asarray(query_vec, dtype=np.float32).reshape(-1)
    if q.shape[0] != matrix.shape[1]:
        raise ValueError(f"query has dim {q.shape[0]}, matrix has dim {matrix.shape[1]}")
    used, inverse = np.unique(slots[rows], return_inverse=True)
    every = used.size == matrix.shape[0]  # then `used` is every slot in order: no gather
    scored = np.asarray(_dot(matrix, q, None if every else used, scales), dtype=np.float32)
    idx, out = _best(scored[inverse.reshape(-1)], k)
    return rows[idx].astype(np.int64), out
