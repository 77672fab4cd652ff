"""The stage `literal` (search/phrase.py `holders_first`): a query that asks nothing was pasted from a session,
so the sessions holding it word for word rank first. On the real Claude Code store of tests/data, where
the arms by meaning and sessions holding the common words apart put another session first."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recollect import history
from recollect.search import stages
from recollect.search.query import understand

DATA = Path(__file__).resolve().parent.parent / "data" / "claude-code"
TMUX = "c10f5964-20bd-4783-aa1a-30b06c8a702a"  # its Bash printed `tmux not found`
PUBLICKEY = "f726527a-2135-406b-adf3-fc3bbe16dd91"  # ssh through a tunnel: "Permission denied (publickey)"
KEYBOARD = "343e3472-b9b6-4561-ade0-21d1a4730c11"  # ssh printed "Permission denied (publickey,keyboard-interactive)"
SETTINGS = "c76e5be5-ffd2-4901-a935-885527c83a61"  # read the Windows settings.json (3bd9cf18: the macOS one)
TMUX_CONFIG = "57bb5674-54b1-4ce6-9157-2d341cd9bfc1"  # a session about tmux: "No tmux config files found"


@pytest.fixture
def real_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, semantic: None) -> None:
    """The whole real Claude Code store of tests/data (62 sessions), as a person's history, search by meaning on."""
    folder = tmp_path / "claude" / "projects" / "-x"
    folder.mkdir(parents=True)
    for path in DATA.glob("*.jsonl"):
        shutil.copyfile(path, folder / path.name)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    history.index()


def _sessions(query: str, *off: str) -> list[str]:
    with stages.disabled(*off):
        hits = history.search(query, sync_first=False, limit=20).hits
    return list(dict.fromkeys(h.session_id for h in hits))


def test_a_pasted_line_finds_the_session_holding_it_first(real_store: None) -> None:
    pasted = (
        ("tmux not found", {TMUX}, True),
        ("C:\\Users\\Mischa\\.claude\\settings.json", {SETTINGS}, True),  # one word typed, several in the text
        # Since a tool's error keeps its tail (index/chunks.py), the phrase arm's vote alone puts both first.
        ("Permission denied (publickey)", {PUBLICKEY, KEYBOARD}, False),
    )
    for query, holding, lifted in pasted:
        found = _sessions(query)
        assert set(found[: len(holding)]) == holding, (query, found)
        assert len(found) >= 5  # the sessions holding the words apart still come back, below them
        if not lifted:
            continue
        without = _sessions(query, "literal")
        assert without[0] not in holding and holding <= set(without[:5]), (query, without)  # the stage lifts them


def test_a_question_keeps_the_fused_order(real_store: None) -> None:
    # A question mark: asked about the history, not pasted from it. The phrase arm still holds the session
    # (positive control: it is among the first), but the order is the fusion's, as with the stage off.
    found = _sessions("tmux not found?")
    assert TMUX in found[:5]
    assert found == _sessions("tmux not found?", "literal")
    assert found[0] == TMUX_CONFIG  # the fusion's first: the session about tmux, whose words "tmux ... found" match


def test_what_asks() -> None:
    assert not understand("Permission denied (publickey)").asks
    assert not understand("tests/test_x.py::test_name[param]").asks
    assert not understand("ModuleNotFoundError: No module named 'yaml'").asks
    assert understand("tmux not found?").asks  # a question mark
    assert understand("which session fixed the flaky login test").asks  # framing words
    assert understand("the deploy error from last week").asks  # a time it points at
    assert understand("上周的部署错误？").asks
