"""The session counts every search takes scan the narrow `session_scope` index (migration 009), not the
session rows, whose cards make them wide; the counts are the same either way."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from recollect.index import store
from recollect.index.sync import sync
from recollect.search.scope import Filters, counts_query, session_counts
from recollect.sources.base import SourceSpec


def _plan(conn: sqlite3.Connection, filters: Filters) -> str:
    sql, params = counts_query(filters)  # the query session_counts runs, not a copy of it
    rows = conn.execute(f"EXPLAIN QUERY PLAN {sql}", params).fetchall()
    return " ".join(str(r[-1]) for r in rows)


def test_the_session_counts_scan_the_scope_index(sample_db: Path, tmp_path: Path) -> None:
    conn = store.connect(tmp_path / "index.db")
    sync(conn, [SourceSpec(id="opencode", kind="opencode", path=sample_db)])
    filter_sets = [
        Filters(hidden=frozenset()),
        Filters(hidden=frozenset({("opencode", "ses_x")}), since=0),
        Filters(scope="directory", directory="/tmp", project_root="/tmp", hidden=frozenset(), agents=["opencode"]),
    ]
    with_index = [session_counts(conn, f) for f in filter_sets]
    assert all("COVERING INDEX session_scope" in _plan(conn, f) for f in filter_sets)
    conn.execute("DROP INDEX session_scope")  # positive control: the plan names the table scan without it
    conn.close()
    conn = sqlite3.connect(tmp_path / "index.db")  # a new connection: no statement planned with the index
    assert all("session_scope" not in _plan(conn, f) for f in filter_sets)
    assert [session_counts(conn, f) for f in filter_sets] == with_index
    assert with_index[0].total == 12 and with_index[0].carded > 0
