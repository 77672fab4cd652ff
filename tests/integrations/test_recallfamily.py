"""The sessions auto-recall never names for a cue (integrations/recallfamily.py): the asking session, its
parent, children and everything under its root, read on narrow indexes. A real index."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from recollect.config import load_config
from recollect.index import store
from recollect.index.sync import insert_session
from recollect.integrations import recallfamily
from tests.integrations.test_autorecall import PROJ, index, make

__all__ = ["index"]  # the fixture, used by name


def plain(conn: sqlite3.Connection, ref: str) -> list[str]:
    """The family as its definition reads: every session table arm scanned, the UNION's order."""
    source, _, native = ref.rpartition("::")
    same = "source_id = :source AND " if source else ""
    me = conn.execute(
        f"SELECT parent_id, coalesce(root_id, native_id) FROM session WHERE {same}native_id = :id ORDER BY sid",
        {"source": source, "id": native},
    ).fetchone()
    parent, root = me if me else (None, native)
    rows = conn.execute(
        f"SELECT native_id FROM session WHERE {same}parent_id = :id UNION SELECT native_id FROM session "
        f"WHERE {same}root_id = :root UNION SELECT :root UNION SELECT :parent",
        {"source": source, "id": native, "root": root, "parent": parent},
    ).fetchall()
    return list(dict.fromkeys([ref, *(f"{source}::{r[0]}" if source else r[0] for r in rows if r[0])]))


def test_the_family_is_its_definition_for_every_session(index: Path) -> None:
    conn = store.connect(index)
    try:
        refs = [r[0] for r in conn.execute("SELECT native_id FROM session")] + ["ses_not_indexed"]
        assert recallfamily.family(conn, ["opencode::ses_current"]) == [
            "opencode::ses_current",
            "opencode::ses_recall",
        ]  # control: the session asking and its recall subagent
        for ref in [*refs, *(f"opencode::{r}" for r in refs)]:
            assert recallfamily.family(conn, [ref]) == plain(conn, ref), ref
    finally:
        conn.close()


def test_a_root_without_a_parent_still_brings_its_sessions(index: Path) -> None:
    # The indexer gives a root only to a session with a parent; an index that holds one without is read
    # whole, so the family stays what its definition says.
    conn = store.connect(load_config().index_path)
    try:
        assert "ses_orphan" not in "".join(recallfamily.family(conn, ["ses_css"]))  # control
        insert_session(conn, make("ses_orphan", PROJ, [("an orphan", "under ses_css")]), "w", "ses_css")
        conn.commit()
        assert "opencode::ses_orphan" in recallfamily.family(conn, ["opencode::ses_css"])
        assert "ses_orphan" in recallfamily.family(conn, ["ses_css"])
        assert recallfamily.family(conn, ["ses_css"]) == plain(conn, "ses_css")
    finally:
        conn.close()
