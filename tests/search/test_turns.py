"""The right turn of a session (search/turns.py): in a long chat, a turn that states the query's words and then
asks about something else keeps its place before the reply, which answers the other thing."""

from __future__ import annotations

from recollect.search.turns import answer_kind, rerank_turns

TEXTS = {
    1: "I don't drink alcohol, in the evenings I just have a big mug of rooibos. Is a 50mm lens a good first buy?",
    2: "A 50mm prime is a fine first lens: sharp, light and cheap.",
    3: "Evening drinks with friends are a big part of social life here.",
}
WORDS = [(["drink"], 2.0), (["evening"], 2.0)]


def test_a_stated_fact_before_a_question_stays_first_in_a_long_chat() -> None:
    asks = answer_kind("what do I like to drink in the evenings")
    replies = {1: (2, TEXTS[2])}
    # Positive control: in a short session the turn ending in a question passes its score to the reply.
    short = rerank_turns([1, 3], TEXTS, WORDS, asks, replies)
    assert short.index(2) < short.index(1), short
    # In a long chat the words are in a sentence that states something: that turn is the evidence.
    assert rerank_turns([1, 3], TEXTS, WORDS, asks, replies, long=True)[0] == 1


def test_a_turn_that_asks_about_the_words_still_passes_to_its_reply_in_a_long_chat() -> None:
    texts = {1: "Should I drink something warm in the evenings?", 2: "Rooibos is a good choice: no caffeine."}
    ranked = rerank_turns([1], texts, WORDS, None, {1: (2, texts[2])}, long=True)
    assert ranked[0] == 2, ranked  # the words are only in the question: the reply answers it


def test_each_hit_of_a_session_opens_a_message_of_its_own(sample_db: object) -> None:
    # The shipped store's read of a missing file: its tool input and its error are two chunks of one message,
    # the two best of its session for the file's name. Shown both, the two hits led to one window.
    from recollect import history
    from recollect.config import load_config
    from recollect.index import store

    history.index()
    conn = store.connect(load_config().index_path, readonly=True)
    try:
        twins = conn.execute(
            "SELECT message_id, count(*) FROM chunk WHERE text LIKE '%missing-file.txt%' "
            "GROUP BY message_id HAVING count(*) > 1"
        ).fetchall()
    finally:
        conn.close()
    assert twins, "positive control: a message whose two chunks both hold the name"
    hits = history.search("missing-file.txt", sync_first=False, limit=10).hits
    by_session: dict[str, list[str]] = {}
    for hit in hits:
        by_session.setdefault(hit.session_id, []).append(hit.cursor)
    assert any(len(cursors) == 2 for cursors in by_session.values()), by_session  # two hits a session still
    for session, cursors in by_session.items():
        assert len(set(cursors)) == len(cursors), (session, cursors)
    assert {m for m, _ in twins} & {h.message_id for h in hits}  # the message is still shown, once
