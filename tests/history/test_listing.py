"""Listings: a session's statistics, and a parent's children with how each ended."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect import history
from recollect.cli import main
from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool
from tests.extract.store import Store, assistant, tool, user


def end_with_error(store: Path, session_id: str, error: dict[str, object]) -> None:
    """Make the session's last assistant message end as OpenCode records an abort or a failure."""
    con = sqlite3.connect(store)
    with con:
        mid, data = con.execute(
            "SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created DESC LIMIT 1", (session_id,)
        ).fetchone()
        record = json.loads(data)
        record["time"].pop("completed", None)
        record["error"] = error
        con.execute("UPDATE message SET data = ? WHERE id = ?", (json.dumps(record), mid))
    con.close()


@pytest.fixture
def family(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    path = tmp_path / "store" / "opencode.db"
    store = Store(path)
    project = tmp_path / "proj"
    parent = store.session(
        project,
        [user("hello there"), assistant("hi", tool("bash", "a.txt b.txt")), user("and more"), assistant("done")],
        title="the parent",
    )
    done = store.session(project, [user("check files"), assistant("all good")], title="child done", parent=parent)
    cancelled = store.session(project, [user("slow task"), assistant("working")], title="child cut", parent=parent)
    failed = store.session(project, [user("fetch it"), assistant("…")], title="child failed", parent=parent)
    other = store.session(project, [user("elsewhere"), assistant("ok")], title="other parent")
    stranger = store.session(project, [user("not ours"), assistant("ok")], title="other child", parent=other)
    end_with_error(path, cancelled, {"name": "MessageAbortedError", "data": {"message": "The operation was aborted."}})
    end_with_error(path, failed, {"name": "APIError", "data": {"message": "HTTP 400"}})
    monkeypatch.setenv("OPENCODE_DB", str(path))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index()
    return {"parent": parent, "done": done, "cancelled": cancelled, "failed": failed, "stranger": stranger}


def test_sessions_carry_their_statistics_in_the_cli_and_over_mcp(family: dict[str, str]) -> None:
    out = CliRunner().invoke(main, ["sessions", "--json", "--session", family["parent"]])
    assert out.exit_code == 0, out.output
    (row,) = json.loads(out.output)["sessions"]
    tool_input = json.dumps({"command": "ls"}, ensure_ascii=False)
    assert {k: row[k] for k in ("messages", "turns", "assistant_messages", "tool_messages", "text_parts")} == {
        "messages": 4,
        "turns": 2,
        "assistant_messages": 2,
        "tool_messages": 1,
        "text_parts": 4,
    }
    assert row["approx_context_chars"] == len("hello therehiand moredonea.txt b.txt" + tool_input)
    assert row["ended"] == "finished"
    reply = call_tool("history_sessions", {"limit": 100}, ServerSettings(cwd="/"))
    data = next(s for s in reply.structured["sessions"] if s["session_id"] == family["parent"])
    assert data["turns"] == 2 and data["approx_context_chars"] == row["approx_context_chars"]
    assert "4 messages, 2 turns" in reply.text


def test_a_parents_children_are_listed_with_how_each_ended(family: dict[str, str]) -> None:
    everything = json.loads(CliRunner().invoke(main, ["sessions", "--json"]).output)["sessions"]
    assert family["stranger"] in {r["session_id"] for r in everything}  # positive control: all are listed
    out = CliRunner().invoke(main, ["sessions", "--parent", family["parent"], "--json"])
    assert out.exit_code == 0, out.output
    children = {r["session_id"]: r["ended"] for r in json.loads(out.output)["sessions"]}
    assert children == {family["done"]: "finished", family["cancelled"]: "cancelled", family["failed"]: "error"}
    qualified = CliRunner().invoke(main, ["sessions", "--parent", f"opencode::{family['parent']}", "--json"])
    assert {r["session_id"] for r in json.loads(qualified.output)["sessions"]} == set(children)
    table = CliRunner().invoke(main, ["sessions", "--parent", family["parent"]]).output
    assert "cancelled" in table and "error" in table

    reply = call_tool("history_sessions", {"parent": family["parent"]}, ServerSettings(cwd="/"))
    assert not reply.is_error
    assert {s["session_id"] for s in reply.structured["sessions"]} == set(children)
    assert "ended: cancelled" in reply.text and "ended: error" in reply.text and family["stranger"] not in reply.text


def test_a_session_without_children_says_so(family: dict[str, str]) -> None:
    out = CliRunner().invoke(main, ["sessions", "--parent", family["done"]])
    assert out.exit_code == 0 and "No children" in out.output
