from __future__ import annotations

import numpy as np
import pytest

from recollect.embed import l2_normalize, top_k


def _brute(mat: np.ndarray, q: np.ndarray, k: int, mask: np.ndarray | None = None) -> list[int]:
    scores = mat @ q
    idx = [i for i in range(len(mat)) if mask is None or mask[i]]
    return sorted(idx, key=lambda i: (-scores[i], i))[:k]


def test_matches_brute_force_with_and_without_mask() -> None:
    rng = np.random.default_rng(0)
    mat = l2_normalize(rng.standard_normal((500, 32)))
    q = l2_normalize(rng.standard_normal((1, 32)))[0]
    mask = rng.random(500) < 0.3
    for k in (1, 5, 50, 499, 500, 1000):
        idx, scores = top_k(mat, q, k)
        assert idx.tolist() == _brute(mat, q, k)
        assert np.allclose(scores, mat[idx] @ q)
        assert np.all(np.diff(scores) <= 0)
        idx, _ = top_k(mat, q, k, mask=mask)
        assert idx.tolist() == _brute(mat, q, k, mask)
        assert mask[idx].all()


def test_ties_go_to_lower_index_and_nan_never_wins() -> None:
    mat = np.array([[1, 0], [0, 1], [1, 0], [np.nan, np.nan], [1, 0]], dtype=np.float32)
    idx, scores = top_k(mat, np.array([1, 0], dtype=np.float32), 3)
    assert idx.tolist() == [0, 2, 4]
    assert scores.tolist() == [1.0, 1.0, 1.0]
    idx, _ = top_k(mat, np.array([1, 0], dtype=np.float32), 5)
    assert idx.tolist()[-1] == 3


def test_edge_cases() -> None:
    mat = np.eye(3, dtype=np.float32)
    q = np.array([0, 1, 0], dtype=np.float32)
    assert top_k(mat, q, 0)[0].size == 0
    assert top_k(np.zeros((0, 3), dtype=np.float32), q, 5)[0].size == 0
    assert top_k(mat, q, 2, mask=np.zeros(3, dtype=bool))[0].size == 0
    assert top_k(mat, q, 1, mask=np.array([True, False, True]))[0].tolist() == [0]
    with pytest.raises(ValueError):
        top_k(mat, np.ones(4, dtype=np.float32), 1)
    with pytest.raises(ValueError):
        top_k(mat, q, 1, mask=np.ones(2, dtype=bool))


def test_l2_normalize_keeps_zero_rows() -> None:
    out = l2_normalize(np.array([[3, 4], [0, 0]]))
    assert out.dtype == np.float32
    assert np.allclose(out, [[0.6, 0.8], [0.0, 0.0]])


def test_a_quantized_matrix_ranks_like_the_float_one() -> None:
    from recollect.index.vectors import pack, unpack

    rng = np.random.default_rng(5)
    mat = rng.standard_normal((3000, 64)).astype(np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    q = mat[17] + 0.1 * rng.standard_normal(64).astype(np.float32)
    exact_idx, exact_scores = top_k(mat, q, 10)
    packed, scales = unpack(pack(mat), 64)
    assert packed.dtype == np.int8 and len(pack(mat)[0]) == 64 + 4
    idx, scores = top_k(packed, q, 10, scales=scales)
    assert idx[0] == exact_idx[0] == 17
    assert len(set(idx.tolist()) & set(exact_idx.tolist())) >= 9
    np.testing.assert_allclose(scores, exact_scores, atol=0.02)
    masked, _ = top_k(packed, q, 5, mask=np.arange(3000) % 2 == 1, scales=scales)
    assert all(i % 2 == 1 for i in masked.tolist())
