"""Auto-recall: on a history cue ("last time", 上次 …), the earlier sessions of this project that
answered what the message asks, as one small block for the system prompt. Owned here: cue detection,
the query's words, retrieval and ranking for this one purpose, collapsing, freshness, the block.

Why its own retrieval rather than `search.rank.search`: the general search plans its terms over the
whole index (a term in more than 5 % of chunks is dropped, for speed on big stores). On a small,
young store that drops exactly the topic words, and the message being answered (indexed by the idle
sync) and its own session count in those statistics. Here the statistics are taken over the
sessions the block may name: inside the scope, with the current session, its family (parent,
children, siblings) and the message itself already excluded, and recollect's own sessions left out
(the one scope predicate does that).

Ranking prefers sessions that answered: a word found in what the assistant concluded (its text,
a compaction summary, the card's decision and outcome lines) counts for more than the same word in
what someone asked. Sessions that asked the same question collapse into one entry. A session must
cover at least 40 % of the message's words, counted in words of either script (a run of Chinese
characters counts half a word per character, however it is cut into bigrams), weighted by how rare
each word is among the candidates; a part of an identifier counts only as far as it is rare itself
("test" of test_refresh_token_expiry counts little). A word no candidate holds still counts, as
missing: that is what keeps a question about a topic never discussed silent. A session must hold every
name the question gives (`named`: Kafka, Windows, test_refresh_token_expiry; in the sentences that ask).

Among hundreds of sessions, a few common words cover 40 % of a message in one or many of them. So the
words' winner must also be where the message's meaning is (`agrees`: its card as near the message's
topic as the nearest card, give or take the spread of the crowd behind it); else meaning decides alone.

Words alone miss a paraphrase, an English question about a Chinese session and a Chinese question
whose bigrams cut across words. So when no session that answered covers 40 %, or the words' winner
is doubted, meaning decides: the index's card vectors propose the sessions nearest the message's
topic, within the same scope (a card's cosine discounted by how crowded it is among the scope's cards:
a templated crowd lies near every question on its topic), and the one that stands out by its card and
by what it said comes back (`propose`, recallmeaning.py: its lead measured against the spread of the
crowd when there is one); without card vectors, the static model checks the best session the words
proposed, if it covers at least 10 % (`rescue`). Nothing here syncs or waits on a model server: it runs on the message's
critical path. Cue detection is in cues.py, the message's words and topic in recallwords.py.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from recollect.history import STOPWORDS, display_title, fold
from recollect.integrations.cues import derive_query as derive_query
from recollect.integrations.cues import detect_cue as detect_cue
from recollect.integrations.cues import strip_cues as strip_cues
from recollect.integrations.recallblock import RECALL_END as RECALL_END  # re-exported: hooks and tests
from recollect.integrations.recallblock import RECALL_MAX_CHARS as RECALL_MAX_CHARS  # name them here
from recollect.integrations.recallblock import RECALL_TAG as RECALL_TAG
from recollect.integrations.recallblock import file_freshness as file_freshness
from recollect.integrations.recallblock import format_block as format_block
from recollect.integrations.recallblock import one_line as one_line
from recollect.integrations.recallfamily import family as family  # re-exported: hooks asks for it here
from recollect.integrations.recallmeaning import (
    CROWD,
    CROWD_LEAD,
    MEANING_MARGIN,
    RESCUE_COVERAGE,
    RESCUE_TRIES,
    Remembered,
    card_leads,
    gap_floors,
    near_passage,
    said_meaning,
    stands_out_crowded,
    uncrowded,
)
from recollect.integrations.recallmeaning import RESCUE_MEANING as RESCUE_MEANING
from recollect.integrations.recallmeaning import card_meaning as card_meaning
from recollect.integrations.recallmeaning import rescue as rescue
from recollect.integrations.recallwords import META_WORDS as META_WORDS
from recollect.integrations.recallwords import Unit, holds_term, message_topic, message_units, named, present
from recollect.integrations.recallwords import question_terms as question_terms
from recollect.integrations.recallwords import word_count as word_count
from recollect.integrations.replies import answers

if TYPE_CHECKING:
    from recollect.history import Filters

RECALL_SESSIONS = 3
MIN_COVERAGE = 0.4  # share of the message's (weighted) words a session must contain
PROPOSE = 16  # sessions nearest by their card vectors that `propose` reads, when words do not decide
PROPOSE_ROWS = 24  # chunks read per session `propose` reads
GIST_CHARS = 1_000
# Word weights are taken as if there were at least this many candidates: in a store of three sessions
# a word in all of them would weigh nearly nothing against a word in none.
MIN_STATS_SESSIONS = 20
CHUNK_ROWS = 400  # matching chunks read per cue; below it the statistics are exact
MATCH_ROWS = 3_000  # chunks the words that pick candidates may match, together
CARD_ROWS = 100
SHORTLIST = 80  # candidate sessions scored per cue
SAME_QUESTION = 0.6  # word overlap (Jaccard) at which two sessions asked the same thing
# How much a word counts where it was found: in an answer, in tool traffic, only in the question.
ANSWER, TOOLS, QUESTION = 1.0, 0.8, 0.55
ANSWER_CLASSES = {"assistant_text", "summary"}
QUESTION_CLASSES = {"user_text", "subtask"}

# --- retrieval -------------------------------------------------------------------------------


@dataclass
class Evidence:
    """What one candidate session holds, by kind, folded for substring tests."""

    sid: int
    answer: list[tuple[str, str, str]] = field(default_factory=list)  # (folded, text, message id)
    question: list[tuple[str, str, str]] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)


@dataclass
class Entry:
    session_id: str
    source: str
    title: str
    directory: str
    time: int
    score: float
    coverage: float
    files: list[str]
    question_terms: frozenset[str]
    sid: int = 0  # the index's row id of the session
    cursor: str = ""  # filled by `show`, for the few entries a block names
    snippet: str = ""
    also_asked: int = 0
    answered: bool = True  # the session holds a reply that answers (replies.py), not only questions
    freshness: str = ""
    gist: str = ""  # the card's title, first question, decisions and outcome: what `rescue` compares
    meaning: float | None = None  # the message's cosine to `gist`, when `rescue` asked
    one_script: bool = False  # the message's Chinese was set aside (no candidate holds any of it)
    shown_from: tuple[Evidence, list[Unit], list[float]] | None = field(default=None, repr=False)

    def holds(self, names: list[str]) -> bool:
        """Whether the session holds each of `names` (`named`: the names the message gives) somewhere."""
        if not names or self.shown_from is None:
            return True
        ev = self.shown_from[0]
        held = "\n".join([*(a[0] for a in ev.answer), *(q[0] for q in ev.question), *ev.tools])
        return all(holds_term(name, False, held) for name in names)


def _fold(text: str) -> str:
    # The message's terms come from the one tokenizer, which strips accents (müller -> muller): the
    # text they are looked for in must be folded the same way, or an accented word is never present.
    return text.lower() if text.isascii() else fold(text)


def _idf(n: float, df: float) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def find(
    conn: sqlite3.Connection,
    text: str,
    filters: Filters,
    limit: int = RECALL_SESSIONS,
    encoder: Callable[[], Any] | None = None,
    units: list[Unit] | None = None,
) -> list[Entry]:
    """The best earlier sessions for `text` within `filters`, best first; empty when none covers enough.
    Sessions asking the same question are one entry; sessions that only asked are named only when no
    session answered. `encoder` gives the card encoder (or None), asked only when meaning is. `units`:
    `message_units(text)`, when the caller has it already."""
    units = message_units(text) if units is None else units
    topic = message_topic(text)  # what meaning reads, and the passage check (strip_cues: the grammar again)
    model: list[Any] = []

    def card_model() -> Any:
        if not model:
            loaded = encoder() if encoder else None
            model.append(Remembered(loaded) if loaded is not None else None)
        return model[0]

    found = candidates(conn, text, filters, limit * 6, floor=RESCUE_COVERAGE, units=units)
    names = named(text)
    kept = collapse([e for e in found if e.coverage >= MIN_COVERAGE and not e.one_script and e.holds(names)])
    view: list[Meaning | None] = []

    def meaning() -> Meaning | None:
        if not view:
            view.append(meaning_of(conn, text, topic, filters.resolve(conn), card_model))
        return view[0]

    winner = next((e for e in kept if e.answered), None)
    if winner is not None and not agrees(winner, meaning()):
        # Among many sessions, a common word or two cover enough of a message ("test", "commit") in one
        # or several that answered: the words' winner must be where the message's meaning is too (cards
        # discounted for crowding), or meaning decides alone.
        kept, winner = [], None
    if winner is None:
        # Words do not decide (a paraphrase, a question across the language gap, or a topic never
        # discussed): the card vectors propose, meaning decides (`propose`); without them, the static
        # model on the words' candidates (`rescue`).
        by_meaning = propose(meaning(), text, units)
        if by_meaning is None:
            by_meaning = rescue(text, [e for e in found if e.answered])
        kept = by_meaning or kept
    if any(e.answered for e in kept):
        kept = [e for e in kept if e.answered]
    classes = sorted(ANSWER_CLASSES | QUESTION_CLASSES)  # the first that answered said something near the topic
    if kept and kept[0].answered and not near_passage(conn, card_model(), topic, kept[0].sid, classes):
        return []
    return [show(e) for e in kept[:limit]]


@dataclass
class Meaning:
    """What the card vectors say about a cue message's topic within the scope: the sessions nearest it."""

    near: dict[int, float]  # session -> its card's cosine to the topic, less CROWDING times its crowding
    tries: list[int]  # the nearest PROPOSE sessions that answered, nearest first
    evidence: dict[int, Evidence]
    cards: dict[int, sqlite3.Row]
    topic: str
    model: Any
    cosine: dict[int, float] = field(default_factory=dict)  # the cosines themselves (MEANING_FLOOR is of them)

    @property
    def spread(self) -> float:
        """How far apart the scores of the crowd behind the nearest session that answered lie (their
        standard deviation); MEANING_MARGIN while there are too few to tell (a young store)."""
        behind = [self.near[sid] for sid in self.tries[1:]]
        if len(behind) < CROWD:
            return MEANING_MARGIN
        mean = sum(behind) / len(behind)
        return math.sqrt(sum((c - mean) ** 2 for c in behind) / len(behind))


