"""An index written by an earlier schema is migrated in place and ends up equal to a fresh one."""

from __future__ import annotations

from pathlib import Path

from recollect.index import store
from recollect.index.sync import sync
from recollect.sources.base import SourceSpec
from recollect.text.tokenize import FTS_TOKENIZE, tokenize
from tests.index.test_sync import dump


def test_populated_schema_2_index_migrates_and_resyncs_to_a_fresh_result(sample_db: Path, tmp_path: Path) -> None:
    specs = [SourceSpec(id="opencode", kind="opencode", path=sample_db)]
    old = store.connect(tmp_path / "old.db")
    sync(old, specs)
    # Turn it back into what schema 2 wrote: no decisions column, a six-column card index.
    old.execute("DROP TABLE card_fts")
    old.execute(
        "CREATE VIRTUAL TABLE card_fts USING fts5(title, head, idents, files, errors, outcome, "
        f"content='', tokenize=\"{FTS_TOKENIZE}\")"
    )
    rows = old.execute("SELECT sid, title, first_human, identifiers, files, errors, last_outcome FROM session")
    old.executemany(
        "INSERT INTO card_fts(rowid, title, head, idents, files, errors, outcome) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(r[0], *(" ".join(tokenize(v or "")) for v in r[1:])) for r in rows.fetchall()],
    )
    old.execute("ALTER TABLE session DROP COLUMN decisions")
    old.execute("DELETE FROM migrations WHERE name = '003_decisions'")
    old.execute("PRAGMA user_version=2")
    old.close()

    migrated = store.connect(tmp_path / "old.db")
    assert migrated.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION
    report = sync(migrated, specs)
    assert report.sources[0].updated == 12  # every card re-read to find its decisions
    assert sync(migrated, specs).changed == 0
    fresh = store.connect(tmp_path / "fresh.db")
    sync(fresh, specs)
    assert dump(migrated) == dump(fresh)  # includes the card index's term statistics
    decided = "SELECT count(*) FROM session WHERE decisions != ''"
    assert migrated.execute(decided).fetchone()[0] == fresh.execute(decided).fetchone()[0]


def test_index_of_another_tokenizer_version_is_retokenized(sample_db: Path, tmp_path: Path) -> None:
    import sqlite3

    specs = [SourceSpec(id="opencode", kind="opencode", path=sample_db)]
    path = tmp_path / "index.db"
    conn = store.connect(path)
    sync(conn, specs)
    # Simulate FTS rows made by an older tokenizer: wrong tokens for one card, and an old version mark.
    conn.execute("INSERT INTO card_fts(card_fts) VALUES('delete-all')")
    conn.execute("INSERT INTO card_fts(rowid, title) SELECT sid, 'stale tokens' FROM session")
    conn.execute("UPDATE meta SET value = '0' WHERE key = 'tokenizer'")
    conn.close()
    reopened = store.connect(path)  # notices the version and re-tokenizes from the stored text
    raw = sqlite3.connect(sample_db)
    raw.execute("UPDATE event_sequence SET seq = seq + 1")  # every session changes: every card is replaced
    raw.commit()
    assert sync(reopened, specs).sources[0].updated == 12
    fresh = store.connect(tmp_path / "fresh.db")
    sync(fresh, specs)
    assert dump(reopened) == dump(fresh)
