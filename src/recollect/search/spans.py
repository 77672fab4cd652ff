"""Long sessions: how much of a session its opening speaks for, and the words around its best turn.

A session's card (title and first request, and the full encoder's meaning of them) says how it began.
In a coding session the person asks once or twice and the agent works: the opening is what the session
is about. In a long chat the person asks about many things in turn, and a question about a fact said in
passing in its twentieth turn meets a card about something else. There the arms that read the card
rank sessions by their openings, and term coverage, read over a session's best few chunks together,
credits a long session for query words scattered over unrelated turns. Both beat plain BM25 over the
turns on a long-session chat haystack (bench/eval/longchat.py, docs/eval.md), so:

* `opening_spans`: a session's opening speaks for all of it up to `OPENING_TURNS` requests, and for
  `(OPENING_TURNS / n) ** 2` of it when the person asked `n` times; the card arms count by that share;
* `coverage_exponent`: how hard coverage weighs, by how much of the shortlisted sessions their
  openings speak for: among long chats it weighs less, for every session of the query alike;
* `neighbours`: the turns right before and after a chunk, so coverage can be read where the words
  meet (the question and its answer), not only over chunks far apart;
* `person_first`: for a question about the person, a long session's assistant turns count less in the
  chunk arm than the person's own (stage `speaker`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from recollect.index.queries import rows_for_ids
from recollect.search.terms import TermPlan

OPENING_TURNS = 6  # requests of the person that a session's opening still speaks for
COVERAGE_CHUNKS = 3  # a session's best matching chunks read for its coverage (beside its card)
FUSION_DEPTH = 0.25  # reciprocal-rank fusion's k is at most this share of the index's sessions
SPEAKER_WEIGHT = 0.3  # stage speaker: a long session's assistant turn's BM25 score, for a question about the person
CARD_FIELDS = ("title", "first_human", "identifiers", "files", "errors", "last_outcome", "decisions", "summary")


def folded(text: str) -> str:
    # Case only: stripping accents from whole chunks costs more than the rare accented term gains.
    return text.lower() if text.isascii() else text.casefold()


def covered_share(
    terms: TermPlan,
    card: sqlite3.Row,
    best: Sequence[str],
    around: Sequence[str] | None = None,
    span: float = 1.0,
    restated: bool = False,
) -> tuple[float, str]:
    """The share of the query's term weight a session covers, and the text it was read in: its card and
    its `best` matching chunks' texts. For a long session (`span` < 1) with `around` (the turns next to its
    best chunk), it is what its best chunk with its neighbours covers: in a long chat the words of unrelated
    turns do not add up, and the card speaks for only `span` of it. For a query that asks nothing
    (`restated`, stage `opening`), the title with the first request is such a place where the words meet
    too: the query may restate the session itself. Substring presence is a cheap stand-in for token
    presence (stems and bigrams are substrings too)."""
    card_text = [str(card[k] or "") for k in CARD_FIELDS]
    haystack = folded(" ".join([*card_text, *best]))
    share = terms.covered(haystack) / terms.total_weight
    if around is None or not best or span >= 1.0:  # a session its opening speaks for is read as a whole
        return share, haystack
    turn = terms.covered(folded(" ".join([best[0], *around]))) / terms.total_weight
    if restated:
        turn = max(turn, terms.covered(folded(" ".join(card_text[:2]))) / terms.total_weight)
    return turn, haystack


def opening_spans(conn: sqlite3.Connection, sids: Iterable[int], restated: TermPlan | None = None) -> dict[int, float]:
    """For each session, the share of it that its opening speaks for: min(1, OPENING_TURNS / requests),
    squared. The opening holds that share of the person's requests, and a question about any other of them
    meets the card's words only by chance: the linear share let a card of a 12-request chat still outvote
    which of its turns matched best (docs/eval.md, seventh session).

    With `restated` (the terms of a query that asks nothing: stage `opening`), a session speaks for at least
    the share of the query's weight its title and first request hold: such a query restates the session
    (its title sums up all of it, in Claude Code), not a fact said in one of its turns (docs/eval.md,
    eleventh session)."""
    wanted = list(dict.fromkeys(sids))
    asked: dict[int, int] = dict(
        rows_for_ids(
            conn,
            "SELECT sid, count(DISTINCT ord) FROM chunk WHERE sid IN ({marks}) AND class = 'user_text' GROUP BY sid",
            wanted,
        )
    )
    spans = {sid: min(1.0, OPENING_TURNS / max(1, asked.get(sid, 1))) ** 2 for sid in wanted}
    short = [sid for sid, share in spans.items() if share < 1.0]
    if restated is None or not restated.total_weight or not short:
        return spans
    openings = "SELECT sid, title, first_human FROM session WHERE sid IN ({marks})"
    for sid, title, head in rows_for_ids(conn, openings, short):
        held = restated.covered(folded(f"{title or ''} {head or ''}")) / restated.total_weight
        spans[sid] = max(spans[sid], held)
    return spans


def person_first(conn: sqlite3.Connection, chunk_rows: list[Any], about_the_person: bool) -> list[Any]:
    """The chunk arm's rows (id, sid, class, BM25 score), for a question about the person (stage `speaker`,
    query.QueryPlan.about_the_person) reordered: in a long chat (its opening speaks for less than all of it,
    and it called no tool) an assistant turn's score counts SPEAKER_WEIGHT. "When are my guitar lessons?" is
    answered by what the person said; in a long chat the assistant's turns talk of the topic in general and hold the
    question's words as often (docs/eval.md, thirteenth session). Any other question: the rows as they are."""
    if not about_the_person:
        return chunk_rows
    sids = list(dict.fromkeys(row[1] for row in chunk_rows))
    span = opening_spans(conn, sids)
    # A chat only: in agent work (a session that called tools) the assistant's turns state the fix and the
    # decision that "how did we fix X" asks for, and the person's turns the problem.
    chat = "SELECT sid FROM session WHERE sid IN ({marks}) AND tools = ''"
    chats = {sid for (sid,) in rows_for_ids(conn, chat, sids)}

    def score(row: Any) -> float:
        long_chat = span.get(row[1], 1.0) < 1.0 and row[1] in chats
        return float(row[3]) * (SPEAKER_WEIGHT if row[2] == "assistant_text" and long_chat else 1.0)

    return sorted(chunk_rows, key=score)  # BM25 scores are negative, best first; stable for equal scores


