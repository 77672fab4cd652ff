"""Ranked search over the index: candidates from up to four arms, fused per session, explained.

Arms: chunk-level BM25 (what was said, run, or printed) and card-level BM25 (title, first line a
person typed, identifier / file / error inventories); with semantic search on, the static model's
nearest chunks and cards, and the full encoder's nearest session cards. All read through the one
scope predicate. Per session the arms are fused by reciprocal rank (the two by meaning scaled by how
much of the query is prose), then weighted by how many distinct query terms the session covers, by
directory relevance (same directory > same project > elsewhere) and a small recency prior. A session
sharing no word with the query enters only through the card arm's rescue lane. A query that asks
nothing (a pasted error line, command or path) puts the sessions holding it word for word first.
The first page shows at most `per_session` hits of one session. Every result carries a `Coverage` that says what was
searched and what limited it. The weights were decided on the relevance eval (docs/eval.md).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from recollect.index.queries import rows_for_ids
from recollect.search import stages, turns
from recollect.search.hints import hint as _hint
from recollect.search.hints import sources as _sources
from recollect.search.lexical import best_chunk_rows, best_rows
from recollect.search.meaning import Arms, arms, arms_key, prose_share, script_gaps, uncovered_share
from recollect.search.novelty import novel_first
from recollect.search.phrase import PHRASE_WEIGHT, cards_holding, chunks_holding, phrase_arm, phrase_match, phrase_of
from recollect.search.phrase import holders_first as pasted_first
from recollect.search.priors import in_window, place, recency
from recollect.search.query import QueryPlan, understand
from recollect.search.results import Coverage, Hit, SearchResult, card_hit, chunk_hit, display_title, iso, make_cursor
from recollect.search.scope import Filters, SessionCounts, predicate, session_counts
from recollect.search.spans import (
    CARD_FIELDS,
    COVERAGE_CHUNKS,
    card_votes,
    coverage_exponent,
    covered_share,
    first_cards,
    folded,
    fusion_k,
    neighbours,
    opening_spans,
    person_first,
)
from recollect.search.terms import TermPlan, plan_terms
from recollect.search.turns import PER_SESSION_CANDIDATES, TURN_CANDIDATES, answer_kind, replies_to, rerank_turns

CHUNK_CANDIDATES = 400
CARD_CANDIDATES = 100
CARD_DEPTH = 10  # with no arm by meaning, the card arm votes with its first this many (5 cost, 15 and 20 gain less)
RRF_K = 40
SEMANTIC_WEIGHT = 0.5  # weight of the static model's arm in the fusion (decided on the eval)
SEMANTIC_WEIGHT_WITH_CARDS = 0.25  # ... beside the sharper session-card arm, which then carries the meaning
RESCUE_WEIGHT = 0.5  # a rescued session's fused score, against a lexical match's
CARD_MEANING_WEIGHT = 1.0  # weight of the card-meaning arm (full encoder over session cards)
RESCUE_NEAREST_CARDS = 3  # a session with no shared words enters if it is among the nearest cards by meaning
RESCUE_MIN_COSINE = 0.2  # text about nothing in the history reached 0.164 on the eval corpus
ACROSS_CARDS = 10  # the nearest cards by meaning whose session's script is read
ACROSS_MIN_GAP = 0.5  # a session at least this far from the query's script can enter by meaning alone
ACROSS_STANDIN = 2.0  # the weight of the two lexical arms, which the card's meaning stands in for across scripts
ACROSS_MIN_COSINE = 0.165  # above what text about nothing in the history reached (0.164, see RESCUE_MIN_COSINE)
ACROSS_WORDS_TOP = 5  # with meaning off: sessions across the script gap that the words rank this high keep coverage
# title, head, idents, files, errors, outcome, decisions, summary (seed 000 weighs the summary 1.8 x the title)
CARD_WEIGHTS = (3.0, 2.0, 2.0, 1.5, 1.5, 1.0, 1.5, 5.4)
COVERAGE_EXPONENT = 1.5  # a session's fused score x (share of the query's weight it covers) ** this
ASKED_ONLY = 0.75  # a session where only the person's own turns hold the query's words: asked, not answered
LITERAL_SCAN_LIMIT = 200  # chunks a literal retry returns at most
LITERAL_SCAN_CHUNKS = 50_000  # how far back (newest first) a literal retry looks: a bounded scan


def fts_match(terms: list[str]) -> str:
    # Our tokens never contain a double quote; quoting keeps joiners like '/' and ':' literal.
    return " OR ".join(f'"{t}"' for t in terms)


@dataclass
class _Run:
    """What one search knows as it goes: its inputs, plan, candidates and scores."""

    conn: sqlite3.Connection
    filters: Filters
    plan: QueryPlan
    coverage: Coverage
    started: float
    limit: int
    per_session: int
    now_ms: int
    counts: SessionCounts  # of the whole index too: a scope that admits all needs no mask
    terms: TermPlan = field(default_factory=lambda: TermPlan([], {}, []))
    chunk_rank: dict[int, int] = field(default_factory=dict)
    card_rank: dict[int, int] = field(default_factory=dict)
    session_chunks: dict[int, list[int]] = field(default_factory=dict)
    semantic: dict[int, tuple[float, int | None]] = field(default_factory=dict)
    card_meaning: dict[int, float] = field(default_factory=dict)
    gap: dict[int, float] = field(default_factory=dict)  # nearest cards: how far their script is from the query's
    rescued: set[int] = field(default_factory=set)
    candidates: set[int] = field(default_factory=set)
    chunk_class: dict[int, str] = field(default_factory=dict)  # class of every chunk the words matched
    span: dict[int, float] = field(default_factory=dict)  # how much of a session its opening speaks for
    k: float = RRF_K  # reciprocal-rank fusion's k, for this index (spans.fusion_k)
    phrase: str = ""  # an exact search of two or more words: only units holding them in order (search/phrase.py)
    held: dict[int, list[int]] = field(default_factory=dict)  # a ranked search: sessions holding the query as typed

    def result(self, hits: list[Hit]) -> SearchResult:
        took = (time.perf_counter() - self.started) * 1000
        return SearchResult(self.plan.text, self.plan.terms, hits, self.coverage, took, self.terms.corrections,
                            time_words=self.plan.time_words, framing=sorted(self.plan.framing_terms),
                            phrase=self.phrase)  # fmt: skip


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
    exact: bool = False,
    ahead: Callable[[], Arms | None] | None = None,
) -> SearchResult:
    """Ranked hits for `query` within `filters`; `embedder` / `card_encoder` (optional) add the arms by
    meaning. `exact` searches the words as typed: no typo correction, no framing or time reading.
    `ahead` gives the arms by meaning computed elsewhere (`meaning.meaning_only`): used when they were asked
    what this search asks them, else computed here."""
    run = _start(conn, query, filters, limit, per_session, now_ms, exact)
    if not run.plan.terms and embedder is None:
        run.coverage.hint = "the query has no searchable words; use a word, an identifier, a path or an error message"
        return run.result([])
    alone = embedder is None and card_encoder is None  # no arm by meaning: the words alone find the sessions
    correct = not exact and stages.on("correction")
    run.terms = plan_terms(conn, run.plan, correct=correct, prune=stages.on("pruning"), words_alone=alone)
    run.phrase = phrase_of(query, exact)
    if exact:  # the words as typed are held or the hit is not one: nothing enters by meaning
        embedder = card_encoder = ahead = None
    _lexical(run)
    _by_meaning(run, query, embedder, card_encoder, ahead)
    if not run.phrase and stages.on("phrase"):
        run.held = phrase_arm(conn, query, predicate(run.filters), _STABLE_CHUNK)
        for sid, cids in run.held.items():  # a session past the chunk arm's cap enters with its phrase
            run.candidates.add(sid)
            run.session_chunks.setdefault(sid, cids)
    if not run.candidates:
        return _literal_retry(run, query)
    scored, sessions = _score(run, _fuse(run))
    return run.result(_hits(run, scored, sessions))


def _start(
    conn: sqlite3.Connection,
    query: str,
    filters: Filters | None,
    limit: int,
    per_session: int,
    now_ms: int | None,
    exact: bool,
) -> _Run:
    started = time.perf_counter()
    filters = (filters or Filters()).resolve(conn)
    now_ms = now_ms or int(time.time() * 1000)
    reading = not exact and stages.on("framing")
    plan = understand(query, now_ms, framing=reading, test_ids=stages.on("test_id"), person=not exact)
    coverage = Coverage(scope=filters.scope, sources=_sources(conn))
    counts = session_counts(conn, filters)
    coverage.sessions_indexed, coverage.sessions_in_scope = counts.visible, counts.in_scope
    if filters.scope != "all":
        coverage.limited_by.append("scope")
    if filters.since is not None or filters.until is not None:
        coverage.limited_by.append("time window")
    return _Run(conn, filters, plan, coverage, started, limit, per_session, now_ms, counts)


# Ties are broken by what the store names, never by row ids: those depend on the order an index was
# synced in, so a fresh index and one synced step by step would rank equal scores differently.
_STABLE_SESSION = "s.source_id, s.native_id"
_STABLE_CHUNK = f"{_STABLE_SESSION}, c.ord, c.message_id, c.part_id, c.id"


def _session_keys(conn: sqlite3.Connection, sids: Iterable[int]) -> dict[int, tuple[str, str]]:
    sql = "SELECT sid, source_id, native_id FROM session WHERE sid IN ({marks})"
    return {sid: (source, native) for sid, source, native in rows_for_ids(conn, sql, list(sids))}


def _lexical(run: _Run) -> None:
    """The two BM25 arms: chunks (what was said, run or printed) and session cards."""
    if not run.terms.match:
        return
    match = phrase_match(run.phrase) if run.phrase else fts_match(run.terms.match)
    # The FTS table's best rows first, then the scope: unless the scope leaves most sessions out.
    wide = not run.filters.chunk_level and 2 * run.counts.in_scope >= run.counts.total
    chunk_rows = best_chunk_rows(
        run.conn,
        match,
        columns="c.id, c.sid, c.class",
        scope=predicate(run.filters),
        stable=_STABLE_CHUNK,
        limit=CHUNK_CANDIDATES,
        shortlist=wide,
    )
    if run.phrase:
        chunk_rows = chunks_holding(run.conn, run.phrase, chunk_rows)
    chunk_rows = person_first(run.conn, chunk_rows, stages.on("speaker") and run.plan.about_the_person)
    for cid, sid, klass, _ in chunk_rows:  # per session: the rank of its best chunk, its chunks in rank order
        if sid not in run.chunk_rank:
            run.chunk_rank[sid] = len(run.chunk_rank) + 1
        run.session_chunks.setdefault(sid, []).append(cid)
        run.chunk_class[cid] = klass
    if len(chunk_rows) >= CHUNK_CANDIDATES and len(run.chunk_rank) < run.limit:  # the cap may have changed the answer
        run.coverage.limited_by.append("candidate cap")
    if not run.filters.chunk_level and stages.on("card_bm25"):
        card_weights = ", ".join(str(w) for w in _card_weights(run.plan))
        card_rows = best_rows(
            run.conn,
            match,
            fts="card_fts",
            score=f"bm25(card_fts, {card_weights})",
            columns="s.sid",
            table="session s",
            key="s.sid",
            scope=predicate(run.filters, chunk_alias=None),
            stable=_STABLE_SESSION,
            limit=CARD_CANDIDATES,
            shortlist=wide,
        )
        card_rows = cards_holding(run.conn, run.phrase, card_rows) if run.phrase else card_rows
        run.card_rank = {sid: i + 1 for i, (sid, _) in enumerate(card_rows)}


def _restated_prose(plan: QueryPlan) -> bool:
    """Whether the query reads as a restated request: four words or more, mostly prose (not a pasted id)."""
    return len(plan.words) >= 4 and prose_share(plan.searched) >= 0.75


def _card_evidence(plan: QueryPlan) -> bool:
    """Whether a long session's card vote counts by the share of the query the card holds (stage `evidence`).
    Not for a restated request in prose that asks nothing (stage `opening`): it asks for the session itself,
    and its card counts by how much of the session its opening speaks for (opening_spans), as a short one's."""
    return stages.on("evidence") and not (stages.on("opening") and _restated_prose(plan) and not plan.asks)


