"""A history in which one word is in more text than a search compares (`CHUNK_CANDIDATES` passages): Claude
Code transcripts written to a temp dir, for the tests of how every surface says what limited a search."""

from __future__ import annotations

from pathlib import Path

from recollect.search.rank import CHUNK_CANDIDATES
from tests.ui.conftest import write_transcript

WORD = "pagination"  # in every message
RARE = "zanzibarquokka"  # in one message only: a search for it is limited by nothing
SESSIONS = 30


def write(root: Path, project: Path) -> Path:
    """SESSIONS transcripts under `root` (a CLAUDE_CONFIG_DIR), each of replies that all say WORD."""
    per_session = CHUNK_CANDIDATES // SESSIONS + 4
    for s in range(SESSIONS):
        turns: list[tuple[str, object]] = [("user", f"the {WORD} of the orders list breaks on page {s}")]
        for i in range(per_session):
            turns.append(("assistant", [{"type": "text", "text": f"Step {i} of session {s}: the {WORD} cursor."}]))
            turns.append(
                ("user", f"still wrong after step {i}; {WORD} skips rows" + (f" {RARE}" if s == i == 0 else ""))
            )
        write_transcript(root, f"{s:08d}-1111-4111-8111-111111111111", project, turns)
    return root
