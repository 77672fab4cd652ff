"""Our own tool's answer, restated by the agent that called it (text/relays.py): when the main agent calls
`recollect_history_search` itself (the MCP instructions invite it) and writes out what it found, those
sentences are recollect's text, not the session's work, so a later search for the error finds the session
that had it, not the session that quoted our reply. Over a real OpenCode store and index: the quoting
session's tool part holds the reply `history_search` really gave, and its text quotes that reply."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.index import chunks, migrations, store
from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool
from recollect.model import Session
from recollect.search.read import render_text
from recollect.search.scope import Filters
from recollect.text import relays as relay_rule
from recollect.text.markers import is_our_tool
from recollect.text.relays import RELAYED_OMITTED, Relays
from tests.extract.store import T0, Store, assistant, tool, user

QUERY = "ECONNREFUSED 5432"
ERROR = (
    "Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)"
)
OWN_WORDS = "pg_isready healthcheck"  # what the quoting session did next, in its own words


def search_part(query: str, reply: str) -> dict[str, object]:
    """A completed call of our MCP tool, as OpenCode 1.18.33 stores it (its name prefixed by the server's)."""
    return {
        "type": "tool",
        "tool": "recollect_history_search",
        "callID": "call_00007_5e1a2b3c",
        "state": {
            "status": "completed",
            "input": {"query": query, "limit": 5},
            "output": reply,
            "title": "",
            "time": {"start": T0, "end": T0 + 400},
        },
    }


def recall_only(session: Session) -> Relays:
    """The relay rule before version 3: it read the recall agent's answers only, none of our tools'."""
    ours = [p for m in session.messages for p in m.parts if is_our_tool(p.tool)]
    for p in ours:
        p.tool = "bash"  # not ours to the rule; chunks still drop the call as ours once it is restored
    try:
        return relay_rule.relays(session)
    finally:
        for p in ours:
            p.tool = "recollect_history_search"


def _found(query: str) -> list[str]:
    return [h.session_id for h in history.search(query, Filters(), sync_first=False).hits]


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    project = tmp_path / "api"
    (project / ".git").mkdir(parents=True)
    store = Store(tmp_path / "store" / "opencode.db")
    had = store.session(
        project,
        [
            user("npm run dev fails right after start, the api cannot reach the database"),
            assistant(
                "Let me run it and read the error.",
                tool("bash", ERROR, command="npm run dev"),
            ),
            assistant(
                "Postgres was not running. I started it with docker compose up -d db and the api connects now.",
                tool("bash", "Container api-db-1  Started", command="docker compose up -d db"),
            ),
        ],
        title="api cannot reach the database",
    )
    for topic in ("the settings page layout", "the release notes for 2.3"):
        store.session(project, [user(f"tidy up {topic}"), assistant(f"I tidied up {topic}.")], title=topic)
    monkeypatch.setenv("OPENCODE_DB", str(store.path))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())
    reply = call_tool("history_search", {"query": QUERY, "limit": 5}, ServerSettings(cwd=str(project))).text
    assert QUERY.split()[0] in reply and had in reply  # our tool really found it
    # The agent quotes the hit it was given, line for line, then says what it does next in its own words.
    first_hit = [line.strip() for line in reply.splitlines()[1:4] if not line.strip().startswith("cursor:")]
    quoted = "We hit this before. recollect's history search found:\n\n" + "\n".join(f"> {line}" for line in first_hit)
    quoted += f"\n\nSo I will add a {OWN_WORDS} to docker-compose.yml, and the api service waits on it."
    quoting = store.session(
        project,
        [
            user("the api will not start again, what was that database problem last time?"),
            assistant(search_part(QUERY, reply)),
            assistant(quoted),
        ],
        title="api does not start",
    )
    history.index(load_config())
    return {"had": had, "quoting": quoting, "quoted": quoted}


def test_a_session_quoting_our_search_reply_is_not_found_by_the_error(world: dict[str, str]) -> None:
    assert QUERY.split()[0] in world["quoted"] and QUERY.split()[1] in world["quoted"]  # it does quote the error
    hits = _found(QUERY)
    assert hits and hits[0] == world["had"]  # positive control: the session that had the error comes first
    # The quoting session said the error only by restating our reply: nowhere in the error's hits.
    assert world["quoting"] not in hits[:5] and world["quoting"] not in hits
    assert world["quoting"] in _found(OWN_WORDS)  # its own words still find it


