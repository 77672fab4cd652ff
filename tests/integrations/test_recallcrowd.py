"""Auto-recall among many sessions (autorecall.agrees, the crowd-relative lead of recallmeaning.stands_out):
when several sessions that answered share a cue's common words, the words' winner must be where the
message's meaning is too. A real index of a real store, card vectors made by the real card encoder."""

from __future__ import annotations

from typing import Any

import pytest

from recollect import history
from recollect.config import load_config
from recollect.embed import factory
from recollect.index import store, vectors
from recollect.index.sync import insert_session
from recollect.index.vectors import backfill
from recollect.integrations import autorecall, recallmeaning
from recollect.model import Session
from recollect.search.scope import Filters
from tests.integrations.test_autorecall import PROJ, make

QUESTION = "What commit message style did I ask for before?"
# The answer paraphrases the question: "commit" and "message" once, never "style".
ANSWER = make(
    "ses_commits",
    PROJ,
    [
        (
            "From now on, how should you write the commit messages in this repo?",
            "Every commit message gets an imperative subject under 72 characters, a blank line, then a body "
            "that says why, and the issue number in the footer.",
        )
    ],
    age_days=20,
)
UNRELATED = [
    make("ses_css", PROJ, [("fix the login page css", "Fixed the flexbox in login.css and the header's margin.")]),
    make("ses_tz", PROJ, [("which timezone for timestamps?", "Decision: store UTC, convert for display only.")]),
]
NOUNS = "invoice refund ledger payout audit dispute currency statement settlement fraud customer account".split()


def crowd() -> list[Session]:
    """Sessions that answered about other things with all three of the question's words in their answers:
    the style of an error message, a commit at the end of the work (as generated sessions do)."""
    return [
        make(
            f"ses_retry_{noun}",
            PROJ,
            [
                (
                    f"Add a retry budget to the {noun} client.",
                    f"Done: the {noun} client retries three times with backoff. I also matched the style of its "
                    f"error message to the others. The suite is green; shall I commit?",
                )
            ],
            age_days=1 + i / 10,
        )
        for i, noun in enumerate(NOUNS)
    ]


def index_of(sessions: list[Session]) -> Any:
    config = load_config()
    model = factory.card_encoder_for(config)
    assert model is not None, "the card encoder is not available"
    conn = store.connect(config.index_path)
    for s in sessions:
        insert_session(conn, s, "w", None)
    backfill(conn, model, cards_only=True)
    conn.close()
    return model


def found(model: Any) -> list[str]:
    conn = store.connect(load_config().index_path)
    try:
        filters = Filters(scope="project", directory=PROJ)
        return [e.session_id for e in autorecall.find(conn, QUESTION, filters, encoder=lambda: model)]
    finally:
        conn.close()


def test_alone_the_session_that_answered_comes_back(semantic: None) -> None:
    assert found(index_of([ANSWER, *UNRELATED]))[:1] == ["ses_commits"]


def test_in_a_crowd_sharing_the_words_the_session_meaning_points_at_comes_first(semantic: None) -> None:
    model = index_of([ANSWER, *UNRELATED, *crowd()])
    conn = store.connect(load_config().index_path)
    try:
        filters = Filters(scope="project", directory=PROJ).resolve(conn)
        words = autorecall.candidates(conn, QUESTION, filters, 18)
    finally:
        conn.close()
    # control: by words alone a banner session wins (it holds "style", the answer does not)
    assert words[0].session_id.startswith("ses_retry_"), [e.session_id for e in words]
    assert found(model)[:1] == ["ses_commits"]


def test_without_card_vectors_the_words_still_decide(semantic: None, monkeypatch: pytest.MonkeyPatch) -> None:
    index_of([ANSWER, *UNRELATED, *crowd()])
    conn = store.connect(load_config().index_path)
    try:
        filters = Filters(scope="project", directory=PROJ)
        first = autorecall.find(conn, QUESTION, filters, encoder=lambda: None)[:1]
    finally:
        conn.close()
    assert first and first[0].session_id.startswith("ses_retry_")  # no meaning: nothing doubts the words


def test_the_lead_asked_for_is_measured_against_the_crowd() -> None:
    by_card = {1: 0.40, 2: 0.37, 3: 0.36}
    by_said = {1: 0.45, 2: 0.38, 3: 0.30}
    assert recallmeaning.stands_out(by_card, by_said) is None  # control: 0.03 ahead is short of 0.05
    assert recallmeaning.stands_out(by_card, by_said, margin=0.02) == (1, pytest.approx(0.425))
    assert recallmeaning.stands_out(by_card, by_said, margin=0.04) is None


