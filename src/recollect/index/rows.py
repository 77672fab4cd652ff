"""One session's rows in the index: its card (the session row and card_fts) and its chunks (chunk and
chunk_fts), written and deleted together (in one transaction: a sync writes the FTS rows of a batch's
sessions after them, at once, `write_fts`). The sync (`index/sync.py`) decides which sessions; this
module is how. Everything written is what `index/chunks.py` made of the session: redacted text.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from recollect.index import chunks as chunking
from recollect.index import derivations, vectors
from recollect.index.fts import CARD_COLUMNS, CARD_FTS_COLUMNS, CARD_MARKS, card_fts_values, fts_body
from recollect.index.stats import session_stats
from recollect.model import Session
from recollect.text.plain import plain_title


def delete_sessions(conn: sqlite3.Connection, sids: Iterable[int]) -> None:
    """Remove sessions with their chunks and FTS entries (contentless FTS: delete with the original tokens)."""
    for sid in sids:
        rows = conn.execute("SELECT id, text FROM chunk WHERE sid = ?", (sid,)).fetchall()
        conn.executemany(
            "INSERT INTO chunk_fts(chunk_fts, rowid, body) VALUES('delete', ?, ?)",
            [(cid, fts_body(text)) for cid, text in rows],
        )
        conn.execute("DELETE FROM chunk WHERE sid = ?", (sid,))
        card = conn.execute(f"SELECT {CARD_COLUMNS} FROM session WHERE sid = ?", (sid,)).fetchone()
        if card is not None:
            conn.execute(
                f"INSERT INTO card_fts(card_fts, rowid, {CARD_FTS_COLUMNS}) VALUES('delete', ?, {CARD_MARKS})",
                (sid, *card_fts_values(card)),
            )
        conn.execute("DELETE FROM session WHERE sid = ?", (sid,))
    # Vectors are keyed by content and dropped by the next embedding pass when nothing uses them;
    # but chunk and session ids changed, so cached matrices of other processes must reload.
    vectors.bump_generation(conn)


@dataclass
class PreparedSession:
    """What one session becomes in the index, made without the index: a worker process can make it
    (`index/prepare.py`) while the one writer stores what came before."""

    columns: dict[str, Any]  # the session row, but for its watermark and root
    stats: dict[str, object]
    card_fts: tuple[str, ...]
    chunks: list[tuple[Any, ...]]  # (message_id, part_id, ord, role, class, author, tool, time, text, hash)
    # Each chunk's FTS tokens (`fts_body` of its text), made ahead by a worker; None: made as the chunks are
    # written. Derived from `chunks`, so not part of what makes two sessions' rows equal.
    bodies: list[str] | None = field(default=None, compare=False)


def prepare_session(session: Session, *, tokens: bool = False) -> PreparedSession:
    """The rows of `session` (pure: same session in, same rows out). With `tokens`, the FTS tokens of
    every chunk too (a worker's job); without, `write_session` makes them one chunk at a time."""
    card, rows = chunking.build(session)
    tools = " ".join(f"{name}:{count}" for name, count in card.tools.most_common())
    values = (
        plain_title(chunking.redact(session.title)),
        card.first_human,
        " ".join(card.identifiers),
        "\n".join(card.files),
        "\n".join(card.errors),
        card.last_outcome,
        "\n".join(card.decisions),
    )
    about = vectors.card_text(values[0], card.first_human, card.last_outcome, values[2])
    title, first_human, identifiers, files, errors, last_outcome, decisions = values
    columns: dict[str, Any] = {
        "source_id": session.source,
        "native_id": session.id,
        "agent_kind": session.agent_kind,
        "parent_id": session.parent_id,
        "project_id": session.project_id,
        "project_root": session.project_root,
        "directory": session.directory,
        "title": title,
        "agent": session.agent,
        "model": session.model,
        "time_created": session.time_created,
        "time_updated": session.time_updated or max((m.time for m in session.messages), default=session.time_created),
        "time_archived": session.time_archived,
        "first_human": first_human,
        "identifiers": identifiers,
        "files": files,
        "errors": errors,
        "last_outcome": last_outcome,
        "decisions": decisions,
        "tools": tools,
        "message_count": card.message_count,
        "chunk_count": len(rows),
        "chunks_dropped": card.chunks_dropped,
        "malformed": session.malformed,
        "card_text": about,
        "card_hash": vectors.content_hash(about) if about else None,
        "origin": card.origin,
        "derived": derivations.tags(card.derived_by),
    }
    chunks = [
        (c.message_id, c.part_id, c.ord, c.role, c.klass, c.author, c.tool, c.time, c.text, embed_hash(c)) for c in rows
    ]
    return PreparedSession(
        columns=columns,
        stats=session_stats(session).as_row(),
        card_fts=card_fts_values((*values, "")),  # no summary yet: history.apply_summaries adds it
        chunks=chunks,
        bodies=[fts_body(c.text) for c in rows] if tokens else None,
    )


# A session written whose FTS rows wait for `write_fts`: (its row id, its first chunk's id, its rows).
Written = tuple[int, int, PreparedSession]


def insert_session(
    conn: sqlite3.Connection,
    session: Session,
    watermark: str,
    root_id: str | None,
    prepared: PreparedSession | None = None,
    *,
    fts_later: list[Written] | None = None,
) -> int:
    """Store `session` (as `prepared`, if it was made already) and return its row id. With `fts_later`,
    its FTS rows are not written here but added to that list, for `write_fts` (the sync's batches)."""
    return write_session(conn, prepared or prepare_session(session), watermark, root_id, fts_later=fts_later)


def write_session(
    conn: sqlite3.Connection,
    prepared: PreparedSession,
    watermark: str,
    root_id: str | None,
    *,
    fts_later: list[Written] | None = None,
) -> int:
    columns = {**prepared.columns, "root_id": root_id, "watermark": watermark}
    cur = conn.execute(
        f"INSERT INTO session ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", tuple(columns.values())
    )
    sid = int(cur.lastrowid or 0)
    stats = prepared.stats
    conn.execute(f"UPDATE session SET {', '.join(f'{k} = ?' for k in stats)} WHERE sid = ?", (*stats.values(), sid))
    first = _insert_chunks(conn, sid, prepared)
    vectors.bump_generation(conn)
    # New text waits for vectors: no model's pass is complete any more (a sync killed before its
    # embedding pass must leave the next one something to do, not a stale "complete" mark).
    conn.execute("DELETE FROM meta WHERE key LIKE 'vectors\\_complete:%' ESCAPE '\\'")
    if fts_later is None:
        write_fts(conn, [(sid, first, prepared)])
    else:
        fts_later.append((sid, first, prepared))  # last: a session whose rows failed is never in the list
    return sid


def _insert_chunks(conn: sqlite3.Connection, sid: int, prepared: PreparedSession) -> int:
    """The session's chunk rows; returns the first one's id (row ids given here, so that its FTS rows
    can go in with them, as one executemany)."""
    first = int(conn.execute("SELECT coalesce(max(id), 0) + 1 FROM chunk").fetchone()[0])
    conn.executemany(
        "INSERT INTO chunk (id, sid, message_id, part_id, ord, role, class, author, tool, time, text, hash) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ((first + i, sid, *row) for i, row in enumerate(prepared.chunks)),
    )
    return first


def write_fts(conn: sqlite3.Connection, written: list[Written]) -> None:
    """The card_fts and chunk_fts rows of sessions written, all at once. FTS5 writes what it holds to disk
    at every savepoint and at every statement that opens a statement journal, so rows written under each
    session's own savepoint (the sync's) made one small segment a session, which FTS5 then merged again
    and again; a batch's rows written after its sessions' savepoints make one. The rows are the same
    (docs/benchmarks.md: the cold index's CPU, and the comparison of both indexes)."""
    conn.executemany(
        f"INSERT INTO card_fts(rowid, {CARD_FTS_COLUMNS}) VALUES (?, {CARD_MARKS})",
        ((sid, *prepared.card_fts) for sid, _, prepared in written),
    )
    # A generator, not a list: the tokens of a session's every chunk at once were ~30 MB more at peak.
    conn.executemany(
        "INSERT INTO chunk_fts(rowid, body) VALUES (?, ?)",
        ((first + i, body) for _, first, prepared in written for i, body in enumerate(_bodies(prepared))),
    )


def _bodies(prepared: PreparedSession) -> Iterable[str]:
    return prepared.bodies if prepared.bodies is not None else (fts_body(row[8]) for row in prepared.chunks)


def embed_hash(chunk: chunking.Chunk) -> bytes | None:
    """Content hash of the text to embed, for the classes whose meaning is searched; None otherwise."""
    if chunk.klass not in vectors.EMBED_CLASSES or chunk.author == "injected":
        return None
    return vectors.content_hash(vectors.embed_text(chunk.text))
