"""A sync holds sessions by bytes, not by count: it stores what it read once the text adds up."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from recollect import history
from recollect.config import load_config
from recollect.index import sync as sync_mod


def _contents(index: Path) -> tuple[list[Any], list[Any]]:
    conn = sqlite3.connect(index)
    sessions = conn.execute("SELECT native_id, watermark, title FROM session ORDER BY native_id").fetchall()
    chunks = conn.execute(
        "SELECT s.native_id, c.text FROM chunk c JOIN session s ON s.sid = c.sid ORDER BY 1, 2"
    ).fetchall()
    conn.close()
    return sessions, chunks


def test_a_tiny_byte_budget_stores_one_session_at_a_time_and_indexes_the_same(
    sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history.index(load_config())
    expected = _contents(load_config().index_path)
    assert len(expected[0]) == 12 and expected[1]  # positive control: a real index

    held: list[int] = []
    original = sync_mod._store_batch

    def recording(conn, source, sessions, marks, plan, report, *rest):  # type: ignore[no-untyped-def]
        held.append(len(sessions))
        return original(conn, source, sessions, marks, plan, report, *rest)

    monkeypatch.setattr(sync_mod, "BATCH_BYTES", 1)
    monkeypatch.setattr(sync_mod, "_store_batch", recording)
    monkeypatch.setenv("RECOLLECT_HOME", str(tmp_path / "other"))
    history.index(load_config())
    assert max(held) == 1 and sum(held) == 12  # never more than one session held
    assert _contents(load_config().index_path) == expected
