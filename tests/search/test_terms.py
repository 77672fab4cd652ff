"""Which query terms are matched and corrected, on real SQLite FTS5 indexes of known statistics."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest

from recollect.search.query import understand
from recollect.search.terms import PRUNE_MIN_DF, plan_terms
from recollect.text.tokenize import FTS_TOKENIZE, tokenize


def _index(rows: list[str]) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE chunk (id INTEGER PRIMARY KEY)")
    conn.execute("CREATE VIRTUAL TABLE chunk_fts USING fts5(text)")
    for i, text in enumerate(rows, 1):
        conn.execute("INSERT INTO chunk (id) VALUES (?)", (i,))
        conn.execute("INSERT INTO chunk_fts (rowid, text) VALUES (?, ?)", (i, text))
    return conn


def test_a_word_known_by_its_stem_is_not_corrected() -> None:
    conn = _index(["the deadlin deadline is friday", "watch the watch", "unrelated text"])
    # Positive control: a word the index does not know at all is corrected, beside the original.
    assert plan_terms(conn, understand("watchh")).corrections == {"watchh": "watch"}
    # "deadlines" is unknown as typed, but its stem is indexed: it is no typo.
    plan = plan_terms(conn, understand("deadlines"))
    assert plan.corrections == {} and "deadlin" in plan.match


def _with_common_word(chunks: int, share: float) -> sqlite3.Connection:
    common = int(chunks * share)
    rows = [("food " if i < common else "") + f"filler{i % 7}" for i in range(chunks)]
    rows[0] += " cat"
    rows[1] += " vet"
    rows[2] += " grams"
    return _index(rows)


def test_common_words_are_pruned_only_when_they_are_common_in_numbers_too() -> None:
    query = understand("food cat vet grams")
    # Positive control: in a big index a word in 10% of the chunks leaves the match when rarer ones exist.
    big = plan_terms(_with_common_word(4000, 0.10), query)
    assert "food" not in big.match and {"cat", "vet", "grams"} <= set(big.match)
    # In a small one (a few dozen chat sessions) the same share is a handful of chunks: it stays.
    small = plan_terms(_with_common_word(200, 0.10), query)
    assert PRUNE_MIN_DF > 200 * 0.10 and "food" in small.match
    # A haystack of 40 long chats holds ~1,100 chunks: a word in 110 of them ("like", "first") still
    # carries a question there, so it stays too (with a floor of 50 it left the match).
    haystack = plan_terms(_with_common_word(1100, 0.10), query)
    assert "food" in haystack.match and {"cat", "vet", "grams"} <= set(haystack.match)


def test_a_word_the_language_knows_is_not_corrected_but_a_piece_of_code_may_be() -> None:
    conn = _index(["the plan for the move", "cert manager renews the certificate", "watch the logs"])
    # Positive control: a word neither the index nor the language knows is corrected.
    assert plan_terms(conn, understand("watchh")).corrections == {"watchh": "watch"}
    # "plant" is a word: absent from this index, not a typo of "plan".
    assert plan_terms(conn, understand("where did I move the plant")).corrections == {}
    # Inside a compound it is code, where a slip is likely: "cert-manger" still finds "manager".
    assert plan_terms(conn, understand("cert-manger not renewing")).corrections.get("manger") == "manager"


def test_a_framing_words_correction_frames_too() -> None:
    conn = _index(["we picked the moving company", "moving boxes", "the company picked a date"])
    plan = plan_terms(conn, understand("which moving company did we pickd"))
    # Positive control: the slip after "we" (a framing word) is corrected ...
    assert plan.corrections == {"pickd": "picked"}
    # ... and its correction frames too: it does not pick the sessions, the content words do.
    assert "picked" not in plan.match and {"moving", "company"} <= set(plan.match)


def test_the_language_words_are_the_whole_word_pieces_of_the_shipped_model() -> None:
    from recollect.embed.static import SHIPPED_DIR, SPACE
    from recollect.search.terms import language_knows

    pieces = (SHIPPED_DIR / "pieces.txt").read_text(encoding="utf-8").split("\n")
    words = {p[1:] for p in pieces if p.startswith(SPACE) and len(p) > 2}
    assert {"plant", "taking"} <= words  # positive control: words the encoder knows whole
    sample = sorted(words)[::97] + [p for p in pieces[::89] if not p.startswith(SPACE)]
    sample += ["", "a", "plantx", "zzqxj", "cert-manger", "部署脚本吗", "\ud800x"]
    assert [w for w in sample if language_knows(w)] == [w for w in sample if w in words]
    assert any(language_knows(w) for w in sample) and not all(language_knows(w) for w in sample)


def test_a_pasted_test_ids_bare_name_covers_only_where_it_stands_apart() -> None:
    node = "tests/test_payout.py::test_compute_payout_expired[large_batch-58]"
    listing = "tests/test_payout.py::test_compute_payout_expired[negative-90] PASSED  [ 96%]"
    failed = "____ test_compute_payout_expired ____  def test_compute_payout_expired():"
    conn = sqlite3.connect(":memory:")  # the index's own tokens, as index/fts.py stores them
    conn.execute("CREATE TABLE chunk (id INTEGER PRIMARY KEY)")
    conn.execute(f'CREATE VIRTUAL TABLE chunk_fts USING fts5(text, tokenize="{FTS_TOKENIZE}")')
    for i, text in enumerate([listing, failed, "filler one", "filler two"], 1):
        conn.execute("INSERT INTO chunk (id) VALUES (?)", (i,))
        conn.execute("INSERT INTO chunk_fts (rowid, text) VALUES (?, ?)", (i, " ".join(tokenize(text))))
    plan = plan_terms(conn, understand(node))
    name = next(w for vs, w in plan.words if vs == ["test_compute_payout_expired"])
    # The failure header holds the name apart: added to a run's listing, it earns the name's weight.
    assert plan.covered(f"{listing} {failed}") == pytest.approx(plan.covered(listing) + name)
    # Control: read by plain substrings (no term kept apart), the listing alone earned it already.
    assert replace(plan, apart=frozenset()).covered(listing) == pytest.approx(plan.covered(listing) + name)
    # Negative: the same name typed alone is a word like any other, and a substring of the listing counts.
    alone = plan_terms(conn, understand("test_compute_payout_expired"))
    assert alone.apart == frozenset() and alone.covered(listing) == alone.total_weight


def test_two_rare_words_of_the_language_make_no_pasted_line_when_the_words_alone_search() -> None:
    rows = [f"filler{i % 7} security audit mac" if i % 20 == 0 else f"filler{i % 7}" for i in range(4000)]
    rows[0] += " installs thorough"
    conn = _index(rows)
    query = understand("thorough security audit of my mac installs")
    # Positive control: two near-unique tokens pin a pasted line, and the merely uncommon words leave the match.
    pasted = set(plan_terms(conn, query).match)
    assert {"thorough", "installs"} <= pasted and not {"security", "audit", "mac"} & pasted
    # With no arm by meaning beside the words, two rare words of the language are no such tokens: all stay.
    alone = plan_terms(conn, query, words_alone=True)
    assert {"thorough", "installs", "security", "audit", "mac"} <= set(alone.match)
    ids = understand("0x7f3a9c 0x7f3a9d security audit mac")  # a line's ids are no words of the language
    rows[1] += " 0x7f3a9c 0x7f3a9d"
    conn = _index(rows)
    assert "security" not in plan_terms(conn, ids, words_alone=True).match


def test_the_plural_of_a_word_the_language_knows_is_no_typo() -> None:
    conn = _index(["the routes of the gateway", "a worker that never stops", "watch the logs"])
    # Positive control: a word ending in s whose singular the language does not know either is corrected.
    assert plan_terms(conn, understand("gatewais")).corrections == {"gatewais": "gateway"}
    # "routines" is not a whole word of the vocabulary, but "routine" is: absent here, not a typo of "routes".
    assert plan_terms(conn, understand("the worker leaks routines")).corrections == {}
