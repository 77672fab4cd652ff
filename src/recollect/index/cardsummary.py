"""Summaries as a card field: what `recollect summarize` wrote (extract/summaries.json), put on
the session rows it describes, in card_fts and in the card's vector text.

Called after a sync (`history.index`, `Recollect.refresh`); cheap when nothing changed (one stat).
"""

from __future__ import annotations

import hashlib
import sqlite3
from types import SimpleNamespace

from recollect.config import Paths
from recollect.index import store, vectors
from recollect.index.fts import CARD_COLUMNS, CARD_FTS_COLUMNS, CARD_MARKS, card_fts_values


def apply_summaries(conn: sqlite3.Connection, paths: Paths, *, resynced: bool = False) -> int:
    """Put the summaries `recollect summarize` wrote on their cards: a card field that search weighs
    (card_fts `summary`) and that the card's vector is made from. A summary written from another
    version of the card (it changed since) is not used: the next `recollect summarize` writes a new
    one. Runs when the summaries file changed, or for cards a sync re-inserted (they start without
    one). Returns how many cards changed."""
    from recollect.extract.summaries import _path, card_digest, read_summaries

    path = _path(paths)
    try:
        stat = path.stat()
        mark = f"{stat.st_size}:{stat.st_mtime_ns}"
    except OSError:
        mark = ""
    row = conn.execute("SELECT value FROM meta WHERE key = 'summaries'").fetchone()
    changed_file = (row[0] if row else "") != mark
    if not changed_file and not (resynced and mark):
        return 0
    stored = read_summaries(paths) if mark else {}
    where = "1" if changed_file else "summary = ''"
    columns = (
        "sid, source_id, native_id, title, directory, first_human, last_outcome, tools, message_count, summary, "
        f"identifiers, card_text, {CARD_COLUMNS}"
    )
    updates = []
    for r in conn.execute(f"SELECT {columns} FROM session WHERE {where}").fetchall():
        sid, source, native, title, directory, first, outcome, tools, messages, old = r[:10]
        entry = stored.get(f"{source}::{native}")
        card = SimpleNamespace(
            title=title or first[:80],
            directory=directory,
            first_human=first,
            last_outcome=outcome,
            tools=tools,
            messages=messages,
        )
        fresh = entry is not None and entry.digest == hashlib.sha256(card_digest(card).encode()).hexdigest()
        summary = entry.summary if fresh and entry is not None else ""
        if summary != old:
            updates.append((sid, summary, r[10:]))
    if updates:
        with store.transaction(conn):
            for sid, summary, (identifiers, _, *card_values) in updates:
                conn.execute(
                    f"INSERT INTO card_fts(card_fts, rowid, {CARD_FTS_COLUMNS}) VALUES('delete', ?, {CARD_MARKS})",
                    (sid, *card_fts_values(card_values)),
                )
                conn.execute("UPDATE session SET summary = ? WHERE sid = ?", (summary, sid))
                new = conn.execute(
                    f"SELECT {CARD_COLUMNS}, title, first_human, last_outcome FROM session WHERE sid = ?", (sid,)
                ).fetchone()
                conn.execute(
                    f"INSERT INTO card_fts(rowid, {CARD_FTS_COLUMNS}) VALUES (?, {CARD_MARKS})",
                    (sid, *card_fts_values(new[: len(card_values)])),
                )
                # The card's vector is made from its summary too: a new text, a new hash, embedded next.
                base = vectors.card_text(new[-3], new[-2], new[-1], identifiers)
                about = "\n".join(x for x in (summary, base) if x)[: vectors.EMBED_CHARS]
                conn.execute(
                    "UPDATE session SET card_text = ?, card_hash = ? WHERE sid = ?",
                    (about, vectors.content_hash(about) if about else None, sid),
                )
    if changed_file:
        with store.transaction(conn):
            conn.execute(
                "INSERT INTO meta(key, value) VALUES ('summaries', ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (mark,),
            )
    return len(updates)
