"""The right turn of a session: re-rank the candidate turns of each session on the first page, so its
first hit is the turn that answers the question, not merely the turn with the most matching words.

A session's candidates are its chunks that matched the query's words (in BM25 order) and, with
semantic search on, its nearest chunk by meaning. Each is scored by
    the idf-weighted share of the query's content words it contains (a framing word counts a little)
  + a small bonus for its BM25 position inside the session (ties go to BM25's order)
  + a small bonus when it holds the kind of answer the question asks for: a date or time for "when",
    a number or amount for "how much / how many / how long", a name for "who", a place for "where"
  - a small penalty when it ends by asking a question itself; the turn that replies to it inherits
    most of its score instead (the answer follows the question). In a long chat (`long`: more requests
    than its opening speaks for) a turn that holds a query word in a sentence stating something is not
    penalized: there a fact is said in passing beside a question about something else, and the reply
    answers that ("I don't drink alcohol, in the evenings I have rooibos. Is a 50mm lens a good first
    buy?"). In a short chat the person states the context and asks, and the reply answers: kept as it was.
The weights were decided on the eval's conversation questions (docs/eval.md); the cost is one read of
at most `TURN_CANDIDATES` chunk rows per query.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping, Sequence

from recollect.text.sentences import sentences

TURN_CANDIDATES = 60  # chunks read for re-ranking, over all sessions of the first page
PER_SESSION_CANDIDATES = 8
REACH = 3  # chunks read per hit shown, for the next message when two share one (`one_per_message`)
POSITION_WEIGHT = 0.15
ANSWER_WEIGHT = 0.15
QUESTION_PENALTY = 0.1  # a turn that asks back
REPLY_SHARE = 0.9  # of a question turn's word share, given to the turn that replies to it

_WHEN = re.compile(
    r"\b(?:\d{1,2}[:.]\d{2}|\d{1,2}(?:st|nd|rd|th)\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"january|february|march|april|may|june|july|august|september|october|november|december|"
    r"tomorrow|tonight|next (?:week|month)|\d{4}-\d{2}-\d{2})|\d+月|\d+号|周[一二三四五六日]|[一二三四五六七八九十]+月",
    re.I,
)
_AMOUNT = re.compile(r"\d")
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}")
_ASKS = (
    (re.compile(r"^\s*when\b|\bwhat (?:time|date|day)\b|什么时候|哪天|几点", re.I), _WHEN),
    (
        re.compile(r"\bhow (?:much|many|long|often|big|far)\b|\bwhat (?:pace|budget|price|size)\b|多少|多久|几", re.I),
        _AMOUNT,
    ),
    (re.compile(r"^\s*who\b|\bwhose\b|\bwhat(?:'s| is) (?:\w+ )?name\b|谁", re.I), _NAME),
    (re.compile(r"^\s*where\b|哪里|哪儿", re.I), _NAME),
)


def answer_kind(query: str) -> re.Pattern[str] | None:
    """What a question asks for, as a pattern its answer contains; None for other queries."""
    for asks, answer in _ASKS:
        if asks.search(query):
            return answer
    return None


def _asks_back(text: str) -> bool:
    """A turn that ends by asking something is where the question was echoed, not where it was answered."""
    return text.rstrip().endswith(("?", "？"))


def _states(text: str, words: Sequence[tuple[list[str], float]]) -> bool:
    """Whether a query word is in a sentence of `text` that states something (does not ask)."""
    stated = " ".join(s for s in sentences(text) if not _asks_back(s))
    stated = stated.lower() if stated.isascii() else stated.casefold()
    return any(v in stated for variants, _ in words for v in variants)


def rerank_turns(
    chunk_ids: Sequence[int],
    texts: Mapping[int, str],
    words: Sequence[tuple[list[str], float]],
    asks: re.Pattern[str] | None,
    replies: Mapping[int, tuple[int, str]] | None = None,
    long: bool = False,
) -> list[int]:
    """`chunk_ids` (one session's candidates, BM25 order) best turn first. `words` pairs each query
    word's variants with its weight. A candidate that asks a question passes most of its score to the
    turn that replies to it (`replies`: question chunk -> (next turn's chunk, text)): in a conversation
    the answer follows the question, often without repeating its words. Chunks without text (not
    read) keep their place after the scored ones."""
    total = sum(w for _, w in words) or 1.0
    best: dict[int, tuple[float, int]] = {}

    def offer(cid: int, score: float, position: int) -> None:
        if cid not in best or score > best[cid][0]:
            best[cid] = (score, -position)

    for position, cid in enumerate(chunk_ids):
        text = texts.get(cid)
        if text is None:
            offer(cid, -1.0, position)
            continue
        folded = text.lower() if text.isascii() else text.casefold()
        share = sum(w for variants, w in words if any(v in folded for v in variants)) / total
        score = share + POSITION_WEIGHT / (1 + position)
        if asks is not None and asks.search(text):
            score += ANSWER_WEIGHT
        if _asks_back(text):
            if not (long and _states(text, words)):
                score -= QUESTION_PENALTY
            reply = (replies or {}).get(cid)
            if reply is not None:
                follow = REPLY_SHARE * share + POSITION_WEIGHT / (1 + position)
                if asks is not None and asks.search(reply[1]):
                    follow += ANSWER_WEIGHT
                offer(reply[0], follow, position)
        offer(cid, score, position)
    return [cid for cid, _ in sorted(best.items(), key=lambda kv: kv[1], reverse=True)]


def replies_to(
    conn: sqlite3.Connection, chunk_ids: Sequence[int], where: str = "1", params: Sequence[object] = ()
) -> dict[int, tuple[int, str]]:
    """For each chunk, the first chunk of the next message in its session (id, text), if any.

    `where`/`params` are the search's own predicate over `s` (session) and `c` (the reply chunk), so a
    reply is only offered when it passes the same filters (role, class, author, tool, time window)."""
    if not chunk_ids:
        return {}
    marks = ",".join("?" * len(chunk_ids))
    rows = conn.execute(
        f"SELECT q.id, c.id, c.text FROM chunk q JOIN chunk c ON c.sid = q.sid AND c.ord = q.ord + 1 "
        f"JOIN session s ON s.sid = c.sid "
        f"WHERE q.id IN ({marks}) AND c.class IN ('user_text', 'assistant_text') AND {where} ORDER BY c.id",
        [*chunk_ids, *params],
    ).fetchall()
    out: dict[int, tuple[int, str]] = {}
    for question, reply, text in rows:
        out.setdefault(question, (reply, text))
    return out


def one_per_message(ranked: Sequence[int], chunks: Mapping[int, sqlite3.Row], per_session: int) -> list[int]:
    """A session's best chunks to show, at most one of each message: a hit's cursor names its message, so
    a second chunk of one message (a tool's input beside its error) would lead to the window the first
    opens; the next chunk of another message takes its place."""
    chosen: list[int] = []
    seen: set[str] = set()
    for cid in ranked:
        row = chunks.get(cid)
        if row is None or row["message_id"] in seen:
            continue
        seen.add(row["message_id"])
        chosen.append(cid)
        if len(chosen) == per_session:
            break
    return chosen
