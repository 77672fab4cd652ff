"""Long sessions (search/spans.py): how much of a session its opening speaks for, and coverage read
around its best turn instead of over chunks far apart (stage `long_sessions`, issue 16)."""

from __future__ import annotations

import sqlite3

from recollect.search.query import understand
from recollect.search.rank import _card_evidence
from recollect.search.spans import (
    OPENING_TURNS,
    card_votes,
    coverage_exponent,
    covered_share,
    first_cards,
    fusion_k,
    neighbours,
    opening_spans,
)
from recollect.search.stages import disabled
from recollect.search.terms import TermPlan


def _chunks(rows: list[tuple[int, int, int, str, str]]) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE chunk (id INTEGER PRIMARY KEY, sid INTEGER, ord INTEGER, class TEXT, text TEXT)")
    conn.executemany("INSERT INTO chunk VALUES (?,?,?,?,?)", rows)
    return conn


def _talk(sid: int, requests: int, first_id: int) -> list[tuple[int, int, int, str, str]]:
    rows = []
    for n in range(requests * 2):
        klass = "user_text" if n % 2 == 0 else "assistant_text"
        rows.append((first_id + n, sid, n, klass, f"turn {n}"))
    return rows


def test_an_opening_speaks_for_a_short_session_and_for_a_share_of_a_long_chat() -> None:
    conn = _chunks(_talk(1, 2, 100) + _talk(2, OPENING_TURNS * 4, 200) + _talk(4, OPENING_TURNS * 2, 400))
    spans = opening_spans(conn, [1, 2, 3, 4])
    assert spans[1] == 1.0  # a coding session: the person asked twice
    assert spans[2] == 0.0625  # a chat where the person asked 24 times: a quarter of its requests, squared
    assert spans[4] == 0.25  # 12 requests: half of them, squared
    assert spans[3] == 1.0  # no text of the person indexed: nothing says the opening is a small part


def test_neighbours_are_the_turns_before_and_after() -> None:
    conn = _chunks(_talk(1, 3, 100) + _talk(2, 1, 200))
    near = neighbours(conn, [102, 200])
    assert near[102] == ["turn 1", "turn 3"]
    assert near[200] == ["turn 1"]  # only its own session's


def _plan() -> TermPlan:
    return TermPlan(["kitten", "named"], {"kitten": 2.0, "named": 2.0}, [(["kitten"], 2.0), (["named"], 2.0)])


def test_words_scattered_over_a_long_chat_do_not_add_up() -> None:
    card = {"title": "a chat about many things"}
    card.update(
        {k: "" for k in ("first_human", "identifiers", "files", "errors", "last_outcome", "decisions", "summary")}
    )
    best = ["we adopted a kitten", "the bread i named after my aunt"]
    whole, _ = covered_share(_plan(), card, best)  # type: ignore[arg-type]
    assert whole == 1.0  # positive control: read as a whole, the session covers both words
    assert covered_share(_plan(), card, best, [], 1.0)[0] == 1.0  # a short session is still read whole
    local, _ = covered_share(_plan(), card, best, ["how lovely"], 0.25)  # type: ignore[arg-type]
    assert local == 0.5  # the best turn and its neighbours hold one word; the other is in a turn far away
    together, _ = covered_share(_plan(), card, best, ["what is her name? we named her Pepper"], 0.25)  # type: ignore[arg-type]
    assert together == 1.0  # the words meet around the best turn


def test_a_restated_query_is_read_in_a_long_sessions_title_and_first_request_too() -> None:
    card = {"title": "Kitten adoption", "first_human": "help me pick a name"}
    card.update({k: "" for k in ("identifiers", "files", "errors", "last_outcome", "decisions", "summary")})
    card["summary"] = "named after my aunt"  # the card's other fields are no place where the query's words meet
    best = ["we adopted a kitten last spring"]
    # Positive control: a question is read around the best turn, which holds one of the two words.
    assert covered_share(_plan(), card, best, ["how lovely"], 0.25)[0] == 0.5  # type: ignore[arg-type]
    # A query that asks nothing may restate the session: its title and first request are read as a turn too.
    card["first_human"] = "the kitten I named after my aunt"
    assert covered_share(_plan(), card, best, ["how lovely"], 0.25, restated=True)[0] == 1.0  # type: ignore[arg-type]
    assert covered_share(_plan(), card, best, ["how lovely"], 0.25)[0] == 0.5  # type: ignore[arg-type]
    card["first_human"] = "help me pick a name"
    assert covered_share(_plan(), card, best, ["how lovely"], 0.25, restated=True)[0] == 0.5  # type: ignore[arg-type]


def test_fusion_depth_shrinks_with_a_small_index_only() -> None:
    assert fusion_k(5000, 40) == 40 and fusion_k(210, 40) == 40  # positive control: a real history keeps k
    assert fusion_k(40, 40) == 10  # a haystack of 40 chats: ranks 1 and 10 are told apart
    assert fusion_k(2, 40) == 1.0


