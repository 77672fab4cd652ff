"""A first index reads newest first, so during a long first index the newest sessions are searchable first."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.index import sync


def test_the_first_index_commits_the_newest_sessions_first(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    monkeypatch.setattr(sync, "BATCH_SESSIONS", 3)
    con = sqlite3.connect(sample_db)
    by_age = [r[0] for r in con.execute("SELECT id FROM session ORDER BY time_updated DESC, id")]
    con.close()
    assert len(by_age) == 12 and len(set(by_age)) == 12
    index = load_config().index_path
    seen: list[list[str]] = []

    def progress(source: str, done: int, total: int) -> None:
        # The bar moves a session at a time; at each batch's end (3) it is told after the commit.
        if done and (done % 3 == 0 or done == total) and index.exists():  # what another process can search
            with sqlite3.connect(f"{index.resolve().as_uri()}?mode=ro", uri=True) as reader:
                seen.append([r[0] for r in reader.execute("SELECT native_id FROM session")])

    history.index(progress=progress)
    assert len(seen) == 4 and len(seen[-1]) == 12  # positive control: every batch was observed
    assert set(seen[0]) == set(by_age[:3])  # the first batch searchable: the three newest
    assert set(seen[1]) == set(by_age[:6])