def test_a_words_winner_agrees_with_meaning_within_the_crowds_spread() -> None:
    tight = autorecall.Meaning(
        near={1: 0.50, 2: 0.49, **{10 + i: 0.40 + i / 1000 for i in range(10)}},
        tries=[1, 2, *(10 + i for i in range(10))],
        evidence={},
        cards={},
        topic="",
        model=None,
    )
    assert tight.spread < 0.05
    near_one = autorecall.Entry("b", "opencode", "", PROJ, 0, 1.0, 1.0, [], frozenset(), sid=2)
    far_one = autorecall.Entry("c", "opencode", "", PROJ, 0, 1.0, 1.0, [], frozenset(), sid=15)
    assert autorecall.agrees(near_one, tight)  # control: a hair behind the nearest
    assert not autorecall.agrees(far_one, tight)  # among the crowd, well behind
    assert autorecall.agrees(far_one, None)  # without card vectors nothing doubts the words


FLAKE = "How did we fix the flaky test_refresh_token_expiry failure before?"
FLAKE_ANSWER = make(
    "ses_token",
    PROJ,
    [
        (
            "test_refresh_token_expiry fails about one run in five on CI.",
            "Found it: the test compared against the wall clock. It now freezes time, so the expiry check is exact.",
        )
    ],
    age_days=30,
)


def flaky_crowd() -> list[Session]:
    """Sessions that fixed other flaky tests: "fix", "flaky", "failure" and the "test" of every test name."""
    return [
        make(
            f"ses_flaky_{noun}",
            PROJ,
            [
                (
                    f"test_apply_{noun}_partial is flaky, fix the failure.",
                    f"Fixed the flaky failure in test_apply_{noun}_partial: it depended on dict order.",
                )
            ],
            age_days=1 + i / 10,
        )
        for i, noun in enumerate(NOUNS)
    ]


def words_first(sessions: list[Session]) -> list[str]:
    config = load_config()
    conn = store.connect(config.index_path)
    try:
        for s in sessions:
            insert_session(conn, s, "w", None)
        filters = Filters(scope="project", directory=PROJ)
        return [e.session_id for e in autorecall.find(conn, FLAKE, filters, encoder=lambda: None)][:1]
    finally:
        conn.close()


def test_alone_the_session_naming_the_identifier_comes_back() -> None:
    assert words_first([FLAKE_ANSWER, *UNRELATED]) == ["ses_token"]


def test_an_identifiers_common_part_does_not_stand_for_it() -> None:
    # Every crowd session holds "fix", "flaky", "failure" and a "test_…" name; only one holds the identifier.
    assert words_first([FLAKE_ANSWER, *UNRELATED, *flaky_crowd()]) == ["ses_token"]


PIPELINE = "How did I want logging done in the pipeline instead of print statements?"
LOGGING = make(
    "ses_logging",
    PROJ,
    [
        (
            "The pipeline prints everything with print(); make it searchable.",
            "Decision: structured JSON logs through structlog, one event per line, no print() anywhere; "
            "a ruff rule (T20) forbids print in the package.",
        )
    ],
    age_days=30,
)
STEPS = "save split merge load apply flush encode decode sort parse emit scan".split()


def templated() -> list[Session]:
    """Sessions made from one template (as a generator makes them): each near the others and near any
    question about the pipeline."""
    return [
        make(
            f"ses_pipe_{step}",
            PROJ,
            [(f"Fix pipeline failure in Test{step.title()}Pipeline", f"Fixed the {step} step of the pipeline.")],
            age_days=1 + i / 10,
        )
        for i, step in enumerate(STEPS)
    ]


def test_a_templated_card_is_more_crowded_than_one_that_stands_alone(semantic: None) -> None:
    model = index_of([LOGGING, *UNRELATED, *templated()])
    conn = store.connect(load_config().index_path)
    try:
        sids = dict(conn.execute("SELECT native_id, sid FROM session"))
        scope = list(sids.values())
        crowd = history.card_crowding(conn, model.model_id, scope, scope)
        assert set(crowd) == set(scope)
        templated_crowding = [crowd[sids[f"ses_pipe_{step}"]] for step in STEPS]
        assert min(templated_crowding) > crowd[sids["ses_logging"]] + 0.05
        # the discount: a templated card a little nearer the topic than the one alone ends behind it
        cosine = {sids["ses_pipe_save"]: 0.42, sids["ses_logging"]: 0.40}
        assert max(cosine, key=lambda s: cosine[s]) == sids["ses_pipe_save"]  # control: by cosine alone
        score = recallmeaning.uncrowded(conn, model, cosine, scope)
        assert max(score, key=lambda s: score[s]) == sids["ses_logging"]
        assert history.card_crowding(conn, model.model_id, scope, scope[:1]) == {}  # a crowd of one: nothing
    finally:
        conn.close()


