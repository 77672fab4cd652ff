"""The sidecar index: one SQLite file, derived from the sources and safe to delete.

Owns the connection factory (WAL, mode 0600), the running of the schema's named migrations
(index/migrations.py) in one transaction, the schema-version fence (an index written by a newer recollect is
refused with a clear message rather than misread), and the single-writer lease that lets
several processes (CLI, MCP servers, plugin) share one index while readers never block.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from recollect.config import ensure_private_dir
from recollect.errors import RecollectError
from recollect.index import fts, migrations
from recollect.index.migrations import SCHEMA_VERSION
from recollect.text.tokenize import TOKENIZER_VERSION

LEASE_TTL_MS = 30_000
BUSY_TIMEOUT_MS = 10_000  # how long a statement waits for another process's write lock


class IndexUnavailable(RecollectError):
    """The index cannot be used; the message says why and what to do."""


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
        if isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc)):
            # An index to create or upgrade while another process writes to it: nothing is wrong with the file.
            raise IndexUnavailable(
                f"another process is writing to the index at {path}, which this recollect must upgrade first; "
                "retry in a moment"
            ) from exc
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
        migrations.apply(conn, now_ms())
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


# Who takes the write lease in this process, written into its holder so that a sync that finds it held can say
# who is writing (a process sets it once, at its start: the plugin's idle sync does); "" says only "recollect".
HOLDER_ROLES = {"plugin": "the OpenCode plugin's sync after a session"}
holder_role = ""


def take_leases_as(role: str) -> None:
    """This process's syncs take the write lease as `role` (a key of HOLDER_ROLES)."""
    global holder_role
    holder_role = role


def holder_says(holder: str | None) -> str:
    """Who holds the lease, for a person: 'the OpenCode plugin's sync after a session (pid 41)'; none: another
    process holds a write lock on the index without it (an older recollect, a sqlite3 shell)."""
    if not holder:
        return "another process"
    parts = holder.split(":")
    pid = f"pid {parts[1]}" if len(parts) > 1 and parts[1].isdigit() else ""
    who = HOLDER_ROLES.get(parts[3], "") if len(parts) > 3 else ""
    if who:
        return f"{who} ({pid})" if pid else who
    return f"another recollect process ({pid})" if pid else "another recollect process"


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
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}:{holder_role}"
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
