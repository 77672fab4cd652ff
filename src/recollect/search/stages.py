"""Ranking stages that can be switched off one at a time, so the eval can show what each one earns.

`recollect eval --ablate` runs every labelled query once per stage with that stage off, beside plain
BM25 over the same units (docs/eval.md). The switch is a context variable, so concurrent searches in
one process (the MCP server) never see another caller's ablation. Production code only asks `on()`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

STAGES: dict[str, str] = {
    "meaning": "both semantic arms (static model over chunks and cards, full encoder over cards)",
    "script": "a session in another script than the query (Chinese question, English session) ranked by meaning; "
    "with meaning off, one the words rank among the first five keeps the coverage of the best same-script session",
    "uncovered": "where no session's words cover the whole query, the card's meaning stands in for what they left out",
    "card_bm25": "BM25 over session cards (title, first request, inventories)",
    "pruning": "leaving very common words out of the match when rarer ones exist (and, for a pasted line, all but "
    "its near-unique tokens; with the words alone, two rare words of the language do not make one)",
    "framing": "question words weighted by what they tell (index statistics), time words as a time preference",
    "coverage": "weighting a session by the share of the query's terms it covers",
    "priors": "same directory / project and recency priors",
    "correction": "typo correction for words the index does not know",
    "test_id": "a pasted test id's bare test name searched beside the whole id, its [param] only beside its name",
    "opening": "a query that restates a session's title or first request: those fields weigh more in the card arm, "
    "and for a query that asks nothing a long session speaks for as much of it as its title and first request hold, "
    "and its coverage is read in them too; a restated request in prose is not discounted by stage evidence",
    "answered": "a session whose matching text is only the person's own words (asked, never answered) counts less",
    "long_sessions": "a session's card counts by how much of it its opening speaks for (its requests), and its "
    "coverage is read around its best turn; in it, a turn stating the query's words before asking something else "
    "keeps its place before the reply",
    "evidence": "in a long session (more than 6 requests), a card's BM25 vote counts by the share of the query's "
    "words the card holds",
    "coverage_span": "coverage weighs by how much of the shortlisted sessions their openings speak for: among "
    "long chats, where a question's words rarely stand together around the turn that answers, it weighs less",
    "speaker": "a question about the person (first person, not put to the assistant, not asking what to do): in a "
    "long session (more than 6 requests) the assistant's turns rank below the person's own in the chunk arm",
    "fusion_depth": "in a small index, reciprocal-rank fusion's k shrinks with it (a quarter of its sessions), so "
    "an arm's ranks stay told apart",
    "card_depth": "where no arm by meaning ranks (meaning off, a query of identifiers), only the card arm's first "
    "10 cards vote",
    "novelty": "for a query of prose words, a session whose best turn repeats what a higher session already "
    "showed goes below the sessions that show something new",
    "turn_rerank": "re-ranking the turns of each top session so its first hit is the turn that answers",
    "phrase": "a ranked query of two or more words: sessions holding it word for word count in one more arm",
    "literal": "a query that asks nothing (a pasted error line, command, path or name): the sessions holding it word "
    "for word rank first",
}

_OFF: ContextVar[frozenset[str]] = ContextVar("recollect_stages_off", default=frozenset())


def on(stage: str) -> bool:
    """Whether `stage` is active for the current search (always, unless an ablation turned it off)."""
    return stage not in _OFF.get()


@contextmanager
def disabled(*names: str) -> Iterator[None]:
    """Run the body with the named stages off."""
    unknown = set(names) - set(STAGES)
    if unknown:
        raise ValueError(f"unknown ranking stage(s) {sorted(unknown)}; known: {', '.join(STAGES)}")
    token = _OFF.set(_OFF.get() | frozenset(names))
    try:
        yield
    finally:
        _OFF.reset(token)