def test_what_a_crowded_session_said_is_discounted_as_its_card_is() -> None:
    # Session 1 stands alone (its card's cosine discounted by 0.05); 2 and 3 are templated (by 0.20): their
    # first questions sit as near any question on their topic as their cards do.
    cosines = {1: 0.45, 2: 0.40, 3: 0.39}
    by_card = {1: 0.40, 2: 0.20, 3: 0.19}
    by_said = {1: 0.40, 2: 0.42, 3: 0.30}
    assert recallmeaning.stands_out(by_card, by_said, 0.05) is None  # control: by what it said, 2 is nearer
    best = recallmeaning.stands_out_crowded(by_card, cosines, by_said, 0.05)
    assert best == (1, pytest.approx((0.45 + 0.40) / 2))  # the floor is of the cosines themselves
    # discounted alike, what was said shows 1 ahead: its card must then lead by CROWDED_LEAD times the margin
    close = {1: 0.26, 2: 0.20, 3: 0.19}  # 0.06 ahead: more than the margin, less than 1.5 times it
    assert recallmeaning.stands_out(close, {1: 0.50, 2: 0.42, 3: 0.30}, 0.05) is not None  # control
    assert recallmeaning.stands_out_crowded(close, {1: 0.31, 2: 0.40, 3: 0.39}, by_said, 0.05) is None


def test_a_cards_crowding_is_kept_for_its_scope_and_the_same(semantic: None) -> None:
    model = index_of([LOGGING, *UNRELATED, *templated()])
    conn = store.connect(load_config().index_path)
    try:
        scope = [sid for (sid,) in conn.execute("SELECT sid FROM session")]
        first = history.card_crowding(conn, model.model_id, scope[:4], scope)
        again = history.card_crowding(conn, model.model_id, scope, scope)  # the first four kept, the rest made
        assert set(again) == set(scope) and all(again[sid] == first[sid] for sid in first)
        fewer = history.card_crowding(conn, model.model_id, scope[:4], scope[:8])  # another scope: made anew
        assert fewer and any(fewer[sid] != first[sid] for sid in fewer)
    finally:
        conn.close()


def test_what_is_kept_of_crowding_holds_no_old_generation_of_vectors(semantic: None) -> None:
    import gc
    import weakref

    from recollect.search import crowding

    model = index_of([LOGGING, *UNRELATED, *templated()])
    conn = store.connect(load_config().index_path)
    try:
        scope = [sid for (sid,) in conn.execute("SELECT sid FROM session")]
        history.card_crowding(conn, model.model_id, scope, scope)
        old = weakref.ref(vectors.load_matrix(conn, model.model_id))
        # control: what is kept is of the current vectors, which the index's cache holds alive
        assert sum(entry[0]() is old() for entry in crowding._KEPT.values()) == 1
        insert_session(conn, make("ses_new", PROJ, [("which queue?", "Decision: RQ, not Celery.")]), "w", None)
        backfill(conn, model, cards_only=True)  # a new generation of vectors
        scope = [sid for (sid,) in conn.execute("SELECT sid FROM session")]
        history.card_crowding(conn, model.model_id, scope, scope)
        gc.collect()
        assert old() is None  # nothing kept holds the old generation's arrays
        current = vectors.load_matrix(conn, model.model_id)
        assert sum(entry[0]() is current for entry in crowding._KEPT.values()) == 1  # kept anew for them
    finally:
        conn.close()


def test_a_lone_words_winner_is_doubted_when_meaning_points_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    # The answer paraphrases the question (no word in common); one session that answered about something
    # else holds all its words, alone over the line.
    paraphrase = make(
        "ses_para",
        PROJ,
        [
            (
                "From now on, how should you write the summaries of your changes in this repo?",
                "Every change summary gets an imperative subject under 72 characters and a body that says why.",
            )
        ],
    )
    conn = store.connect(load_config().index_path)
    try:
        for s in [paraphrase, *UNRELATED, *crowd()[:1]]:
            insert_session(conn, s, "w", None)
        filters = Filters(scope="project", directory=PROJ)
        assert [e.session_id for e in autorecall.find(conn, QUESTION, filters)] == ["ses_retry_invoice"]  # control
        lone = conn.execute("SELECT sid FROM session WHERE native_id = 'ses_retry_invoice'").fetchone()[0]
        nearest = autorecall.Evidence(99, answer=[("decision", "Decision.", "")])

        def meaning(winner_cosine: float) -> autorecall.Meaning:
            # what the card vectors say: session 99 nearest the topic; the lone winner at `winner_cosine`
            near = {99: 0.60, lone: winner_cosine}
            return autorecall.Meaning(near, [99], {99: nearest}, {99: {"first_human": "q", "title": ""}}, "topic", None)

        monkeypatch.setattr(autorecall, "meaning_of", lambda *args: meaning(0.59))
        assert [e.session_id for e in autorecall.find(conn, QUESTION, filters)] == ["ses_retry_invoice"]  # agrees
        monkeypatch.setattr(autorecall, "meaning_of", lambda *args: meaning(0.20))
        assert autorecall.find(conn, QUESTION, filters) == []  # far from where the meaning is: doubted, silent
    finally:
        conn.close()
