"""The sessions auto-recall never names for a cue (autorecall.py): the session asking and its family.

Read on every cue message, so on the session table's narrow indexes: a pass over its wide rows (no index
serves a raw id or root_id) cost ~6 ms at 5,000 sessions, and the old reading made two."""

from __future__ import annotations

import sqlite3

from recollect.integrations import recallstats


def family(conn: sqlite3.Connection, sessions: list[str]) -> list[str]:
    """`sessions` (the host's current session: `source::id`, or a raw id meaning any source) with their
    parents, children and everything under the same root, qualified like the reference they came from."""
    out: list[str] = []
    for ref in sessions:
        source, _, native = ref.rpartition("::")
        out.append(ref)
        same = "source_id = :source AND " if source else ""
        args = {"source": source, "id": native}
        # The session itself and its children, each arm on an index ((source, id), (source, parent), or a
        # scan of the narrow scope index for a raw id).
        arms = (
            f"SELECT sid, native_id, parent_id FROM session WHERE {same}native_id = :id UNION ALL "
            f"SELECT sid, native_id, parent_id FROM session WHERE {same}parent_id = :id"
            if source
            else "SELECT sid, native_id, parent_id FROM session WHERE native_id = :id OR parent_id = :id"
        )
        rows = conn.execute(arms, args).fetchall()
        mine = [r[0] for r in rows if r[1] == native]
        found = None
        if mine:  # the first by rowid, as a scan of the table finds it
            query = "SELECT parent_id, coalesce(root_id, native_id) FROM session WHERE sid = ?"
            found = conn.execute(query, (min(mine),)).fetchone()
        parent, root = found if found else (None, native)
        children = {r[1] for r in rows if r[2] == native}
        # Only a session with a parent has a root (index/batches.root_of): those are read, unless the index
        # holds a root without a parent (counted once per index state), when every session is.
        if recallstats.roots_without_parent(conn):
            query = f"SELECT native_id FROM session WHERE {same}root_id = :root"
        else:
            with_parent = f"SELECT sid FROM session WHERE {same}parent_id IS NOT NULL"  # a narrow index
            query = f"SELECT native_id FROM session WHERE sid IN ({with_parent}) AND root_id = :root"
        under = {r[0] for r in conn.execute(query, {"source": source, "root": root})}
        # distinct and ascending, as the UNION of the three arms gave them
        kin = sorted(v for v in children | under | {root, parent} if v)
        out.extend(f"{source}::{v}" if source else v for v in kin)
    return list(dict.fromkeys(out))
