"""The block of curated memory put in front of a model, in three tiers of falling budget:

1. hard rules — always, whatever the message (global ones first, project ones appended);
2. the outline — the hand-written goals and one line per live memory, bounded by
   `max_outline_chars`, so it stays cheap at any number of memories;
3. bodies — the strongest matches for the current message: at most `max_inject_entries`,
   within `max_inject_chars` (both from `[memory]`).

The block opens with `INJECTION_MARKER`: the history indexer skips text carrying it, so what we
inject is never indexed back as if someone had said it. This module only reads; it does not count
hits (injection happens on every message, recall is the deliberate act the counters measure).
"""

from __future__ import annotations

from datetime import datetime

import numpy as np

from recollect.memory.compile import goals_text
from recollect.memory.files import ROOT_FILE, Memory, utcnow
from recollect.memory.recall import match_memories
from recollect.memory.space import MemorySpace, View, load_view
from recollect.memory.succession import honour_hand_successions
from recollect.text.redact import redact

INJECTION_MARKER = "<recollect-memory>"
INJECTION_END = "</recollect-memory>"
_TRUNCATED = "…"
_MIN_LINE = len("- a/b — x")


def _safe(text: str) -> str:
    """Memory text can neither close our block early nor carry a secret to a model provider."""
    return redact(text).replace("</recollect-memory", "<\\/recollect-memory")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _outline_line(memory: Memory) -> str:
    when = f" (when: {', '.join(memory.load_when)})" if memory.load_when else ""
    return f"- {memory.id} — {_one_line(memory.summary)}{when}"


def _outline_candidates(view: View, limit: int) -> tuple[list[Memory], int]:
    """The first `limit` live memories that are not rules, project before global, then pinned,
    then most recently updated; and how many there are in all. No outline line is shorter than
    _MIN_LINE, so no more than `limit` can fit: the rest are never sorted."""
    picked: list[Memory] = []
    total = 0
    for scope in ("project", "global"):
        if scope not in view.contents:
            continue
        contents = view.contents[scope]
        columns = contents.columns
        rows = np.flatnonzero(view.eligible(scope) & ~columns.rule)
        total += rows.size
        if len(picked) >= limit or not rows.size:
            continue
        when = np.nan_to_num(columns.when_ts[rows], nan=view.now.timestamp())
        # lexsort sorts by its last key first: pinned first, then newest; it is stable and rows
        # are in id order, so ties go by id.
        ordered = rows[np.lexsort((-when, ~columns.pinned[rows]))][: limit - len(picked)]
        picked.extend(contents.order[r].memory for r in ordered)
    return picked, total


def injection_block(
    space: MemorySpace,
    message: str,
    *,
    max_entries: int | None = None,
    max_chars: int | None = None,
    now: datetime | None = None,
) -> str:
    """The text to put before a model for `message`; empty when there is no memory at all."""
    settings = space.settings
    max_entries = settings.max_inject_entries if max_entries is None else max_entries
    max_chars = settings.max_inject_chars if max_chars is None else max_chars
    now = now or utcnow()
    honour_hand_successions(space, now)
    view = load_view(space, now)
    rules: list[Memory] = []
    for scope in ("global", "project"):  # global hard rules first; project rules are appended
        if scope in view.contents:
            contents = view.contents[scope]
            rows = np.flatnonzero(view.eligible(scope) & contents.columns.rule)
            rules.extend(sorted((contents.order[r].memory for r in rows), key=lambda m: m.id))
    rule_ids = {(m.scope, m.id) for m in rules}
    others, others_count = _outline_candidates(view, settings.max_outline_chars // _MIN_LINE + 1)

    sections: list[str] = []
    if rules:
        lines = [f"- {_one_line(m.summary)}" + (f" — {_one_line(m.highlight)}" if m.highlight else "") for m in rules]
        sections.append("## Hard rules (always apply)\n" + "\n".join(lines))

    goals = []
    for root in space.roots():
        path = root.path / ROOT_FILE
        if path.is_file():
            text = goals_text(path.read_text(encoding="utf-8"))
            if text:
                goals.append(text)
    if goals:
        sections.append("## Current goals\n" + "\n".join(goals))

    if others:
        lines, used = [], 0
        for i, memory in enumerate(others):
            line = _outline_line(memory)
            if used + len(line) + 1 > settings.max_outline_chars:
                lines.append(f"- … and {others_count - i} more; search them with memory_recall")
                break
            lines.append(line)
            used += len(line) + 1
        sections.append("## Memory outline (what exists; recall a topic for the full text)\n" + "\n".join(lines))

    bodies: list[str] = []
    budget = max_chars
    for scored in match_memories(view, message, limit=max_entries + len(rule_ids)):
        if len(bodies) >= max_entries or budget <= 0:
            break
        memory = scored.memory
        if (memory.scope, memory.id) in rule_ids:
            continue
        entry = _safe(f"### {memory.id} — {_one_line(memory.summary)}\n{memory.body}".rstrip())
        if len(entry) > budget:
            if budget < 80:  # a stub this short would mislead more than help
                break
            entry = entry[: budget - len(_TRUNCATED)].rstrip() + _TRUNCATED
        bodies.append(entry)
        budget -= len(entry)
    if bodies:
        sections.append("## Relevant memories\n" + "\n\n".join(bodies))

    if not sections:
        return ""
    intro = "Curated memory (recollect): notes people keep for this work. Hard rules always apply."
    return "\n".join([INJECTION_MARKER, intro, "", _safe("\n\n".join(sections)), INJECTION_END]) + "\n"