def _card_weights(plan: QueryPlan) -> tuple[float, ...]:
    """Card field weights; a prose query (a restated request) leans on the title and first request."""
    if stages.on("opening") and _restated_prose(plan):
        title, head, *rest = CARD_WEIGHTS
        return (title * 1.5, head * 1.5, *rest)
    return CARD_WEIGHTS


def _by_meaning(
    run: _Run, query: str, embedder: Any, card_encoder: Any, ahead: Callable[[], Arms | None] | None = None
) -> None:
    """The arms by meaning and the rescue lane: sessions that share no word with the query but mean
    the same. Only the card arm rescues (the static model gave words it never saw cosines above 0.6):
    a session among the nearest cards, nearer than any session the words found, and above the cosines
    that text about nothing in the history reaches (≤ 0.17 on the eval corpus; docs/eval.md). A query
    of identifiers only is matched by its words alone."""
    filters, conn = run.filters, run.conn
    lexical = set(run.chunk_rank) | set(run.card_rank)
    meaning = not filters.chunk_level and stages.on("meaning") and (embedder is not None or card_encoder is not None)
    found = None
    if meaning:
        found = ahead() if ahead is not None else None  # computed beside this search (history/ahead.py)
        asked = (conn, query, run.plan.searched, filters, run.counts)
        if found is None or found.key != arms_key(*asked, [embedder, card_encoder]):
            found = arms(*asked, embedder, card_encoder)
        run.semantic, run.card_meaning = found.semantic, found.card_meaning
    meaning_rank = {sid: i + 1 for i, sid in enumerate(run.card_meaning)}
    nearest_lexical = min((meaning_rank[s] for s in lexical if s in meaning_rank), default=len(meaning_rank) + 1)
    prose = prose_share(query)
    run.rescued = {
        sid
        for sid, score in run.card_meaning.items()
        if prose > 0
        and sid not in lexical
        and meaning_rank[sid] < min(RESCUE_NEAREST_CARDS + 1, nearest_lexical)
        and score >= RESCUE_MIN_COSINE
    }
    run.gap = script_gaps(conn, list(run.card_meaning)[:ACROSS_CARDS], query) if stages.on("script") else {}
    # A session across the script gap counts by meaning only when it is nearer than every session in the
    # query's own script that the words found (as a rescue must be nearer than any lexical match).
    nearest_same = min(
        (meaning_rank[s] for s in lexical if s in meaning_rank and run.gap.get(s, 0.0) < ACROSS_MIN_GAP),
        default=len(meaning_rank) + 1,
    )
    across = {
        s
        for s, g in run.gap.items()
        if g >= ACROSS_MIN_GAP
        and prose > 0
        and meaning_rank[s] < nearest_same
        and run.card_meaning[s] >= ACROSS_MIN_COSINE
    }
    run.gap = {s: g for s, g in run.gap.items() if s in across}
    run.rescued -= across
    run.candidates = lexical | run.rescued | across
    run.coverage.sessions_matched = len(run.candidates)
    if embedder is None:
        run.coverage.skipped_by_reason["semantic_off"] = 1
    if found is not None and found.unembedded > 0:  # indexed, but their vectors wait for `recollect index`
        run.coverage.skipped_by_reason["sessions_not_yet_embedded"] = found.unembedded
    for sid, (_, best) in run.semantic.items():
        if sid in run.candidates and best is not None and sid not in run.session_chunks:
            run.session_chunks[sid] = [best]


