"""Ranked search over the index: candidates from up to four arms, fused per session, explained.

Arms: chunk-level BM25 (what was said, run, or printed) and card-level BM25 (title, first line a
person typed, identifier / file / error inventories); with semantic search on, the static model's
nearest chunks and cards, and the full encoder's nearest session cards. All read through the one
scope predicate. Per session the arms are fused by reciprocal rank (the two by meaning scaled by how
much of the query is prose), then weighted by how many distinct query terms the session covers, by
directory relevance (same directory > same project > elsewhere) and a small recency prior. A session
sharing no word with the query enters only through the card arm's rescue lane. The first page shows
at most `per_session` hits of one session. Every result carries a `Coverage` that says what was
searched and what limited it. The weights were decided on the relevance eval (docs/eval.md).
"""

from __future__ import annotations

import math
import re
import sqlite3
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from recollect.index.vectors import load_matrix, sessions_without_vectors
from recollect.search.scope import Filters, predicate
from recollect.text.tokenize import identifiers_in, query_terms, stem
from recollect.times import iso

CHUNK_CANDIDATES = 400
CARD_CANDIDATES = 100
RRF_K = 40
SEMANTIC_WEIGHT = 0.5  # weight of the static model's arm in the fusion (decided on the eval)
SEMANTIC_WEIGHT_WITH_CARDS = 0.25  # ... beside the sharper session-card arm, which then carries the meaning
SEMANTIC_CANDIDATES = 300  # nearest vectors considered per query
RESCUE_WEIGHT = 0.5  # a rescued session's fused score, against a lexical match's
CARD_MEANING_WEIGHT = 1.0  # weight of the card-meaning arm (full encoder over session cards)
RESCUE_NEAREST_CARDS = 3  # a session with no shared words enters if it is among the nearest cards by meaning
RESCUE_MIN_COSINE = 0.2  # text about nothing in the history reached 0.164 on the eval corpus
# title, head, idents, files, errors, outcome, decisions, summary (seed 000 weighs the summary 1.8 x the title)
CARD_WEIGHTS = (3.0, 2.0, 2.0, 1.5, 1.5, 1.0, 1.5, 5.4)
SNIPPET_CHARS = 280


@dataclass
class Hit:
    session_id: str
    source: str
    agent_kind: str
    message_id: str
    part_id: str | None
    cursor: str
    score: float
    title: str
    directory: str
    time: int
    role: str
    klass: str
    author: str
    tool: str | None
    snippet: str
    matched: list[str]
    why: str  # terms (words matched) | semantic (meaning only) | both
    parent_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["class"] = data.pop("klass")
        data["time_iso"] = iso(self.time)
        return data


@dataclass
class Coverage:
    sessions_indexed: int = 0
    sessions_in_scope: int = 0
    sessions_matched: int = 0
    sessions_returned: int = 0
    hits_returned: int = 0
    scope: str = "all"
    limited_by: list[str] = field(default_factory=list)
    skipped_by_reason: dict[str, int] = field(default_factory=dict)
    sources: list[dict[str, Any]] = field(default_factory=list)
    hint: str = ""


@dataclass
class SearchResult:
    query: str
    terms: list[str]
    hits: list[Hit]
    coverage: Coverage
    took_ms: float = 0.0
    corrections: dict[str, str] = field(default_factory=dict)  # typo -> the indexed word searched instead

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "terms": self.terms,
            "corrections": self.corrections,
            "hits": [h.to_dict() for h in self.hits],
            "coverage": asdict(self.coverage),
            "took_ms": round(self.took_ms, 1),
        }


def make_cursor(source: str, session_id: str, message_id: str) -> str:
    """Opaque to callers; qualified by source so several stores never collide."""
    return f"{source}::{session_id}::{message_id}" if message_id else f"{source}::{session_id}"


def fts_match(terms: list[str]) -> str:
    # Our tokens never contain a double quote; quoting keeps joiners like '/' and ':' literal.
    return " OR ".join(f'"{t}"' for t in terms)


