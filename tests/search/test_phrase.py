"""`--exact` (MCP `exact: true`) with two or more words is the phrase mode (search/phrase.py): hits hold the
query's words in order, stopwords kept. On a real Claude Code session that printed `bind: address already
in use`, beside sessions that hold the same words apart, out of order, or with another stopword between."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect import history
from recollect.cli import main
from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool
from recollect.search import stages
from recollect.search.phrase import holds, phrase_of
from tests.ui.conftest import write_transcript

DATA = Path(__file__).resolve().parent.parent / "data" / "claude-code"
PHRASE_SESSION = "c76e5be5-ffd2-4901-a935-885527c83a61"  # real: Blocky's `bind: address already in use`
APART = "aaaaaaaa-1111-4111-8111-111111111111"
SWAPPED = "bbbbbbbb-2222-4222-8222-222222222222"
OTHER_STOPWORD = "cccccccc-3333-4333-8333-333333333333"


@pytest.fixture
def indexed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude = tmp_path / "claude"
    project = tmp_path / "proj"
    project.mkdir()
    real = claude / "projects" / str(project).replace("/", "-")
    real.mkdir(parents=True)
    shutil.copyfile(DATA / f"{PHRASE_SESSION}.jsonl", real / f"{PHRASE_SESSION}.jsonl")
    lure = "The address field is already filled in; we use it for the invoice, the address is already in use-list."
    write_transcript(claude, APART, project, [("user", lure), ("assistant", [{"type": "text", "text": lure}])])
    swapped = "In use already: the address. Use the address already saved, already in the address book."
    write_transcript(claude, SWAPPED, project, [("user", swapped), ("assistant", [{"type": "text", "text": swapped}])])
    other = "Port 53 was taken: address already of use? The address already at use by another process."
    write_transcript(claude, OTHER_STOPWORD, project, [("user", other)])
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    history.index()


def _sessions(args: list[str]) -> tuple[dict, list[str]]:
    out = CliRunner().invoke(main, ["search", *args, "--no-sync", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    return data, list(dict.fromkeys(h["session_id"] for h in data["hits"]))


def test_exact_with_two_words_is_a_phrase_search(indexed: None) -> None:
    # Without --exact the words are searched apart: every lure holds them, so each is returned.
    ranked, sessions = _sessions(["address already in use"])
    assert {PHRASE_SESSION, APART, SWAPPED, OTHER_STOPWORD} <= set(sessions), sessions
    assert ranked["phrase"] == ""
    # --exact: the one session holding the phrase, first (positive control) ...
    exact, sessions = _sessions(["address already in use", "--exact"])
    assert exact["phrase"] == "address already in use" and not exact["literal"]
    assert sessions and sessions[0] == PHRASE_SESSION
    assert all("address already in use" in h["snippet"].lower() for h in exact["hits"]), exact["hits"]
    # ... and none where the words are apart, out of order, or joined by another stopword ("of", "at").
    assert not {APART, SWAPPED, OTHER_STOPWORD} & set(sessions), sessions
    # The text output says it searched the phrase.
    text = CliRunner().invoke(main, ["search", "address", "already", "in", "use", "--no-sync", "--exact"]).output
    assert "searched the phrase 'address already in use'" in text and PHRASE_SESSION in text


def test_mcp_exact_is_the_phrase_mode(indexed: None) -> None:
    settings = ServerSettings(cwd=str(Path.cwd()))
    ranked = call_tool("history_search", {"query": "address already in use"}, settings)
    assert APART in ranked.text  # positive control: the words apart are found by a ranked search
    exact = call_tool("history_search", {"query": "address already in use", "exact": True}, settings)
    assert PHRASE_SESSION in exact.text and "searched the phrase 'address already in use'" in exact.text
    assert APART not in exact.text and SWAPPED not in exact.text and OTHER_STOPWORD not in exact.text


def test_a_single_word_keeps_the_exact_word_search(indexed: None) -> None:
    data, sessions = _sessions(["already", "--exact"])
    assert data["phrase"] == "" and {PHRASE_SESSION, APART, SWAPPED} <= set(sessions)


def test_holds_a_phrase_word_for_word() -> None:
    assert phrase_of("address already in use", exact=True) == "address already in use"
    assert phrase_of("address already in use", exact=False) == "" and phrase_of("parseHttpResponse", exact=True) == ""
    assert holds("listen tcp :4005: bind: Address  already\nin use", "address already in use")
    assert holds("部署脚本已经完成", "部署 脚本")  # Chinese is written without spaces
    assert not holds("address already in user", "address already in use")  # a whole word, not a prefix
    assert not holds("address already of use", "address already in use")
    assert not holds("already address in use", "address already in use")


@pytest.fixture
def real_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole real Claude Code store of tests/data (62 sessions), as a person's history."""
    folder = tmp_path / "claude" / "projects" / "-x"
    folder.mkdir(parents=True)
    for path in DATA.glob("*.jsonl"):
        shutil.copyfile(path, folder / path.name)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    history.index()


def test_a_ranked_search_puts_the_session_holding_the_phrase_first(real_store: None) -> None:
    query = "address already in use"  # sessions holding the words apart outnumber the one that printed it
    sessions = list(dict.fromkeys(h.session_id for h in history.search(query, sync_first=False).hits))
    assert sessions[0] == PHRASE_SESSION, sessions  # the phrase arm: the query word for word
    assert len(sessions) >= 5  # sessions holding the words apart still come back, below it
    with stages.disabled("phrase"):
        without = list(dict.fromkeys(h.session_id for h in history.search(query, sync_first=False).hits))
    assert PHRASE_SESSION not in without[:3], without  # the arm is what lifts it