def _fuse(run: _Run) -> dict[int, float]:
    """Reciprocal-rank fusion per session; the arms by meaning count by the query's prose share."""
    semantic_rank = {sid: i + 1 for i, sid in enumerate(run.semantic)}
    meaning_rank = {sid: i + 1 for i, sid in enumerate(run.card_meaning)}
    prose = prose_share(run.plan.text)
    static_weight = SEMANTIC_WEIGHT_WITH_CARDS if run.card_meaning else SEMANTIC_WEIGHT
    if stages.on("long_sessions"):  # the card arms count by how much of a session its opening speaks for
        restated = run.terms if stages.on("opening") and not run.plan.asks else None  # spans.opening_spans
        run.span = opening_spans(
            run.conn, (s for s in run.candidates if s in run.card_rank or s in meaning_rank), restated
        )
    span = run.span
    run.k = k = fusion_k(run.counts.total, RRF_K) if stages.on("fusion_depth") else RRF_K
    card_weight = card_votes(run.conn, run.terms, run.card_rank, span, prose, _card_evidence(run.plan))
    if stages.on("card_depth") and not run.card_meaning and not run.semantic:  # the words alone rank
        card_weight = first_cards(card_weight, run.card_rank, CARD_DEPTH)
    fused = {
        sid: (1 / (k + run.chunk_rank[sid]) if sid in run.chunk_rank else 0.0)
        + (card_weight[sid] / (k + run.card_rank[sid]) if sid in run.card_rank else 0.0)
        + (prose * static_weight / (k + semantic_rank[sid]) if sid in semantic_rank else 0.0)
        + (span.get(sid, 1.0) * prose * CARD_MEANING_WEIGHT / (k + meaning_rank[sid]) if sid in meaning_rank else 0)
        for sid in run.candidates
    }
    # The phrase arm: the query word for word (search/phrase.py). One word typed (a path, a test id) is
    # matched whole by the word arms already; that a session holds it decides only its group (holders_first).
    for rank, sid in enumerate(run.held if len(run.plan.text.split()) > 1 else (), 1):
        fused[sid] = fused.get(sid, 0.0) + PHRASE_WEIGHT / (k + rank)
    for sid, gap in run.gap.items():
        if sid in fused and sid in meaning_rank and gap > 0:
            # Across scripts the words cannot match: the card's meaning stands in for the lexical arms.
            lexical = (1 / (k + run.chunk_rank[sid]) if sid in run.chunk_rank else 0.0) + (
                1 / (k + run.card_rank[sid]) if sid in run.card_rank else 0.0
            )
            fused[sid] += gap * (prose * ACROSS_STANDIN / (k + meaning_rank[sid]) - lexical)
    for sid in run.rescued:
        # Semantic-only sessions: keep them below clear lexical matches, ordered by cosine.
        fused[sid] = RESCUE_WEIGHT * (
            (run.semantic[sid][0] / (k + semantic_rank[sid]) if sid in semantic_rank else 0.0)
            + (span.get(sid, 1.0) * CARD_MEANING_WEIGHT / (k + meaning_rank[sid]) if sid in meaning_rank else 0.0)
        )
    return fused