def meaning_of(
    conn: sqlite3.Connection, text: str, topic: str, filters: Filters, card_model: Callable[[], Any]
) -> Meaning | None:
    """The sessions within `filters` whose card vectors are nearest `text`'s `topic` (`message_topic`), and what
    the PROPOSE nearest hold; None without card vectors or an encoder."""
    from recollect.history import predicate

    model = card_model()
    if model is None:
        return None
    session_where, session_params = predicate(filters, chunk_alias=None)
    scope = [r[0] for r in conn.execute(f"SELECT s.sid FROM session s WHERE {session_where}", session_params)]
    cosine = card_meaning(conn, model, topic, scope) if scope and topic else None
    if not cosine:
        return None if not scope or not topic else Meaning({}, [], {}, {}, topic, model)
    near = uncrowded(conn, model, cosine, scope)
    order = sorted(near, key=lambda sid: -near[sid])[:PROPOSE]
    chunk_where, chunk_params = predicate(filters)
    classes = sorted(ANSWER_CLASSES | QUESTION_CLASSES)
    rows = conn.execute(
        "SELECT sid, class, message_id, text FROM (SELECT c.sid, c.class, c.message_id, c.text, "
        "row_number() OVER (PARTITION BY c.sid ORDER BY c.id) AS n FROM chunk c JOIN session s ON s.sid = c.sid "
        f"WHERE c.sid IN ({','.join('?' * len(order))}) AND c.class IN ({','.join('?' * len(classes))}) "
        f"AND {chunk_where}) WHERE n <= ?",
        [*order, *classes, *chunk_params, PROPOSE_ROWS],
    ).fetchall()
    evidence, cards = _evidence(conn, text, rows, order)
    tries = [sid for sid in order if sid in cards and evidence[sid].answer]
    return Meaning(near, tries, evidence, cards, topic, model, cosine)


