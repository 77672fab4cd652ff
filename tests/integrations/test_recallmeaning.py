"""Auto-recall when a cue's words propose no session that answered (integrations/recallmeaning.py and
`autorecall.propose`): the index's card vectors by the real card encoder propose, what the sessions said
decides. A real index of a small store, vectors made by the real encoder (the `semantic` fixture)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from recollect.config import load_config
from recollect.embed import factory
from recollect.index import store
from recollect.index.sync import insert_session
from recollect.index.vectors import backfill
from recollect.integrations import autorecall, recallmeaning, recallwords
from recollect.integrations.cues import detect_cue
from recollect.integrations.hooks import HookService
from recollect.search.scope import Filters
from tests.integrations.test_autorecall import OTHER, PROJ, make

ANSWER = "决定：摄取重试用 Celery，Redis 做 broker，指数退避，上限 1 小时；Airflow 只负责夜间的 DAG。"
STORE = [
    # The answer, in Chinese; the question asked later is in English: no word in common.
    make("ses_zh_retry", PROJ, [("数据摄取任务失败以后的重试，用什么来跑？", ANSWER)], age_days=9),
    # Asked the same thing in English and got no answer: nearer by meaning, never named.
    make("ses_asked", PROJ, [("What did we decide about retrying failed ingestion jobs?", "Let me look at that.")]),
    make("ses_css", PROJ, [("fix the login page css", "Fixed the flexbox in login.css and the header's margin.")]),
    make("ses_tz", PROJ, [("时间戳统一用什么时区？", "统一转成 UTC 再写进 parquet，展示时再转本地时区。")]),
    # A decision in English, asked about later in Chinese.
    make(
        "ses_config",
        PROJ,
        [
            (
                "Users keep breaking their YAML config with tabs. Should we switch to another config format?",
                "Decision: switch the config to TOML; YAML's significant indentation is too easy to break.",
            )
        ],
    ),
    # Another project answered a question no session of PROJ did.
    make("ses_foreign", OTHER, [("负载均衡用哪个？", "决定：API 前面用 Envoy 做负载均衡，不用 nginx。")]),
]
RETRY = "What did we decide earlier about retrying failed ingestion jobs?"


@pytest.fixture
def encoder(semantic: None) -> Any:
    """The card encoder, with the store's card vectors made by it."""
    config = load_config()
    model = factory.card_encoder_for(config)
    assert model is not None, "the card encoder is not available"
    conn = store.connect(config.index_path)
    for s in STORE:
        insert_session(conn, s, "w", None)
    backfill(conn, model, cards_only=True)
    conn.close()
    return model


def found(text: str, model: Any, directory: str = PROJ) -> list[str]:
    conn = store.connect(load_config().index_path)
    try:
        filters = Filters(scope="project", directory=directory)
        return [e.session_id for e in autorecall.find(conn, text, filters, encoder=lambda: model)]
    finally:
        conn.close()


def test_a_question_across_the_language_gap_finds_the_session_that_answered(encoder: Any) -> None:
    conn = store.connect(load_config().index_path)
    filters = Filters(scope="project", directory=PROJ)
    by_words = autorecall.candidates(conn, RETRY, filters, 10, floor=autorecall.RESCUE_COVERAGE)
    conn.close()
    # Words alone propose only the session that asked (its English is the message's), no answer.
    assert by_words and not any(e.answered for e in by_words), by_words
    assert found(RETRY, encoder) == ["ses_zh_retry"]


def test_without_the_card_encoder_the_words_silence_stands(encoder: Any) -> None:
    assert found(RETRY, encoder) == ["ses_zh_retry"]  # control
    assert found(RETRY, None) == ["ses_asked"]  # only the session that asked: no answer by meaning


def test_a_topic_never_discussed_stays_silent(encoder: Any) -> None:
    assert found(RETRY, encoder) == ["ses_zh_retry"]  # control
    assert found("Earlier, which feature flag service did we pick for the mobile app?", encoder) == []


