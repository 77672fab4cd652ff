"""One session's rows in the index: its card (the session row and card_fts) and its chunks (chunk and
chunk_fts), written and deleted together. The sync (`index/sync.py`) decides which sessions; this
module is how. Everything written is what `index/chunks.py` made of the session: redacted text.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from recollect.index import chunks as chunking
from recollect.index import vectors
from recollect.index.fts import CARD_COLUMNS, CARD_FTS_COLUMNS, CARD_MARKS, card_fts_values, fts_body
from recollect.index.stats import session_stats
from recollect.model import Session
from recollect.redact import redact


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


def insert_session(conn: sqlite3.Connection, session: Session, watermark: str, root_id: str | None) -> int:
    card, rows = chunking.build(session)
    tools = " ".join(f"{name}:{count}" for name, count in card.tools.most_common())
    values = (
        redact(session.title),
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
        "root_id": root_id,
        "project_id": session.project_id,
        "project_root": session.project_root,
        "directory": session.directory,
        "title": title,
        "agent": session.agent,
        "model": session.model,
        "time_created": session.time_created,
        "time_updated": session.time_updated or max((m.time for m in session.messages), default=session.time_created),
        "time_archived": session.time_archived,
        "watermark": watermark,
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
    }
    cur = conn.execute(
        f"INSERT INTO session ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", tuple(columns.values())
    )
    sid = int(cur.lastrowid or 0)
    stats = session_stats(session).as_row()
    conn.execute(f"UPDATE session SET {', '.join(f'{k} = ?' for k in stats)} WHERE sid = ?", (*stats.values(), sid))
    conn.execute(
        f"INSERT INTO card_fts(rowid, {CARD_FTS_COLUMNS}) VALUES (?, {CARD_MARKS})",
        (sid, *card_fts_values((*values, ""))),  # no summary yet: history.apply_summaries adds it
    )
    _insert_chunks(conn, sid, rows)
    vectors.bump_generation(conn)
    # New text waits for vectors: no model's pass is complete any more (a sync killed before its
    # embedding pass must leave the next one something to do, not a stale "complete" mark).
    conn.execute("DELETE FROM meta WHERE key LIKE 'vectors\\_complete:%' ESCAPE '\\'")
    return sid


def _insert_chunks(conn: sqlite3.Connection, sid: int, rows: list[chunking.Chunk]) -> None:
    # Row ids given here, so that chunks and their FTS rows go in as two executemany calls.
    first = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM chunk").fetchone()[0]
    ids = range(first, first + len(rows))
    conn.executemany(
        "INSERT INTO chunk (id, sid, message_id, part_id, ord, role, class, author, tool, time, text, hash) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (
                cid,
                sid,
                chunk.message_id,
                chunk.part_id,
                chunk.ord,
                chunk.role,
                chunk.klass,
                chunk.author,
                chunk.tool,
                chunk.time,
                chunk.text,
                embed_hash(chunk),
            )
            for cid, chunk in zip(ids, rows, strict=True)
        ),
    )
    # A generator, not a list: the tokens of a session's every chunk at once were ~30 MB more at peak.
    conn.executemany(
        "INSERT INTO chunk_fts(rowid, body) VALUES (?, ?)",
        ((cid, fts_body(chunk.text)) for cid, chunk in zip(ids, rows, strict=True)),
    )


def embed_hash(chunk: chunking.Chunk) -> bytes | None:
    """Content hash of the text to embed, for the classes whose meaning is searched; None otherwise."""
    if chunk.klass not in vectors.EMBED_CLASSES or chunk.author == "injected":
        return None
    return vectors.content_hash(vectors.embed_text(chunk.text))
