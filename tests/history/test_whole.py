"""One message whole: full tool input and output, bounded by a stated character budget only."""

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
from recollect.search.read import TOOL_OUTPUT_CAP
from tests.extract.store import Store, assistant, tool, user

LONG_OUTPUT = "BEGIN-OF-LOG\n" + "\n".join(f"line {i:05d} of the build" for i in range(600)) + "\nEND-OF-LOG-7f3a"


@pytest.fixture
def long_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    path = tmp_path / "store" / "opencode.db"
    store = Store(path)
    session = store.session(
        tmp_path / "proj", [user("run the build"), assistant("running it", tool("bash", LONG_OUTPUT)), user("thanks")]
    )
    con = sqlite3.connect(path)
    with con:  # OpenCode pruned this output from the agent's context; the store still holds it
        pid, data = con.execute("SELECT id, data FROM part WHERE data LIKE '%\"tool\"%'").fetchone()
        record = json.loads(data)
        record["state"]["time"]["compacted"] = record["state"]["time"]["start"] + 1
        con.execute("UPDATE part SET data = ? WHERE id = ?", (json.dumps(record), pid))
        (message_id,) = con.execute("SELECT message_id FROM part WHERE id = ?", (pid,)).fetchone()
    con.close()
    monkeypatch.setenv("OPENCODE_DB", str(path))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index()
    assert len(LONG_OUTPUT) > TOOL_OUTPUT_CAP
    return f"opencode::{session}::{message_id}"


def test_whole_gives_the_full_tool_output_that_a_window_caps(long_message: str) -> None:
    runner = CliRunner()
    capped = runner.invoke(main, ["read", long_message, "--mode", "message"])
    assert capped.exit_code == 0 and "BEGIN-OF-LOG" in capped.output  # positive control: the message is read
    assert (
        "END-OF-LOG-7f3a"
        not in runner.invoke(main, ["read", long_message, "--mode", "message", "--format", "chatml"]).output
    )
    whole = runner.invoke(main, ["read", long_message, "--whole", "--format", "chatml"])
    assert whole.exit_code == 0, whole.output
    assert LONG_OUTPUT in whole.output and "cut" not in whole.output
    data = json.loads(runner.invoke(main, ["read", long_message, "--whole", "--format", "json"]).output)
    assert len(data["messages"]) == 1 and data["messages"][0]["blocks"][-1]["output"] == LONG_OUTPUT


def test_whole_is_cut_by_its_budget_and_says_so(long_message: str) -> None:
    out = CliRunner().invoke(main, ["read", long_message, "--whole", "--budget", "5000", "--format", "chatml"])
    assert out.exit_code == 0, out.output
    assert "BEGIN-OF-LOG" in out.output and "END-OF-LOG-7f3a" not in out.output
    assert "cut by the budget" in out.output and "the first 5000 are shown" in out.output


def test_whole_over_mcp(long_message: str) -> None:
    settings = ServerSettings(cwd="/")
    window = call_tool("history_read", {"cursor": long_message, "mode": "message"}, settings)
    assert "BEGIN-OF-LOG" in window.text and "END-OF-LOG-7f3a" not in window.text  # capped per part
    whole = call_tool("history_read", {"cursor": long_message, "mode": "message", "whole": True}, settings)
    assert not whole.is_error and LONG_OUTPUT in whole.text
    small = call_tool("history_read", {"cursor": long_message, "whole": True, "budget": 3000}, settings)
    assert "END-OF-LOG-7f3a" not in small.text and "cut by the budget" in small.text


def test_whole_refuses_a_mode_that_is_not_one_message(long_message: str) -> None:
    assert CliRunner().invoke(main, ["read", long_message, "--whole", "--mode", "message"]).exit_code == 0
    out = CliRunner().invoke(main, ["read", long_message, "--whole", "--mode", "head"])
    assert out.exit_code == 1 and "whole" in out.output and "Traceback" not in out.output
