"""The sidecar index: one SQLite file, derived from the sources and safe to delete.

Owns the connection factory (WAL, mode 0600), the schema as an ordered list of named migrations
with an applied-table, the schema-version fence (an index written by a newer recollect is
refused with a clear message rather than misread), and the single-writer lease that lets
several processes (CLI, MCP servers, plugin) share one index while readers never block.
"""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from recollect.config import ensure_private_dir
from recollect.errors import RecollectError
from recollect.index import fts
from recollect.text.tokenize import FTS_TOKENIZE, TOKENIZER_VERSION

SCHEMA_VERSION = 7
LEASE_TTL_MS = 30_000
BUSY_TIMEOUT_MS = 10_000  # how long a statement waits for another process's write lock


class IndexUnavailable(RecollectError):
    """The index cannot be used; the message says why and what to do."""


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run statements one by one: executescript() would COMMIT the migration's transaction early."""
    for statement in re.split(r";\s*\n", script):
        if statement.strip():
            conn.execute(statement)


def _m001_initial(conn: sqlite3.Connection) -> None:
    _run_script(
        conn,
        f"""
        CREATE TABLE source (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            location TEXT NOT NULL,
            time_synced INTEGER,
            status TEXT,             -- ok | missing | locked | corrupt | unreadable
            message TEXT,
            malformed INTEGER NOT NULL DEFAULT 0,
            sessions INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE session (
            sid INTEGER PRIMARY KEY,
            source_id TEXT NOT NULL,
            native_id TEXT NOT NULL,
            agent_kind TEXT NOT NULL,
            parent_id TEXT,
            root_id TEXT,
            project_id TEXT,
            project_root TEXT,
            directory TEXT NOT NULL DEFAULT '',
            title TEXT NOT NULL DEFAULT '',
            agent TEXT,
            model TEXT,
            time_created INTEGER NOT NULL DEFAULT 0,
            time_updated INTEGER NOT NULL DEFAULT 0,
            time_archived INTEGER,
            watermark TEXT NOT NULL,
            first_human TEXT NOT NULL DEFAULT '',
            last_outcome TEXT NOT NULL DEFAULT '',
            identifiers TEXT NOT NULL DEFAULT '',   -- space-separated, most frequent first
            files TEXT NOT NULL DEFAULT '',         -- newline-separated
            tools TEXT NOT NULL DEFAULT '',         -- "name:count" space-separated
            errors TEXT NOT NULL DEFAULT '',        -- newline-separated error signatures
            message_count INTEGER NOT NULL DEFAULT 0,
            chunk_count INTEGER NOT NULL DEFAULT 0,
            chunks_dropped INTEGER NOT NULL DEFAULT 0,
            malformed INTEGER NOT NULL DEFAULT 0,
            UNIQUE (source_id, native_id)
        );
        CREATE INDEX session_directory ON session(directory);
        CREATE INDEX session_project ON session(project_root);
        CREATE INDEX session_updated ON session(time_updated);
        CREATE INDEX session_parent ON session(source_id, parent_id);
        CREATE TABLE chunk (
            id INTEGER PRIMARY KEY,
            sid INTEGER NOT NULL,
            message_id TEXT NOT NULL,
            part_id TEXT,
            ord INTEGER NOT NULL,        -- message position in the session, for windows
            role TEXT NOT NULL,
            class TEXT NOT NULL,         -- user_text | assistant_text | reasoning | tool_input | tool_output
                                         -- | tool_error | summary | subtask | title
            author TEXT NOT NULL,        -- person | model | injected | subagent
            tool TEXT,
            time INTEGER NOT NULL DEFAULT 0,
            text TEXT NOT NULL
        );
        CREATE INDEX chunk_session ON chunk(sid, ord);
        CREATE INDEX chunk_message ON chunk(message_id);
        -- Contentless: the text lives in `chunk`; rows are deleted by re-tokenizing that text.
        CREATE VIRTUAL TABLE chunk_fts USING fts5(body, content='', tokenize="{FTS_TOKENIZE}");
        CREATE VIRTUAL TABLE card_fts USING fts5(
            title, head, idents, files, errors, outcome, content='', tokenize="{FTS_TOKENIZE}"
        );
        CREATE TABLE lease (
            name TEXT PRIMARY KEY,
            holder TEXT,
            expires INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO lease(name, holder, expires) VALUES ('sync', NULL, 0);
        """,
    )


def _m002_vectors(conn: sqlite3.Connection) -> None:
    _run_script(
        conn,
        """
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
        -- content hash of embeddable text, else NULL
        ALTER TABLE chunk ADD COLUMN hash BLOB;
        ALTER TABLE session ADD COLUMN card_text TEXT;
        ALTER TABLE session ADD COLUMN card_hash BLOB;
        CREATE INDEX chunk_hash ON chunk(hash) WHERE hash IS NOT NULL;
        -- Keyed by content, not by row: re-read sessions and duplicated text reuse their vectors.
        CREATE TABLE vector (
            hash BLOB NOT NULL,
            model TEXT NOT NULL,
            dim INTEGER NOT NULL,
            vec BLOB NOT NULL,                             -- float32, L2-normalised
            PRIMARY KEY (hash, model)
        ) WITHOUT ROWID
        """,
    )


