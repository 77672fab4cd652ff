"""Novelty: each session on a page of results shows evidence the sessions above it did not.

The same words are often said in several sessions: a request typed again, an answer given twice, the same
advice or boilerplate. A query that matches such text ranks every session holding it close together, and
they fill the first page with one piece of evidence while a session that says something else, perhaps the
answer, waits below them. A long chat makes it likelier (many turns, so many repeated ones). So a session
whose best turn's matching sentences are nearly the ones a higher session already showed goes below the
sessions that show something new (docs/eval.md, eighth session). Never reads the store: it compares the
texts the ranking already read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from recollect.search.spans import folded
from recollect.text.sentences import sentences
from recollect.text.tokenize import tokenize

SAME_EVIDENCE = 0.8  # share of their tokens in common (Jaccard) above which two turns' matches say the same


def evidence(text: str, terms: Iterable[str]) -> frozenset[str]:
    """The tokens of the sentences of `text` that hold a query term (substring of the folded sentence,
    as coverage reads it); of the whole text when no sentence does (a turn found by its meaning)."""
    wanted = [t for t in terms if t]
    held = [s for s in sentences(text) if any(t in folded(s) for t in wanted)]
    return frozenset(tokenize(" ".join(held) if held else text))


def same_share(a: frozenset[str], b: frozenset[str]) -> float:
    """How much two pieces of evidence say the same: the share of their tokens in common."""
    return len(a & b) / len(a | b) if a and b else 0.0


def diversify(order: Sequence[int], shown: dict[int, frozenset[str]]) -> list[int]:
    """`order` (sessions, best first), with each session whose evidence (`shown`) a higher session already
    showed moved after the sessions that show something new; each group keeps its order. Only sessions whose
    turns were compared move: one without evidence (its card matched, no turn) keeps its place."""
    compared = [sid for sid in order if shown.get(sid)]
    fresh: list[int] = []
    repeated: list[int] = []
    seen: list[frozenset[str]] = []
    for sid in compared:
        mine = shown[sid]
        if any(same_share(mine, other) >= SAME_EVIDENCE for other in seen):
            repeated.append(sid)
        else:
            fresh.append(sid)
            seen.append(mine)
    moved = iter(fresh + repeated)
    return [next(moved) if shown.get(sid) else sid for sid in order]


def novel_first(
    scored: list[tuple[float, int]], best: Mapping[int, str], terms: Iterable[str]
) -> list[tuple[float, int]]:
    """A query's (score, session) shortlist, best first, with each session whose best turn (`best`, its text)
    repeats what a higher one showed after the sessions that show something new. The ranking asks it only for
    a query of prose words: a path, identifier or error is asked for every session that holds it (each read,
    ran or printed it), and those print the very same lines (a path query's gold sessions lost all@5 otherwise)."""
    wanted = list(terms)
    shown = {sid: evidence(text, wanted) for sid, text in best.items()}
    score = {sid: value for value, sid in scored}
    return falling([(score[sid], sid) for sid in diversify([sid for _, sid in scored], shown)])


def falling(ordered: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """Sessions put in a new order, each score capped at the one above it, so scores still fall down the page."""
    capped: list[tuple[float, int]] = []
    for score, sid in ordered:
        capped.append((min(score, capped[-1][0]) if capped else score, sid))
    return capped
