"""Reconciling sync against real OpenCode stores, step by step through 39 real checkpoints."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.index import store
from recollect.index.sync import sync
from recollect.search.rank import search
from recollect.search.scope import Filters
from recollect.sources.base import SourceSpec
from tests.conftest import CHECKPOINTS, file_hashes, unpack_checkpoint

STEPS = len(list(CHECKPOINTS.glob("*.db.gz")))


def spec(path: Path) -> list[SourceSpec]:
    return [SourceSpec(id="opencode", kind="opencode", path=path)]


def dump(conn: sqlite3.Connection) -> dict[str, object]:
    """Everything a search can see, independent of row ids."""
    sessions = sorted(
        conn.execute(
            "SELECT source_id, native_id, watermark, title, directory, parent_id, root_id, first_human, identifiers, "
            "files, errors, last_outcome, tools, message_count, chunk_count FROM session"
        ).fetchall()
    )
    chunks = sorted(
        conn.execute(
            "SELECT s.native_id, c.message_id, c.part_id, c.ord, c.role, c.class, c.author, c.tool, c.time, c.text "
            "FROM chunk c JOIN session s ON s.sid = c.sid"
        ).fetchall(),
        key=repr,
    )
    vocab = {}
    for table in ("chunk_fts", "card_fts"):
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.v_{table} USING fts5vocab(main, {table}, 'row')")
        vocab[table] = sorted(conn.execute(f"SELECT term, doc, cnt FROM temp.v_{table}").fetchall())
    return {"sessions": sessions, "chunks": chunks, "vocab": vocab}


def test_step_by_step_sync_equals_fresh_index_at_every_checkpoint(tmp_path: Path) -> None:
    live = tmp_path / "live" / "opencode.db"
    incremental = store.connect(tmp_path / "incremental.db")
    changed_steps = 0
    for n in range(1, STEPS + 1):
        unpack_checkpoint(n, live)  # the store evolves in place, as OpenCode's would
        report = sync(incremental, spec(live))
        assert all(s.status == "ok" for s in report.sources), report.summary()
        changed_steps += report.changed > 0
        fresh = store.connect(tmp_path / f"fresh-{n}.db")
        sync(fresh, spec(live))
        assert dump(incremental) == dump(fresh), f"checkpoint {n} differs"
        fresh.close()
        (tmp_path / f"fresh-{n}.db").unlink()
    assert changed_steps >= 30  # most steps change something; the comparison is not vacuous


def test_nothing_changed_means_nothing_written(sample_db: Path) -> None:
    conn = store.connect(load_config().index_path)
    first = sync(conn, spec(sample_db))
    assert first.sources[0].added == 12
    second = sync(conn, spec(sample_db))
    assert second.changed == 0 and second.sources[0].sessions == 12


def test_deleted_session_is_dropped_with_its_words(tmp_path: Path) -> None:
    live = tmp_path / "live" / "opencode.db"
    conn = store.connect(tmp_path / "index.db")
    unpack_checkpoint(31, live)
    sync(conn, spec(live))
    assert [h.title for h in search(conn, "doomed").hits] == ["doomed session"]  # positive control
    unpack_checkpoint(32, live)  # OpenCode deleted it: rows and events gone, no tombstone
    report = sync(conn, spec(live))
    assert report.sources[0].removed == 1
    assert search(conn, "doomed").hits == []
    assert conn.execute("SELECT count(*) FROM session WHERE title = 'doomed session'").fetchone()[0] == 0


def test_deleted_parent_takes_its_child(tmp_path: Path) -> None:
    live = tmp_path / "live" / "opencode.db"
    conn = store.connect(tmp_path / "index.db")
    unpack_checkpoint(33, live)
    sync(conn, spec(live))
    before = conn.execute("SELECT count(*) FROM session").fetchone()[0]
    unpack_checkpoint(34, live)
    report = sync(conn, spec(live))
    assert report.sources[0].removed == 2
    assert conn.execute("SELECT count(*) FROM session").fetchone()[0] == before - 2


def test_removed_message_text_disappears(tmp_path: Path) -> None:
    live = tmp_path / "live" / "opencode.db"
    conn = store.connect(tmp_path / "index.db")
    unpack_checkpoint(25, live)
    sync(conn, spec(live))
    fork = Filters(sessions=["ses_dd4b41176ffed7PjKpOBnGy0nf"], scope="session")
    assert search(conn, "missing reported", fork).hits  # positive control: the fork copied that message
    unpack_checkpoint(26, live)  # DELETE /session/:id/message/:mid on the fork
    sync(conn, spec(live))
    texts = [
        r[0]
        for r in conn.execute(
            "SELECT c.text FROM chunk c JOIN session s ON s.sid = c.sid WHERE s.native_id = ?",
            ("ses_dd4b41176ffed7PjKpOBnGy0nf",),
        )
    ]
    assert not any("The file is missing, the read tool reported an error" in t for t in texts)
    assert texts  # the rest of the session is still there


def test_secret_in_tool_input_never_reaches_the_sidecar(sample_db: Path) -> None:
    secret = "sk-proj-Zq9" + "x" * 40
    marker = "plantedmarkerword"
    raw = sqlite3.connect(sample_db)
    pid, data, sid = raw.execute(
        'SELECT id, data, session_id FROM part WHERE data LIKE \'%"tool":"bash"%\' LIMIT 1'
    ).fetchone()
    raw.execute(
        "UPDATE part SET data = ? WHERE id = ?",
        (data.replace('"command":"', f'"command":"{marker} OPENAI_API_KEY={secret} '), pid),
    )
    raw.execute("UPDATE event_sequence SET seq = seq + 1 WHERE aggregate_id = ?", (sid,))
    raw.commit()
    raw.close()
    config = load_config()
    history.index(config)
    blob = b"".join(p.read_bytes() for p in config.index_path.parent.glob("index.db*"))
    assert marker.encode() in blob  # positive control: the planted text was indexed
    assert secret.encode() not in blob
    assert b"sk-proj-Zq9" not in blob


def test_index_never_writes_the_store_and_is_private(sample_db: Path) -> None:
    before = file_hashes(sample_db)
    config = load_config()
    history.index(config)
    assert file_hashes(sample_db) == before
    assert (config.index_path.stat().st_mode & 0o777) == 0o600


def test_unreadable_store_keeps_what_was_indexed(sample_db: Path) -> None:
    config = load_config()
    history.index(config)
    with store.connect(config.index_path) as conn:
        assert conn.execute("SELECT count(*) FROM session").fetchone()[0] == 12
    sample_db.write_bytes(sample_db.read_bytes()[:4096])  # truncated
    report = history.index(config)
    assert report.sources[0].status in ("corrupt", "unreadable")
    assert "nothing was changed" in report.sources[0].message or report.sources[0].message
    sample_db.unlink()
    report = history.index(config)
    assert report.sources[0].status == "missing"
    conn = store.connect(config.index_path)
    assert conn.execute("SELECT count(*) FROM session").fetchone()[0] == 12  # nothing indexed before is lost
    assert search(conn, "readme").hits


def test_locked_store_is_reported_and_nothing_lost(sample_db: Path) -> None:
    config = load_config()
    history.index(config)
    holder = sqlite3.connect(sample_db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        report = history.index(config)
    finally:
        holder.execute("ROLLBACK")
    assert report.sources[0].status == "locked" and "locked" in report.summary()
    assert history.search("readme", sync_first=False).hits


def test_lease_lets_one_writer_in_and_expires(sample_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    first, second = store.connect(path), store.connect(path)
    lease = store.Lease(first)
    assert lease.acquire()
    busy = sync(second, spec(sample_db))
    assert busy.lease_busy and second.execute("SELECT count(*) FROM session").fetchone()[0] == 0
    first.execute("UPDATE lease SET expires = 0")  # the holder died (kill -9): its heartbeat stops
    taken = sync(second, spec(sample_db))
    assert not taken.lease_busy and taken.sources[0].added == 12
    with pytest.raises(store.IndexUnavailable):
        lease.renew()  # the old holder must notice it lost the lease


def test_unconfigured_source_leaves_the_index(sample_db: Path, tmp_path: Path) -> None:
    conn = store.connect(tmp_path / "index.db")
    other = tmp_path / "other.db"
    shutil.copyfile(sample_db, other)
    sync(conn, [*spec(sample_db), SourceSpec(id="second", kind="opencode", path=other)])
    assert conn.execute("SELECT count(DISTINCT source_id) FROM session").fetchone()[0] == 2
    report = sync(conn, spec(sample_db))
    assert report.removed_sources == ["second"]
    assert conn.execute("SELECT count(DISTINCT source_id) FROM session").fetchone()[0] == 1


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    store.connect(path).execute(f"PRAGMA user_version={store.SCHEMA_VERSION + 1}")
    with pytest.raises(store.IndexUnavailable, match="newer recollect"):
        store.connect(path)


def test_missing_database_beside_its_storage_tree_keeps_the_index(sample_db: Path) -> None:
    storage = sample_db.parent / "storage"
    (storage / "session_diff").mkdir(parents=True)
    (storage / "migration").write_text("2")  # what a SQLite-era OpenCode leaves there
    config = load_config()
    assert history.index(config).sources[0].sessions == 12  # positive control
    sample_db.unlink()
    report = history.index(config)
    assert report.sources[0].status == "missing"
    assert history.search("readme", sync_first=False).hits


def test_a_session_that_cannot_be_read_is_kept_not_taken_for_deleted(
    sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from recollect.sources.opencode import OpenCodeSource

    conn = store.connect(tmp_path / "index.db")
    first = sync(conn, spec(sample_db))
    victim = "ses_dd4b49e37ffeypNpHy09J5kHaD"
    before = conn.execute("SELECT count(*) FROM chunk c JOIN session s ON s.sid = c.sid WHERE native_id = ?", (victim,))
    chunks = before.fetchone()[0]
    assert first.sources[0].sessions == 12 and chunks > 0
    raw = sqlite3.connect(sample_db)
    raw.execute("UPDATE event_sequence SET seq = seq + 1 WHERE aggregate_id = ?", (victim,))  # it changed
    raw.commit()
    original = OpenCodeSource.read_sessions

    def failing(self: OpenCodeSource, ids):  # type: ignore[no-untyped-def]
        for session in original(self, ids):
            if session.id == victim:
                self.unreadable[victim] = "Permission denied"  # as a JSONL source records an OSError
                continue
            yield session

    monkeypatch.setattr(OpenCodeSource, "read_sessions", failing)
    report = sync(conn, spec(sample_db))
    assert report.sources[0].removed == 0 and report.sources[0].sessions == 12
    assert "unreadable this time, so kept as indexed: 1 session (first: " in report.summary()  # no "1 ... were"
    kept = conn.execute("SELECT count(*) FROM chunk c JOIN session s ON s.sid = c.sid WHERE native_id = ?", (victim,))
    assert kept.fetchone()[0] == chunks
    monkeypatch.setattr(OpenCodeSource, "read_sessions", original)
    retried = sync(conn, spec(sample_db))  # readable again: the change is taken in
    assert retried.sources[0].updated == 1 and "unreadable" not in retried.summary()


def test_jsonl_sources_record_what_they_could_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recollect.sources import claude_code

    projects = tmp_path / ".claude" / "projects" / "-home-dev-work-app"
    projects.mkdir(parents=True)
    line = '{"type":"user","sessionId":"s1","uuid":"u1","timestamp":"2026-01-01T00:00:00Z","cwd":"/home/dev/work/app",'
    (projects / "s1.jsonl").write_text(line + '"message":{"role":"user","content":"hello"}}\n')
    src = claude_code.ClaudeCodeSource(SourceSpec(id="claude", kind="claude-code", path=tmp_path / ".claude"))
    ids = list(src.scan().stamps)
    assert [s.id for s in src.read_sessions(ids)] == ["s1"] and src.unreadable == {}  # positive control

    def denied(*args: object) -> None:
        raise PermissionError("Permission denied")

    monkeypatch.setattr(src, "_read", denied)
    assert list(src.read_sessions(ids)) == [] and src.unreadable == {"s1": "Permission denied"}


def test_a_mistyped_store_path_forgets_nothing(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config()
    assert history.index(config).sources[0].sessions == 12
    # positive control: a store really moved is re-indexed from where it is now
    moved = sample_db.parent.parent / "moved" / "opencode.db"
    moved.parent.mkdir()
    shutil.copyfile(sample_db, moved)
    monkeypatch.setenv("OPENCODE_DB", str(moved))
    report = history.index(load_config()).sources[0]
    assert report.added == 12 and any("store moved" in p for p in report.problems), report
    # a path mistyped: reported as missing, and the index keeps every session of the store it knows
    monkeypatch.setenv("OPENCODE_DB", str(moved.parent / "opencode.bd"))
    report = history.index(load_config()).sources[0]
    assert report.status == "missing" and report.sessions == 12 and report.removed == 0, report
    assert not any("store moved" in p for p in report.problems), report
    assert history.search("readme", sync_first=False).hits
    # typed right again: nothing to re-index, nothing was lost
    monkeypatch.setenv("OPENCODE_DB", str(moved))
    report = history.index(load_config()).sources[0]
    assert (report.added, report.removed, report.sessions) == (0, 0, 12), report
    assert not any("store moved" in p for p in report.problems), report


def _write_in_place(writer: sqlite3.Connection, checkpoint: Path) -> None:
    """What OpenCode wrote from the store's state to `checkpoint`, written in place, in one transaction."""
    writer.execute("ATTACH ? AS later", (str(checkpoint),))
    writer.execute("BEGIN IMMEDIATE")
    for (table,) in writer.execute("SELECT name FROM later.sqlite_master WHERE type = 'table'").fetchall():
        writer.execute(f"DELETE FROM main.'{table}'")
        writer.execute(f"INSERT INTO main.'{table}' SELECT * FROM later.'{table}'")
    writer.execute("COMMIT")
    writer.execute("DETACH later")