def _score(run: _Run, fused: dict[int, float]) -> tuple[list[tuple[float, int]], dict[int, sqlite3.Row]]:
    """Fused score × term coverage × place and recency priors × the time the query names, best first."""
    keys = _session_keys(run.conn, run.candidates)
    shortlist = sorted(run.candidates, key=lambda sid: (-fused[sid], keys.get(sid, ("", ""))))
    shortlist = shortlist[: max(run.limit * 3, 30)]
    sessions = _rows_by_id(run.conn, "session", "sid", shortlist)
    top_chunks = [cid for sid in shortlist for cid in run.session_chunks.get(sid, [])[:COVERAGE_CHUNKS]]
    chunks = _rows_by_id(run.conn, "chunk", "id", top_chunks)
    caller = run.filters.caller_directory()
    caller_root = run.filters.project_root or caller
    total_weight = run.terms.total_weight
    shares: dict[int, float] = {}
    found = False
    if stages.on("coverage") and total_weight:
        if stages.on("long_sessions"):
            restated = run.terms if stages.on("opening") and not run.plan.asks else None
            run.span.update(opening_spans(run.conn, (s for s in shortlist if s not in run.span), restated))
        shares, found = _covered_shares(run, shortlist, sessions, chunks)
        if stages.on("uncovered"):
            _stand_in_uncovered(run, shortlist, shares, fused)
    spread = stages.on("coverage_span") and stages.on("long_sessions")  # long chats: coverage weighs less
    exponent = coverage_exponent(run.span, shortlist, COVERAGE_EXPONENT) if spread else COVERAGE_EXPONENT
    across = _across_by_words(run, shortlist, shares) if shares and not found else {}
    same_script = max((v for s, v in shares.items() if s not in across), default=0.0)
    scored: list[tuple[float, int]] = []
    for sid in shortlist:
        row = sessions[sid]
        factor = 1.0
        if sid in shares:
            factor = max(shares[sid] ** exponent, 0.05)
            if not found:
                gap = run.gap.get(sid, 0.0)
                factor = (1 - gap) * factor + gap
                if sid in across:  # without meaning: as much as the best session in the query's script
                    gap = across[sid]
                    factor = (1 - gap) * factor + gap * max(factor, same_script**exponent)
        if stages.on("answered") and sid not in run.rescued and _asked_only(run, sid, chunks):
            factor *= ASKED_ONLY
        if stages.on("priors"):
            factor *= place(row, caller, caller_root) * recency(row, run.now_ms)
        if run.plan.window is not None:
            factor *= in_window(row, run.plan.window)
        scored.append((fused[sid] * factor, sid))
    scored.sort(key=lambda x: (-x[0], keys.get(x[1], ("", ""))))
    if stages.on("novelty") and prose_share(run.plan.text) == 1.0:  # prose only: see novel_first
        best = {sid: chunks[c[0]]["text"] for _, sid in scored if (c := run.session_chunks.get(sid)) and c[0] in chunks}
        scored = novel_first(scored, best, run.terms.idf)
    if stages.on("literal") and run.held and not run.plan.asks:  # pasted from a session, not asked about it
        scored = pasted_first(scored, run.held)
    return scored, sessions


