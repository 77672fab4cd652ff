"""Which of a query's terms to match, with what weight, and typo corrections for unknown words.

All from the index's own statistics: document frequencies come from an fts5vocab view of the chunk
index. A typo correction applies only to a word the index has never seen, and is searched beside the
original, never in its place (the original still goes into the match).
"""

from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from recollect.search.query import FRAMING_WEIGHT, QueryPlan

if TYPE_CHECKING:
    from recollect.embed.strtable import PrefixTable


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


# The shipped static model's vocabulary (recollect.embed.static.SHIPPED_DIR and PIECE_TABLE; named here so
# that a search with no unknown word never imports numpy): its whole-word pieces are words of the
# languages the encoder was trained on. Looked up in the model's mapped piece table: building a set of
# them from pieces.txt cost a query with an unknown word ~40-75 ms of CPU.
LANGUAGE_PIECES = Path(__file__).resolve().parent.parent / "data" / "model" / "static-muse-v1" / "pieces.table"
_WORD_START = "\u2581"


@lru_cache(maxsize=1)
def _language_pieces() -> PrefixTable | None:
    from recollect.embed import strtable

    try:
        return strtable.read(LANGUAGE_PIECES)[0]
    except (OSError, ValueError):
        return None


def _a_word(word: str) -> bool:
    """Whether the language knows `word`, or its singular: the vocabulary holds "routine" whole but not
    "routines", which was corrected to "routes"."""
    return language_knows(word) or (word.endswith("s") and language_knows(word[:-1]))


def language_knows(word: str) -> bool:
    """Whether the multilingual encoder knows `word` whole, as a word of two characters or more (False if
    the model files are missing)."""
    pieces = _language_pieces()
    return pieces is not None and len(word) >= 2 and pieces.get(_WORD_START + word) is not None


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


@dataclass
class TermPlan:
    """The terms to match, their idf, each query word's (variants, weight) for coverage, and corrections."""

    match: list[str]
    idf: dict[str, float]
    words: list[tuple[list[str], float]]
    corrections: dict[str, str] = field(default_factory=dict)
    # For choosing a session's turn every known word counts at its idf: "what did we decide" asks for
    # the turn where something was decided, even though "decide" does not pick the session.
    turn_words: list[tuple[list[str], float]] = field(default_factory=list)
    apart: frozenset[str] = frozenset()  # terms found only where they stand apart (QueryPlan's `Word.apart`)

    @property
    def total_weight(self) -> float:
        return sum(w for _, w in self.words)

    def covered(self, haystack: str) -> float:
        """The coverage weight `haystack` earns: per word, its weight scaled by the most specific of its
        variants found (a session with only the stem "fail" earns the stem's idf for "failing"). A term
        of `apart` counts only where it stands apart: a pasted test id's bare name is in every run's
        `path::name[param] PASSED` listing as a substring, and the word arms already leave those out."""
        total, apart = 0.0, stands_apart
        for variants, weight in self.words:
            found = next((v for v in variants if v in haystack and (v not in self.apart or apart(v, haystack))), None)
            if found is not None:
                total += weight * self.idf[found] / self.idf[variants[0]]
        return total


def stands_apart(term: str, haystack: str) -> bool:
    """Whether `haystack` holds `term` as the tokenizer reads it on its own, not inside a longer name
    (`tests/test_x.py::test_y[p]`, `TestA.test_y`, `test_y_two`): where a person or a failure header wrote it."""
    return re.search(rf"(?<![\w./:-]){re.escape(term)}(?!\w)", haystack) is not None


def chunk_count(conn: sqlite3.Connection) -> int:
    """How many chunks the index holds: the N of every idf. Not max(id): ids only grow, so an index
    synced step by step would weigh (and prune) terms unlike a fresh one holding the same rows."""
    return max(1, conn.execute("SELECT count(*) FROM chunk").fetchone()[0] or 1)