def test_meaning_proposes_only_inside_the_scope(encoder: Any) -> None:
    question = "Which load balancer did we choose previously?"
    conn = store.connect(load_config().index_path)
    there = Filters(scope="project", directory=OTHER)
    assert autorecall.candidates(conn, question, there, 10, floor=0.0) == []  # no word in common
    conn.close()
    assert found(question, encoder, OTHER) == ["ses_foreign"]  # control: the project that answered it
    assert found(question, encoder, PROJ) == []


def test_the_current_session_and_a_floor_above_the_clause_keep_it_silent(
    encoder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    conn = store.connect(load_config().index_path)
    here = Filters(scope="project", directory=PROJ)
    assert [e.session_id for e in autorecall.find(conn, RETRY, here, encoder=lambda: encoder)] == ["ses_zh_retry"]
    mine = Filters(scope="project", directory=PROJ, exclude_sessions=["ses_zh_retry", "ses_asked"])
    assert autorecall.find(conn, RETRY, mine, encoder=lambda: encoder) == []  # its own session is no candidate
    monkeypatch.setattr(recallmeaning, "MEANING_FLOOR", 0.99)
    # nothing that near: only the session that asked, as without meaning
    assert [e.session_id for e in autorecall.find(conn, RETRY, here, encoder=lambda: encoder)] == ["ses_asked"]
    conn.close()


def test_clauses_end_at_sentence_ends_in_either_script() -> None:
    assert recallmeaning.clauses("Use TOML. Keep 1.5 for now!") == ["Use TOML.", "Keep 1.5 for now!"]
    assert recallmeaning.clauses("决定：用 Celery。上限 1 小时") == ["决定：用 Celery。", "上限 1 小时"]
    assert recallmeaning.clauses("a. " * 50) == []  # nothing longer than 3 characters


def test_the_block_shows_the_answer_that_said_it(encoder: Any, isolated_home: Path) -> None:
    service = HookService()
    block, cue = service.recall_block("", PROJ, RETRY)
    assert cue == "what did we decide" and "ses_zh_retry" in block and "Celery" in block, block


def test_the_warm_up_loads_the_card_encoder(encoder: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recollect.integrations import hookd

    embedded: list[list[str]] = []
    real = type(encoder).embed
    monkeypatch.setattr(type(encoder), "embed", lambda self, texts: embedded.append(list(texts)) or real(self, texts))
    monkeypatch.chdir(tmp_path)  # the helper's directory: no session in its scope, so the search embeds nothing
    hookd._warm(HookService())
    assert embedded == [["warm"]]  # the card encoder loaded and ran once, off the request path
    embedded.clear()
    monkeypatch.setenv("RECOLLECT_EMBEDDINGS", "off")  # search by meaning off: no card encoder to load
    hookd._warm(HookService())
    assert embedded == []


def test_the_vectors_of_texts_seen_before_are_not_made_again(encoder: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    made: list[list[str]] = []
    real = type(encoder).embed
    monkeypatch.setattr(type(encoder), "embed", lambda self, texts: made.append(list(texts)) or real(self, texts))
    kept = recallmeaning.Remembered(encoder)
    first = kept.embed(["the kept alpha clause", "the kept beta clause"])
    assert made == [["the kept alpha clause", "the kept beta clause"]]  # control: made once
    again = kept.embed(["the kept beta clause", "the kept gamma clause"])
    assert made[1:] == [["the kept gamma clause"]]  # beta was kept
    assert np.allclose(again[0], first[1]) and np.allclose(
        first, real(encoder, ["the kept alpha clause", "the kept beta clause"])
    )
    monkeypatch.setattr(recallmeaning, "VECTORS_KEPT", 1)
    kept.embed(["the kept delta clause"])  # only the newest is kept now
    kept.embed(["the kept alpha clause"])
    assert made[-1] == ["the kept alpha clause"]


def test_no_texts_give_the_encoders_own_empty_array(encoder: Any) -> None:
    kept = recallmeaning.Remembered(encoder)
    assert kept.embed(["one clause to embed"]).shape[0] == 1  # control
    empty = kept.embed([])
    assert empty.shape == encoder.embed([]).shape and empty.shape[0] == 0


def test_a_chinese_question_about_an_english_decision_is_compared_by_its_topic(
    encoder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "用户老是把配置文件的缩进弄坏，那个问题我们当初是怎么处理的？"
    assert autorecall.message_topic(question) == "用户老 配置文件 缩进弄坏 处理"  # the frame out
    assert found(question, encoder) == ["ses_config"]
    # the whole question, frame and all (the old query), is farther from what the English session said
    model = recallmeaning.Remembered(encoder)
    said = {1: ["Users keep breaking their YAML config with tabs."]}
    whole = recallmeaning.said_meaning(model, autorecall.strip_cues(question), said)
    topic = recallmeaning.said_meaning(model, autorecall.message_topic(question), said)
    assert whole is not None and topic is not None and topic[1] > whole[1]
    monkeypatch.setattr(autorecall, "message_topic", autorecall.strip_cues)
    assert found(question, encoder) == []  # the whole message, frame and all: too far from the English session


def test_a_name_the_session_does_not_hold_keeps_meaning_silent(encoder: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    kafka = "What did we decide earlier about retrying failed Kafka ingestion jobs?"
    assert autorecall.named(kafka) == ["kafka"]
    assert found(RETRY, encoder) == ["ses_zh_retry"]  # control: the same question without the name
    assert "ses_zh_retry" not in found(kafka, encoder)  # Kafka is not in the session about Celery
    monkeypatch.setattr(autorecall, "named", lambda text: [])
    assert found(kafka, encoder) == ["ses_zh_retry"]  # it was the name that kept it silent


def test_a_name_in_what_the_message_tells_of_the_present_work_is_not_asked_for(
    encoder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    told = "Ingestion failed again on the Kafka cluster. " + RETRY
    # Positive control: the same name in the sentence that asks keeps meaning silent, as above.
    asked = "Ingestion failed again. What did we decide earlier about retrying failed Kafka ingestion jobs?"
    assert autorecall.named(asked) == ["kafka"] and "ses_zh_retry" not in found(asked, encoder)
    assert autorecall.named(told) == []
    assert found(told, encoder) == ["ses_zh_retry"]
    monkeypatch.setattr(recallwords, "asking", lambda text: text)
    assert found(told, encoder) == []  # every sentence's names asked for: Kafka is not in the session


def test_names_are_capitalized_or_marked_words_outside_a_sentence_start() -> None:
    # Until ac2f829 the input was "The nightly job hit a MemoryError in test_merge with Postgres. Why?".
    # It now names nothing: only the sentence that asks gives names (recallwords.asking), and "Why?"
    # holds none. That input never reached `named` in use: it holds no cue, so auto-recall stays silent
    # before asking its names. The names rule is tested here on one sentence that asks; which sentence
    # gives them is the lines below.
    told_then_why = "The nightly job hit a MemoryError in test_merge with Postgres. Why?"
    assert autorecall.named(told_then_why) == [] and detect_cue(told_then_why) is None
    assert autorecall.named("Why did the nightly job hit a MemoryError in test_merge with Postgres?") == [
        "memoryerror",
        "test_merge",
        "postgres",
    ]
    # Only the sentences that ask; without a question mark, those holding a cue; else the whole message.
    assert autorecall.named("The nightly job hit a MemoryError in test_merge. How did we fix it last time?") == []
    assert autorecall.named("补数任务又 OOM 了。上次那个 merge 内存问题最后怎么改的？") == []
    assert autorecall.named("又有个任务 OOM 了。上次 DataFrame 合并把内存撑爆是怎么解决的") == ["dataframe"]
    assert autorecall.named("The nightly job hit a MemoryError. Fix it.") == ["memoryerror"]
    assert autorecall.named("上次 Kafka 的分区数定的是多少？") == ["kafka"]
    assert autorecall.named("What did we decide about retries last time?") == []


def test_no_card_leading_means_the_sessions_words_are_never_embedded(
    encoder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from collections import OrderedDict

    made: list[list[str]] = []
    real = type(encoder).embed
    monkeypatch.setattr(type(encoder), "embed", lambda self, texts: made.append(list(texts)) or real(self, texts))
    monkeypatch.setattr(recallmeaning, "_KEPT", OrderedDict())  # nothing kept from other tests
    topic = autorecall.message_topic(RETRY)
    assert found(RETRY, encoder) == ["ses_zh_retry"]  # control: the cards lead, what was said decides
    assert made[0] == [topic] and any("Celery" in t for texts in made[1:] for t in texts)
    made.clear()
    monkeypatch.setattr(recallmeaning, "_KEPT", OrderedDict())
    monkeypatch.setattr(autorecall, "MEANING_MARGIN", 0.99)  # no card can lead by that much
    assert found(RETRY, encoder) == ["ses_asked"]  # as without meaning
    assert made == [[topic]]  # the topic, for the cards; no clause of what the sessions said


def test_a_card_that_does_not_lead_never_stands_out() -> None:
    said = {1: 0.9, 2: 0.1, 3: 0.2}
    assert recallmeaning.card_leads({1: 0.6, 2: 0.5, 3: 0.3}, 0.05)  # control
    assert recallmeaning.stands_out({1: 0.6, 2: 0.5, 3: 0.3}, said, 0.05) == (1, 0.75)
    for by_card, margin in [({1: 0.6, 2: 0.58, 3: 0.3}, 0.05), ({1: 0.6, 2: 0.5}, 0.2), ({1: 0.31}, 0.05), ({}, 0.05)]:
        assert not recallmeaning.card_leads(by_card, margin)
        assert recallmeaning.stands_out(by_card, said, margin) is None  # whatever was said


def test_across_the_language_gap_the_floor_asked_is_lower() -> None:
    # a Chinese topic: a session held in English is across the whole gap, one held in Chinese is not
    asked = recallmeaning.gap_floors("提交信息 格式", {1: "Commit message style", 2: "提交信息的格式怎么写"})
    full = recallmeaning.MEANING_FLOOR * (1 - recallmeaning.GAP_FLOOR)
    assert asked == {1: pytest.approx(full), 2: pytest.approx(recallmeaning.MEANING_FLOOR)}
    by_card = {1: 0.30, 2: 0.10, 3: 0.05}
    by_said = {1: 0.12, 2: 0.00, 3: -0.05}
    floor = {1: 0.15, 2: 0.05, 3: 0.0}  # the means of the cosines: 1 leads in both views, its mean below 0.2
    assert recallmeaning.stands_out(by_card, by_said, 0.05, floor) is None  # control: short of the floor
    assert recallmeaning.stands_out(by_card, by_said, 0.05, floor, floors=asked) == (1, pytest.approx(0.15))
    # the same session held in the topic's script is asked the whole floor
    same = recallmeaning.gap_floors("提交信息 格式", {1: "提交信息的格式怎么写"})
    assert recallmeaning.stands_out(by_card, by_said, 0.05, floor, floors=same) is None
    assert recallmeaning.stands_out_crowded(by_card, {1: 0.18, 2: 0.1, 3: 0.05}, by_said, 0.05, asked) is not None


def test_the_first_session_must_have_said_something_near_the_topic(
    encoder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    conn = store.connect(load_config().index_path)
    sid = conn.execute("SELECT sid FROM session WHERE native_id = 'ses_zh_retry'").fetchone()[0]
    classes = sorted(autorecall.ANSWER_CLASSES | autorecall.QUESTION_CLASSES)
    topic = autorecall.message_topic(RETRY)
    # its clauses are in Chinese, the topic in English: one of them is near across the gap
    assert recallmeaning.near_passage(conn, encoder, topic, sid, classes)
    # a topic it never spoke of, though of the same project and trade, is near none of them
    assert not recallmeaning.near_passage(conn, encoder, "rounding multi-currency invoices", sid, classes)
    # nothing to compare silences nothing: no model, no topic
    assert recallmeaning.near_passage(conn, None, "rounding multi-currency invoices", sid, classes)
    assert recallmeaning.near_passage(conn, encoder, " ", sid, classes)
    conn.close()
    assert found(RETRY, encoder) == ["ses_zh_retry"]  # control
    monkeypatch.setattr(recallmeaning, "PASSAGE_FLOOR", 0.99)
    assert found(RETRY, encoder) == []  # the block's first said nothing that near: no block