def _across_by_words(run: _Run, shortlist: list[int], shares: dict[int, float]) -> dict[int, float]:
    """With meaning off, the sessions across the script gap (an English question, a session held in Chinese
    with English names in it) among the first `ACROSS_WORDS_TOP` the words rank, by their gap. Such a session
    says the rest of the question in its own script, so its coverage falls short of a same-script session's
    for no fault of its own, and no arm by meaning can stand in (`run.gap`). Only a session the words already
    rank that high: lifting every Chinese session that shares one common word cost the conversations."""
    if not stages.on("script") or run.card_meaning or run.semantic:
        return {}
    top = [sid for sid in shortlist[:ACROSS_WORDS_TOP] if sid in shares and sid not in run.rescued]
    return {s: g for s, g in script_gaps(run.conn, top, run.plan.text).items() if g >= ACROSS_MIN_GAP}


def _stand_in_uncovered(run: _Run, shortlist: list[int], shares: dict[int, float], fused: dict[int, float]) -> None:
    """Where no session's words cover the whole query (a paraphrase: the words found only its common
    part), the card's meaning stands in for the lexical arms by the share the best session's words left
    uncovered, as it does across scripts (ACROSS_STANDIN; there, `run.gap`, it already stands in); a rescued
    session keeps its RESCUE_WEIGHT."""
    uncovered = uncovered_share({s: v for s, v in shares.items() if s not in run.gap})
    if not uncovered:
        return
    meaning_rank = {sid: i + 1 for i, sid in enumerate(run.card_meaning)}
    weight = uncovered * prose_share(run.plan.text) * ACROSS_STANDIN
    for sid in shortlist:
        # Only where the card speaks for the whole session (span 1): in a long chat it speaks for a small share
        # of it, so its meaning is no stand-in for the words the answering turn lacks.
        if sid in meaning_rank and sid not in run.gap and run.span.get(sid, 1.0) >= 1.0:
            fused[sid] += weight * (RESCUE_WEIGHT if sid in run.rescued else 1.0) / (run.k + meaning_rank[sid])