def _rebuild_card_fts(conn: sqlite3.Connection) -> None:
    """card_fts made again with a column for each card field the session table has at this step,
    and refilled from the cards as stored."""
    have = {row[1] for row in conn.execute("PRAGMA table_info(session)")}
    fields = tuple(f for f in fts.CARD_FIELDS if f[1] in have)
    conn.execute("DROP TABLE card_fts")
    conn.execute(
        f"CREATE VIRTUAL TABLE card_fts USING fts5({', '.join(name for name, _ in fields)}, "
        f"content='', tokenize=\"{FTS_TOKENIZE}\")"
    )
    fts.refill(conn, fields)


def _m003_decisions(conn: sqlite3.Connection) -> None:
    """Cards gain the lines that state a decision, searchable as their own card_fts column."""
    if "decisions" not in {row[1] for row in conn.execute("PRAGMA table_info(session)")}:
        conn.execute("ALTER TABLE session ADD COLUMN decisions TEXT NOT NULL DEFAULT ''")
    conn.execute("UPDATE session SET decisions = ''")
    _rebuild_card_fts(conn)
    # The card index is refilled from the cards as stored, so replacing a card later deletes exactly
    # what was inserted; empty watermarks make the next sync re-read every session for its decisions.
    conn.execute("UPDATE session SET watermark = ''")


