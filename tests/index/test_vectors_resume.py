"""A sync that stored new chunks but died before its embedding pass leaves the next `index` the work:
the "vectors complete" mark is cleared whenever chunks change."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from recollect.index import store
from recollect.index.sync import sync
from recollect.sources.base import SourceSpec
from tests.conftest import unpack_checkpoint


class HashEmbedder:
    """Deterministic unit vectors from a text hash: enough to count what was embedded."""

    model_id = "test-hash-v1"
    dim = 16
    batch = 64

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = [
            np.frombuffer(hashlib.sha256(t.encode()).digest()[:16], dtype=np.uint8).astype(np.float32) + 1
            for t in texts
        ]
        mat = np.array(rows, dtype=np.float32).reshape(len(texts), self.dim)
        return mat / np.linalg.norm(mat, axis=1, keepdims=True)


def missing(conn: sqlite3.Connection, model: str) -> int:
    return conn.execute(
        "SELECT count(*) FROM chunk c WHERE c.hash IS NOT NULL AND NOT EXISTS "
        "(SELECT 1 FROM vector v WHERE v.hash = c.hash AND v.model = ?)",
        (model,),
    ).fetchone()[0]


def test_vectors_missing_after_a_crash_before_embedding_are_embedded_next_time(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    unpack_checkpoint(3, db)
    specs = [SourceSpec(id="opencode", kind="opencode", path=db)]
    conn = store.connect(tmp_path / "index.db")
    model = HashEmbedder()
    sync(conn, specs, embedder=model)
    assert missing(conn, model.model_id) == 0  # positive control: a whole pass leaves nothing missing
    # The store grows; the sync stores the new chunks and dies before embedding (no embedder this time).
    later = tmp_path / "later.db"
    unpack_checkpoint(6, later)
    shutil.copy(later, db)
    assert sync(conn, specs).changed > 0
    assert missing(conn, model.model_id) > 0
    # Nothing changes in the store any more; the next index still embeds what is missing.
    report = sync(conn, specs, embedder=model)
    assert report.changed == 0 and report.semantic is not None and report.semantic.embedded > 0
    assert missing(conn, model.model_id) == 0