def _covered_shares(
    run: _Run, shortlist: list[int], sessions: dict[int, sqlite3.Row], chunks: dict[int, sqlite3.Row]
) -> tuple[dict[int, float], bool]:
    """Per session (rescued ones aside: they share no word by construction), the share of the query's
    term weight found in its card and its best matching chunks (`spans.covered_share`); and whether a
    session in the query's own script holds the query as typed (then the words found the answer, and a
    session across the script gap keeps its absent coverage like any other)."""
    shares: dict[int, float] = {}
    phrase = " ".join(folded(run.plan.text).split())
    found = False
    best = {sid: [c for c in run.session_chunks.get(sid, [])[:COVERAGE_CHUNKS] if c in chunks] for sid in shortlist}
    long = stages.on("long_sessions")
    around = neighbours(run.conn, [cids[0] for cids in best.values() if cids]) if long else None
    restated = stages.on("opening") and not run.plan.asks  # the title and first request are read as a turn too
    for sid in shortlist:
        if sid in run.rescued:
            continue
        near = None if around is None else around.get(best[sid][0], []) if best[sid] else []
        texts = [chunks[cid]["text"] for cid in best[sid]]
        shares[sid], haystack = covered_share(run.terms, sessions[sid], texts, near, run.span.get(sid, 1.0), restated)
        if sid not in run.gap and phrase and phrase in " ".join(haystack.split()):
            found = True
    return shares, found


