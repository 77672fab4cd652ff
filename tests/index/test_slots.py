"""Compaction renumbers slots; every cached map from rows to slots must be dropped with it."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from recollect.index import slots, store, vectors

MODEL = "test-model"
DIM = 8


def _filled(path: Path, n: int) -> tuple[object, list[bytes], np.ndarray]:
    conn = store.connect(path)
    hashes = [hashlib.sha256(str(i).encode()).digest() for i in range(n)]
    rng = np.random.default_rng(7)
    raw = rng.standard_normal((n, DIM)).astype(np.float32)
    with store.transaction(conn):
        slots.append(conn, MODEL, hashes, vectors.packed(raw))
    return conn, hashes, raw


def _slot_of(conn: object, h: bytes) -> int:
    return conn.execute("SELECT slot FROM vector WHERE hash = ? AND model = ?", (h, MODEL)).fetchone()[0]  # type: ignore[attr-defined]


def test_compaction_keeps_each_vector_with_its_own_text(tmp_path: Path) -> None:
    conn, hashes, raw = _filled(tmp_path / "index.db", 2048)
    with store.transaction(conn):
        conn.executemany("DELETE FROM vector WHERE hash = ? AND model = ?", [(h, MODEL) for h in hashes[1::2]])
    moved = hashes[1500]
    before_slot, before_gen = _slot_of(conn, moved), vectors.generation(conn)

    slots.compact(conn, MODEL)

    # Positive control: compaction really happened (the file holds only the live half, renumbered).
    assert slots.state(conn, MODEL)[1] == 1024
    assert _slot_of(conn, moved) != before_slot
    # A map from rows to slots cached under the old generation must not be served after it.
    assert vectors.generation(conn) != before_gen
    matrix, scales = slots.read(conn, MODEL)  # type: ignore[misc]
    for i in (0, 600, 1500, 2046):
        got = matrix[_slot_of(conn, hashes[i])].astype(np.float32) * scales[_slot_of(conn, hashes[i])]
        want = raw[i] / np.linalg.norm(raw[i])
        assert float(np.dot(got / np.linalg.norm(got), want)) > 0.99
