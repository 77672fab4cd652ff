"""`recollect sessions` and `recollect read` as a person reads them: a cursor whole on its line, ready to
copy, and a session the store kept no title for named as search names it (the first line typed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main
from tests.ui.conftest import write_transcript

UNTITLED = "cccccccc-3333-4333-8333-333333333333"


def test_each_listed_session_has_its_whole_cursor_to_read(sample_db: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    listed = json.loads(runner.invoke(main, ["sessions", "-n", "50", "--json"]).output)["sessions"]
    assert len(listed) == 12  # positive control: every session, each with its cursor
    text = runner.invoke(main, ["sessions", "-n", "50"]).output
    lines = [line for line in text.splitlines() if "read: recollect read " in line]
    cursors = [line.split("read: recollect read ")[1].strip() for line in lines]
    assert cursors == [s["cursor"] for s in listed]  # in order, none cut or wrapped
    assert all(len(line) < 200 for line in text.splitlines())
    opened = runner.invoke(main, ["read", cursors[0], "--mode", "head", "--after", "0"])
    assert opened.exit_code == 0 and opened.output.startswith(listed[0]["title"])


def test_a_session_without_a_stored_title_reads_under_its_first_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claude = tmp_path / "claude"
    project = tmp_path / "project"
    project.mkdir()
    turns = [("user", "why does the deploy fail with ECONNREFUSED 5432?"), ("assistant", "Postgres is on 6543.")]
    write_transcript(claude, UNTITLED, project, turns)  # Claude Code wrote no title record for it
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    (row,) = json.loads(runner.invoke(main, ["sessions", "--json"]).output)["sessions"]
    assert row["first_human"].startswith("why does the deploy fail")
    listed = runner.invoke(main, ["sessions"]).output
    assert listed.startswith("1. why does the deploy fail with ECONNREFUSED 5432?  ")
    hit = json.loads(runner.invoke(main, ["search", "ECONNREFUSED", "--json", "--no-sync"]).output)["hits"][0]
    assert hit["title"].startswith("why does the deploy fail")  # search names it so
    read = runner.invoke(main, ["read", hit["cursor"]])
    assert read.exit_code == 0, read.output
    assert read.output.splitlines()[0] == f"why does the deploy fail with ECONNREFUSED 5432? — {project}"
    assert "(untitled)" not in read.output


COMMANDS_ONLY = "e1f813f4-3f9f-4a6f-92e7-39393c85268f"  # a Claude Code session of one typed command: /login
ANSWERED = "f551142a-ef6a-46fd-a3bf-14a924370fb0"  # a session the model answered to the end


def test_a_session_of_commands_only_is_said_so_alike_by_the_cli_and_the_mcp_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from recollect.mcp.base import ServerSettings
    from recollect.mcp.registry import call_tool

    data = Path(__file__).resolve().parents[1] / "data" / "claude-code"
    folder = tmp_path / "claude" / "projects" / "-x"
    folder.mkdir(parents=True)
    for native in (COMMANDS_ONLY, ANSWERED):
        (folder / f"{native}.jsonl").write_bytes((data / f"{native}.jsonl").read_bytes())
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    monkeypatch.setenv("RECOLLECT_SOURCES", "claude-code")
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    listed = {s["session_id"]: s for s in json.loads(runner.invoke(main, ["sessions", "--json"]).output)["sessions"]}
    assert listed[ANSWERED]["ended"] == "finished"  # positive control: an answered session
    assert listed[COMMANDS_ONLY]["ended"] == "unfinished" and listed[COMMANDS_ONLY]["assistant_messages"] == 0
    text = runner.invoke(main, ["sessions"]).output
    # Nothing was left unfinished: no message was ever sent to the model.
    assert "0 turns, commands only, no reply · read: " in text and ", finished · read: " in text, text
    assert "unfinished" not in text, text
    reply = call_tool("history_sessions", {}, ServerSettings(cwd=str(tmp_path)))
    assert "ended: commands only, no reply" in reply.text and "ended: finished" in reply.text, reply.text
    assert "unfinished" not in reply.text, reply.text