def agrees(winner: Entry, meaning: Meaning | None) -> bool:
    """Whether the words' `winner` is where the message's meaning is too: its card as near the topic as
    the nearest card of a session that answered, give or take the spread of the crowd behind it (among
    hundreds of sessions a handful lie within a hair of each other, on a young store far apart). True
    without card vectors: then the words decide alone."""
    if meaning is None or not meaning.tries:
        return True
    nearest = meaning.near[meaning.tries[0]]
    return meaning.near.get(winner.sid, -1.0) >= nearest - meaning.spread


def propose(meaning: Meaning | None, text: str, units: list[Unit]) -> list[Entry] | None:
    """The session that answered what `text` asks, by meaning, when its words do not decide: of the
    sessions that answered nearest the message's topic (`meaning`), the RESCUE_TRIES nearest are
    compared by their cards and by what they said, and the one that stands out in both comes back
    (`recallmeaning.stands_out`, its lead measured against the spread of the crowd), if it holds every
    name the message gives (`named`). None without card vectors (the caller falls back on `rescue`)."""
    if meaning is None:
        return None
    tries = meaning.tries[:RESCUE_TRIES]
    evidence, cards = meaning.evidence, meaning.cards
    margin = min(MEANING_MARGIN, CROWD_LEAD * meaning.spread)
    by_card = {sid: meaning.near[sid] for sid in tries}
    if not card_leads(by_card, margin):
        return []  # `stands_out` would say no whatever the sessions said: not embedded
    said = {sid: [cards[sid]["first_human"] or "", evidence[sid].answer[0][1]] for sid in tries}
    by_said = said_meaning(meaning.model, meaning.topic, said)
    cosines = {sid: meaning.cosine.get(sid, meaning.near[sid]) for sid in tries}
    asked = gap_floors(
        meaning.topic, {sid: f"{cards[sid]['title'] or ''} {cards[sid]['first_human'] or ''}" for sid in tries}
    )
    best = stands_out_crowded(by_card, cosines, by_said or {}, margin, asked)
    if best is None:
        return []
    sid, cosine = best
    entry = _entry(cards[sid], evidence[sid], units, [0.0] * len(units), 0.0, 0.0)
    if not entry.holds(named(text)):
        return []  # a name cannot be paraphrased or translated: "Kafka" is not in the session about Athena
    entry.meaning = cosine
    return [entry]