def plan_terms(
    conn: sqlite3.Connection, plan: QueryPlan, *, correct: bool = True, prune: bool = True, words_alone: bool = False
) -> TermPlan:
    """Which terms to search with, their idf weights, per-word coverage weights and typo corrections.

    Long queries (pasted error messages) are full of words that occur everywhere ("error", "code");
    matching on them only makes BM25 score half the index. When rarer terms exist, terms in more
    than 5% of chunks are left out of the match (they still count nothing against a session). Words
    that frame a question are matched only when the query has no content word the index knows, and
    count `FRAMING_WEIGHT` of their idf toward coverage. A word the index knows by any of its variants
    is not corrected. `words_alone`: no arm by meaning runs beside the words (see `_prune`)."""
    terms = plan.terms
    if not terms:
        return TermPlan([], {}, [])
    df = document_frequencies(conn, terms)
    total = chunk_count(conn)
    corrections: dict[str, str] = {}
    derived = {v for w in plan.words for v in w.variants[1:]}  # stems are not corrected on their own
    # A word the index knows by one of its variants ("deadlines" by its stem "deadlin") is no typo, nor
    # is a word typed on its own that the language knows ("plant", "taking"): in a small index most
    # unknown words are merely absent. A piece of a compound is code (`cert-manger`): it may be a typo.
    known = {v for w in plan.words if any(df[x] > 0 for x in w.variants) for v in w.variants}
    unknown = [t for t in terms if correct and df[t] == 0 and t not in derived and t not in known]
    if unknown and any(not w.part for w in plan.words if w.variants[0] in unknown):
        known |= {w.variants[0] for w in plan.words if not w.part and _a_word(w.variants[0])}
    for term in terms:
        if correct and df[term] == 0 and term not in derived and term not in known:
            fixed = correct_typo(conn, term)
            if fixed and fixed not in df:
                corrections[term] = fixed
                df[fixed] = document_frequencies(conn, [fixed])[fixed]
    variants = [[*w.variants, *(corrections[v] for v in w.variants if v in corrections)] for w in plan.words]
    present = [t for t in dict.fromkeys(v for vs in variants for v in vs) if df.get(t, 0) > 0]
    idf = {t: math.log(1 + (total - df[t] + 0.5) / (df[t] + 0.5)) for t in present}
    framing = plan.framing_terms
    framing |= {corrections[t] for t in framing if t in corrections}  # a framing word's correction frames too
    content = [t for t in present if t not in framing]
    keep = _prune(content or present, df, total, words_alone) if prune else (content or present)
    words = []
    turn_words = [([v for v in vs if v in idf], max((idf[v] for v in vs if v in idf), default=0.0)) for vs in variants]
    for word, vs in zip(plan.words, variants, strict=True):
        kept = sorted((v for v in vs if v in idf and v in keep), key=lambda v: -idf[v])  # most specific first
        if kept:
            weight = max(idf[v] for v in kept) * (FRAMING_WEIGHT if word.framing and content else 1.0)
            words.append((kept, weight))
    # Terms the index has never seen still go into the match: the card arm may know them.
    unknown = [t for t in terms if df.get(t, 0) == 0 and t not in corrections and t not in derived]
    turn_words = [(vs, w) for vs, w in turn_words if vs]
    apart = frozenset(v for w in plan.words if w.apart for v in w.variants)
    return TermPlan(keep + unknown, {t: idf[t] for t in keep}, words, corrections, turn_words, apart)


# A term in fewer chunks than this is never left out as common: scoring it costs nothing, and in a small
# index a share of 5% is a few dozen chunks. In a haystack of 40 long chats (~1,100 chunks) the 5% rule
# left out "like", "first", "need" and "people" (55-130 chunks), and those carried the question; the
# pasted test ids the rule is for drop words of 235 chunks and more in the eval corpus (6,872 chunks).
# 50 and 200 give the same figures on both eval sets; 400 cost pasted test ids (docs/eval.md).
PRUNE_MIN_DF = 200


def _prune(present: list[str], df: dict[str, int], total: int, words_alone: bool = False) -> list[str]:
    keep = present
    if len(present) > 3:
        rare = [t for t in present if df[t] / total <= 0.05 or df[t] < PRUNE_MIN_DF]
        keep = rare if len(rare) >= 2 else sorted(present, key=lambda t: df[t])[:3]
        # A pasted error or log line carries near-unique tokens (ids, hashes, numbers): two of them pin
        # the session, and matching the merely uncommon words too only costs time. With the words alone
        # (no arm by meaning), two words of the language rare in a small index ("installs", "thorough" in 3
        # of 6,516 chunks) are no such line: keeping only them left "security audit mac" out of the match.
        if sum(df[t] / total <= 0.0005 and not (words_alone and language_knows(t)) for t in keep) >= 2:
            keep = [t for t in keep if df[t] / total <= 0.005]
    if len(keep) > 1:
        # A term in a fifth of all chunks says little, yet scoring its matches dominates query time.
        selective = [t for t in keep if df[t] / total <= 0.2 or df[t] < PRUNE_MIN_DF]
        if selective:
            keep = selective
    return keep
