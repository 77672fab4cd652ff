"""bench/index_content.py: two indexes of one store compare the same; a change to any part is caught there."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bench.index_content import VECTOR_GAP, differences, digest, main, vector_gap
from bench.storegen import generate_store
from recollect import history
from recollect.index.fts import fts_body


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_store(tmp_path_factory.mktemp("gen") / "opencode.db", sessions=8, seed=5, projects=2).path


def build(store: Path, where: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cold index of `store` in its own home `where` (in this process, no workers)."""
    monkeypatch.setenv("RECOLLECT_HOME", str(where))
    monkeypatch.setenv("OPENCODE_DB", str(store))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    monkeypatch.setenv("RECOLLECT_INDEX_WORKERS", "0")
    history.index()
    return where / "index.db"


@pytest.fixture
def pair(store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    return build(store, tmp_path / "a", monkeypatch), build(store, tmp_path / "b", monkeypatch)


def changed(index: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(index) as conn:
        conn.execute(sql, params)


def test_two_indexes_of_one_store_hold_the_same_and_each_change_is_named(pair: tuple[Path, Path]) -> None:
    a, b = pair
    first = digest(a)
    assert first["chunks"][0] > 20 and first["chunk_fts"][0] > 200 and first["sessions"][0] == 8
    assert differences(first, digest(b)) == []  # positive control: built twice, the same
    assert main([str(a), str(b)]) == 0

    changed(b, "UPDATE chunk SET text = text || ' more' WHERE id = (SELECT min(id) FROM chunk)")
    assert [d.split(":")[0] for d in differences(first, digest(b))] == ["chunks"]
    assert main([str(a), str(b)]) == 1

    changed(b, "UPDATE chunk SET text = substr(text, 1, length(text) - 5) WHERE id = (SELECT min(id) FROM chunk)")
    changed(b, "UPDATE session SET title = title || '!' WHERE sid = (SELECT min(sid) FROM session)")
    assert [d.split(":")[0] for d in differences(first, digest(b))] == ["cards"]

    changed(
        b, "UPDATE session SET title = substr(title, 1, length(title) - 1) WHERE sid = (SELECT min(sid) FROM session)"
    )
    assert differences(first, digest(b)) == []  # the title as it was
    changed(b, "UPDATE session SET message_count = message_count + 1 WHERE sid = (SELECT min(sid) FROM session)")
    assert [d.split(":")[0] for d in differences(first, digest(b))] == ["sessions"]


def test_fts_tokens_are_compared_by_the_chunk_they_belong_to(pair: tuple[Path, Path]) -> None:
    a, b = pair
    with sqlite3.connect(b) as conn:
        cid, text = conn.execute("SELECT id, text FROM chunk ORDER BY id LIMIT 1").fetchone()
        conn.execute("INSERT INTO chunk_fts(chunk_fts, rowid, body) VALUES ('delete', ?, ?)", (cid, fts_body(text)))
        conn.execute("INSERT INTO chunk_fts(rowid, body) VALUES (?, ?)", (cid, fts_body(text + " extraword")))
    assert [d.split(":")[0] for d in differences(digest(a), digest(b))] == ["chunk_fts"]


def test_the_same_tokens_under_other_row_ids_are_the_same(pair: tuple[Path, Path]) -> None:
    """Row ids are write order, not content: the chunks and their FTS rows renumbered compare the same."""
    a, b = pair
    with sqlite3.connect(b) as conn:
        rows = conn.execute("SELECT id, text FROM chunk").fetchall()
        for cid, text in rows:
            conn.execute("INSERT INTO chunk_fts(chunk_fts, rowid, body) VALUES ('delete', ?, ?)", (cid, fts_body(text)))
        conn.execute("UPDATE chunk SET id = id + 100000")
        conn.executemany(
            "INSERT INTO chunk_fts(rowid, body) VALUES (?, ?)", [(c + 100000, fts_body(t)) for c, t in rows]
        )
    assert differences(digest(a), digest(b)) == []


def test_vectors_compare_by_text_and_value(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, semantic: None
) -> None:
    a, b = build(store, tmp_path / "a", monkeypatch), build(store, tmp_path / "b", monkeypatch)
    assert digest(a)["vectors"][0] > 20
    assert differences(digest(a), digest(b)) == [] and vector_gap(a, b) <= VECTOR_GAP  # positive control
    slots = sorted((b.parent / "index.db.vectors").glob("*static*.slots"))
    assert slots, "no vector file of the static model"
    data = bytearray(slots[0].read_bytes())
    data[:64] = bytes((x + 40) % 256 for x in data[:64])  # the first vector's components, far off
    slots[0].write_bytes(bytes(data))
    assert vector_gap(a, b) > 10 * VECTOR_GAP
    assert main([str(a), str(b)]) == 1
    shutil.rmtree(b.parent)