def test_before_this_rule_the_quoting_session_outranked_or_joined_the_session_that_had_it(
    world: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Control: the world reproduces the echo. With only the recall agent's answers hidden (the rule before
    our tools' outputs were read), the quoting session is in the error's top 5."""
    assert recall_only(Session(id="s", source="opencode", agent_kind="opencode", title="", directory="/p")) == Relays()

    with monkeypatch.context() as patch:
        patch.setattr(chunks, "relays", recall_only)
        load_config().index_path.unlink()
        history.index(load_config())
        hits = _found(QUERY)
    assert world["quoting"] in hits[:5], hits


def test_the_quoting_session_keeps_its_own_words_in_the_index_and_reads_with_a_marker(world: dict[str, str]) -> None:
    conn = sqlite3.connect(load_config().index_path)
    try:
        joined = " ".join(
            r[0]
            for r in conn.execute(
                "SELECT c.text FROM chunk c JOIN session s USING (sid) WHERE s.native_id = ?", (world["quoting"],)
            )
        )
        derived = conn.execute("SELECT derived FROM session WHERE native_id = ?", (world["quoting"],)).fetchone()[0]
    finally:
        conn.close()
    assert OWN_WORDS in joined and "database problem last time" in joined  # positive control: its own text
    assert "ECONNREFUSED" not in joined and "5432" not in joined
    assert derived == f"relays:{relay_rule.RULE_VERSION}"  # shaped by the rule: re-read when it changes
    shown = render_text(history.read(f"opencode::{world['quoting']}", mode="head"))
    assert OWN_WORDS in shown and RELAYED_OMITTED in shown and "5432" not in shown


HELD = "SELECT count(*) FROM chunk c JOIN session s USING (sid) WHERE s.native_id = ? AND c.text LIKE ?"


def _as_schema_15(path: Path) -> None:
    """What recollect before version 3 of the relay rule left: its meta, its migrations, nothing tagged."""
    old = store.connect(path)
    old.execute("UPDATE session SET derived = ''")  # only recall parents were tagged, and this world has none
    old.execute("UPDATE meta SET value = 'relays:2' WHERE key = 'derivations'")
    old.execute("DELETE FROM migrations WHERE name = '016_own_tool_relays'")
    old.execute("PRAGMA user_version=15")
    old.close()


def test_an_index_of_schema_15_rereads_the_sessions_that_called_our_tools(
    world: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = load_config().index_path
    with monkeypatch.context() as patch:
        patch.setattr(chunks, "relays", recall_only)
        path.unlink()
        history.index(load_config())
    _as_schema_15(path)
    conn = sqlite3.connect(path)  # not store.connect: that would migrate it
    assert conn.execute(HELD, (world["quoting"], "%5432%")).fetchone()[0] > 0  # positive control: the echo held
    conn.close()

    # Control: the version alone re-reads none of them (they were never tagged): without the migration,
    # a sync leaves the echo where it was.
    with monkeypatch.context() as patch:
        patch.setattr(migrations, "MIGRATIONS", [m for m in migrations.MIGRATIONS if m[0] != "016_own_tool_relays"])
        report = history.index(load_config())
    assert report.changed == 0 and report.rederived == 0
    conn = sqlite3.connect(path)
    assert conn.execute(HELD, (world["quoting"], "%5432%")).fetchone()[0] > 0
    conn.close()
    _as_schema_15(path)

    report = history.index(load_config())  # the store did not change: only the rule did
    assert [(s.id, s.updated) for s in report.sources] == [("opencode", 1)] and report.rederived == 1
    conn = store.connect(path)
    assert conn.execute(HELD, (world["quoting"], "%5432%")).fetchone()[0] == 0
    assert conn.execute(HELD, (world["quoting"], f"%{OWN_WORDS}%")).fetchone()[0] > 0
    assert conn.execute(HELD, (world["had"], "%ECONNREFUSED%")).fetchone()[0] > 0  # the work is still found
    conn.close()
    assert history.index(load_config()).changed == 0  # and once re-read, it stays
