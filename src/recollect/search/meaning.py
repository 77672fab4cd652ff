"""The two arms that rank by meaning: the static model's nearest chunks and cards, and the full
encoder's nearest session cards. Both read vectors through the scope (sessions outside it are masked
before ranking) and are weighted by how much of the query is prose (`prose_share`)."""

from __future__ import annotations

import functools
import re
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any

from recollect.index.vectors import generation, load_matrix, sessions_without_vectors
from recollect.search.scope import Filters, SessionCounts, predicate
from recollect.text.tokenize import CJK_CHARS, identifiers_in

SEMANTIC_CANDIDATES = 300  # nearest vectors considered per query
_STATIC: list[Any] = []  # the shipped static model, loaded once per process (None: it could not be)
_STATIC_LOCK = threading.Lock()


@functools.cache
def _script_word() -> re.Pattern[str]:
    """Compiled on first use (~3 ms): a one-shot search's child process never reads a script."""
    return re.compile(rf"[{CJK_CHARS}]+|[^\W\d_{CJK_CHARS}]+")


def static_similarity(a: str, b: str) -> float | None:
    """The cosine of two texts by the static model that ships in the package (~0.1 s to load once, a
    few microseconds a text; no index vectors needed), or None when its files cannot be read."""
    with _STATIC_LOCK:
        if not _STATIC:
            from recollect.embed.base import EmbedError
            from recollect.embed.static import shipped_model

            try:
                _STATIC.append(shipped_model())
            except (EmbedError, OSError, ValueError):
                _STATIC.append(None)
    if _STATIC[0] is None:
        return None
    va, vb = _STATIC[0].embed([a, b])
    return float(va @ vb)


def in_scope(conn: sqlite3.Connection, where: str, params: list[object]) -> Any:
    """The sessions a semantic arm may return (an array of sids), or None when the scope admits all."""
    import numpy as np

    if where == "1":
        return None
    return np.fromiter((r[0] for r in conn.execute(f"SELECT sid FROM session s WHERE {where}", params)), np.int64)


def _nearest(
    conn: sqlite3.Connection, model: Any, query: str, allowed: Any, *, cards_only: bool
) -> tuple[Any, Any, Any]:
    """(matrix, rows, cosines) of the vectors of `model` nearest the query, best first. The scope is
    applied before ranking: vectors of sessions outside it are masked out."""
    import numpy as np

    from recollect.embed.topk import top_k

    matrix = load_matrix(conn, model.model_id)
    mask = (matrix.kinds == 1) if cards_only else None
    if allowed is not None:
        in_scope = np.isin(matrix.sids, allowed)
        mask = in_scope if mask is None else mask & in_scope
    if not len(matrix.ids) or (cards_only and not (matrix.kinds == 1).any()):
        return matrix, np.zeros(0, np.int64), np.zeros(0, np.float32)
    query_vec = np.asarray(model.embed([query]), dtype=np.float32)[0]
    rows, scores = top_k(matrix.matrix, query_vec, SEMANTIC_CANDIDATES, mask, matrix.scales, matrix.slots)
    return matrix, rows, scores


def semantic_candidates(
    conn: sqlite3.Connection, embedder: Any, query: str, allowed: Any = None
) -> dict[int, tuple[float, int | None]]:
    """Sessions nearest to the query by the static model, over chunks and cards, best first:
    sid -> (cosine, best chunk id or None for the card)."""
    matrix, rows, scores = _nearest(conn, embedder, query, allowed, cards_only=False)
    best: dict[int, tuple[float, int | None]] = {}
    for row, score in zip(rows.tolist(), scores.tolist(), strict=True):
        sid = int(matrix.sids[row])
        if sid not in best:
            best[sid] = (float(score), int(matrix.ids[row]) if matrix.kinds[row] == 0 else None)
        elif best[sid][1] is None and matrix.kinds[row] == 0:
            best[sid] = (best[sid][0], int(matrix.ids[row]))  # prefer a chunk to show, keep the top score
    return best


def prose_share(query: str) -> float:
    """The share of the query's words that are prose rather than code: embeddings know what words
    mean, not what an identifier names, so their arms count for less as a query becomes code."""
    words = query.split()
    if not words:
        return 0.0
    return max(0.0, 1.0 - len(identifiers_in(query)) / len(words))


def card_meaning_candidates(
    conn: sqlite3.Connection, encoder: Any, query: str, allowed: Any = None
) -> dict[int, float]:
    """Sessions whose card is nearest the query by the card encoder's meaning, best first: sid -> cosine."""
    matrix, rows, scores = _nearest(conn, encoder, query, allowed, cards_only=True)
    return {int(matrix.sids[r]): float(s) for r, s in zip(rows.tolist(), scores.tolist(), strict=True)}


