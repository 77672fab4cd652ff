"""OpenCode's own store, read strictly read-only: `opencode*.db` and the legacy JSON `storage/` tree.

The database is opened in place through SQLite with `mode=ro` (the `-wal` file holds the newest
rows, so the main file is never copied alone) and read in short transactions so OpenCode can
still checkpoint. The schema is introspected, not assumed: a store without the event log or the
v2 `session_message` table is read with what it has. Unknown part types are kept as "other".

Sessions of older OpenCode versions may exist only as JSON files under `storage/`; they are read
too, and a session present in both places is taken from the database (OpenCode imports the JSON
tree into SQLite at start-up, so duplicates are expected).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from recollect.config import xdg_dir
from recollect.jsonish import typed
from recollect.model import Message, ScanResult, Session, SessionStamp, SourceError
from recollect.sources.base import SourceSpec, register
from recollect.sources.guard import as_ms, hidden, note
from recollect.sources.opencode_commands import mark_commands
from recollect.sources.opencode_records import loads, message_from_data, model_name, part_from_data, v2_message

KIND = "opencode"
_BATCH = 200  # sessions per read transaction: short enough not to hold the WAL back
# How reads decode bytes that are not UTF-8: as lone surrogates, which `guard.clean_session` turns
# into U+FFFD and counts, so the mended value is named like every other malformed record.
_MENDED = "surrogateescape"


def find_stores() -> list[Path]:
    """The store OpenCode itself would use: `OPENCODE_DB`, else `opencode*.db` in its data dir."""
    data_dir = xdg_dir("XDG_DATA_HOME", ".local/share") / "opencode"
    env = os.environ.get("OPENCODE_DB")
    if env:
        if env == ":memory:":
            return []
        path = Path(env).expanduser()
        return [path if path.is_absolute() else data_dir / path]
    return sorted(p for p in data_dir.glob("opencode*.db") if p.is_file())


def discover() -> list[SourceSpec]:
    stores = find_stores()
    if os.environ.get("OPENCODE_DB"):
        # An explicit OPENCODE_DB is reported even when missing, so doctor can say so.
        return [SourceSpec(id=KIND, kind=KIND, path=stores[0], discovered=True)] if stores else []
    specs = []
    for path in stores:
        suffix = path.stem.removeprefix("opencode").lstrip("-_")
        source_id = KIND if not suffix else f"{KIND}-{suffix}"
        specs.append(SourceSpec(id=source_id, kind=KIND, path=path, discovered=True))
    if not specs and (stores_dir := xdg_dir("XDG_DATA_HOME", ".local/share") / "opencode" / "storage").is_dir():
        # Only a legacy JSON tree: still history worth reading.
        specs.append(SourceSpec(id=KIND, kind=KIND, path=stores_dir.parent / "opencode.db", discovered=True))
    return specs


class OpenCodeSource:
    """Sessions of one OpenCode store (database plus its legacy JSON tree)."""

    kind = KIND

    def __init__(self, spec: SourceSpec) -> None:
        self.id = spec.id
        self.location = spec.path
        self.discovered = spec.discovered
        self.storage_dir = spec.path.parent / "storage"
        # Where the last scan found each legacy session's file: a sync reads sessions in batches,
        # and without this every batch would parse every session file of the tree again.
        self._legacy_paths: dict[str, Path] = {}
        self.unreadable: dict[str, str] = {}

    # -- database access ---------------------------------------------------------------------

    @contextmanager
    def _connect(self, bad_bytes: str = "replace") -> Iterator[sqlite3.Connection]:
        """A read-only connection. Text that is not valid UTF-8 is decoded with the `bad_bytes` error
        handler: "replace" (U+FFFD) for the scan, "surrogateescape" for reads, which leaves lone
        surrogates the guard mends to U+FFFD and counts as malformed records of their session."""
        path = self.location
        if not path.exists():
            raise SourceError(
                f"OpenCode store not found: {path}. Set OPENCODE_DB or list the store in recollect's config.",
                reason="missing",
            )
        try:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=2.0)
        except sqlite3.OperationalError as exc:
            raise SourceError(f"cannot open OpenCode store {path}: {exc}", reason="unreadable") from exc
        try:
            conn.execute("PRAGMA query_only=1")
            # A title or body that is not valid UTF-8 is one bad value, not an unreadable store.
            conn.text_factory = lambda raw: raw.decode("utf-8", bad_bytes)
            yield conn
        except sqlite3.DatabaseError as exc:
            text = str(exc).lower()
            if "locked" in text or "busy" in text:
                raise SourceError(
                    f"OpenCode store {path} is locked by another writer; retry in a moment.", reason="locked"
                ) from exc
            if "not a database" in text or "malformed" in text or "disk image" in text:
                raise SourceError(
                    f"OpenCode store {path} is damaged or truncated ({exc}); nothing was changed in the index.",
                    reason="corrupt",
                ) from exc
            if "unable to open" in text and path.with_name(path.name + "-wal").exists():
                raise SourceError(
                    f"cannot read OpenCode store {path}: SQLite needs to create {path.name}-shm next to it "
                    "(a read-only reader still needs that); make the directory writable for this user.",
                    reason="unreadable",
                ) from exc
            raise SourceError(f"cannot read OpenCode store {path}: {exc}", reason="unreadable") from exc
        finally:
            conn.close()

    @staticmethod
    def _tables(conn: sqlite3.Connection) -> dict[str, set[str]]:
        tables: dict[str, set[str]] = {}
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'"):
            tables[name] = {row[1] for row in conn.execute(f"PRAGMA table_info('{name}')")}
        return tables

    def _db_available(self) -> bool:
        # Legacy-only (JSON tree, no database) is an old OpenCode. A SQLite-era OpenCode leaves a
        # `storage/migration` marker: then a missing database is a missing store (reported, and the
        # index keeps its sessions), never "every database session was deleted".
        return self.location.exists() or not self.storage_dir.is_dir() or (self.storage_dir / "migration").exists()

    # -- scan ----------------------------------------------------------------------------------

    def scan(self) -> ScanResult:
        stamps: dict[str, SessionStamp] = {}
        problems: list[str] = []
        if self._db_available():
            with self._connect() as conn:
                conn.execute("BEGIN")
                tables = self._tables(conn)
                if "session" not in tables:
                    raise SourceError(
                        f"{self.location} is not an OpenCode store (no 'session' table).", reason="corrupt"
                    )
                stamps.update(self._scan_db(conn, tables))
                conn.execute("COMMIT")
        legacy = self._scan_legacy(problems)
        for session_id, stamp in legacy.items():
            stamps.setdefault(session_id, stamp)  # the database wins over the JSON tree
        return ScanResult(stamps=stamps, problems=problems)

    def _scan_db(self, conn: sqlite3.Connection, tables: dict[str, set[str]]) -> dict[str, SessionStamp]:
        columns = tables["session"]
        updated = "time_updated" if "time_updated" in columns else "0"
        parent = "parent_id" if "parent_id" in columns else "NULL"
        rows = conn.execute(f"SELECT id, {parent}, {updated} FROM session").fetchall()
        seqs: dict[str, int] = {}
        if "event_sequence" in tables:
            seqs = dict(conn.execute("SELECT aggregate_id, seq FROM event_sequence").fetchall())
        # time_updated misses renames, part edits, deletions and aborts; event_sequence.seq does not.
        # Sessions without events (older versions) fall back to row counts and newest row times.
        fallback: dict[str, list[Any]] = {}
        if any(r[0] not in seqs for r in rows):
            for table in ("message", "part", "session_message"):
                if table in tables and "session_id" in tables[table]:
                    tu = "max(time_updated)" if "time_updated" in tables[table] else "0"
                    for sid, count, newest in conn.execute(
                        f"SELECT session_id, count(*), {tu} FROM {table} GROUP BY session_id"
                    ):
                        fallback.setdefault(sid, []).extend((table, count, newest))
        stamps = {}
        for session_id, parent_id, time_updated in rows:
            if session_id in seqs:
                mark = f"seq:{seqs[session_id]}"
            else:
                mark = "rows:" + ":".join(str(x) for x in [time_updated, *fallback.get(session_id, [])])
            stamps[session_id] = SessionStamp(
                id=session_id, watermark=mark, parent_id=parent_id, updated=int(time_updated or 0)
            )
        return stamps

    # -- read ----------------------------------------------------------------------------------

    def read_sessions(self, ids: Iterable[str]) -> Iterator[Session]:
        wanted = list(dict.fromkeys(ids))
        found: set[str] = set()
        if self._db_available() and self.location.exists():
            for start in range(0, len(wanted), _BATCH):
                batch = wanted[start : start + _BATCH]
                with self._connect(bad_bytes=_MENDED) as conn:
                    conn.execute("BEGIN")
                    sessions = self._read_db_batch(conn, batch)
                    conn.execute("COMMIT")
                for session in sessions:
                    found.add(session.id)
                    yield session
        rest = [i for i in wanted if i not in found]
        if rest and self.storage_dir.is_dir():
            yield from self._read_legacy(rest)

    def _read_db_batch(self, conn: sqlite3.Connection, ids: list[str]) -> list[Session]:
        tables = self._tables(conn)
        sessions = self._db_sessions(conn, tables, ids)
        if not sessions:
            return []
        found = list(sessions)
        marks = ",".join("?" * len(found))
        messages: dict[str, Message] = {}
        if "message" in tables:
            messages = _db_messages(conn, sessions, found, marks)
        if "part" in tables:
            _db_parts(conn, sessions, messages, found, marks)
        if "session_message" in tables:
            _db_v2_messages(conn, sessions, found, marks)
        for session in sessions.values():
            session.messages.sort(key=lambda m: (m.time, m.id))
            mark_commands(session)
        return list(sessions.values())

    def _db_sessions(self, conn: sqlite3.Connection, tables: dict[str, set[str]], ids: list[str]) -> dict[str, Session]:
        """The session rows of `ids`, each a Session without messages yet (columns a version lacks read as NULL)."""
        marks = ",".join("?" * len(ids))
        columns = tables["session"]

        def col(name: str) -> str:
            return f"s.{name}" if name in columns else "NULL"

        project_join = ""
        worktree = "NULL"
        if "project" in tables and "project_id" in columns and "worktree" in tables["project"]:
            project_join = "LEFT JOIN project p ON p.id = s.project_id"
            worktree = "p.worktree"
        rows = conn.execute(
            f"SELECT s.id, {col('title')}, {col('directory')}, {col('project_id')}, {worktree}, {col('parent_id')}, "
            f"{col('agent')}, {col('model')}, {col('time_created')}, {col('time_updated')}, {col('time_archived')} "
            f"FROM session s {project_join} WHERE s.id IN ({marks})",
            ids,
        ).fetchall()
        sessions: dict[str, Session] = {}
        for sid, title, directory, project_id, root, parent, agent, model, created, updated, archived in rows:
            if project_id == "global" or root in (None, "", "/"):
                root = None  # OpenCode's "global" project has worktree "/": no real project root
            sessions[sid] = Session(
                id=sid,
                source=self.id,
                agent_kind=KIND,
                title=title or "",
                directory=directory or "",
                project_id=project_id,
                project_root=root,
                parent_id=parent,
                agent=agent,
                model=model_name(model),
                time_created=as_ms(created) or 0,
                time_updated=as_ms(updated) or as_ms(created) or 0,
                time_archived=as_ms(archived),
            )
            sessions[sid].malformed += _not_times(created, updated, archived)
        return sessions

    # -- legacy JSON tree (OpenCode before the SQLite store) ---------------------------------

    def _legacy_session_files(self) -> Iterator[Path]:
        root = self.storage_dir / "session"
        if not root.is_dir():
            return
        for project_dir in _entries(root):
            if project_dir.is_dir():
                # storage/session/<projectID>/<id>.json; the older info/ layout has the same shape
                yield from _json_files(Path(project_dir.path))

    @staticmethod
    def _dir_mark(directory: Path) -> str:
        digest = hashlib.blake2b(digest_size=8)
        for entry in sorted(_entries(directory), key=lambda e: e.name):
            try:
                stat = entry.stat()
            except OSError:  # a symlink loop or a dangling link: its name still marks a change
                digest.update(f"{entry.name}:?;".encode())
                continue
            digest.update(f"{entry.name}:{stat.st_size}:{stat.st_mtime_ns};".encode())
        return digest.hexdigest()

    def _scan_legacy(self, problems: list[str]) -> dict[str, SessionStamp]:
        stamps: dict[str, SessionStamp] = {}
        for path in self._legacy_session_files():
            data = _read_json(path)
            if not isinstance(data, dict) or not isinstance(data.get("id"), str):
                problems.append(f"legacy session file is not valid JSON, skipped: {path.name}")
                continue
            sid = data["id"]
            self._legacy_paths[sid] = path
            message_dir = self.storage_dir / "message" / sid
            digest = hashlib.blake2b(digest_size=8)
            try:
                stat = path.stat()
            except OSError:
                continue  # deleted since the listing
            digest.update(f"{stat.st_size}:{stat.st_mtime_ns};{self._dir_mark(message_dir)}".encode())
            for entry in _entries(message_dir):
                digest.update(self._dir_mark(self.storage_dir / "part" / Path(entry.name).stem).encode())
            stamps[sid] = SessionStamp(
                id=sid,
                watermark=f"json:{digest.hexdigest()}",
                parent_id=data.get("parentID"),
                updated=stat.st_mtime_ns // 1_000_000,
            )
        return stamps

    def _read_legacy(self, ids: list[str]) -> Iterator[Session]:
        wanted = set(ids)
        known = [self._legacy_paths[i] for i in ids if i in self._legacy_paths]
        # The scan's paths when it saw every wanted session; else the whole tree (a file may have moved).
        paths = known if len(known) == len(wanted) else self._legacy_session_files()
        for path in paths:
            try:
                data = loads(path.read_text(encoding="utf-8", errors=_MENDED))
            except FileNotFoundError:  # deleted since the scan: the sync counts it as gone
                continue
            except OSError as exc:  # there but unreadable: kept as indexed, reported
                self.unreadable[path.stem] = str(exc)
                continue
            if not isinstance(data, dict) or data.get("id") not in wanted:
                continue
            times = typed(data.get("time"), dict, {})
            created = as_ms(times.get("created"))
            session = Session(
                id=data["id"],
                source=self.id,
                agent_kind=KIND,
                title=str(data.get("title") or ""),
                directory=str(data.get("directory") or ""),
                project_id=data.get("projectID"),
                parent_id=data.get("parentID"),
                time_created=created or 0,
                time_updated=as_ms(times.get("updated")) or created or 0,
                time_archived=as_ms(times.get("archived")),
            )
            for message_path in _json_files(self.storage_dir / "message" / session.id):
                payload = _read_json(message_path, _MENDED)
                if not isinstance(payload, dict):
                    session.malformed += 1
                    continue
                mtimes = typed(payload.get("time"), dict, {})
                message = message_from_data(message_path.stem, payload, as_ms(mtimes.get("created")) or 0)
                for part_path in _json_files(self.storage_dir / "part" / message.id):
                    part_data = _read_json(part_path, _MENDED)
                    if not isinstance(part_data, dict):
                        session.malformed += 1
                        continue
                    message.parts.append(part_from_data(part_path.stem, part_data, message.time))
                session.messages.append(message)
            session.messages.sort(key=lambda m: (m.time, m.id))
            mark_commands(session)
            yield session


def _not_times(*values: Any) -> int:
    """How many of `values` are set but are not times (counted as malformed; read as 0)."""
    return sum(1 for value in values if value is not None and as_ms(value) is None)


def _entries(directory: Path) -> list[os.DirEntry[str]]:
    """Entries of a legacy folder; one that cannot be read is noted, never fatal."""
    try:
        with os.scandir(directory) as it:
            return sorted(it, key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        hidden(f"{directory} cannot be read ({exc.strerror or exc}); its sessions are kept as indexed until it can be")
        return []


def _json_files(directory: Path) -> list[Path]:
    """The `*.json` files of a legacy folder, sorted; a folder named `x.json`, a symlink loop or a
    dangling link is not a file and is left out."""
    found = []
    for entry in _entries(directory):
        try:
            if entry.name.endswith(".json") and entry.is_file():
                found.append(Path(entry.path))
        except OSError:
            note(f"{entry.path} is left out (it cannot be followed)")
    return found


def _read_json(path: Path, bad_bytes: str = "replace") -> Any:
    """A legacy JSON file's value; None (one malformed record) when it cannot be read or parsed."""
    try:
        return loads(path.read_text(encoding="utf-8", errors=bad_bytes))
    except FileNotFoundError:
        return None
    except OSError as exc:
        note(f"{path} cannot be read ({exc.strerror or exc})")
        return None