def _cards(rows: list[tuple[int, str, str]]) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    fields = ("title", "first_human", "identifiers", "files", "errors", "last_outcome", "decisions", "summary")
    conn.execute(f"CREATE TABLE session (sid INTEGER PRIMARY KEY, {', '.join(fields)})")
    conn.executemany("INSERT INTO session VALUES (?,?,?,'','','','','','')", rows)
    return conn


def test_a_cards_vote_counts_by_how_much_of_the_query_it_holds() -> None:
    conn = _cards([(1, "our kitten", "we named the kitten Pepper"), (2, "kitchen plans", "what about the kitten")])
    full = card_votes(conn, _plan(), [1, 2], {}, 1.0, evidence=False)
    assert full == {1: 1.0, 2: 1.0}  # positive control: without the stage every card votes alike
    assert card_votes(conn, _plan(), [1, 2], {}, 1.0, evidence=True) == full  # an opening that speaks for all
    long = {1: 0.25, 2: 0.25}  # two long chats: their openings speak for a quarter of each
    assert card_votes(conn, _plan(), [1, 2], long, 1.0, evidence=False) == {1: 0.25, 2: 0.25}
    votes = card_votes(conn, _plan(), [1, 2], long, 1.0, evidence=True)
    assert votes[1] == 0.25 and votes[2] == 0.25 * 0.5  # the second card holds one of the two words


def test_coverage_weighs_less_among_long_chats_for_every_session_alike() -> None:
    short = {1: 1.0, 2: 1.0, 3: 1.0}
    assert coverage_exponent(short, [1, 2, 3], 1.5) == 1.5  # positive control: short sessions keep it
    assert coverage_exponent({}, [1, 2], 1.5) == 1.5  # no span read: nothing says they are long
    assert coverage_exponent({}, [], 1.5) == 1.5
    chats = {1: 0.25, 2: 0.25, 3: 0.25, 4: 0.25}
    assert coverage_exponent(chats, [1, 2, 3, 4], 1.5) == 0.375  # a haystack of 12-request chats
    mixed = {1: 1.0, 2: 1.0, 3: 1.0, 4: 0.25}
    assert coverage_exponent(mixed, [1, 2, 3, 4], 1.5) == 1.5 * 3.25 / 4  # one long chat among short ones


def test_a_long_session_whose_title_and_first_request_hold_a_restated_query_speaks_for_it() -> None:
    conn = _chunks(_talk(2, OPENING_TURNS * 2, 200) + _talk(4, OPENING_TURNS * 2, 400))
    conn.execute("CREATE TABLE session (sid INTEGER PRIMARY KEY, title TEXT, first_human TEXT)")
    conn.execute("INSERT INTO session VALUES (2, 'Kitten named after my aunt', 'we adopted a kitten')")
    conn.execute("INSERT INTO session VALUES (4, 'Bread recipes', 'what flour for rye bread')")
    # Positive control: without a restated query both 12-request chats speak for half of their requests, squared.
    assert opening_spans(conn, [2, 4]) == {2: 0.25, 4: 0.25}
    # The query restates session 2: its title and first request hold all of the query's words.
    spans = opening_spans(conn, [2, 4], _plan())
    assert spans == {2: 1.0, 4: 0.25}  # session 4 holds none of them and keeps its span
    half = TermPlan(["kitten", "parrot"], {"kitten": 2.0, "parrot": 2.0}, [(["kitten"], 2.0), (["parrot"], 2.0)])
    assert opening_spans(conn, [2], half) == {2: 0.5}  # as much as they hold, never less than the span


def test_a_restated_request_in_prose_is_not_discounted_by_the_share_its_card_holds() -> None:
    now = 1_800_000_000_000
    question = understand("what did we name the kitten we adopted?", now)
    restated = understand("sorting out ssh problems and setting up a shared tmux session", now)
    # Positive control: a question's card vote counts by the share of it the card holds (stage `evidence`).
    assert _card_evidence(question)
    # A request restated in prose asks for the session itself: its opening's span alone discounts the card.
    assert not _card_evidence(restated)
    with disabled("opening"):
        assert _card_evidence(restated)
    # Not restated in prose: a pasted test id, a query of three words.
    assert _card_evidence(understand("tests/test_payout.py::test_compute_payout_expired[large_batch-58]", now))
    assert _card_evidence(understand("upgrade tailscale box", now))
    with disabled("evidence"):
        assert not _card_evidence(question)


def test_only_the_first_cards_vote_where_the_words_alone_rank() -> None:
    votes = {1: 1.0, 2: 0.5, 3: 1.0}
    ranks = {1: 1, 2: 10, 3: 28}  # session 3: a card whose title holds one common word of the query
    assert first_cards(votes, ranks, 100) == votes  # positive control: a deep enough arm keeps every vote
    assert first_cards(votes, ranks, 10) == {1: 1.0, 2: 0.5, 3: 0.0}  # the tenth still votes, the 28th not
    assert first_cards({}, ranks, 10) == {}