def cjk_share(text: str) -> float:
    """The share of a text's words written in a CJK script (a run of CJK characters counts one word per
    two characters, about what a two-character word carries), 0.0 for a text with no words."""
    latin = cjk = 0.0
    for word in _script_word().findall(text):
        if word[0] >= "\u3040":
            cjk += max(1.0, len(word) / 2)
        else:
            latin += 1.0
    total = latin + cjk
    return cjk / total if total else 0.0


def script_gap(query: str, text: str) -> float:
    """How far apart the scripts of the query and a session's text are, 0.0 (the same) to 1.0 (a Chinese
    question about a session written in English): across the gap the two can share no word, so only the
    arms by meaning can tell whether the session answers."""
    return abs(cjk_share(query) - cjk_share(text))


def script_gaps(conn: sqlite3.Connection, sids: list[int], query: str) -> dict[int, float]:
    """For these sessions (the nearest cards by meaning), how far each one's script (title and first
    request) is from the query's: a Chinese question about an English session shares no word with it."""
    if not sids:
        return {}
    marks = ",".join("?" * len(sids))
    rows = conn.execute(f"SELECT sid, title, first_human FROM session WHERE sid IN ({marks})", sids)
    return {sid: script_gap(query, f"{title or ''} {first or ''}") for sid, title, first in rows}


def uncovered_share(shares: dict[int, float]) -> float:
    """The share of the query's term weight that even the best-covered session's words lack (0.0 when one
    session holds every word, or none was measured): how far the words fell short of the question."""
    return max(0.0, 1.0 - max(shares.values())) if shares else 0.0


@dataclass
class Arms:
    """What the arms by meaning found for one query, and `key`: what they were asked (`arms_key`), so
    that arms computed elsewhere (a one-shot search's child process, history/ahead.py) are used only
    for the very search they were computed for."""

    key: tuple[Any, ...]
    semantic: dict[int, tuple[float, int | None]]
    card_meaning: dict[int, float]
    unembedded: int  # carded sessions some model has no card vector for yet


def arms_key(
    conn: sqlite3.Connection, query: str, searched: str, filters: Filters, counts: SessionCounts, models: list[Any]
) -> tuple[Any, ...]:
    """Everything the arms' answer depends on but the vectors' contents (their generation stands for those)."""
    where, params = predicate(filters, chunk_alias=None)
    ids = tuple(m.model_id if m is not None else None for m in models)
    return (query, searched, where, tuple(params), counts.in_scope, counts.total, counts.carded, ids, generation(conn))


def arms(
    conn: sqlite3.Connection,
    query: str,
    searched: str,
    filters: Filters,
    counts: SessionCounts,
    embedder: Any,
    card_encoder: Any,
) -> Arms:
    """Both arms by meaning for `searched` (the query less its time words) within `filters`."""
    # Masking is only needed when the scope leaves some session out: reading every in-scope session id
    # into numpy (and testing each vector's session against them) cost every query at 5,000 sessions.
    session_where, session_params = predicate(filters, chunk_alias=None)
    allowed = None if counts.in_scope >= counts.total else in_scope(conn, session_where, session_params)
    semantic = semantic_candidates(conn, embedder, searched, allowed) if embedder is not None else {}
    # A query of identifiers only gives the card arm no weight (it is scaled by the prose share and never
    # rescues): not asking it spares a one-shot search loading the full encoder (~0.4 s of CPU).
    asks_cards = card_encoder is not None and prose_share(query) > 0
    card_meaning = card_meaning_candidates(conn, card_encoder, searched, allowed) if asks_cards else {}
    models = [m.model_id for m in (embedder, card_encoder) if m is not None]
    unembedded = sessions_without_vectors(conn, models, counts.carded) if models else 0
    key = arms_key(conn, query, searched, filters, counts, [embedder, card_encoder])
    return Arms(key, semantic, card_meaning, unembedded)


def meaning_only(
    conn: sqlite3.Connection, query: str, filters: Filters | None, *, now_ms: int, embedder: Any, card_encoder: Any,
    exact: bool = False,
) -> Arms:  # fmt: skip
    """The arms by meaning of `search.rank.search` with these arguments, computed by the same steps (its
    `_start`: the scope, the query's reading, the counts) without the rest of the search's modules: a
    one-shot search's child process imports no more than it needs (history/ahead.py). Where a step here
    came to differ from the search's, `arms_key` differs too, and the search computes its own."""
    from recollect.search import stages
    from recollect.search.query import understand
    from recollect.search.scope import session_counts

    filters = (filters or Filters()).resolve(conn)
    plan = understand(query, now_ms, framing=not exact and stages.on("framing"), test_ids=stages.on("test_id"))
    return arms(conn, query, plan.searched, filters, session_counts(conn, filters), embedder, card_encoder)