@dataclass
class Plan:
    """The message's words as the index knows them, and the few rare ones that pick candidates."""

    units: list[Unit]
    known: dict[str, int]  # term -> chunks of the index holding it
    searchable: list[str]  # terms the index holds
    selective: list[str]  # the rarest of them, within MATCH_ROWS matching chunks together


def plan(conn: sqlite3.Connection, text: str, units: list[Unit] | None = None) -> Plan | None:
    """The words of `text` to look for (`units`: its `message_units`, when known), or None when the index
    holds none of them."""
    from recollect.integrations.recallstats import document_frequencies

    units = message_units(text) if units is None else units
    terms = list(dict.fromkeys(t for u in units for t in u.terms))
    if not terms:
        return None
    known = document_frequencies(conn, terms)
    searchable = [t for t in terms if known[t]]
    if not units or not searchable:
        return None
    # Candidates come from the rarest words, as many as fit a budget of matching chunks: ranking every
    # chunk that holds a common word costs more than a message may wait. On a small store that is every
    # word. The words left out still count, tested in the candidates' text.
    selective: list[str] = []
    rows_planned = 0
    for term in sorted(searchable, key=lambda t: known[t]):
        if len(selective) >= 2 and rows_planned + known[term] > MATCH_ROWS:
            break
        selective.append(term)
        rows_planned += known[term]
    return Plan(units, known, searchable, selective)


