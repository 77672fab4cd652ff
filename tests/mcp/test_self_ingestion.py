"""Our own tool calls are never indexed back (DESIGN principle 7), proven at the index level.

A real OpenCode store gets, the way OpenCode writes them, a completed `recollect_history_search`
tool part (what the MCP server answered lands in the store exactly like this) and an ordinary
`bash` tool part, each carrying a word found nowhere else; the session's `event_sequence.seq` is
bumped as OpenCode does on every part update. After an incremental sync the bash word is found
(positive control) and our tool's words are not — through the library and through the MCP tool.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool

ALPHA_SESSION = "ses_dd4b4cefbffeyxl9UhQgJ4OAnb"
OUR_TOOLS = ("recollect_history_search", "recollect_memory_recall", "mcp__recollect__history_read")


def plant_tool_part(store: Path, session_id: str, tool: str, input_word: str, output_word: str, n: int) -> None:
    """Append a completed tool part to the session's last assistant message, as OpenCode would."""
    conn = sqlite3.connect(store)
    try:
        message_id, created = conn.execute(
            "SELECT id, time_created FROM message WHERE session_id = ? AND json_extract(data, '$.role') = "
            "'assistant' ORDER BY time_created DESC, id DESC LIMIT 1",
            (session_id,),
        ).fetchone()
        data = {
            "type": "tool",
            "tool": tool,
            "callID": f"call_planted_{n}",
            "state": {
                "status": "completed",
                "input": {"query": input_word},
                "output": f"1 hit: the answer mentions {output_word} in a window",
                "metadata": {"truncated": False},
                "title": "",
                "time": {"start": created + 10, "end": created + 20},
            },
        }
        conn.execute(
            "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?,?)",
            (f"prt_zzzzplanted{n:04d}", message_id, session_id, created + 10, created + 20, json.dumps(data)),
        )
        # OpenCode bumps the session's event sequence on every part update: that is our watermark.
        conn.execute("UPDATE event_sequence SET seq = seq + 1 WHERE aggregate_id = ?", (session_id,))
        conn.commit()
    finally:
        conn.close()


@pytest.fixture
def store(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())  # indexed before the planting, so the planting goes through incremental sync
    return sample_db


def found(word: str) -> bool:
    return bool(history.search(word, sync_first=False).hits)


def test_our_tool_calls_are_not_indexed_while_an_ordinary_tool_output_is(store: Path) -> None:
    plant_tool_part(store, ALPHA_SESSION, "bash", "echo", "plantedbashwordqx", 0)
    for n, tool in enumerate(OUR_TOOLS, 1):
        plant_tool_part(store, ALPHA_SESSION, tool, f"ourinputqx{n}", f"ouroutputqx{n}", n)

    report = history.index(load_config())
    assert report.sources[0].updated == 1, report.summary()  # the session was re-read after the planting

    assert found("plantedbashwordqx")  # positive control: the same path indexes an ordinary tool output
    for n in range(1, len(OUR_TOOLS) + 1):
        assert not found(f"ouroutputqx{n}"), f"{OUR_TOOLS[n - 1]} output was indexed"
        assert not found(f"ourinputqx{n}"), f"{OUR_TOOLS[n - 1]} input was indexed"

    # The same through the MCP tool an agent calls.
    settings = ServerSettings(cwd=str(store.parent))
    assert "plantedbashwordqx" in call_tool("history_search", {"query": "plantedbashwordqx"}, settings).text
    reply = call_tool("history_search", {"query": "ouroutputqx1"}, settings)
    assert not reply.is_error and reply.text.startswith("No hits"), reply.text
