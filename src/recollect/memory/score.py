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
eligible (ops.py filters status, validity and tombstones first) and never touches files.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from recollect.memory.catalog import Loaded
from recollect.memory.files import Memory

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

    def to_dict(self) -> dict[str, Any]:
        return {
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


def idf(df: int, n: int) -> float:
    """BM25's idf, floored above zero so a term in every memory still counts a little."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def time_decay(memory: Memory, now: datetime, half_life_days: float) -> float:
    when = memory.updated or memory.created
    if memory.pinned or half_life_days <= 0 or when is None:
        return 1.0
    age_days = max(0.0, (now - when).total_seconds() / 86400.0)
    return 0.5 ** (age_days / half_life_days)


def rehearsal_boost(hits: int) -> float:
    return 1.0 + REHEARSAL_WEIGHT * math.log1p(max(0, hits))


def score_memories(
    candidates: Sequence[Loaded],
    terms: Sequence[str],
    *,
    now: datetime,
    half_life_days: float,
    hits_of: Callable[[Memory], int],
) -> list[ScoredMemory]:
    """Candidates that share at least one term with the query, best first (ties by id)."""
    query = list(dict.fromkeys(terms))
    if not query or not candidates:
        return []
    matched: list[tuple[Loaded, dict[str, int]]] = []
    df = dict.fromkeys(query, 0)
    for loaded in candidates:
        doc_terms = loaded.terms
        found = {t: doc_terms[t] for t in query if t in doc_terms}
        if found:
            matched.append((loaded, found))
            for t in found:
                df[t] += 1
    n = len(candidates)
    weights = {t: idf(df[t], n) for t in query}
    scored: list[ScoredMemory] = []
    for loaded, found in matched:
        memory = loaded.memory
        relevance = sum(weights[t] for t in found)
        prior = SCOPE_PRIOR[memory.scope]
        decay = time_decay(memory, now, half_life_days)
        hits = hits_of(memory)
        boost = rehearsal_boost(hits)
        why = Why(found, relevance, prior, decay, boost, hits)
        scored.append(ScoredMemory(memory, relevance * prior * decay * boost, why))
    scored.sort(key=lambda s: (-s.score, s.memory.id, s.memory.scope))
    return scored