def _asked_only(run: _Run, sid: int, chunks: dict[int, sqlite3.Row]) -> bool:
    """Whether the query's words matched only what the person typed in this session, and the person said
    nothing after it: it was asked there (a later "what did we decide about X?", "remind me how we fixed
    Y"), but no reply, tool or output took it up and the conversation did not go on. A session the
    person kept talking in, or whose replies or tools hold the words, is part of an answer."""
    matched = run.session_chunks.get(sid, [])
    best = [chunks[cid] for cid in matched[:COVERAGE_CHUNKS] if cid in chunks]
    if not best or not all(run.chunk_class.get(cid) == "user_text" for cid in matched):
        return False
    last_asked = max(c["ord"] for c in best)
    later = run.conn.execute(
        "SELECT 1 FROM chunk WHERE sid = ? AND class = 'user_text' AND ord > ? LIMIT 1", (sid, last_asked)
    ).fetchone()
    return later is None


def _hits(run: _Run, scored: list[tuple[float, int]], sessions: dict[int, sqlite3.Row]) -> list[Hit]:
    """The first page: at most `per_session` hits of a session, its best turns first."""
    page = [sid for _, sid in scored[: run.limit]]
    order = _turn_order(run, page) if stages.on("turn_rerank") and not run.phrase else {}  # a reply may lack it
    wanted = [c for s in page for c in order.get(s, run.session_chunks.get(s, []))[: run.per_session * turns.REACH]]
    chunks = _rows_by_id(run.conn, "chunk", "id", wanted)
    semantic_or_card = set(run.semantic) | set(run.card_meaning)
    terms = run.plan.terms
    hits: list[Hit] = []
    returned, capped = 0, 0
    for score, sid in scored:
        if len(hits) >= run.limit:
            break
        row = sessions[sid]
        ranked = order.get(sid, run.session_chunks.get(sid, []))
        chunk_ids = turns.one_per_message(ranked, chunks, run.per_session)
        returned += 1
        lexical = sid in run.chunk_rank or sid in run.card_rank
        by_meaning_only = sid in run.rescued or (sid in run.gap and not lexical)
        why = "semantic" if by_meaning_only else "both" if sid in semantic_or_card else "terms"
        matched = _matched(run, row, [chunks[c] for c in chunk_ids])
        if not chunk_ids:
            hits.append(card_hit(run.conn, row, score, matched, terms, why))
            continue
        for cid in chunk_ids:
            if len(hits) >= run.limit:
                break
            hits.append(chunk_hit(row, chunks[cid], score, matched, terms, why))
        capped += max(0, len(ranked) - run.per_session)
    _finish_coverage(run, len(scored), returned, len(hits), capped)
    return hits