def _db_messages(
    conn: sqlite3.Connection, sessions: dict[str, Session], found: list[str], marks: str
) -> dict[str, Message]:
    """The `message` rows of the sessions, appended to each; a row that is not a JSON object is counted malformed."""
    messages: dict[str, Message] = {}
    for mid, sid, created, data in conn.execute(
        f"SELECT id, session_id, time_created, data FROM message WHERE session_id IN ({marks}) "
        "ORDER BY session_id, time_created, id",
        found,
    ):
        payload = loads(data)
        if not isinstance(payload, dict):
            sessions[sid].malformed += 1
            continue
        message = message_from_data(mid, payload, as_ms(created) or 0)
        sessions[sid].malformed += _not_times(created)
        messages[mid] = message
        sessions[sid].messages.append(message)
    return messages


def _db_parts(
    conn: sqlite3.Connection, sessions: dict[str, Session], messages: dict[str, Message], found: list[str], marks: str
) -> None:
    """The `part` rows, added to their messages; a part without its message is counted malformed."""
    for pid, mid, sid, created, data in conn.execute(
        f"SELECT id, message_id, session_id, time_created, data FROM part WHERE session_id IN ({marks}) "
        "ORDER BY message_id, id",
        found,
    ):
        payload = loads(data)
        owner = messages.get(mid)
        if not isinstance(payload, dict) or owner is None:
            sessions[sid].malformed += 1
            continue
        owner.parts.append(part_from_data(pid, payload, as_ms(created)))
        sessions[sid].malformed += _not_times(created)


def _db_v2_messages(conn: sqlite3.Connection, sessions: dict[str, Session], found: list[str], marks: str) -> None:
    """The `session_message` rows (the newer store's one-row-per-message table), appended to each session."""
    for mid, sid, kind, created, data in conn.execute(
        f"SELECT id, session_id, type, time_created, data FROM session_message "
        f"WHERE session_id IN ({marks}) ORDER BY session_id, seq",
        found,
    ):
        payload = loads(data)
        if not isinstance(payload, dict):
            sessions[sid].malformed += 1
            continue
        message, bad = v2_message(mid, str(kind), payload, as_ms(created) or 0)
        sessions[sid].malformed += bad + _not_times(created)
        sessions[sid].messages.append(message)


register(KIND, OpenCodeSource, discover)