def gather(
    conn: sqlite3.Connection, text: str, selective: list[str], filters: Filters
) -> tuple[dict[int, Evidence], dict[int, sqlite3.Row], bool]:
    """(evidence per candidate session, their cards, whether every matching chunk was read), the
    message being answered left out wherever the idle sync put it (a chunk, a card's first line)."""
    from recollect.history import fts_match, predicate

    chunk_where, chunk_params = predicate(filters)
    session_where, session_params = predicate(filters, chunk_alias=None)
    match = fts_match(selective)
    rows = conn.execute(
        "SELECT c.sid, c.class, c.message_id, c.text FROM chunk_fts JOIN chunk c ON c.id = chunk_fts.rowid "
        f"JOIN session s ON s.sid = c.sid WHERE chunk_fts MATCH ? AND {chunk_where} ORDER BY bm25(chunk_fts) LIMIT ?",
        [match, *chunk_params, CHUNK_ROWS],
    ).fetchall()
    card_sids = [
        r[0]
        for r in conn.execute(
            f"SELECT s.sid FROM card_fts JOIN session s ON s.sid = card_fts.rowid WHERE card_fts MATCH ? "
            f"AND {session_where} ORDER BY bm25(card_fts) LIMIT ?",
            [match, *session_params, CARD_ROWS],
        )
    ]
    order = list(dict.fromkeys([*(r[0] for r in rows), *card_sids]))
    shortlist = order[:SHORTLIST]  # in rank order: chunk matches first, then card matches
    kept = set(shortlist)  # only these are read (each session's evidence is its own)
    evidence, cards = _evidence(conn, text, [r for r in rows if r[0] in kept], shortlist)
    evidence = {sid: ev for sid, ev in evidence.items() if sid in cards}
    return evidence, cards, len(rows) < CHUNK_ROWS and len(order) <= SHORTLIST


def _evidence(
    conn: sqlite3.Connection, text: str, rows: list[Any], order: list[int]
) -> tuple[dict[int, Evidence], dict[int, sqlite3.Row]]:
    """What each session of `order` holds, from its chunk `rows` (sid, class, message id, text) and its
    card; the message being answered left out, and a reply that tells nothing counted as a question."""
    asking = " ".join(_fold(text).split())

    def is_this_message(line: str) -> bool:
        flat = " ".join(line.split())
        return bool(flat) and (asking.startswith(flat) or flat.startswith(asking))

    evidence = {sid: Evidence(sid) for sid in order}
    for sid, klass, message_id, body in rows:
        item = (_fold(body), body, message_id)
        if klass in QUESTION_CLASSES and is_this_message(item[0]):
            continue
        if klass in ANSWER_CLASSES:
            evidence[sid].answer.append(item)
        elif klass in QUESTION_CLASSES:
            evidence[sid].question.append(item)
        else:
            evidence[sid].tools.append(item[0])
    cards = _cards(conn, order)
    for sid, card in cards.items():
        ev = evidence[sid]
        for line in (card["title"], card["first_human"]):
            if line.strip() and not is_this_message(_fold(line)):
                ev.question.append((_fold(line), line, ""))
        asked = "\n".join(q[0] for q in ev.question)
        for line in [*card["decisions"].splitlines(), card["last_outcome"]]:
            # The card's decision lines come from questions too ("should we use X?"): those are not answers.
            if line.strip() and _fold(line) not in asked:
                ev.answer.append((_fold(line), line, ""))
        ev.tools.append(_fold(card["identifiers"] + "\n" + card["files"] + "\n" + card["errors"]))
        # A reply that tells nothing ("I don't know which format was chosen") is no answer: its words are
        # the question's (replies.py).
        asked = "\n".join(q[0] for q in ev.question)
        told = answers([a[0] for a in ev.answer], asked, STOPWORDS)
        ev.question.extend(a for a, ok in zip(ev.answer, told, strict=True) if not ok)
        ev.answer = [a for a, ok in zip(ev.answer, told, strict=True) if ok]
    return evidence, cards


