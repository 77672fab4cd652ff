"""What `recollect sessions` and `index` say of real Claude Code transcripts (tests/data/claude-code): a
sub-agent is titled by its request and names its parent, a file of title records only is no session,
and titles are plain text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from recollect.cli import main
from recollect.sources.claude_code_records import WARMUP_TITLE

DATA = Path(__file__).resolve().parent.parent / "data" / "claude-code"
PARENT = "abc757d1-3da3-42fb-bb7b-ffa293a4ba29"
SUMMARY_ONLY = "e6804af6-fe01-478c-9e10-75e94f3e93cb"


def indexed(*names: str) -> tuple[str, dict[str, dict[str, Any]], str]:
    """Index these transcripts as the user's Claude Code store: (index summary, sessions by id, listing)."""
    project = Path.home() / ".claude" / "projects" / "-Users-m-projects"
    project.mkdir(parents=True)
    for name in names:
        (project / f"{name}.jsonl").write_bytes((DATA / f"{name}.jsonl").read_bytes())
    runner = CliRunner()
    done = runner.invoke(main, ["index"], env={"RECOLLECT_SOURCES": "claude-code"})
    assert done.exit_code == 0, done.output
    listed = runner.invoke(main, ["sessions", "--json"])
    text = runner.invoke(main, ["sessions"]).output
    return done.stdout, {s["session_id"]: s for s in json.loads(listed.output)["sessions"]}, text


def test_a_sub_agent_is_titled_by_its_request_and_names_its_parent() -> None:
    _, sessions, listing = indexed(PARENT, "agent-abc3cb6", "agent-ac46b1a")
    assert sessions[PARENT]["title"] and sessions[PARENT]["parent_id"] is None  # positive control: the main one
    explore = sessions["agent-abc3cb6"]
    assert explore["title"] == "Explore this repository thoroughly to understand: (subagent)", explore["title"]
    assert explore["parent_id"] == PARENT
    assert sessions["agent-ac46b1a"]["title"] == WARMUP_TITLE  # its only request was Claude Code's "Warmup"
    assert "(untitled)" not in listing
    lines = listing.splitlines()
    for sid, child in (("agent-abc3cb6", True), ("agent-ac46b1a", True), (PARENT, False)):
        size = next(line for line in lines if line.endswith(f"recollect read claude::{sid}"))
        assert (f"subagent of claude::{PARENT}" in size) is child, size


def test_a_file_of_title_records_only_is_no_session_and_is_counted_apart() -> None:
    records = [json.loads(line) for line in (DATA / f"{SUMMARY_ONLY}.jsonl").read_text().splitlines()]
    assert [r["type"] for r in records] == ["summary"]  # what the file holds: one legacy title
    summary, sessions, listing = indexed(SUMMARY_ONLY, "3bd9cf18-3c9b-42f5-8fd1-47f5456c1fec")
    assert "3bd9cf18-3c9b-42f5-8fd1-47f5456c1fec" in sessions  # positive control: a real session beside it
    assert SUMMARY_ONLY not in sessions and " 0 messages" not in listing
    assert summary.startswith("claude: 1 session (+1 new, "), summary
    assert f"1 file left out as no session (first: {SUMMARY_ONLY}: only summary records" in summary, summary
    again = CliRunner().invoke(main, ["index"], env={"RECOLLECT_SOURCES": "claude-code"}).output
    assert "(+0 new, 0 updated, -0 removed)" in again and "1 file left out as no session" in again, again
    doctor = CliRunner().invoke(main, ["doctor"], env={"RECOLLECT_SOURCES": "claude-code"}).stdout
    assert "[ok, 1 session indexed, " in doctor and "(1 session, " in doctor, doctor  # one, in the singular
    assert "1 file left out as no session" in doctor, doctor
    assert json.loads(CliRunner().invoke(main, ["doctor", "--json"]).stdout)["sources"][0]["not_sessions"] == 1


def test_titles_are_plain_text() -> None:
    # Claude Code wrote this session's legacy title, in markdown, into another session's file.
    other = (DATA / "c76e5be5-ffd2-4901-a935-885527c83a61.jsonl").read_text(encoding="utf-8").splitlines()[0]
    assert json.loads(other)["summary"] == "**Router hardening complete: cloud/VPN/telemetry removal**"
    _, sessions, listing = indexed("ff59cfd2-09dc-4a18-8c9f-0d46c3d4e8cd", "c76e5be5-ffd2-4901-a935-885527c83a61")
    title = sessions["ff59cfd2-09dc-4a18-8c9f-0d46c3d4e8cd"]["title"]
    assert title == "Router hardening complete: cloud/VPN/telemetry removal"
    assert "**" not in listing
    read = CliRunner().invoke(main, ["read", "claude::ff59cfd2-09dc-4a18-8c9f-0d46c3d4e8cd", "--mode", "head"])
    assert read.exit_code == 0 and title in read.output and "**Router" not in read.output, read.output[:500]


def test_a_first_line_standing_in_for_a_title_says_where_it_was_cut() -> None:
    sid = "f225835b-3612-4093-903f-bd4538fb7cb9"  # no stored title: its first request stands in
    _, sessions, listing = indexed(sid)
    first = sessions[sid]["first_human"]
    assert len(first) > 80 and first.startswith("when running gitleaks scan")  # positive control: a long line
    title = sessions[sid]["title"]
    assert len(title) == 80 and title.endswith("…") and first.startswith(title[:-1]), title
    assert f"1. {title}  " in listing
    found = CliRunner().invoke(main, ["search", "gitleaks", "--no-sync", "--json"])
    assert {hit["title"] for hit in json.loads(found.stdout)["hits"]} == {title}, found.stdout[:300]
