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

from recollect.memory.compile import goals_text, is_hard_rule
from recollect.memory.files import ROOT_FILE, Memory, utcnow
from recollect.memory.ops import match_memories
from recollect.memory.space import MemorySpace, load_view
from recollect.text.redact import redact

INJECTION_MARKER = "<recollect-memory>"
INJECTION_END = "</recollect-memory>"
_TRUNCATED = "…"


def _safe(text: str) -> str:
    """Memory text can neither close our block early nor carry a secret to a model provider."""
    return redact(text).replace("</recollect-memory", "<\\/recollect-memory")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _outline_line(memory: Memory) -> str:
    when = f" (when: {', '.join(memory.load_when)})" if memory.load_when else ""
    return f"- {memory.id} — {_one_line(memory.summary)}{when}"


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
    view = load_view(space, now or utcnow())
    surfacing = [e.memory for e in view.surfacing()]
    rules = sorted((m for m in surfacing if is_hard_rule(m)), key=lambda m: (m.scope != "global", m.id))
    rule_ids = {(m.scope, m.id) for m in rules}
    others = [m for m in surfacing if (m.scope, m.id) not in rule_ids]

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
        # Pinned and recent first, so the bounded outline keeps what matters most.
        def rank(m: Memory) -> tuple[bool, bool, float]:
            return (m.scope != "project", not m.pinned, -(m.updated or m.created or view.now).timestamp())

        ordered = sorted(others, key=rank)
        lines, used = [], 0
        for i, memory in enumerate(ordered):
            line = _outline_line(memory)
            if used + len(line) + 1 > settings.max_outline_chars:
                lines.append(f"- … and {len(ordered) - i} more; search them with memory_recall")
                break
            lines.append(line)
            used += len(line) + 1
        sections.append("## Memory outline (what exists; recall a topic for the full text)\n" + "\n".join(lines))

    bodies: list[str] = []
    budget = max_chars
    for scored in match_memories(view, message):
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