def weigh(
    p: Plan, found: dict[int, list[tuple[float, ...]]], exact: bool, sessions: int, chunks_total: int
) -> list[tuple[float, ...]]:
    """Per unit, the weight each of its terms carries (`found`: per session and unit, how much each term
    counts there, `_held`): the unit's weight in words times its rarity, among the candidates when every
    matching chunk was read (`exact`), else in the index's own chunk statistics. A unit's first term
    carries its whole weight; a part of an identifier (`Unit.parts`) carries its own rarity, at most the
    whole's, so "test" of test_refresh_token_expiry carries little. A word's other forms carry the whole."""

    def rarity(i: int, held: range) -> float:
        terms = [p.units[i].terms[j] for j in held]
        if exact:
            n = max(sessions, MIN_STATS_SESSIONS)
            df = sum(1 for factors in found.values() if any(factors[i][j] for j in held))
            if not df:
                # In no candidate, but maybe common elsewhere ("something", "else"): weigh it by how often
                # the index holds it, not as if it were the rarest word there is.
                share = max((p.known[t] for t in terms), default=0) / max(chunks_total, 1)
                return _idf(n, min(n, share * n))
            return _idf(max(n, df), df)
        return _idf(chunks_total, max((p.known[t] for t in terms), default=0))

    weights: list[tuple[float, ...]] = []
    for i, unit in enumerate(p.units):
        count = len(unit.terms)
        if not unit.parts:
            weights.append((unit.weight * rarity(i, range(count)),) * count)
            continue
        whole = unit.weight * rarity(i, range(1))
        weights.append((whole, *(min(whole, unit.weight * rarity(i, range(j, j + 1))) for j in range(1, count))))
    return weights


def candidates(
    conn: sqlite3.Connection,
    text: str,
    filters: Filters,
    limit: int,
    floor: float = MIN_COVERAGE,
    units: list[Unit] | None = None,
) -> list[Entry]:
    """The sessions covering at least MIN_COVERAGE of `text`'s weighted words, best first, at most `limit`;
    when none does, the best that answered among those covering at least `floor` (for `rescue`)."""
    from recollect.history import predicate
    from recollect.integrations.recallstats import chunk_count

    p = plan(conn, text, units)
    if p is None:
        return []
    filters = filters.resolve(conn)
    evidence, cards, complete = gather(conn, text, p.selective, filters)
    if not evidence:
        return []
    session_where, session_params = predicate(filters, chunk_alias=None)
    sessions = conn.execute(f"SELECT count(*) FROM session s WHERE {session_where}", session_params).fetchone()[0]
    # One joined text per kind and session: every word test below is a substring test in C.
    found: dict[int, list[tuple[float, ...]]] = {}
    for sid, ev in evidence.items():
        texts = ("\n".join(a[0] for a in ev.answer), "\n".join(ev.tools), "\n".join(q[0] for q in ev.question))
        found[sid] = [_held(unit, texts) for unit in p.units]
    exact = complete and len(p.selective) == len(p.searchable)
    weights = weigh(p, found, exact, sessions, chunk_count(conn))
    answered = {sid for sid, ev in evidence.items() if ev.answer}
    one_script = (
        any(u.cjk for u in p.units)
        and bool(answered)
        and not any(any(found[sid][i]) for sid in answered for i, u in enumerate(p.units) if u.cjk)
    )
    if one_script:
        # No session that answered holds any of the message's Chinese: a Chinese question about sessions
        # held in English (those that only asked may be in Chinese). Its Chinese is the frame, not the
        # topic: the latin words decide, and `find` asks the meaning too (half the message was not weighed).
        weights = [tuple(0.0 for _ in w) if u.cjk else w for u, w in zip(p.units, weights, strict=True)]
    unit_weights = [w[0] for w in weights]
    whole = sum(unit_weights) or 1.0
    scored: list[tuple[float, int, int, float]] = []
    for sid, factors in found.items():
        pairs = list(zip(weights, factors, strict=True))
        covered = sum(max((w for w, f in zip(ws, fs, strict=True) if f), default=0.0) for ws, fs in pairs) / whole
        if covered >= floor:
            score = sum(max(w * f for w, f in zip(ws, fs, strict=True)) for ws, fs in pairs) / whole
            scored.append((score, cards[sid]["time_updated"] or 0, sid, covered))
    scored.sort(key=lambda x: (-x[0], -x[1]))
    # Only the best few become entries; enough of them to collapse repeats. When none of them answered
    # (or words alone cannot decide), the best that answered below MIN_COVERAGE too, for `rescue`.
    picked = [x for x in scored if x[3] >= MIN_COVERAGE][:limit]
    if one_script or not any(x[2] in answered for x in picked):
        picked += [x for x in scored if x[3] < MIN_COVERAGE and x[2] in answered][:RESCUE_TRIES]
    entries = []
    for score, _, sid, covered in picked:
        entries.append(_entry(cards[sid], evidence[sid], p.units, unit_weights, score, covered))
        entries[-1].answered = sid in answered
        entries[-1].one_script = one_script
    return entries


