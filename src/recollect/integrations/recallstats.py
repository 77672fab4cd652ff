"""The index statistics auto-recall reads on every cue message (autorecall.py), kept between messages
until the index changes: how many chunks hold each word (an fts5vocab lookup reads the word's whole
posting list, ~13 % of a cue's CPU at 5,000 sessions), how many chunks there are (a count over the
chunk table), and whether any session has a root but no parent (recallfamily.py).

"Until the index changes": per connection (the plugin helper keeps one for its life), while SQLite's
`data_version` (bumped by every commit of another connection, such as the idle sync's) and the
connection's own `total_changes` stay as they were. Any commit, by anyone, drops what was kept.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field

KEPT_TERMS = 50_000  # words whose counts are kept; past it, all are dropped and counted again


@dataclass
class _Kept:
    conn: sqlite3.Connection
    stamp: tuple[int, int]
    frequencies: dict[str, int] = field(default_factory=dict)
    chunks: int | None = None
    orphans: int | None = None


_KEPT: list[_Kept] = []  # the one connection kept (the helper's)
_LOCK = threading.Lock()


def _stamp(conn: sqlite3.Connection) -> tuple[int, int]:
    return int(conn.execute("PRAGMA data_version").fetchone()[0]), conn.total_changes


def _kept(conn: sqlite3.Connection) -> _Kept:
    stamp = _stamp(conn)
    with _LOCK:
        kept = _KEPT[0] if _KEPT else None
        if kept is None or kept.conn is not conn or kept.stamp != stamp:
            kept = _Kept(conn, stamp)
            _KEPT[:] = [kept]
        return kept


def document_frequencies(conn: sqlite3.Connection, terms: list[str]) -> dict[str, int]:
    """`history.document_frequencies`: per term, the chunks holding it; the counts of words asked before
    on this connection, since the index last changed, are not looked up again."""
    from recollect.history import document_frequencies as look_up

    kept = _kept(conn)
    known = {t: kept.frequencies[t] for t in terms if t in kept.frequencies}
    missing = [t for t in dict.fromkeys(terms) if t not in known]
    if missing:
        found = look_up(conn, missing)
        known.update(found)
        with _LOCK:
            if len(kept.frequencies) + len(found) > KEPT_TERMS:
                kept.frequencies.clear()
            kept.frequencies.update(found)
    return {t: known[t] for t in terms}


def chunk_count(conn: sqlite3.Connection) -> int:
    """`history.chunk_count`, kept like the frequencies."""
    from recollect.history import chunk_count as count

    kept = _kept(conn)
    if kept.chunks is None:
        kept.chunks = count(conn)
    return kept.chunks


def roots_without_parent(conn: sqlite3.Connection) -> int:
    """How many sessions have a root but no parent (none, as the indexer writes them: recallfamily.py
    reads only sessions with a parent for a root's family while this is 0), counted once per index state."""
    kept = _kept(conn)
    if kept.orphans is None:
        query = "SELECT count(*) FROM session WHERE root_id IS NOT NULL AND parent_id IS NULL"
        kept.orphans = int(conn.execute(query).fetchone()[0])
    return kept.orphans
