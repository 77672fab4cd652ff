"""The recall subagent's own runs are left out of searches and listings unless asked for (echo)."""

from __future__ import annotations

from pathlib import Path

from recollect.index import store
from recollect.index.sync import insert_session
from recollect.model import Message, Part, Session
from recollect.search.rank import search
from recollect.search.read import resolve_cursor
from recollect.search.scope import Filters, predicate
from recollect.text.markers import RECALL_AGENT


def make(sid: str, agent: str, question: str, reply: str, parent: str | None = None) -> Session:
    return Session(
        id=sid,
        source="opencode",
        agent_kind="opencode",
        title=question[:40],
        directory="/p",
        parent_id=parent,
        time_created=1_790_000_000_000,
        time_updated=1_790_000_000_000,
        messages=[
            Message(
                id=sid + "u", role="user", time=1, agent=agent, parts=[Part(id=sid + "1", kind="text", text=question)]
            ),
            Message(id=sid + "a", role="assistant", time=2, parts=[Part(id=sid + "2", kind="text", text=reply)]),
        ],
    )


def test_recall_runs_are_found_only_when_asked(tmp_path: Path) -> None:
    conn = store.connect(tmp_path / "index.db")
    insert_session(
        conn, make("ses_src", "build", "which queue library?", "We decided on rqworker, not celery."), "w", None
    )
    insert_session(
        conn,
        make("ses_rec", RECALL_AGENT, "which queue library did we pick?", "You picked rqworker (ses_src).", "ses_par"),
        "w",
        None,
    )
    assert conn.execute("SELECT origin FROM session WHERE native_id = 'ses_rec'").fetchone()[0] == "recall"
    # Positive control: asked for, the recall run is there (and ranks first: it repeats the question).
    asked = search(conn, "rqworker queue library", Filters(include_recall=True))
    assert {h.session_id for h in asked.hits} == {"ses_src", "ses_rec"}
    plain = search(conn, "rqworker queue library")
    assert {h.session_id for h in plain.hits} == {"ses_src"}
    where, params = predicate(Filters(), chunk_alias=None)
    listed = {r[0] for r in conn.execute(f"SELECT native_id FROM session s WHERE {where}", params)}
    assert listed == {"ses_src"}
    # Named explicitly (a cursor, a session filter), it is readable.
    row, _ = resolve_cursor(conn, "opencode::ses_rec")
    assert row["native_id"] == "ses_rec"
    named = search(conn, "rqworker", Filters(scope="session", sessions=["ses_rec"]))
    assert {h.session_id for h in named.hits} == {"ses_rec"}
    conn.close()


def test_the_message_being_answered_is_never_a_hit(tmp_path: Path) -> None:
    conn = store.connect(tmp_path / "index.db")
    insert_session(conn, make("ses_a", "build", "rqworker question", "rqworker answer"), "w", None)
    assert {h.message_id for h in search(conn, "rqworker").hits} == {"ses_au", "ses_aa"}  # positive control
    hits = search(conn, "rqworker", Filters(exclude_messages=["ses_au"])).hits
    assert {h.message_id for h in hits} == {"ses_aa"}
    conn.close()
