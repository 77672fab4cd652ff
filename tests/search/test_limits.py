"""What limited a search, said in words a new user reads (`SearchResult.limits`), the same on the CLI, in the
MCP tool's reply and on the page (tests/ui/test_limits.py), while --json keeps the short names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect import history
from recollect.cli import main
from recollect.config import load_config
from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool
from tests import many_matches

CAP = "these words are in so much text that the 400 passages compared (those that match best) come from only a few"
JARGON = ("candidate cap", "limited by", "literal retry", "literally")


@pytest.fixture
def crowded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    project = tmp_path / "proj"
    project.mkdir()
    claude = many_matches.write(tmp_path / "claude", project)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    monkeypatch.setenv("RECOLLECT_SOURCES", "claude-code")
    history.index(load_config())
    return project


def test_the_cli_says_what_the_cap_and_the_limit_did_and_what_to_do(crowded: Path) -> None:
    runner = CliRunner()
    rare = runner.invoke(main, ["search", many_matches.RARE, "--no-sync"])
    assert rare.exit_code == 0 and "1 hit from 1 session" in rare.output  # positive control: nothing limited it
    assert CAP not in rare.output and "showing the best" not in rare.output

    r = runner.invoke(main, ["search", many_matches.WORD, "--no-sync", "--limit", "4"])
    assert r.exit_code == 0, r.output
    assert CAP in r.output and "add a more specific word, or narrow it (--scope project, --since 30d" in r.output
    assert "showing the best 2 of 30 matching sessions; raise --limit to see more" in r.output
    assert not [j for j in JARGON if j in r.output], r.output

    data = json.loads(runner.invoke(main, ["search", many_matches.WORD, "--no-sync", "--json"]).output)
    assert data["coverage"]["limited_by"] == ["candidate cap", "limit"]  # --json keeps its stable names


def test_the_cap_is_not_said_when_the_passages_compared_fill_the_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    # Every session says the word in many passages: the 400 compared come from more sessions than a page holds,
    # and a session past them matched more weakly than each of those: the cap changed nothing shown.
    claude = many_matches.write(tmp_path / "claude", project, heavy=many_matches.SESSIONS)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    monkeypatch.setenv("RECOLLECT_SOURCES", "claude-code")
    history.index(load_config())
    runner = CliRunner()
    data = json.loads(runner.invoke(main, ["search", many_matches.WORD, "--no-sync", "--json"]).output)
    assert data["coverage"]["limited_by"] == ["limit"], data["coverage"]  # the limit is still said
    assert len(data["hits"]) == 10
    text = runner.invoke(main, ["search", many_matches.WORD, "--no-sync"]).output
    assert "showing the best" in text and "passages compared" not in text, text


def test_the_mcp_reply_says_the_same_with_its_arguments(crowded: Path) -> None:
    settings = ServerSettings(cwd=str(crowded))
    rare = call_tool("history_search", {"query": many_matches.RARE}, settings)
    assert "cursor:" in rare.text and "note:" not in rare.text  # positive control
    reply = call_tool("history_search", {"query": many_matches.WORD, "limit": 4}, settings)
    notes = [line for line in reply.text.splitlines() if line.startswith("note: ")]
    assert notes[0].startswith("note: " + CAP)
    assert 'narrow it (scope="project", since="30d", class, tool)' in notes[0]
    assert notes[1] == "note: showing the best 2 of 30 matching sessions; raise limit to see more"
    assert not [j for j in JARGON if j in reply.text] and "--" not in "".join(notes), reply.text


def test_scope_time_window_and_the_literal_scan_in_words(crowded: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(
        main,
        ["search", many_matches.RARE, "--no-sync", "--scope", "project", "-C", str(crowded), "--since", "30y"],
    )
    assert r.exit_code == 0, r.output
    assert "only this project's sessions were searched (scope 'project')" in r.output
    assert "only sessions active in the time window (--since/--until) were searched" in r.output
    literal = runner.invoke(main, ["search", "ination cur", "--no-sync", "--exact"])
    assert "no session matched these words, so the hits are the newest text that holds 'ination cur'" in literal.output
    assert "literal match" in literal.output
    none = runner.invoke(main, ["search", "qqzzxx-nowhere", "--no-sync", "--exact"])
    assert "no session searched holds these words, nor the text as typed (a literal scan" in none.output
    for output in (r.output, literal.output, none.output):
        assert not [j for j in JARGON if j in output], output


def test_a_limit_that_is_already_a_sentence_is_kept_and_unknown_ones_pass_through() -> None:
    from recollect.search.results import CLI_OPTIONS, Coverage, SearchResult

    cov = Coverage(limited_by=["literal retry", "a limit the engine has no sentence for"])
    assert SearchResult("q", [], [], cov).limits(CLI_OPTIONS) == ["a limit the engine has no sentence for"]
    busy = Coverage(limited_by=["index being updated by another process"])
    assert SearchResult("q", [], [], busy).limits(CLI_OPTIONS)[0].startswith("another process is writing to the index")
