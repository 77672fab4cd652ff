"""The turn re-rank promotes the reply to a question; that reply must still pass the search's filters."""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect import history
from recollect.search.scope import Filters
from tests.ui.conftest import write_transcript


@pytest.fixture
def indexed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude = tmp_path / "claude"
    project = tmp_path / "proj"
    project.mkdir()
    write_transcript(
        claude,
        "cccccccc-3333-4333-8333-333333333333",
        project,
        [
            ("user", "How do we rotate the quillfeather credentials on staging?"),
            ("assistant", [{"type": "text", "text": "Rotate the quillfeather credentials with `vault write`."}]),
        ],
    )
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    history.index()


def test_a_promoted_reply_obeys_role_and_class_filters(indexed: None) -> None:
    query = "how do we rotate the quillfeather credentials"
    roles = {h.role for h in history.search(query, sync_first=False).hits}
    assert "assistant" in roles  # positive control: the reply is what answers, and it is offered
    for filters in (Filters(roles=["user"]), Filters(classes=["user_text"]), Filters(authors=["person"])):
        hits = history.search(query, filters, sync_first=False).hits
        assert hits and all(h.role == "user" and h.klass == "user_text" for h in hits), (filters, hits)