def _m004_skipped(conn: sqlite3.Connection) -> None:
    """Sessions a sync read and chose not to index (our own worker sessions), with the watermark they
    had: an unchanged one is not read again by every later sync."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS skipped (source_id TEXT NOT NULL, native_id TEXT NOT NULL, "
        "watermark TEXT NOT NULL, reason TEXT NOT NULL, PRIMARY KEY (source_id, native_id)) WITHOUT ROWID"
    )


def _m005_session_stats(conn: sqlite3.Connection) -> None:
    """Sessions gain their listing statistics and how they ended (`index/stats.py`); empty watermarks
    make the next sync re-read every session to fill them in."""
    have = {row[1] for row in conn.execute("PRAGMA table_info(session)")}
    for column, kind in (
        ("turns", "INTEGER NOT NULL DEFAULT 0"),
        ("assistant_messages", "INTEGER NOT NULL DEFAULT 0"),
        ("tool_messages", "INTEGER NOT NULL DEFAULT 0"),
        ("text_parts", "INTEGER NOT NULL DEFAULT 0"),
        ("approx_context_chars", "INTEGER NOT NULL DEFAULT 0"),
        ("ended", "TEXT NOT NULL DEFAULT ''"),
    ):
        if column not in have:
            conn.execute(f"ALTER TABLE session ADD COLUMN {column} {kind}")
    conn.execute("UPDATE session SET watermark = ''")


def _m006_origin(conn: sqlite3.Connection) -> None:
    """Sessions recollect caused (the recall subagent's runs) are told apart by `origin` (text/markers.py),
    so searches leave them out. Only child sessions can be recognised that way without their messages:
    their empty watermarks make the next sync re-read just them."""
    if "origin" not in {row[1] for row in conn.execute("PRAGMA table_info(session)")}:
        conn.execute("ALTER TABLE session ADD COLUMN origin TEXT NOT NULL DEFAULT ''")
    conn.execute("UPDATE session SET watermark = '' WHERE parent_id IS NOT NULL")


def _m007_summary(conn: sqlite3.Connection) -> None:
    """Cards gain the session's summary (`recollect summarize`), searchable as its own card_fts column."""
    if "summary" not in {row[1] for row in conn.execute("PRAGMA table_info(session)")}:
        conn.execute("ALTER TABLE session ADD COLUMN summary TEXT NOT NULL DEFAULT ''")
    _rebuild_card_fts(conn)
    conn.execute("DELETE FROM meta WHERE key = 'summaries'")  # history.apply_summaries fills them in again


# Ordered, named, append-only. Never edit an applied step: add a new one.
MIGRATIONS: list[tuple[str, Callable[[sqlite3.Connection], None]]] = [
    ("001_initial", _m001_initial),
    ("002_vectors", _m002_vectors),
    ("003_decisions", _m003_decisions),
    ("004_skipped", _m004_skipped),
    ("005_session_stats", _m005_session_stats),
    ("006_origin", _m006_origin),
    ("007_summary", _m007_summary),
]


def connect(path: Path, *, readonly: bool = False) -> sqlite3.Connection:
    """Open (and create or migrate) the index. Readers get a read-only handle that never blocks the writer."""
    if readonly and not path.exists():
        raise IndexUnavailable(f"no index yet at {path}; run 'recollect index' first")
    ensure_private_dir(path.parent)
    if not path.exists():
        # Create the file with owner-only permissions before SQLite does (WAL/SHM inherit the mode).
        fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
        os.close(fd)
    uri = f"{path.resolve().as_uri()}?mode={'ro' if readonly else 'rwc'}"
    conn = sqlite3.connect(uri, uri=True, timeout=10.0, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    try:
        _prepare(conn, path, readonly)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise IndexUnavailable(
            f"the index at {path} is unreadable ({exc}); it is derived data: delete it and run 'recollect index'"
        ) from exc
    except Exception:
        conn.close()
        raise
    return conn


def connect_memory() -> sqlite3.Connection:
    """An index in memory, with the same schema, that puts nothing on disk (`recollect search --ephemeral`)."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA temp_store=MEMORY")  # sorts and temp tables stay in memory too
    _prepare(conn, Path(":memory:"), False)
    return conn


def _prepare(conn: sqlite3.Connection, path: Path, readonly: bool) -> None:
    """Pragmas and migrations. Several processes may open a new index at the same moment: switching
    the journal mode or upgrading to a write lock can then fail at once with "locked" instead of
    waiting, so those steps are retried for a few seconds."""
    deadline = time.monotonic() + 10
    while True:
        try:
            if not readonly:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            _check_and_migrate(conn, path, readonly)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _check_and_migrate(conn: sqlite3.Connection, path: Path, readonly: bool) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise IndexUnavailable(
            f"the index at {path} was written by a newer recollect (schema {version}, this one knows "
            f"{SCHEMA_VERSION}); upgrade recollect, or delete the index to rebuild it"
        )
    if readonly:
        return
    if version == SCHEMA_VERSION:
        _check_tokenizer(conn)
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)")
        applied = {row[0] for row in conn.execute("SELECT name FROM migrations")}
        for name, step in MIGRATIONS:
            if name not in applied:
                step(conn)
                conn.execute("INSERT INTO migrations(name, applied_at) VALUES (?, ?)", (name, now_ms()))
        if version == 0:  # a new index: its (empty) FTS tables are made by this tokenizer
            fts.refill(conn)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    _check_tokenizer(conn)


def _check_tokenizer(conn: sqlite3.Connection) -> None:
    """FTS rows made by another tokenizer version could not be deleted exactly: re-tokenize them all."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'tokenizer'").fetchone()
    if row is not None and row[0] == TOKENIZER_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'tokenizer'").fetchone()
        if row is None or row[0] != TOKENIZER_VERSION:  # another process may have done it meanwhile
            fts.refill(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def now_ms() -> int:
    return int(time.time() * 1000)


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction; short by construction (callers batch their work)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _holder_is_dead(holder: str) -> bool:
    host, _, rest = holder.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False  # another machine's process: only its expiry tells
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class Lease:
    """The single-writer lease: a row taken by one conditional UPDATE, renewed by heartbeat, expiring
    on its own if the holder dies (kill -9), so a crashed sync never blocks the next one for long."""

    def __init__(self, conn: sqlite3.Connection, name: str = "sync", ttl_ms: int = LEASE_TTL_MS) -> None:
        self.conn = conn
        self.name = name
        self.ttl_ms = ttl_ms
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.held = False

    def acquire(self) -> bool:
        now = now_ms()
        current, _ = self.holder_info()
        # A holder on this machine whose process is gone (kill -9) cannot renew: take over now,
        # rather than making the next sync wait for the lease to expire.
        stale = current if current and _holder_is_dead(current) else None
        cur = self.conn.execute(
            "UPDATE lease SET holder = ?, expires = ? WHERE name = ? "
            "AND (holder IS NULL OR holder = ? OR holder = ? OR expires < ?)",
            (self.holder, now + self.ttl_ms, self.name, self.holder, stale, now),
        )
        self.held = cur.rowcount == 1
        return self.held

    def renew(self) -> None:
        """Heartbeat; raises if another process took the lease (ours expired), so we stop writing."""
        cur = self.conn.execute(
            "UPDATE lease SET expires = ? WHERE name = ? AND holder = ?",
            (now_ms() + self.ttl_ms, self.name, self.holder),
        )
        if cur.rowcount != 1:
            self.held = False
            raise IndexUnavailable("lost the index write lease to another process; stopping this sync")

    def release(self) -> None:
        if self.held:
            self.conn.execute(
                "UPDATE lease SET holder = NULL, expires = 0 WHERE name = ? AND holder = ?", (self.name, self.holder)
            )
            self.held = False

    def holder_info(self) -> tuple[str | None, int]:
        row = self.conn.execute("SELECT holder, expires FROM lease WHERE name = ?", (self.name,)).fetchone()
        return (row[0], row[1]) if row else (None, 0)
