"""One title rule (text/plain.display_title) behind every place a session is shown: the sessions
listing, its card, a read window, search hits and the hidden sessions, on real Claude Code transcripts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recollect import history
from recollect.text.plain import TITLE_CHARS

DATA = Path(__file__).resolve().parent.parent / "data" / "claude-code"
UNTITLED = "43bc3167-00a3-440e-afdf-c6c2575ef92c"  # no title record; its first line is 200+ characters
TITLED = "0a8fc187-681a-4c42-9538-ba0f628ee289"  # a legacy summary title: "Cygwin bash fork error …"


@pytest.fixture
def indexed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "claude" / "projects" / "-Users-m"
    project.mkdir(parents=True)
    for transcript in DATA.glob("*.jsonl"):  # all of them: a legacy title may sit in another session's file
        shutil.copy2(transcript, project / transcript.name)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    monkeypatch.setenv("RECOLLECT_SOURCES", "claude-code")
    history.index()


def shown_everywhere(session: str, query: str) -> dict[str, str]:
    """The title of `session` in each place that shows one."""
    everything = history.Filters(scope="all")
    (row,) = [r for r in history.sessions(everything, limit=50) if r.session_id == session]
    card = history.session_card(session, everything)
    assert card is not None
    window = history.read(row.cursor, everything, before=0, after=0)
    hits = [h.title for h in history.search(query, everything, limit=20).hits if h.session_id == session]
    assert hits, f"{query!r} finds no hit of {session}"
    history.hide_session(f"claude::{session}", why="a test")
    (hidden,) = [h.title for h in history.hidden_sessions() if h.session == f"claude::{session}"]
    return {"sessions": row.title, "card": card.title, "read": window.title, "search": hits[0], "hidden": hidden}


def test_a_session_without_a_title_is_named_by_its_first_line_in_every_place(indexed: None) -> None:
    first = history.session_card(UNTITLED, history.Filters(scope="all"))
    shown = shown_everywhere(UNTITLED, "cygheap dofork")
    assert first is not None and first.first_human.startswith("fix this :")
    # Positive control: the stand-in is the first line typed, cut with an ellipsis at TITLE_CHARS.
    assert shown["sessions"].startswith("fix this :") and len(shown["sessions"]) == TITLE_CHARS
    assert shown["sessions"].endswith("…") and shown["sessions"] != first.first_human
    assert set(shown.values()) == {shown["sessions"]}, shown


def test_a_stored_title_is_shown_in_every_place_and_never_the_first_line(indexed: None) -> None:
    shown = shown_everywhere(TITLED, "cygheap")
    assert shown["sessions"] == "Cygwin bash fork error troubleshooting attempt"
    assert set(shown.values()) == {shown["sessions"]}, shown
