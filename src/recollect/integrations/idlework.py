"""What the plugin helper reads to decide whether the idle `recollect extract` is worth starting.

`recollect extract --session ID` leaves a session with fewer than `[extract] min_turns` turns a person
typed alone; most `opencode run` sessions have one. Starting it only to hear that costs a Python start
and the extractor's imports (~0.5 s of CPU), so the helper asks the index first, read-only and with
plain SQLite: importing the history or extract packages here would cost more than the run it saves.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from recollect.config import Config

# `[extract] min_turns`'s default (extract/settings.py ExtractSettings; a test holds them equal).
EXTRACT_MIN_TURNS = 4
EXTRACT_WAIT_SECONDS = 300.0  # the longest a deferred extraction waits for the idle sync it follows


def min_turns(config: Config | None) -> int | None:
    """`[extract] min_turns`, or None when it is not a number (the extractor reports that itself)."""
    value = config.section("extract").get("min_turns", EXTRACT_MIN_TURNS) if config else EXTRACT_MIN_TURNS
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def session_turns(index_path: Path, session: str) -> int | None:
    """The turns a person typed in the OpenCode session `session` (its native id), as the index at
    `index_path` holds them; None when it holds no such session or cannot be read: then only the
    extractor can tell."""
    if not index_path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{index_path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute(
                "SELECT max(turns) FROM session WHERE native_id = ? AND agent_kind = 'opencode'", (session,)
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return None if row is None or row[0] is None else int(row[0])