def neighbours(conn: sqlite3.Connection, chunk_ids: Iterable[int]) -> dict[int, list[str]]:
    """For each chunk, the texts of the other chunks of its message and of the messages right before and after."""
    wanted = list(dict.fromkeys(chunk_ids))
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    rows = conn.execute(
        f"SELECT q.id, c.text FROM chunk q JOIN chunk c ON c.sid = q.sid AND c.ord BETWEEN q.ord - 1 AND q.ord + 1 "
        f"AND c.id != q.id WHERE q.id IN ({marks}) ORDER BY c.ord, c.id",
        wanted,
    ).fetchall()
    out: dict[int, list[str]] = {}
    for cid, text in rows:
        out.setdefault(cid, []).append(text)
    return out


def card_shares(conn: sqlite3.Connection, sids: Iterable[int], terms: TermPlan) -> dict[int, float]:
    """For each session, the share of the query's term weight its card holds (title, first request,
    inventories, outcome, decisions, summary): how much of the query the card arm's match found."""
    wanted = list(dict.fromkeys(sids))
    if not wanted or not terms.total_weight:
        return {}
    marks = ",".join("?" * len(wanted))
    rows = conn.execute(f"SELECT sid, {', '.join(CARD_FIELDS)} FROM session WHERE sid IN ({marks})", wanted)
    return {r[0]: terms.covered(folded(" ".join(str(v or "") for v in r[1:]))) / terms.total_weight for r in rows}


def coverage_exponent(span: dict[int, float], shortlist: Sequence[int], exponent: float) -> float:
    """Coverage's exponent for this query: `exponent` times the mean share of the shortlisted sessions that
    their openings speak for (`opening_spans`). In a long chat a question's words rarely all stand around
    the turn that answers it (the answer does not repeat the question), while a passing remark elsewhere
    may hold them all; there the best turn's BM25 already weighs which words it holds. One exponent for
    every session of a query, so a long session is never spared the weighting that a short one beside it
    pays (a per-session exponent lifted a 10-request session with 17% of a query's words from 15th to 3rd
    on the main corpus). An index of short sessions keeps `exponent`."""
    if not shortlist:
        return exponent
    return exponent * sum(span.get(sid, 1.0) for sid in shortlist) / len(shortlist)


def first_cards(votes: dict[int, float], ranks: dict[int, int], depth: int) -> dict[int, float]:
    """The card arm's votes with only its first `depth` cards voting. Where no arm by meaning ranks beside the
    words (meaning off, or a query of identifiers), reciprocal-rank fusion still gives the 28th card BM25 lists,
    one whose title holds a single common word of the query ("Find load_quantizer call sites" for "...that anyone
    could call"), 60% of the best chunk's vote, and the chunk arm has no other arm to outvote it."""
    return {sid: vote if ranks.get(sid, depth + 1) <= depth else 0.0 for sid, vote in votes.items()}


def fusion_k(sessions: int, k: float) -> float:
    """Reciprocal-rank fusion's k for an index of `sessions`: `k`, or a quarter of the index if that is less.
    k is the depth down to which an arm's ranks count nearly alike. In a haystack of 40 long chats every
    session matches some word, and with k = 40 the best chunk and the tenth differ by a fifth, so any
    second arm that merely lists a session (a card, a meaning) outweighs which turn matched best."""
    return min(k, max(1.0, sessions * FUSION_DEPTH))


def card_votes(
    conn: sqlite3.Connection,
    terms: TermPlan,
    sids: Iterable[int],
    span: dict[int, float],
    prose: float,
    evidence: bool,
) -> dict[int, float]:
    """The card BM25 arm's weight per session: by how much of the session its opening speaks for (`span`),
    in proportion to the query's prose share; and (`evidence`), for the part of a long session its opening
    does not speak for, by the share of the query its card holds. BM25 ranks a card that holds one common
    word of the question all the same; in a long chat that card says little about the fact asked for."""
    wanted = list(sids)
    held = card_shares(conn, [s for s in wanted if span.get(s, 1.0) < 1.0], terms) if evidence else {}
    votes = {}
    for sid in wanted:
        share = span.get(sid, 1.0)
        trust = held.get(sid, 1.0)  # an opening that speaks for all of it is trusted whole
        votes[sid] = trust * (1 - prose * (1 - share))
    return votes
