"""Reading memories: recall (scored and counted), matching (uncounted, for injection), listing, one
memory, proposals, and the audit log."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import numpy as np

from recollect.memory import audit
from recollect.memory.files import (
    utcnow,
)
from recollect.memory.results import MemoryEntry, Recalled
from recollect.memory.score import ScoredMemory, said_as, score_memories
from recollect.memory.space import MemorySpace, View, load_view
from recollect.memory.state import add_hits
from recollect.memory.succession import honour_hand_successions
from recollect.text.tokenize import query_terms, query_words


def recall(
    space: MemorySpace,
    query: str,
    *,
    limit: int | None = None,
    category: str | None = None,
    record_hits: bool = True,
    now: datetime | None = None,
) -> list[Recalled]:
    """The memories that best match `query`, with full text and why each matched.

    Only active, currently valid, unforgotten memories are candidates. Each returned memory's
    rehearsal counter goes up unless `record_hits` is false.
    """
    now = now or utcnow()
    honour_hand_successions(space, now)
    view = load_view(space, now)
    top = match_memories(
        view, query, limit=limit if limit is not None else space.settings.recall_limit, category=category
    )
    if record_hits:
        for root in space.roots():
            add_hits(root, [s.memory.id for s in top if s.memory.scope == root.scope])
    return [Recalled(s.memory, s.score, s.why) for s in top]


def match_memories(
    view: View, message: str, *, limit: int | None = None, category: str | None = None
) -> list[ScoredMemory]:
    """Scored surfacing memories for a text, without touching counters (injection uses this)."""
    roots = []
    for scope, contents in view.contents.items():
        eligible = view.eligible(scope)
        if category is not None:
            eligible = eligible & np.array([e.memory.category == category for e in contents.order], dtype=bool)
        roots.append((contents, eligible))
    scored = score_memories(
        roots,
        query_terms(message),
        now=view.now,
        half_life_days=view.space.settings.half_life_days,
        hits=view.hits,
        limit=limit,
    )
    words = query_words(message)
    return [replace(s, why=replace(s.why, words=said_as(words, s.why.terms))) for s in scored]


def list_memories(
    space: MemorySpace, *, include_inactive: bool = False, category: str | None = None, now: datetime | None = None
) -> list[MemoryEntry]:
    view = load_view(space, now or utcnow(), exact=True)
    out: list[MemoryEntry] = []
    for entry in view.entries():
        memory = entry.memory
        status = view.status(memory)
        shadowed = view.shadowed(memory)
        if category is not None and memory.category != category:
            continue
        if not include_inactive and (status != "active" or shadowed):
            continue
        out.append(MemoryEntry(memory, status, shadowed))
    return out


def get_memory(space: MemorySpace, ref: str, *, now: datetime | None = None) -> MemoryEntry:
    view = load_view(space, now or utcnow(), exact=True)
    memory = view.find(ref).memory
    return MemoryEntry(memory, view.status(memory), view.shadowed(memory))


def proposals(space: MemorySpace, *, now: datetime | None = None) -> list[MemoryEntry]:
    """Everything awaiting a person's review, including model rules whose file claims 'active'."""
    return [e for e in list_memories(space, include_inactive=True, now=now) if e.status == "proposed"]


def most_similar(space: MemorySpace, ref: str, *, now: datetime | None = None) -> Recalled | None:
    """The surfacing memory that a proposal (or any memory) most resembles, for review side by side."""
    view = load_view(space, now or utcnow(), exact=True)
    memory = view.find(ref).memory
    query = " ".join([memory.summary, memory.highlight, *memory.load_when, memory.body[:400]])
    for scored in match_memories(view, query, limit=3):
        if scored.memory.qualified_id != memory.qualified_id:
            return Recalled(scored.memory, scored.score, scored.why)
    return None


def read_log(space: MemorySpace, *, limit: int | None = None, memory_id: str | None = None) -> list[audit.AuditEntry]:
    """Audit entries of every root, oldest first; `limit` keeps the newest."""
    entries = [e for root in space.roots() for e in audit.read_audit(root)]
    if memory_id is not None:
        entries = [e for e in entries if e.id == memory_id]
    entries.sort(key=lambda e: (e.at, e.scope))
    return entries[-limit:] if limit else entries