def _held(unit: Unit, texts: tuple[str, str, str]) -> tuple[float, ...]:
    """How much each of `unit`'s terms counts in a session (`texts`: its answers, tool traffic and
    questions): found in an answer, in tool traffic, only in a question, or not (0). A word's forms count
    alike, so the first found decides for them all; an identifier's parts each count for themselves."""
    kinds = tuple(zip(texts, (ANSWER, TOOLS, QUESTION), strict=True))
    if not unit.parts:
        for text, factor in kinds:
            if present(unit, text):
                return (factor,) * len(unit.terms)
        return (0.0,) * len(unit.terms)
    return tuple(next((f for text, f in kinds if holds_term(t, unit.cjk, text)), 0.0) for t in unit.terms)


def _cards(conn: sqlite3.Connection, sids: list[int]) -> dict[int, sqlite3.Row]:
    conn.row_factory = sqlite3.Row
    try:
        marks = ",".join("?" * len(sids[: SHORTLIST * 4]))
        rows = conn.execute(
            "SELECT sid, native_id, source_id, title, directory, time_updated, first_human, last_outcome, "
            f"decisions, identifiers, files, errors FROM session WHERE sid IN ({marks})",
            sids[: SHORTLIST * 4],
        ).fetchall()
    finally:
        conn.row_factory = None
    return {r["sid"]: r for r in rows}


def _entry(
    card: sqlite3.Row, ev: Evidence, units: list[Unit], weights: list[float], score: float, covered: float
) -> Entry:
    return Entry(
        sid=card["sid"],
        session_id=card["native_id"],
        source=card["source_id"],
        title=display_title(card["title"], card["first_human"]),
        directory=card["directory"],
        time=card["time_updated"] or 0,
        score=score,
        coverage=covered,
        files=[f for f in card["files"].splitlines() if f],
        question_terms=question_terms(card["first_human"] or card["title"] or ""),
        gist="\n".join(card[k] or "" for k in ("title", "first_human", "decisions", "last_outcome"))[:GIST_CHARS],
        shown_from=(ev, units, weights),
    )


def show(entry: Entry) -> Entry:
    """Fill in the entry's cursor and snippet: the answer holding most of the message's weighted words
    (the question when the session holds no answer). Only for the entries a block names: it costs more
    than scoring them."""
    from recollect.history import make_cursor, snippet

    if entry.shown_from is None:
        return entry
    ev, units, weights = entry.shown_from

    def weight_in(text: str) -> float:
        return sum(w for u, w in zip(units, weights, strict=True) if present(u, text))

    best = max(ev.answer, key=lambda a: weight_in(a[0]), default=None)
    # A session that answered shows its answer even when the message's words sit only in its question.
    shown = best if best is not None else (ev.question[0] if ev.question else None)
    entry.cursor = make_cursor(entry.source, entry.session_id, shown[2] if shown and shown[2] else "")
    entry.snippet = snippet(shown[1], [t for u in units for t in u.terms]) if shown else ""
    entry.shown_from = None
    return entry


def collapse(entries: list[Entry]) -> list[Entry]:
    """Sessions that asked the same question become one entry (the best of them, answered first)."""
    kept: list[Entry] = []
    for entry in entries:
        for other in kept:
            a, b = entry.question_terms, other.question_terms
            if a and b and len(a & b) / len(a | b) >= SAME_QUESTION:
                other.also_asked += 1
                break
        else:
            kept.append(entry)
    return kept
