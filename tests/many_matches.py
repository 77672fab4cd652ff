"""A history in which one word is in more text than a search compares (`CHUNK_CANDIDATES` passages), and
those passages come from a few sessions, so others that hold the word are left out: Claude Code transcripts
written to a temp dir, for the tests of how every surface says what limited a search."""

from __future__ import annotations

from pathlib import Path

from recollect.search.rank import CHUNK_CANDIDATES
from tests.ui.conftest import write_transcript

WORD = "pagination"  # in every session
RARE = "zanzibarquokka"  # in one message only: a search for it is limited by nothing
HEAVY = 3  # sessions that say WORD in more passages, between them, than a search compares
SESSIONS = 30


def write(root: Path, project: Path, heavy: int = HEAVY) -> Path:
    """SESSIONS transcripts under `root` (a CLAUDE_CONFIG_DIR): `heavy` of short replies that each say WORD
    twice (the passages BM25 ranks first), the others saying it once, in a longer line."""
    per_session = (CHUNK_CANDIDATES + 200) // heavy // 2 + 10  # and more than 512 texts to embed (test_progress)
    for s in range(SESSIONS):
        turns: list[tuple[str, object]] = [("user", f"the {WORD} of the orders list breaks on page {s}")]
        for i in range(per_session if s < heavy else 0):
            turns.append(("assistant", [{"type": "text", "text": f"{WORD} step {i} of {s}: the {WORD} cursor."}]))
            turns.append(("user", f"{WORD} skips rows after {i} of {s}, {WORD}" + (f" {RARE}" if s == i == 0 else "")))
        if s >= heavy:
            turns.append(("assistant", [{"type": "text", "text": "The customer's report names the page it broke on."}]))
        write_transcript(root, f"{s:08d}-1111-4111-8111-111111111111", project, turns)
    return root
