"""Worker sessions close their loop: neither the extractor nor the history index reads them back.

The extractor side is held by test_run.py (a worker-titled session is skipped without a model
call). This file holds the index side, which the index owner implements: a session whose title
carries WORKER_TITLE_MARKER must not be searchable. Our workers are deleted after each call, so
this only matters for one whose deletion failed, or one synced in the seconds it exists.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from recollect import history
from recollect.text.markers import WORKER_TITLE_MARKER

from .store import Store, assistant, user


def test_worker_sessions_stay_out_of_the_index(project: Path, store: Store, configure: Callable[..., Path]) -> None:
    store.session(project, [user("plumbusword in a person's session"), assistant("ok")], title="real work")
    store.session(
        project,
        [user("Transcript: L1 user: flurbleword"), assistant('{"memories": []}')],
        title=f"{WORKER_TITLE_MARKER} extract opencode::ses_x",
    )
    history.index()
    # Positive control: the person's session is found.
    assert [h.title for h in history.search("plumbusword", sync_first=False).hits] == ["real work"]
    assert history.search("flurbleword", sync_first=False).hits == []


def test_an_unchanged_worker_session_is_not_read_again(
    project: Path, store: Store, configure: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from recollect.sources.opencode import OpenCodeSource

    requested: list[str] = []
    original = OpenCodeSource.read_sessions

    def counting(self: OpenCodeSource, ids: list[str]):  # type: ignore[no-untyped-def]
        requested.extend(ids)
        return original(self, ids)

    monkeypatch.setattr(OpenCodeSource, "read_sessions", counting)
    configure()
    person = store.session(project, [user("real work"), assistant("ok")], title="real work")
    worker = store.session(project, [user("Transcript: …")], title=f"{WORKER_TITLE_MARKER} extract opencode::x")
    first = history.index()
    assert set(requested) == {person, worker} and first.sources[0].skipped_workers == 1
    requested.clear()
    again = history.index()
    assert requested == [] and again.sources[0].skipped_workers == 1  # nothing changed: nothing read
    store.append(worker, [assistant('{"memories": []}')])
    history.index()
    assert requested == [worker]  # positive control: a changed worker session is looked at again
    assert history.search("memories", sync_first=False).hits == []  # and still not indexed
    con = sqlite3.connect(store.path)
    with con:
        for table in ("part", "message"):
            con.execute(f"DELETE FROM {table} WHERE session_id = ?", (worker,))
        con.execute("DELETE FROM session WHERE id = ?", (worker,))
    con.close()
    assert history.index().sources[0].skipped_workers == 0  # forgotten once it is gone


def test_sessions_recollect_caused_are_never_a_source_of_memories() -> None:
    from recollect.extract import is_worker_session
    from recollect.model import Message, Part, Session
    from recollect.text.markers import RECALL_AGENT

    def session(title: str, agent: str = "build") -> Session:
        ask = Message(id="m1", role="user", time=1, agent=agent, parts=[Part(id="p1", kind="text", text="deploy?")])
        return Session(id="s", source="opencode", agent_kind="opencode", title=title, directory="/p", messages=[ask])

    assert not is_worker_session(session("how do we deploy"))  # positive control: an ordinary session
    assert is_worker_session(session(f"extract {WORKER_TITLE_MARKER}"))
    assert is_worker_session(session("how do we deploy", agent=RECALL_AGENT))  # the recall subagent's run
