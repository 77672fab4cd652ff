"""The history API's read SQL over the index, in one place: listings, cards, activity, the source
table and the diagnosis counts. Each takes a WHERE fragment from the one scope predicate
(search/scope.py `predicate`) where a caller's scope applies; none of them writes."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

IDS_PER_QUERY = 500  # ids bound into one `IN (...)`: well inside SQLite's limit on bound parameters

# The listing columns, in SessionInfo's order (a row of `session s`).
SESSION_COLUMNS = (
    "native_id, source_id, agent_kind, title, directory, parent_id, time_created, time_updated, message_count, "
    "turns, assistant_messages, tool_messages, text_parts, approx_context_chars, ended, first_human, last_outcome, "
    "tools, summary"
)


def session_rows(conn: sqlite3.Connection, where: str, params: list[object], limit: int, offset: int) -> list[Any]:
    """SESSION_COLUMNS of the sessions `where` admits, newest first."""
    return conn.execute(
        f"SELECT {SESSION_COLUMNS} FROM session s WHERE {where} ORDER BY time_updated DESC LIMIT ? OFFSET ?",
        [*params, limit, offset],
    ).fetchall()


def card_row(conn: sqlite3.Connection, where: str, params: list[object]) -> Any:
    """The newest session `where` admits, with its card fields (SessionCard's order), or None."""
    return conn.execute(
        "SELECT native_id, source_id, title, directory, coalesce(project_root, ''), time_created, time_updated, "
        "message_count, first_human, last_outcome, files, tools, errors, coalesce(decisions, ''), identifiers "
        f"FROM session s WHERE {where} ORDER BY time_updated DESC LIMIT 1",
        params,
    ).fetchone()


def activity_rows(conn: sqlite3.Connection, where: str, params: list[object]) -> list[Any]:
    """(project, UTC day, sessions, first created, last updated) per project and day, for sessions `where` admits."""
    return conn.execute(
        "SELECT coalesce(nullif(project_root, ''), directory) AS project, "
        "strftime('%Y-%m-%d', time_updated / 1000, 'unixepoch') AS day, count(*), "
        f"min(time_created), max(time_updated) FROM session s WHERE {where} GROUP BY project, day",
        params,
    ).fetchall()


def title_and_directory(conn: sqlite3.Connection, key: tuple[str, str], inside: str, params: list[object]) -> Any:
    """(title, first_human, directory) of session `key` (source, native id) if `inside` admits it, else None."""
    return conn.execute(
        f"SELECT title, first_human, directory FROM session s WHERE source_id = ? AND native_id = ? AND {inside}",
        [*key, *params],
    ).fetchone()


def sessions_named(conn: sqlite3.Connection, native_id: str) -> list[Any]:
    """(source, native id) of every indexed session with this raw id, in any source."""
    return conn.execute("SELECT source_id, native_id FROM session WHERE native_id = ?", (native_id,)).fetchall()


def recorded_sources(conn: sqlite3.Connection) -> set[str]:
    """The ids of the sources the index has synced."""
    return {r[0] for r in conn.execute("SELECT id FROM source")}


def last_sync_ms(conn: sqlite3.Connection) -> int:
    """When the least recently synced source was synced (epoch ms; 0 when none was)."""
    row = conn.execute("SELECT min(time_synced) FROM source").fetchone()
    return int(row[0] or 0)


def session_count(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM session").fetchone()[0])


def source_states(conn: sqlite3.Connection) -> dict[str, tuple[Any, ...]]:
    """Per source id: (id, status, message, sessions, malformed, time_synced) as the last sync left them."""
    rows = conn.execute("SELECT id, status, message, sessions, malformed, time_synced FROM source")
    return {row[0]: tuple(row) for row in rows}


def bad_sessions(conn: sqlite3.Connection, refused_prefix: str) -> dict[tuple[str, bool], tuple[int, str]]:
    """Per (source id, refused): the sessions a sync could not read (False) or whose rows the index refused
    (True: their reason starts with `refused_prefix`), how many and the first as 'id: why'."""
    rows = conn.execute(
        "SELECT source_id, substr(reason, 6, ?) = ?, count(*), min(native_id || ': ' || substr(reason, 6)) "
        "FROM skipped WHERE reason LIKE 'bad:%' GROUP BY 1, 2",
        (len(refused_prefix), refused_prefix),
    )
    return {(source_id, bool(refused)): (count, first) for source_id, refused, count, first in rows}


def malformed_most(conn: sqlite3.Connection, source_id: str | None = None) -> dict[str, str]:
    """Per source id (or for `source_id` alone): the session holding most malformed records, as 'id: n'."""
    where = "" if source_id is None else "AND source_id = ? "
    rows = conn.execute(
        f"SELECT source_id, native_id, max(malformed) FROM session WHERE malformed > 0 {where}GROUP BY source_id",
        () if source_id is None else (source_id,),
    )
    return {source: f"{native}: {count}" for source, native, count in rows}


def malformed_where(total: int, most: str) -> str:
    """Where `total` malformed records are, from `malformed_most`'s 'id: n': ' (in id)' or ' (most in id: n)'."""
    if not most:
        return ""
    native, _, count = most.rpartition(": ")
    return f" (in {native})" if count == str(total) else f" (most in {most})"


def not_sessions(conn: sqlite3.Connection) -> dict[str, int]:
    """Per source id: what its store holds that is no session (sync's `empty: ` skips), left out of the index."""
    rows = conn.execute("SELECT source_id, count(*) FROM skipped WHERE reason LIKE 'empty: %' GROUP BY source_id")
    return dict(rows.fetchall())


def rows_for_ids(conn: sqlite3.Connection, sql: str, ids: Sequence[Any]) -> Iterator[Any]:
    """The rows of `sql` for `ids`, IDS_PER_QUERY at a time: `sql` holds `{marks}` where the ids go
    (`... WHERE sid IN ({marks})`), and its rows come in the order of those queries."""
    for start in range(0, len(ids), IDS_PER_QUERY):
        batch = ids[start : start + IDS_PER_QUERY]
        yield from conn.execute(sql.format(marks=",".join("?" * len(batch))), batch)
