"""Scoring memories against a query, as the seed defines it:

    score = term overlap × idf × scope prior × time decay × rehearsal boost

- term overlap × idf: the sum of idf over the distinct query terms a memory contains (the one
  tokenizer, so `部署` meets `部署脚本`); noisy CJK bigrams are common and idf pushes them down;
- scope prior: project 1.0, global 0.5 — on a tie the more specific memory wins;
- time decay: 0.5 ** (age / half-life) on the `updated` time; a half-life of 0 disables it, and a
  pinned memory never decays;
- rehearsal: 1 + 0.1·ln(1 + hits), from the counters recall keeps — gentle, so use cannot outvote
  relevance.

Owns the arithmetic and the "why it matched" record only; it never decides which memories are
eligible (it is handed a mask: `space.View.eligible`) and never touches files.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from recollect.memory.catalog import Loaded, RootContents
from recollect.memory.files import Memory, Scope
from recollect.text.tokenize import as_typed

SCOPE_PRIOR = {"project": 1.0, "global": 0.5}
REHEARSAL_WEIGHT = 0.1


@dataclass(frozen=True)
class Why:
    terms: dict[str, int]  # matched query term -> how many times it occurs in the memory
    relevance: float  # term overlap × idf
    scope_prior: float
    decay: float
    rehearsal: float
    hits: int  # times recall has returned this memory before
    # The query's words as typed that matched -> the most times one of their terms occurs: `terms` in the
    # user's words ("deployment", not "deployment" and its stem "deploy"). Set by recall.match_memories.
    words: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "words": self.words,
            "terms": self.terms,
            "relevance": round(self.relevance, 4),
            "scope_prior": self.scope_prior,
            "decay": round(self.decay, 4),
            "rehearsal": round(self.rehearsal, 4),
            "hits": self.hits,
        }


@dataclass(frozen=True)
class ScoredMemory:
    memory: Memory
    score: float
    why: Why


def said_as(words: Sequence[tuple[str, tuple[str, ...]]], terms: Mapping[str, int]) -> dict[str, int]:
    """`terms` a memory matched, said as the query's `words` (text/tokenize.query_words) that hold them."""
    return {said: max(terms[t] for t in tokens) for said, tokens in as_typed(words, terms).items()}


def idf(df: int, n: int) -> float:
    """BM25's idf, floored above zero so a term in every memory still counts a little."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def decay_rate(half_life_days: float) -> float:
    """The rate r of 0.5 ** (age / half-life) = exp(-r · age), per second; 0 when decay is off."""
    return math.log(2) / (half_life_days * 86400.0) if half_life_days > 0 else 0.0


def time_decay(age_seconds: float | None, *, pinned: bool, half_life_days: float) -> float:
    """0.5 ** (age / half-life); 1 for pinned or undated memories, or when decay is off (0)."""
    rate = decay_rate(half_life_days)
    if pinned or not rate or age_seconds is None or age_seconds <= 0:
        return 1.0
    return math.exp(-rate * age_seconds)


def rehearsal_boost(hits: int) -> float:
    return 1.0 + REHEARSAL_WEIGHT * math.log1p(max(0, hits))


def score_memories(
    roots: Sequence[tuple[RootContents, np.ndarray]],
    terms: Sequence[str],
    *,
    now: datetime,
    half_life_days: float,
    hits: Mapping[Scope, Mapping[str, int]],
    limit: int | None = None,
) -> list[ScoredMemory]:
    """The memories that share a term with the query, best first (ties by id, then scope).

    `roots` pairs each root's snapshot with the row mask of what may surface (`View.eligible`);
    `hits` maps scope -> memory id -> recall count. idf counts every memory file in view. The
    arithmetic runs over numpy columns, so a query matching thousands of memories stays cheap;
    only the returned ones get a `Why`.
    """
    query = list(dict.fromkeys(terms))
    if not query or not roots:
        return []
    n = sum(len(contents.files) for contents, _ in roots)
    weights = [(t, idf(sum(len(c.postings.get(t, ())) for c, _ in roots), n)) for t in query]
    now_ts = now.timestamp()
    rate = decay_rate(half_life_days)
    picked: list[tuple[float, str, Scope, Loaded]] = []
    for contents, eligible in roots:
        if not contents.files:
            continue
        scope = contents.root.scope
        relevance = np.zeros(len(contents.order))
        for term, weight in weights:
            rows = contents.term_rows(term)
            if rows.size:
                relevance[rows] += weight
        score = np.where(eligible, relevance * SCOPE_PRIOR[scope], 0.0)
        if rate:
            columns = contents.columns
            age = now_ts - columns.when_ts  # NaN when undated
            ages = np.where(columns.pinned | ~(age > 0), 0.0, age)  # pinned, undated, future: no decay
            score *= np.exp(-rate * ages)  # = time_decay per row
        for memory_id, count in hits.get(scope, {}).items():
            row = contents.position.get(memory_id)
            if row is not None and count:
                score[row] *= rehearsal_boost(count)
        rows = np.flatnonzero(score > 0)
        if limit is not None and rows.size > limit:
            # Keep everything tied with the limit-th best, so ties are then broken by id, not by chance.
            kth = np.partition(score[rows], rows.size - limit)[rows.size - limit]
            rows = rows[score[rows] >= kth]
        order = contents.order
        picked.extend((-float(score[r]), order[r].memory.id, scope, order[r]) for r in rows)
    picked.sort(key=lambda p: (p[0], p[1], p[2]))
    scored: list[ScoredMemory] = []
    for negative, _, where, loaded in picked[:limit] if limit is not None else picked:
        memory = loaded.memory
        found = {t: loaded.terms[t] for t, _ in weights if t in loaded.terms}
        matched = sum(w for t, w in weights if t in loaded.terms)
        age_s = None if loaded.when_ts is None else now_ts - loaded.when_ts
        decay = time_decay(age_s, pinned=memory.pinned, half_life_days=half_life_days)
        recalled = hits.get(where, {}).get(memory.id, 0)
        why = Why(found, matched, SCOPE_PRIOR[where], decay, rehearsal_boost(recalled), recalled)
        scored.append(ScoredMemory(memory, -negative, why))
    return scored
