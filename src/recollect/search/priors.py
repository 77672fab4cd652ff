"""Priors on a ranked session: where it ran against where the search is asked from, how recent it is,
and the time the query names (a preference, not a filter)."""

from __future__ import annotations

import math
import sqlite3

TIME_PREFERENCE = 0.25  # a session inside the time the query names scores this much more


def place(row: sqlite3.Row, caller: str, caller_root: str) -> float:
    directory = row["directory"] or ""
    if directory == caller:
        return 1.2
    if caller_root.rstrip("/") == "":  # the filesystem root (an agent's "global" project) is no project
        return 1.0
    if directory.startswith(caller_root + "/") or directory == caller_root or row["project_root"] == caller_root:
        return 1.1
    return 1.0


def recency(row: sqlite3.Row, now_ms: int) -> float:
    age_days = max(0.0, (now_ms - (row["time_updated"] or 0)) / 86_400_000)
    return 1.0 + 0.05 * math.exp(-age_days / 30)


def in_window(row: sqlite3.Row, window: tuple[int, int]) -> float:
    """A preference, not a filter: inside the window × (1 + TIME_PREFERENCE), fading outside it."""
    start, end = window
    updated, created = row["time_updated"] or 0, row["time_created"] or row["time_updated"] or 0
    if created <= end and updated >= start:
        return 1.0 + TIME_PREFERENCE
    distance = start - updated if updated < start else created - end
    return 1.0 + TIME_PREFERENCE * math.exp(-distance / max(end - start, 86_400_000))
