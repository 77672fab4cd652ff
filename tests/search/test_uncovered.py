"""What the words left uncovered: the gate of the `uncovered` ranking stage (search/rank.py)."""

from __future__ import annotations

from recollect.search.meaning import uncovered_share


def test_words_that_cover_only_part_of_the_query_leave_the_rest_to_meaning() -> None:
    # a paraphrase: the best session holds 54% of the query's term weight, the others less
    assert abs(uncovered_share({1: 0.54, 2: 0.3, 3: 0.0}) - 0.46) < 1e-9
    assert uncovered_share({1: 0.0}) == 1.0  # the words found sessions, none holding any query term


def test_a_session_holding_every_word_leaves_nothing_uncovered() -> None:
    assert uncovered_share({1: 0.2}) > 0  # positive control
    assert uncovered_share({1: 1.0, 2: 0.2}) == 0.0
    assert uncovered_share({}) == 0.0  # nothing measured (coverage off, or no lexical session): no stand-in
