"""The sessions auto-recall never names for a cue (autorecall.py): the session asking and its family."""

from __future__ import annotations

import sqlite3


def family(conn: sqlite3.Connection, sessions: list[str]) -> list[str]:
    """`sessions` (the host's current session: `source::id`, or a raw id meaning any source) with their
    parents, children and everything under the same root, qualified like the reference they came from."""
    out: list[str] = []
    for ref in sessions:
        source, _, native = ref.rpartition("::")
        out.append(ref)
        same = "source_id = :source AND " if source else ""
        me = f"SELECT parent_id, coalesce(root_id, native_id) FROM session WHERE {same}native_id = :id"
        found = conn.execute(me, {"source": source, "id": native}).fetchone()
        parent, root = found if found else (None, native)
        # Each arm on an index (parent, root, id); an OR of them would scan the session table.
        rows = conn.execute(
            f"SELECT native_id FROM session WHERE {same}parent_id = :id "
            f"UNION SELECT native_id FROM session WHERE {same}root_id = :root "
            f"UNION SELECT :root UNION SELECT :parent",
            {"source": source, "id": native, "root": root, "parent": parent},
        ).fetchall()
        rows = [r for r in rows if r[0]]
        out.extend(f"{source}::{r[0]}" if source else r[0] for r in rows)
    return list(dict.fromkeys(out))
