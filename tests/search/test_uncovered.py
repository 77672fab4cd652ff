"""What the words left uncovered: the gate of the `uncovered` ranking stage (search/rank.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from recollect.search.meaning import uncovered_share
from recollect.search.rank import _stand_in_uncovered


def test_words_that_cover_only_part_of_the_query_leave_the_rest_to_meaning() -> None:
    # a paraphrase: the best session holds 54% of the query's term weight, the others less
    assert abs(uncovered_share({1: 0.54, 2: 0.3, 3: 0.0}) - 0.46) < 1e-9
    assert uncovered_share({1: 0.0}) == 1.0  # the words found sessions, none holding any query term


def test_a_session_holding_every_word_leaves_nothing_uncovered() -> None:
    assert uncovered_share({1: 0.2}) > 0  # positive control
    assert uncovered_share({1: 1.0, 2: 0.2}) == 0.0
    assert uncovered_share({}) == 0.0  # nothing measured (coverage off, or no lexical session): no stand-in


def _run(span: dict[int, float]) -> Any:
    plan = SimpleNamespace(text="what did we name the kitten we adopted")
    return SimpleNamespace(plan=plan, card_meaning={1: 0.5, 2: 0.4}, gap={}, span=span, rescued=set(), k=10.0)


def test_only_a_short_sessions_card_stands_in() -> None:
    shares = {1: 0.5, 2: 0.5}  # the words cover half the query in both sessions
    short = {1: 0.0, 2: 0.0}
    _stand_in_uncovered(_run({1: 1.0, 2: 1.0}), [1, 2], shares, short)
    assert short[1] > short[2] > 0  # positive control: the nearer card stands in for the missing half
    mixed = {1: 0.0, 2: 0.0}
    _stand_in_uncovered(_run({1: 0.25, 2: 1.0}), [1, 2], shares, mixed)
    # a 12-request chat: its card speaks for a quarter of it, no stand-in for what its answering turn lacks
    assert mixed[1] == 0.0 and mixed[2] == short[2]
    restated = {1: 0.0, 2: 0.0}
    _stand_in_uncovered(_run({1: 0.9, 2: 1.0}), [1, 2], shares, restated)  # a long chat's opening, restated
    assert restated[1] == 0.0 and restated[2] == short[2]