def _hold_a_write(writer: sqlite3.Connection) -> None:
    """The next change OpenCode is writing: a write transaction held open (rolled back by the caller)."""
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM todo")


def test_a_store_written_while_it_is_indexed_costs_nothing_and_the_next_sync_catches_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenCode runs on while we index, writing in place what it wrote from one real checkpoint to the next:
    after our scan (26) it writes 28 (the fork's part deleted and another patched), after our read 30 (the
    fork archived, the first session renamed), and it holds a write transaction all the while. Nothing
    fails, what was read is stored under the marks the scan saw (never newer than what was read), and the
    next sync reads again the two sessions that changed since that scan, not one more, and makes the index
    a fresh one's."""
    from recollect.sources.opencode import OpenCodeSource

    live = unpack_checkpoint(24, tmp_path / "live" / "opencode.db")
    writer = sqlite3.connect(live, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")  # as OpenCode keeps its store
    conn = store.connect(tmp_path / "index.db")
    sync(conn, spec(live))
    _write_in_place(writer, unpack_checkpoint(26, tmp_path / "26.db"))  # what the next sync's scan sees
    scan, read_sessions = OpenCodeSource.scan, OpenCodeSource.read_sessions

    def scan_then_write(self: OpenCodeSource):  # type: ignore[no-untyped-def]
        found = scan(self)
        _write_in_place(writer, unpack_checkpoint(28, tmp_path / "28.db"))
        _hold_a_write(writer)
        return found

    def read_then_write(self: OpenCodeSource, ids):  # type: ignore[no-untyped-def]
        yield from read_sessions(self, ids)
        writer.execute("ROLLBACK")
        _write_in_place(writer, unpack_checkpoint(30, tmp_path / "30.db"))
        _hold_a_write(writer)

    monkeypatch.setattr(OpenCodeSource, "scan", scan_then_write)
    monkeypatch.setattr(OpenCodeSource, "read_sessions", read_then_write)
    try:
        report = sync(conn, spec(live)).sources[0]
    finally:
        writer.execute("ROLLBACK")
    monkeypatch.setattr(OpenCodeSource, "scan", scan)
    monkeypatch.setattr(OpenCodeSource, "read_sessions", read_sessions)
    assert (report.status, report.added, report.updated, report.problems) == ("ok", 1, 0, []), report
    fresh = store.connect(tmp_path / "fresh.db")
    sync(fresh, spec(live))
    assert dump(conn) != dump(fresh)  # positive control: the store changed under the sync
    caught_up = sync(conn, spec(live)).sources[0]
    assert (caught_up.status, caught_up.added, caught_up.updated, caught_up.removed) == ("ok", 0, 2, 0), caught_up
    assert dump(conn) == dump(fresh)


def test_a_store_locked_between_scan_and_read_is_reported_and_nothing_lost(
    sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenCode takes its store's exclusive lock (a rollback journal's commit) after our scan listed a changed
    session: the sync says the store is locked, keeps every session as indexed, and the next one reads it."""
    from recollect.sources.opencode import OpenCodeSource

    conn = store.connect(tmp_path / "index.db")
    assert sync(conn, spec(sample_db)).sources[0].status == "ok"
    before = dump(conn)
    with sqlite3.connect(sample_db) as writer:  # a rename, as OpenCode records it
        sid = writer.execute("SELECT id FROM session ORDER BY id LIMIT 1").fetchone()[0]
        writer.execute("UPDATE session SET title = 'renamed while locked' WHERE id = ?", (sid,))
        writer.execute("UPDATE event_sequence SET seq = seq + 1 WHERE aggregate_id = ?", (sid,))
    holder = sqlite3.connect(sample_db, isolation_level=None)
    scan = OpenCodeSource.scan

    def scan_then_lock(self: OpenCodeSource):  # type: ignore[no-untyped-def]
        found = scan(self)
        holder.execute("BEGIN EXCLUSIVE")
        return found

    monkeypatch.setattr(OpenCodeSource, "scan", scan_then_lock)
    try:
        report = sync(conn, spec(sample_db)).sources[0]
    finally:
        holder.execute("ROLLBACK")
    monkeypatch.setattr(OpenCodeSource, "scan", scan)
    assert report.status == "locked" and "locked" in report.message, report
    assert (report.added, report.updated, report.removed) == (0, 0, 0) and dump(conn) == before
    again = sync(conn, spec(sample_db)).sources[0]
    assert (again.status, again.updated) == ("ok", 1), again
    titles = [r[0] for r in conn.execute("SELECT title FROM session WHERE native_id = ?", (sid,))]
    assert titles == ["renamed while locked"]


def test_a_sync_that_finds_the_index_held_says_who_is_writing(sample_db: Path, tmp_path: Path) -> None:
    """A new user runs `recollect index` right after OpenCode exits, while the plugin's sync of that session
    holds the index: the summary names that process, not only 'another process'."""
    path = tmp_path / "index.db"
    first, second = store.connect(path), store.connect(path)
    lease = store.Lease(first)
    assert lease.acquire()
    busy = sync(second, spec(sample_db))
    assert busy.lease_busy  # control: a holder that says no role
    assert busy.summary().startswith(f"another recollect process (pid {os.getpid()}) is writing"), busy.summary()
    lease.release()
    store.take_leases_as("plugin")  # what the plugin's idle sync (integrations/idlework) says at its start
    try:
        plugin = store.Lease(first)
    finally:
        store.take_leases_as("")
    assert plugin.acquire()
    said = sync(second, spec(sample_db)).summary()
    assert said.startswith(f"the OpenCode plugin's sync after a session (pid {os.getpid()}) is writing"), said
    assert "wrote nothing" in said and "recollect index --wait" in said
    plugin.release()
    assert not sync(second, spec(sample_db)).lease_busy


def test_the_plugins_idle_sync_takes_the_lease_as_the_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    from recollect.integrations import idlework

    roles: list[str] = []
    monkeypatch.setattr(idlework, "coalesced_sync", lambda data_dir, index: roles.append(store.holder_role) or 0)
    monkeypatch.setattr(store, "holder_role", "")
    assert idlework.main(["sync"]) == 0 and roles == ["plugin"]
