"""Storing one batch of the sessions a sync read (`index/sync.py` decides which, and commits each batch).

Each session is stored under its own savepoint, so one that cannot be stored (a bad record, a row SQLite
refuses, its FTS rows included) costs that session alone: it is rolled back, keeps what the index held
of it, and is recorded in `skipped` as bad, by id and why, until its store changes it. Never writes a
source.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from recollect.index import prepare
from recollect.index.rows import Written, delete_sessions, insert_session, write_fts
from recollect.model import Session, SessionStamp
from recollect.sources import Source
from recollect.sources.guard import describe
from recollect.text.markers import session_origin

if TYPE_CHECKING:
    from recollect.index.sync import SourceReport

EMPTY = "empty: "  # the reason of a `skipped` row for what is no session
# How a bad session's reason starts when SQLite refused its rows (the index's limit, not an unreadable record).
REFUSED = "refused by the index: "


def root_of(session_id: str, parents: dict[str, str | None]) -> str | None:
    seen = {session_id}
    current = parents.get(session_id)
    root = None
    while current and current not in seen:
        seen.add(current)
        root = current
        current = parents.get(current)
    return root


@dataclass
class Plan:
    """What one pass must do for one source, from its scan and what the index holds."""

    indexed: dict[str, tuple[int, str]]  # native id -> (sid, watermark) as indexed
    skipped: dict[str, tuple[str, str]]  # native id -> (watermark, reason) of sessions not indexed
    todo: list[SessionStamp]
    parents: dict[str, str | None]


def skip(conn: sqlite3.Connection, source: Source, native: str, watermark: str, reason: str) -> None:
    conn.execute(
        "INSERT INTO skipped(source_id, native_id, watermark, reason) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(source_id, native_id) DO UPDATE SET watermark = excluded.watermark, reason = excluded.reason",
        (source.id, native, watermark, reason),
    )


def store_batch(
    conn: sqlite3.Connection,
    source: Source,
    sessions: list[Session],
    marks: dict[str, str],
    plan: Plan,
    report: SourceReport,
    outcomes: list[prepare.Outcome] | None = None,
    stored: Callable[[int], None] | None = None,
) -> list[int]:
    """Replace the batch's sessions inside the caller's transaction; returns the new session rows.
    `outcomes` are the sessions' rows (or why they could not be made) made by the workers, in order.
    `stored(1)` is called as each session but the last is done with (for the progress bar).

    Each session is stored under its own savepoint: one that cannot be stored is rolled back alone,
    keeps what the index held of it, and is recorded as bad until its watermark changes. The FTS rows
    of those stored are written after the loop, for the batch at once (`rows.write_fts`); if that fails,
    the batch is rolled back and stored again with each session's FTS rows under its own savepoint, so
    the session whose rows fail costs itself alone, as any other failure does."""
    counts = (report.added, report.updated, report.skipped_workers, list(report.not_sessions))
    conn.execute("SAVEPOINT one_batch")
    bad: dict[str, str] = dict(getattr(source, "bad", {}))
    fts: list[Written] = []
    inserted = store_sessions(conn, source, sessions, marks, plan, report, outcomes, stored, bad, fts)
    try:
        write_fts(conn, fts)
    except sqlite3.Error:  # SQLite refused a row: which session's is found by storing the batch again, one at a time
        conn.execute("ROLLBACK TO one_batch")
        report.added, report.updated, report.skipped_workers, report.not_sessions = counts
        bad = dict(getattr(source, "bad", {}))
        inserted = store_sessions(conn, source, sessions, marks, plan, report, outcomes, None, bad, None)
    conn.execute("RELEASE one_batch")
    for native, why in bad.items():
        if native in marks:
            skip(conn, source, native, marks[native], f"bad: {why}")
    # Listed by the scan but gone by the time we read it: deleted in between. One that is there
    # but could not be read keeps its indexed rows (and its old watermark: retried next sync).
    returned = {s.id for s in sessions if session_origin(s) != "worker" and not s.not_a_session}
    unreadable = getattr(source, "unreadable", {})
    gone = [
        plan.indexed[i][0]
        for i in marks
        if i not in returned and i in plan.indexed and i not in unreadable and i not in bad
    ]
    delete_sessions(conn, gone)
    report.removed += len(gone)
    return inserted


def store_sessions(
    conn: sqlite3.Connection,
    source: Source,
    sessions: list[Session],
    marks: dict[str, str],
    plan: Plan,
    report: SourceReport,
    outcomes: list[prepare.Outcome] | None,
    stored: Callable[[int], None] | None,
    bad: dict[str, str],
    fts: list[Written] | None,
) -> list[int]:
    """`store_batch`'s loop: each session under its savepoint, those that fail into `bad`. The FTS rows
    of those stored are added to `fts` (for `rows.write_fts`), or with `fts` None written with each."""
    inserted: list[int] = []
    for i, session in enumerate(sessions):
        if stored is not None and i:
            stored(1)  # the one before is done with
        if session.id not in marks:
            continue  # not asked for (a source returned a sibling): never index it under a wrong mark
        if session_origin(session) == "worker":
            # Our own worker sessions (extraction, summaries) are never indexed back; the mark
            # keeps later syncs from reading them again while they do not change (if one was
            # indexed before, it goes with `gone` in `store_batch`).
            if plan.skipped.get(session.id, (None, ""))[1] != "worker":
                report.skipped_workers += 1
            skip(conn, source, session.id, marks[session.id], "worker")
            continue
        if session.not_a_session:
            # Not indexed (and dropped if it was), counted apart, read again when its store changes it.
            report.not_sessions.append(f"{session.id}: {session.not_a_session}")
            skip(conn, source, session.id, marks[session.id], EMPTY + session.not_a_session)
            continue
        old = plan.indexed.get(session.id)
        prepared = outcomes[i] if outcomes is not None else None
        if isinstance(prepared, str):  # a worker could not make its rows: as if it failed to store
            bad[session.id] = prepared
            continue
        conn.execute("SAVEPOINT one_session")
        try:
            if old is not None:
                delete_sessions(conn, [old[0]])
            root = root_of(session.id, plan.parents)
            sid = insert_session(conn, session, marks[session.id], root, prepared, fts_later=fts)
        except Exception as exc:  # this session costs itself, never the batch
            conn.execute("ROLLBACK TO one_session")
            conn.execute("RELEASE one_session")
            bad[session.id] = (REFUSED if isinstance(exc, sqlite3.Error) else "") + describe(exc)
            continue
        conn.execute("RELEASE one_session")
        if session.id in plan.skipped:
            conn.execute("DELETE FROM skipped WHERE source_id = ? AND native_id = ?", (source.id, session.id))
        if old is not None:
            report.updated += 1
        else:
            report.added += 1
        inserted.append(sid)
    return inserted
