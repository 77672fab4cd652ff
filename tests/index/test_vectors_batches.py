"""The embedding pass (`vectors.backfill`) holds one batch, not every text: the same slots whatever its
batches, a peak that does not follow the texts' bytes, and no index worker alive while it runs. Real
stores, a real index and the shipped static model."""

from __future__ import annotations

import shutil
import sqlite3
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from bench.storegen import generate_store
from recollect import history
from recollect.config import load_config
from recollect.embed.factory import LazyStatic
from recollect.index import prepare, slots, store, vectors

APPEND = slots.append


@pytest.fixture
def unembedded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An index of 24 generated sessions without a vector yet (semantic search off for its sync)."""
    generated = generate_store(tmp_path / "opencode.db", sessions=24, seed=5).path
    monkeypatch.setenv("OPENCODE_DB", str(generated))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    monkeypatch.setenv("RECOLLECT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(prepare.WORKERS_ENV, "0")
    monkeypatch.setenv("RECOLLECT_EMBEDDINGS", "off")
    history.index(load_config())
    monkeypatch.delenv("RECOLLECT_EMBEDDINGS")
    return load_config().index_path


def todo(conn: sqlite3.Connection) -> list[tuple[bytes, str]]:
    return conn.execute(
        "SELECT hash, text FROM (SELECT hash, text FROM chunk WHERE hash NOTNULL UNION ALL "
        "SELECT card_hash, card_text FROM session WHERE card_hash NOTNULL) GROUP BY hash"
    ).fetchall()


def embedded(index: Path, monkeypatch: pytest.MonkeyPatch, *, batch: int, ready_rows: int) -> dict[str, Any]:
    """Embed `index` (a copy) with the static model, a third of its texts made ahead (`ready`), in
    batches of `batch` texts and `ready_rows` ready vectors; what it stored, and the appends it took."""
    monkeypatch.setattr(vectors, "BATCH", batch)
    monkeypatch.setattr(vectors, "READY_ROWS", ready_rows)
    model = LazyStatic()
    conn = store.connect(index)
    ahead = todo(conn)[::3]
    ready = dict(zip([h for h, _ in ahead], vectors.packed(model.embed([t for _, t in ahead])), strict=True))
    appends: list[int] = []

    def counted(*args: Any) -> None:
        appends.append(len(args[2]))
        APPEND(*args)

    monkeypatch.setattr(slots, "append", counted)
    report = vectors.backfill(conn, model, ready=ready)
    rows = conn.execute("SELECT hash, model, dim, slot FROM vector ORDER BY hash").fetchall()
    stored = {key: value.tobytes() for key, value in vectors.stored_vectors(conn).items()}
    conn.close()
    return {"report": report, "rows": rows, "vectors": stored, "appends": appends, "ahead": len(ahead), "left": ready}


@pytest.mark.usefixtures("semantic")
def test_the_pass_writes_the_same_slots_whatever_its_batches(
    unembedded: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copies = [tmp_path / "one.db", tmp_path / "many.db"]
    for copy in copies:
        shutil.copyfile(unembedded, copy)
    whole = embedded(copies[0], monkeypatch, batch=100_000, ready_rows=100_000)
    small = embedded(copies[1], monkeypatch, batch=7, ready_rows=5)
    texts = whole["report"].embedded
    assert texts > 100 and len(whole["rows"]) == texts and whole["left"] == {}  # positive control
    assert whole["appends"] == [whole["ahead"], texts - whole["ahead"]]  # one append each: ready, then made
    assert len(small["appends"]) > texts // 7 and max(small["appends"]) <= 7
    # The same vectors in the same slots: ready ones first, then the rest, each in the texts' order.
    assert small["report"].embedded == texts and small["left"] == {}
    assert small["rows"] == whole["rows"] and small["vectors"] == whole["vectors"]


@pytest.mark.usefixtures("semantic")
def test_the_pass_holds_one_batch_of_texts_not_every_text(unembedded: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors, "BATCH", 16)
    model = LazyStatic()
    conn = store.connect(unembedded)
    with store.transaction(conn):  # long chunks, as tool-heavy sessions have: 20,000 characters more each
        conn.execute("UPDATE chunk SET text = text || hex(zeroblob(10000)) WHERE hash NOTNULL")
    texts = todo(conn)
    model.embed([vectors.embed_text(t) for _, t in texts])  # loaded and warm before the measure
    total = sum(len(t.encode()) for _, t in texts)
    del texts
    tracemalloc.start()
    try:
        report = vectors.backfill(conn, model)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        conn.close()
    assert report.embedded > 100 and total > 2_000_000  # positive control: a pass with texts to hold
    # Before, every text was read into one list first: the peak was above `total`.
    assert peak < total / 4, (peak, total)


@pytest.mark.usefixtures("semantic")
def test_no_index_worker_is_alive_during_the_embedding_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    generated = generate_store(tmp_path / "opencode.db", sessions=12, seed=6).path
    monkeypatch.setenv("OPENCODE_DB", str(generated))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    monkeypatch.setenv(prepare.WORKERS_ENV, "1")
    children: dict[str, int] = {}

    def alive() -> int:
        return sum(len(kids.read_text().split()) for kids in Path("/proc/self/task").glob("*/children"))

    def progress(label: str, done: int, total: int) -> None:
        children[label] = max(children.get(label, 0), alive())

    report = history.index(load_config(), progress=progress)
    assert report.sources[0].sessions == 12 and report.semantic is not None and report.semantic.embedded
    assert children["opencode"] == 1  # positive control: the worker prepares sessions while they are read
    passes = {label: n for label, n in children.items() if label.startswith("embedding")}
    assert passes and set(passes.values()) == {0}, children
