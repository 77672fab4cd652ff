"""The auto-recall block (autorecall.py finds its entries): one line per earlier session, its cursor,
a snippet of what answered, and for files of the current project whether they still exist and whether
git shows them changed since that session."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from recollect.integrations.autorecall import Entry

RECALL_TAG, RECALL_END = "<recollect-recall>", "</recollect-recall>"
RECALL_MAX_CHARS = 1_200  # per block, like seed 002's maxInjectChars for memories
GIT_TIMEOUT_S = 0.4
FILES_PER_ENTRY = 3


# --- freshness -------------------------------------------------------------------------------


def file_freshness(root: str, entries: list[Entry], timeout: float = GIT_TIMEOUT_S) -> None:
    """For files of the current project that an entry names: gone, or changed in git since that session.
    One bounded `git log` for all entries; a slow or missing git leaves the line out, never fails."""
    wanted: dict[str, str] = {}  # relative path -> absolute
    prefix = root.rstrip("/") + "/"
    for entry in entries:
        for f in entry.files:
            if f.startswith(prefix):
                wanted.setdefault(f[len(prefix) :], f)
    if not wanted or not os.path.exists(os.path.join(root, ".git")):
        return
    oldest = min(e.time for e in entries) // 1000
    changed: dict[str, int] = {}  # relative path -> newest commit time (s) that touched it
    try:
        out = subprocess.run(
            ["git", "-C", root, "log", f"--since=@{oldest}", "--format=%x00%ct", "--name-only", "--", *wanted],
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        ).stdout
        stamp = 0
        for line in out.splitlines():
            if line.startswith("\x00"):
                stamp = int(line[1:] or 0)
            elif line.strip():
                changed[line.strip()] = max(changed.get(line.strip(), 0), stamp)
    except (OSError, subprocess.SubprocessError, ValueError):
        return
    for entry in entries:
        notes = []
        for f in entry.files:
            rel = f[len(prefix) :] if f.startswith(prefix) else None
            if rel is None or rel not in wanted:
                continue
            if not Path(f).exists():
                notes.append(f"{rel} no longer exists")
            elif changed.get(rel, 0) * 1000 > entry.time:
                notes.append(f"{rel} changed in git since")
            else:
                notes.append(f"{rel} unchanged")
            if len(notes) >= FILES_PER_ENTRY:
                break
        entry.freshness = "; ".join(notes)


# --- the block -------------------------------------------------------------------------------


def one_line(text: str, limit: int) -> str:
    """`text` on one line, at most `limit` characters (an ellipsis marks the cut)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _date(ms: int) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(ms / 1000)) if ms else "?"


def format_block(cue: str, entries: list[Entry], directory: str = "", max_chars: int = RECALL_MAX_CHARS) -> str:
    """The auto-recall block, at most `max_chars`, one entry per session that answered; empty without one.
    A session that only asked the same question tells the model nothing but that it was asked: never named."""
    entries = [e for e in entries if e.answered]
    if not entries:
        return ""
    head = (
        f'{RECALL_TAG}\nAuto-recall (recollect) for "{one_line(cue, 40)}": earlier sessions of this project that '
        "may answer this. They describe the past: verify before relying on them. For more, or for a follow-up, "
        "ask @recall with the cursor."
    )
    lines: list[str] = []
    budget = max_chars - len(head) - len(RECALL_END) - 2
    for i, e in enumerate(entries, 1):
        where = "" if not directory or e.directory == directory else f", {one_line(e.directory, 60)}"
        also = f" (+{e.also_asked} asking the same)" if e.also_asked else ""
        first = f'{i}. "{one_line(e.title or "(untitled)", 70)}" ({_date(e.time)}{where}) cursor {e.cursor}{also}'
        used = sum(len(x) + 1 for x in lines)
        room = budget - used - len(first) - 1
        if room < 0:
            break
        part = [first]
        if e.snippet and room > 30:
            part.append("   " + one_line(e.snippet, min(220, room - 4)))
            room -= len(part[-1]) + 1
        if e.freshness and room > 30:
            part.append("   files: " + one_line(e.freshness, room - 11))
        lines.extend(part)
    if not lines:
        return ""
    return "\n".join([head, *lines, RECALL_END])
