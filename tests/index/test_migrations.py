"""An index written by an earlier schema is migrated in place and ends up equal to a fresh one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recollect.index import chunks, fts, store
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


def test_an_index_of_schema_10_recounts_turns_and_titles_slash_sessions_on_its_next_sync(
    sample_db: Path, tmp_path: Path
) -> None:
    claude = tmp_path / "claude" / "projects" / "-Users-m"
    claude.mkdir(parents=True)
    data = Path(__file__).resolve().parent.parent / "data" / "claude-code"
    for name in ("e1f813f4-3f9f-4a6f-92e7-39393c85268f", "abc757d1-3da3-42fb-bb7b-ffa293a4ba29", "agent-abc3cb6"):
        shutil.copy2(data / f"{name}.jsonl", claude / f"{name}.jsonl")
    specs = [
        SourceSpec(id="opencode", kind="opencode", path=sample_db),
        SourceSpec(id="claude", kind="claude-code", path=tmp_path / "claude"),
    ]
    fresh = store.connect(tmp_path / "fresh.db")
    sync(fresh, specs)
    old = store.connect(tmp_path / "old.db")
    sync(old, specs)
    # What schema 10 stored: a sub-agent's prompt counted as a turn, a session of commands only untitled.
    old.execute("UPDATE session SET turns = 1 WHERE parent_id IS NOT NULL")
    old.execute("UPDATE session SET title = '' WHERE title = '/login'")
    fts.refill(old)  # its card's words as schema 10 indexed them
    old.execute("DELETE FROM migrations WHERE name = '011_turns_and_command_titles'")
    old.execute("PRAGMA user_version=10")
    old.close()
    counts = "SELECT native_id, title, turns FROM session ORDER BY native_id"
    migrated = store.connect(tmp_path / "old.db")
    assert migrated.execute(counts).fetchall() != fresh.execute(counts).fetchall()  # positive control
    report = sync(migrated, specs)
    # Re-read: the two OpenCode children, the Claude Code agent and the two Claude Code sessions stored
    # without a title (the one of commands only, and one its first line names), nothing else.
    assert sorted((s.id, s.updated) for s in report.sources) == [("claude", 3), ("opencode", 2)]
    assert migrated.execute(counts).fetchall() == fresh.execute(counts).fetchall()
    assert dump(migrated) == dump(fresh)
    assert migrated.execute("SELECT turns FROM session WHERE native_id = 'agent-abc3cb6'").fetchone() == (0,)


def test_an_index_of_schema_11_rereads_the_sessions_whose_tool_error_was_cut(
    sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claude = tmp_path / "claude" / "projects" / "-Users-m"
    claude.mkdir(parents=True)
    data = Path(__file__).resolve().parent.parent / "data" / "claude-code"
    # 343e3472: an ssh whose 2,536-character error ends "Permission denied (publickey,keyboard-interactive)."
    for name in ("343e3472-b9b6-4561-ade0-21d1a4730c11", "e1f813f4-3f9f-4a6f-92e7-39393c85268f"):
        shutil.copy2(data / f"{name}.jsonl", claude / f"{name}.jsonl")
    specs = [
        SourceSpec(id="opencode", kind="opencode", path=sample_db),
        SourceSpec(id="claude", kind="claude-code", path=tmp_path / "claude"),
    ]
    fresh = store.connect(tmp_path / "fresh.db")
    sync(fresh, specs)
    tail = "SELECT count(*) FROM chunk WHERE class = 'tool_error' AND text LIKE '%keyboard-interactive%'"
    assert fresh.execute(tail).fetchone() == (1,)  # the error's last line is indexed now
    with monkeypatch.context() as patch:  # what schema 11 stored: a tool's error cut at 2,000 characters
        patch.setattr(chunks, "redacted_excerpt", lambda text: chunks.redact_head(text, 2_000))
        old = store.connect(tmp_path / "old.db")
        sync(old, specs)
    old.execute("DELETE FROM migrations WHERE name = '012_error_tails'")
    old.execute("PRAGMA user_version=11")
    old.close()
    migrated = store.connect(tmp_path / "old.db")
    assert migrated.execute(tail).fetchone() == (0,)  # positive control: the old index lacks it
    report = sync(migrated, specs)
    assert sorted((s.id, s.updated) for s in report.sources) == [("claude", 1), ("opencode", 0)]  # that one only
    assert migrated.execute(tail).fetchone() == (1,)
    assert dump(migrated) == dump(fresh)
