"""A batch's FTS rows are written after its sessions' savepoints (rows.write_fts): the same rows as one
session at a time, and none for a session that failed to store."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bench.index_content import differences, digest
from bench.storegen import generate_store
from recollect import history
from recollect.config import load_config
from recollect.index import rows, store, vectors
from recollect.sources import configured_specs
from recollect.sources.base import open_source


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_store(tmp_path_factory.mktemp("gen") / "opencode.db", sessions=8, seed=9, projects=2).path


@pytest.fixture(autouse=True)
def world(generated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENCODE_DB", str(generated))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    monkeypatch.setenv("RECOLLECT_INDEX_WORKERS", "0")


def fts_docs(index: Path, table: str) -> set[int]:
    with sqlite3.connect(f"file:{index}?mode=ro", uri=True) as conn:
        conn.execute(f"CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, {table}, instance)")
        return {doc for (doc,) in conn.execute("SELECT DISTINCT doc FROM temp.v")}


def ids(index: Path, sql: str) -> set[int]:
    with sqlite3.connect(f"file:{index}?mode=ro", uri=True) as conn:
        return {row[0] for row in conn.execute(sql)}


def test_the_batch_writes_the_rows_one_session_at_a_time_would(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECOLLECT_HOME", str(tmp_path / "batched"))
    history.index()
    batched = load_config().index_path
    # The same sessions stored one at a time, each with its own FTS rows (no batch).
    monkeypatch.setenv("RECOLLECT_HOME", str(tmp_path / "one"))
    config = load_config()
    source = open_source(configured_specs(config)[0])
    sessions = sorted(source.read_sessions(list(source.scan().stamps)), key=lambda s: -s.time_updated)
    conn = store.connect(config.index_path)
    with store.transaction(conn):
        for session in sessions:
            rows.insert_session(conn, session, "w", None)
    conn.close()
    first, second = digest(batched), digest(config.index_path)
    assert first["chunk_fts"][0] > 1000 and first["card_fts"][0] > 50
    different = differences(first, second)
    # The watermarks and roots differ (the sync's own); every row of chunks and FTS is the same.
    assert different == [d for d in different if d.startswith("sessions:")]
    assert first["chunk_fts"] == second["chunk_fts"] and first["card_fts"] == second["card_fts"]
    assert first["chunks"] == second["chunks"] and first["cards"] == second["cards"]


def test_a_session_that_fails_to_store_leaves_no_fts_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECOLLECT_HOME", str(tmp_path / "ok"))
    history.index()
    ok = load_config().index_path
    chunks = ids(ok, "SELECT id FROM chunk")
    assert fts_docs(ok, "chunk_fts") == chunks and len(chunks) > 20  # positive control: every chunk's rows
    assert fts_docs(ok, "card_fts") == ids(ok, "SELECT sid FROM session")

    real = vectors.bump_generation
    calls = {"n": 0}

    def third_fails(conn: sqlite3.Connection) -> None:
        calls["n"] += 1
        if calls["n"] == 3:  # the third session, after its session and chunk rows were written
            raise sqlite3.OperationalError("disk I/O error (the test's)")
        real(conn)

    monkeypatch.setattr(vectors, "bump_generation", third_fails)
    monkeypatch.setenv("RECOLLECT_HOME", str(tmp_path / "one-bad"))
    report = history.index()
    bad = load_config().index_path
    assert len(report.sources[0].bad) == 1 and "disk I/O error" in report.sources[0].bad[0]
    failed = report.sources[0].bad[0].split(":")[0]
    bad = load_config().index_path
    assert len(ids(bad, "SELECT sid FROM session")) == 7
    # What the index holds is the full index less that session, FTS token by token: no row of it is
    # left, and none is written under the row ids the sessions after it took.
    monkeypatch.setattr(vectors, "bump_generation", real)
    expected = tmp_path / "expected.db"
    shutil.copyfile(ok, expected)
    conn = store.connect(expected)
    with store.transaction(conn):
        rows.delete_sessions(conn, ids(expected, f"SELECT sid FROM session WHERE native_id = '{failed}'"))
    conn.close()
    want, got = digest(expected), digest(bad)
    assert want["sessions"][0] == 7
    assert differences(want, got) == []