def snippet(text: str, terms: list[str], width: int = SNIPPET_CHARS) -> str:
    lowered = text.lower()
    best = -1
    for term in terms:
        # Map a token back to the raw text: the first literal occurrence of the token or its first part.
        probe = term.split("/")[-1] if "/" in term else term
        idx = lowered.find(probe)
        if idx >= 0 and (best < 0 or idx < best):
            best = idx
    flat = re.sub(r"\s+", " ", text)
    if best < 0 or len(flat) <= width:
        return flat[:width] + ("…" if len(flat) > width else "")
    # Re-find in the flattened text so whitespace collapsing does not shift the window.
    anchor = flat.lower().find(lowered[best : best + 20].split()[0] if lowered[best:].split() else "")
    anchor = max(anchor, 0)
    start = max(0, anchor - width // 3)
    end = min(len(flat), start + width)
    return ("…" if start else "") + flat[start:end] + ("…" if end < len(flat) else "")


def _ensure_vocab(conn: sqlite3.Connection) -> None:
    """Per-connection views of FTS term statistics (document frequency per term)."""
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.chunk_vocab USING fts5vocab(main, chunk_fts, row)")
    except sqlite3.OperationalError as exc:
        if "already exists" not in str(exc):
            raise


def document_frequencies(conn: sqlite3.Connection, terms: list[str]) -> dict[str, int]:
    _ensure_vocab(conn)
    marks = ",".join("?" * len(terms))
    found = dict(conn.execute(f"SELECT term, doc FROM temp.chunk_vocab WHERE term IN ({marks})", terms).fetchall())
    return {t: int(found.get(t, 0)) for t in terms}


def _edit_distance(a: str, b: str, limit: int) -> int:
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def correct_typo(conn: sqlite3.Connection, term: str) -> str | None:
    """The most frequent indexed term within a small edit distance of an unknown `term`, if any.

    Candidates share the first two characters (typos there are rare), which keeps the vocabulary
    scan to one short range of the term index."""
    if len(term) < 4 or not term.isalpha():
        return None
    _ensure_vocab(conn)
    limit = 1 if len(term) <= 5 else 2
    prefix = term[:2]
    upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
    best: tuple[int, int, str] | None = None
    for candidate, doc in conn.execute(
        "SELECT term, doc FROM temp.chunk_vocab WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?",
        (prefix, upper, len(term) - limit, len(term) + limit),
    ):
        distance = _edit_distance(term, candidate, limit)
        if distance <= limit and (best is None or (distance, -doc) < (best[0], -best[1])):
            best = (distance, doc, candidate)
    return best[2] if best else None


def plan_terms(conn: sqlite3.Connection, terms: list[str]) -> tuple[list[str], dict[str, float], dict[str, str]]:
    """Which query terms to search with, their idf weights, and typo corrections made.

    Long queries (pasted error messages) are full of words that occur everywhere ("error", "code");
    matching on them only makes BM25 score half the index. When rarer terms exist, terms in more
    than 5% of chunks are left out of the match (they still count nothing against a session)."""
    if not terms:
        return [], {}, {}
    df = document_frequencies(conn, terms)
    total = max(1, conn.execute("SELECT max(id) FROM chunk").fetchone()[0] or 1)
    corrections: dict[str, str] = {}
    derived = {stem(t) for t in terms if stem(t) != t}  # stems are not corrected on their own
    for term in terms:
        if df[term] == 0 and term not in derived:
            fixed = correct_typo(conn, term)
            if fixed and fixed not in df:
                corrections[term] = fixed
                df[fixed] = document_frequencies(conn, [fixed])[fixed]
    present = [t for t in dict.fromkeys([*terms, *corrections.values()]) if df.get(t, 0) > 0]
    idf = {t: math.log(1 + (total - df[t] + 0.5) / (df[t] + 0.5)) for t in present}
    keep = present
    if len(present) > 3:
        rare = [t for t in present if df[t] / total <= 0.05]
        keep = rare if len(rare) >= 2 else sorted(present, key=lambda t: df[t])[:3]
        # A pasted error or log line carries near-unique tokens (ids, hashes, numbers): two of them pin
        # the session, and matching the merely uncommon words too only costs time.
        if sum(df[t] / total <= 0.0005 for t in keep) >= 2:
            keep = [t for t in keep if df[t] / total <= 0.005]
    if len(keep) > 1:
        # A term in a fifth of all chunks says little, yet scoring its matches dominates query time.
        selective = [t for t in keep if df[t] / total <= 0.2]
        if selective:
            keep = selective
    # Terms the index has never seen still go into the match: the card arm may know them.
    unknown = [t for t in terms if df.get(t, 0) == 0 and t not in corrections and t not in derived]
    return keep + unknown, {t: idf[t] for t in keep}, corrections


def _count(conn: sqlite3.Connection, where: str, params: list[object]) -> int:
    return conn.execute(f"SELECT count(*) FROM session s WHERE {where}", params).fetchone()[0]


def _sources(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    rows = conn.execute("SELECT id, kind, status, message, sessions, malformed, time_synced FROM source ORDER BY id")
    return [
        {
            "id": r[0],
            "kind": r[1],
            "status": r[2],
            "message": r[3] or "",
            "sessions": r[4],
            "malformed": r[5],
            "synced": iso(r[6] or 0),
        }
        for r in rows
    ]


def _hint(filters: Filters, coverage: Coverage) -> str:
    if coverage.hits_returned:
        return ""
    advice = []
    if filters.scope != filters.widest_scope:
        advice.append(f"widen --scope {filters.scope} to --scope {filters.widest_scope}")
    if filters.since is not None or filters.until is not None:
        advice.append("widen or drop --since/--until")
    if filters.chunk_level:
        advice.append("drop --role/--class/--tool/--author")
    if filters.agents or filters.sources:
        advice.append("drop --agent/--source")
    down = [s["id"] for s in coverage.sources if s["status"] not in ("ok", None)]
    if down:
        advice.append(f"fix unavailable sources ({', '.join(down)}; see 'recollect doctor')")
    if coverage.sessions_indexed == 0:
        return "the index is empty: run 'recollect index' (and 'recollect doctor' if it stays empty)"
    if not advice:
        return "no session contains these words; try other words, an identifier, or an error message"
    return "no hits; try to " + "; ".join(advice)


def search(
    conn: sqlite3.Connection,
    query: str,
    filters: Filters | None = None,
    *,
    limit: int = 10,
    per_session: int = 2,
    now_ms: int | None = None,
    embedder: Any = None,
    card_encoder: Any = None,
) -> SearchResult:
    """Ranked hits for `query` within `filters`; `embedder` (optional) adds the semantic arm."""
    started = time.perf_counter()
    filters = (filters or Filters()).resolve(conn)
    terms = query_terms(query)
    chunk_where, chunk_params = predicate(filters)
    session_where, session_params = predicate(filters, chunk_alias=None)
    coverage = Coverage(scope=filters.scope, sources=_sources(conn))
    coverage.sessions_indexed = conn.execute("SELECT count(*) FROM session").fetchone()[0]
    coverage.sessions_in_scope = _count(conn, session_where, session_params)
    if filters.scope != "all":
        coverage.limited_by.append("scope")
    if filters.since is not None or filters.until is not None:
        coverage.limited_by.append("time window")
    if not terms and embedder is None:
        coverage.hint = "the query has no searchable words; use a word, an identifier, a path or an error message"
        return SearchResult(query, terms, [], coverage, (time.perf_counter() - started) * 1000)

    match_terms, weights, corrections = plan_terms(conn, terms)
    chunk_rows: list[tuple[int, int, float]] = []
    card_rows: list[tuple[int, float]] = []
    if match_terms:
        match = fts_match(match_terms)
        chunk_rows = conn.execute(
            f"SELECT c.id, c.sid, bm25(chunk_fts) AS r FROM chunk_fts JOIN chunk c ON c.id = chunk_fts.rowid "
            f"JOIN session s ON s.sid = c.sid WHERE chunk_fts MATCH ? AND {chunk_where} ORDER BY r LIMIT ?",
            [match, *chunk_params, CHUNK_CANDIDATES],
        ).fetchall()
        if not filters.chunk_level:
            card_weights = ", ".join(str(w) for w in CARD_WEIGHTS)
            card_rows = conn.execute(
                f"SELECT s.sid, bm25(card_fts, {card_weights}) AS r FROM card_fts "
                f"JOIN session s ON s.sid = card_fts.rowid WHERE card_fts MATCH ? AND {session_where} "
                "ORDER BY r LIMIT ?",
                [match, *session_params, CARD_CANDIDATES],
            ).fetchall()
    if len(chunk_rows) >= CHUNK_CANDIDATES:
        coverage.limited_by.append("candidate cap")

    # Per session: rank of its best chunk, and its chunks in rank order.
    chunk_rank: dict[int, int] = {}
    session_chunks: dict[int, list[int]] = {}
    for cid, sid, _ in chunk_rows:
        if sid not in chunk_rank:
            chunk_rank[sid] = len(chunk_rank) + 1
        session_chunks.setdefault(sid, []).append(cid)
    card_rank = {sid: i + 1 for i, (sid, _) in enumerate(card_rows)}
    meaning = not filters.chunk_level and (embedder is not None or card_encoder is not None)
    allowed = _in_scope(conn, session_where, session_params) if meaning else None
    semantic = semantic_candidates(conn, embedder, query, allowed) if meaning and embedder is not None else {}
    semantic_rank = {sid: i + 1 for i, sid in enumerate(semantic)}
    prose = prose_share(query)
    # A query of identifiers only gives the card arm no weight (it is scaled by `prose`, and never rescues):
    # not asking it spares a one-shot search loading the full encoder (~0.4 s of CPU), ranks unchanged.
    card_meaning = (
        card_meaning_candidates(conn, card_encoder, query, allowed)
        if meaning and card_encoder is not None and prose > 0
        else {}
    )
    meaning_rank = {sid: i + 1 for i, sid in enumerate(card_meaning)}
    models_used = [m for m in (embedder, card_encoder) if m is not None] if not filters.chunk_level else []
    lexical = set(chunk_rank) | set(card_rank)
    # The rescue lane: sessions that share no word with the query but mean the same. Only the card arm
    # rescues (the static model gave words it never saw cosines above 0.6): a session among the nearest
    # cards, nearer than any session the words found, and above the cosines that text about nothing
    # in the history reaches (≤ 0.17 on the eval corpus; docs/eval.md).
    # A query of identifiers only is matched by its words alone.
    nearest_lexical = min((meaning_rank[sid] for sid in lexical if sid in meaning_rank), default=len(meaning_rank) + 1)
    rescued = {
        sid
        for sid, score in card_meaning.items()
        if prose > 0
        and sid not in lexical
        and meaning_rank[sid] < min(RESCUE_NEAREST_CARDS + 1, nearest_lexical)
        and score >= RESCUE_MIN_COSINE
    }
    candidates = lexical | rescued
    coverage.sessions_matched = len(candidates)
    if embedder is None:
        coverage.skipped_by_reason["semantic_off"] = 1
    # Sessions a semantic arm could not see yet: indexed, but their vectors wait for `recollect index`.
    unembedded = sessions_without_vectors(conn, [m.model_id for m in models_used]) if models_used else 0
    if unembedded > 0:
        coverage.skipped_by_reason["sessions_not_yet_embedded"] = unembedded
    if not candidates:
        coverage.hint = _hint(filters, coverage)
        return SearchResult(query, terms, [], coverage, (time.perf_counter() - started) * 1000, corrections)

    static_weight = SEMANTIC_WEIGHT_WITH_CARDS if card_meaning else SEMANTIC_WEIGHT
    fused = {
        sid: (1 / (RRF_K + chunk_rank[sid]) if sid in chunk_rank else 0.0)
        + (1 / (RRF_K + card_rank[sid]) if sid in card_rank else 0.0)
        + (prose * static_weight / (RRF_K + semantic_rank[sid]) if sid in semantic_rank else 0.0)
        + (prose * CARD_MEANING_WEIGHT / (RRF_K + meaning_rank[sid]) if sid in meaning_rank else 0.0)
        for sid in candidates
    }
    for sid in rescued:
        # Semantic-only sessions: keep them below clear lexical matches, ordered by cosine.
        fused[sid] = RESCUE_WEIGHT * (
            (semantic[sid][0] / (RRF_K + semantic_rank[sid]) if sid in semantic_rank else 0.0)
            + (CARD_MEANING_WEIGHT / (RRF_K + meaning_rank[sid]) if sid in meaning_rank else 0.0)
        )
    for sid, (_, best) in semantic.items():
        if sid in candidates and best is not None and sid not in session_chunks:
            session_chunks[sid] = [best]
    shortlist = sorted(candidates, key=lambda sid: -fused[sid])[: max(limit * 3, 30)]
    sessions = _rows_by_id(conn, "session", "sid", shortlist)
    top_chunks = [cid for sid in shortlist for cid in session_chunks.get(sid, [])[: per_session + 1]]
    chunks = _rows_by_id(conn, "chunk", "id", top_chunks)

    caller = filters.caller_directory()
    caller_root = filters.project_root or caller
    now_ms = now_ms or int(time.time() * 1000)
    scored: list[tuple[float, int]] = []
    matched_terms: dict[int, list[str]] = {}
    total_weight = sum(weights.values())
    for sid in shortlist:
        row = sessions[sid]
        texts = [
            str(row[k] or "")
            for k in ("title", "first_human", "identifiers", "files", "errors", "last_outcome", "decisions", "summary")
        ]
        texts += [chunks[cid]["text"] for cid in session_chunks.get(sid, [])[: per_session + 1]]
        haystack = _folded(" ".join(texts))
        # Substring presence is a cheap stand-in for token presence (stems and bigrams are substrings too).
        matched = [t for t in weights if t in haystack]
        matched_terms[sid] = matched
        coverage_factor = (sum(weights[t] for t in matched) / total_weight) ** 1.5 if total_weight else 1.0
        if sid in rescued:
            coverage_factor = 1.0  # no shared words by construction; its rank already reflects that
        directory = row["directory"] or ""
        if directory == caller:
            place = 1.2
        elif directory.startswith(caller_root + "/") or directory == caller_root or row["project_root"] == caller_root:
            place = 1.1
        else:
            place = 1.0
        age_days = max(0.0, (now_ms - (row["time_updated"] or 0)) / 86_400_000)
        recency = 1.0 + 0.05 * math.exp(-age_days / 30)
        scored.append((fused[sid] * max(coverage_factor, 0.05) * place * recency, sid))
    scored.sort(key=lambda x: -x[0])

    hits: list[Hit] = []
    returned_sessions = 0
    capped = 0
    for score, sid in scored:
        if len(hits) >= limit:
            break
        row = sessions[sid]
        chunk_ids = session_chunks.get(sid, [])
        returned_sessions += 1
        why = "semantic" if sid in rescued else "both" if sid in semantic_rank or sid in meaning_rank else "terms"
        if not chunk_ids:
            hits.append(_card_hit(conn, row, score, matched_terms[sid], terms, why))
            continue
        for cid in chunk_ids[:per_session]:
            if len(hits) >= limit:
                break
            hits.append(_chunk_hit(row, chunks[cid], score, matched_terms[sid], terms, why))
        capped += max(0, len(chunk_ids) - per_session)
    coverage.sessions_returned = returned_sessions
    coverage.hits_returned = len(hits)
    more = len(scored) - returned_sessions + max(0, len(candidates) - len(shortlist))
    if more > 0:
        coverage.limited_by.append("limit")
        coverage.skipped_by_reason["beyond_limit_sessions"] = more
    if capped:
        coverage.skipped_by_reason["per_session_cap_hits"] = capped
    down = [s for s in coverage.sources if s["status"] not in ("ok", None)]
    if down:
        coverage.skipped_by_reason["sources_unavailable"] = len(down)
    malformed = sum(s["malformed"] or 0 for s in coverage.sources)
    if malformed:
        coverage.skipped_by_reason["malformed_records"] = malformed
    coverage.hint = _hint(filters, coverage)
    return SearchResult(query, terms, hits, coverage, (time.perf_counter() - started) * 1000, corrections)


def _in_scope(conn: sqlite3.Connection, where: str, params: list[object]) -> Any:
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
    rows, scores = top_k(matrix.matrix, query_vec, SEMANTIC_CANDIDATES, mask, matrix.scales)
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


def display_title(session: sqlite3.Row) -> str:
    """The session's title, or the first line a person typed when the agent stored no title."""
    return session["title"] or (session["first_human"] or "")[:80]


def _folded(text: str) -> str:
    # Case only: stripping accents from whole chunks costs more than the rare accented term gains.
    return text.lower() if text.isascii() else text.casefold()


def _rows_by_id(conn: sqlite3.Connection, table: str, key: str, ids: list[int]) -> dict[int, sqlite3.Row]:
    """Rows of `table` (session or chunk: our names, never input) by their integer `key`."""
    if not ids:
        return {}
    conn.row_factory = sqlite3.Row
    try:
        marks = ",".join("?" * len(ids))
        rows = conn.execute(f"SELECT * FROM {table} WHERE {key} IN ({marks})", ids).fetchall()
    finally:
        conn.row_factory = None
    return {r[key]: r for r in rows}


def _chunk_hit(
    session: sqlite3.Row, chunk: sqlite3.Row, score: float, matched: list[str], terms: list[str], why: str
) -> Hit:
    return Hit(
        session_id=session["native_id"],
        source=session["source_id"],
        agent_kind=session["agent_kind"],
        message_id=chunk["message_id"],
        part_id=chunk["part_id"],
        cursor=make_cursor(session["source_id"], session["native_id"], chunk["message_id"]),
        score=round(score, 6),
        title=display_title(session),
        directory=session["directory"],
        time=chunk["time"] or session["time_updated"],
        role=chunk["role"],
        klass=chunk["class"],
        author=chunk["author"],
        tool=chunk["tool"],
        snippet=snippet(chunk["text"], matched or terms),
        matched=matched,
        why=why,
        parent_id=session["parent_id"],
    )


def _card_hit(
    conn: sqlite3.Connection, session: sqlite3.Row, score: float, matched: list[str], terms: list[str], why: str
) -> Hit:
    first = conn.execute(
        "SELECT message_id, part_id, role, class, author, tool, time FROM chunk WHERE sid = ? ORDER BY ord, id LIMIT 1",
        (session["sid"],),
    ).fetchone()
    text = " — ".join(x for x in (session["title"], session["first_human"]) if x) or session["identifiers"][:200]
    message_id = first[0] if first else ""
    return Hit(
        session_id=session["native_id"],
        source=session["source_id"],
        agent_kind=session["agent_kind"],
        message_id=message_id,
        part_id=first[1] if first else None,
        cursor=make_cursor(session["source_id"], session["native_id"], message_id),
        score=round(score, 6),
        title=display_title(session),
        directory=session["directory"],
        time=session["time_updated"],
        role=first[2] if first else "user",
        klass="card",
        author=first[4] if first else "person",
        tool=None,
        snippet=snippet(text, matched or terms),
        matched=matched,
        why=why,
        parent_id=session["parent_id"],
    )