def _matched(run: _Run, row: sqlite3.Row, chunks: list[sqlite3.Row]) -> list[str]:
    haystack = folded(" ".join([*(str(row[k] or "") for k in CARD_FIELDS), *(c["text"] for c in chunks)]))
    return [t for t in run.terms.idf if t in haystack]


def _turn_order(run: _Run, page: list[int]) -> dict[int, list[int]]:
    """Each page session's candidate turns, best answer first (search/turns.py)."""
    candidates = {sid: run.session_chunks.get(sid, [])[:PER_SESSION_CANDIDATES] for sid in page}
    wanted = [cid for sid in page for cid in candidates[sid]][:TURN_CANDIDATES]
    if not wanted:
        return {}
    texts = {cid: r["text"] for cid, r in _rows_by_id(run.conn, "chunk", "id", wanted).items()}
    asks = answer_kind(run.plan.searched)
    where, params = predicate(run.filters)  # a reply promoted in a question's place must pass the same filters
    replies = replies_to(
        run.conn, [cid for cid, text in texts.items() if text.rstrip().endswith(("?", "？"))], where, params
    )
    return {
        sid: rerank_turns(cids, texts, run.terms.turn_words, asks, replies, run.span.get(sid, 1.0) < 1.0)
        for sid, cids in candidates.items()
        if cids
    }


def _finish_coverage(run: _Run, scored: int, returned: int, hits: int, capped: int) -> None:
    coverage = run.coverage
    coverage.sessions_returned = returned
    coverage.hits_returned = hits
    more = scored - returned + max(0, len(run.candidates) - scored)
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
    coverage.hint = _hint(run.filters, coverage)


def _literal_retry(run: _Run, query: str) -> SearchResult:
    """Nothing ranked: scan the same scope for the query as typed (case-insensitive) and say so."""
    needle = query.strip()
    if not needle or run.coverage.sessions_in_scope == 0:
        run.coverage.hint = _hint(run.filters, run.coverage)
        return run.result([])
    where, params = predicate(run.filters)
    # No index serves a substring test: walk the chunks newest first (by rowid, so it stops at the
    # limit) and never further back than LITERAL_SCAN_CHUNKS, so a zero-hit query costs a bounded scan.
    newest = run.conn.execute("SELECT coalesce(max(id), 0) FROM chunk").fetchone()[0]
    rows = run.conn.execute(
        f"SELECT c.id, c.sid FROM chunk c JOIN session s ON s.sid = c.sid "
        f"WHERE c.id > ? AND instr(lower(c.text), lower(?)) > 0 AND {where} ORDER BY c.id DESC LIMIT ?",
        [newest - LITERAL_SCAN_CHUNKS, needle, *params, LITERAL_SCAN_LIMIT],
    ).fetchall()
    for cid, sid in rows:
        run.session_chunks.setdefault(sid, []).append(cid)
    run.candidates = set(run.session_chunks)
    run.coverage.sessions_matched = len(run.candidates)
    run.coverage.limited_by.append(
        "literal retry" if newest <= LITERAL_SCAN_CHUNKS else "literal retry (newest chunks)"
    )
    run.rescued = set()
    scored = [(1.0 / (1 + i), sid) for i, sid in enumerate(dict.fromkeys(sid for _, sid in rows))]
    sessions = _rows_by_id(run.conn, "session", "sid", [sid for _, sid in scored])
    result = run.result(_hits(run, scored, sessions))
    result.literal = True
    for hit in result.hits:
        hit.why = "literal"
    if not result.hits:
        run.coverage.hint = _hint(run.filters, run.coverage)
    return result


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


__all__ = ["Coverage", "Hit", "SearchResult", "display_title", "iso", "make_cursor", "search"]
