"""Stage `speaker` (search/rank.py): a question about the person ("When are my guitar lessons?") is answered by
what the person said, so in a long chat the assistant's turns rank below the person's own in the chunk arm.
The plan reads who asks (search/query.py, `QueryPlan.about_the_person`). On real Claude Code transcripts
written to a temp dir, indexed by the real sync: in one chat the assistant talks about guitar lessons in
general; in the other the person says when theirs are."""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect import history
from recollect.search import stages
from recollect.search.query import understand
from recollect.search.spans import OPENING_TURNS
from tests.ui.conftest import write_transcript

ADVICE = "aaaaaaaa-0000-4000-8000-000000000001"  # the assistant's guitar lessons, in general
FACT = "bbbbbbbb-1111-4111-8111-111111111111"  # the person's own: "my guitar lessons are on Thursday evenings"
QUESTION = "When are my guitar lessons?"
FILLER = ["What should I cook tonight?", "Any film for the weekend?", "How do I fix a dripping tap?",
          "What is a good stretch for the back?", "Ideas for a rainy Sunday?", "How long do I boil an egg?",
          "Which plant suits a dark room?", "How do I descale a kettle?"]  # fmt: skip


def _chat(requests: int, turns: list[tuple[str, str]]) -> list[tuple[str, object]]:
    """`requests` requests of the person: `turns` (the subject's exchange) second, ordinary ones around it, so
    neither the first request nor the last outcome (the session's card) holds the subject."""
    ordinary: list[tuple[str, object]] = []
    for ask in FILLER[: requests - 1]:
        ordinary += [("user", ask), ("assistant", [{"type": "text", "text": "Here is one idea that often works."}])]
    subject = [(role, text if role == "user" else [{"type": "text", "text": text}]) for role, text in turns]
    return ordinary[:2] + subject + ordinary[2:]


def _world(root: Path, monkeypatch: pytest.MonkeyPatch, requests: int, agent_work: bool = False) -> None:
    claude, project = root / "claude", root / "home-life"
    project.mkdir(parents=True)
    work: list[tuple[str, object]] = [  # the assistant looks something up: agent work, not a chat
        ("assistant", [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "cal"}}]),
        ("user", [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "December 2026"}]),
    ]
    write_transcript(claude, ADVICE, project, _chat(requests, [
        ("user", "I want to learn an instrument, where do I start?"),
        ("assistant", "Guitar lessons are a good start: most guitar lessons are weekly, and group guitar lessons "
                      "cost less than guitar lessons alone."),
    ]) + (work if agent_work else []))  # fmt: skip
    write_transcript(claude, FACT, project, _chat(requests, [
        ("user", "By the way my guitar lessons are on Thursday evenings now. How do I keep my nails short?"),
        ("assistant", "File them straight across every few days."),
    ]))  # fmt: skip
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    history.index()


def _first(query: str) -> tuple[str, str]:
    """The first hit's session and the role of its turn."""
    hit = history.search(query, sync_first=False, limit=10).hits[0]
    return hit.session_id, hit.role


def test_the_plan_reads_whether_the_question_is_about_the_person() -> None:
    assert understand(QUESTION).about_the_person  # positive control
    assert understand("which plot did we get at the allotment?").about_the_person
    assert understand("What's our podcast called?").about_the_person
    assert not understand("When are the guitar lessons?").about_the_person  # nobody's
    assert not understand("What did you tell me about my guitar lessons?").about_the_person  # put to the assistant
    assert not understand("what coffee machine did I tell you I bought?").about_the_person
    assert not understand("What should I plan for my free day?").about_the_person  # advice asked for
    assert not understand("what could we cook in the van tonight?").about_the_person
    assert understand("the app could not reach the cache after we renamed it").about_the_person  # no "could we"
    assert not understand("the US office moved").about_the_person  # the country, not "us"
    assert understand("我们的猫叫什么名字？").about_the_person
    assert not understand("你推荐我读哪本书？").about_the_person
    assert not understand("我应该带什么去聚会？").about_the_person


def test_a_long_chat_answers_a_question_about_the_person_by_the_persons_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _world(tmp_path, monkeypatch, OPENING_TURNS + 2)
    with stages.disabled("speaker"):
        assert _first(QUESTION) == (ADVICE, "assistant")  # the control: the assistant's turn says the words most
    assert _first(QUESTION) == (FACT, "user")
    question_to_you = "What did you tell me about guitar lessons?"
    with stages.disabled("speaker"):
        control = _first(question_to_you)
    assert control[0] == ADVICE and _first(question_to_you) == control  # put to the assistant: untouched


def test_a_short_session_is_untouched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _world(tmp_path, monkeypatch, 3)  # three requests: its opening speaks for all of it
    with stages.disabled("speaker"):
        control = _first(QUESTION)
    assert control == (ADVICE, "assistant")
    assert _first(QUESTION) == control


def test_agent_work_is_untouched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a session that called tools the assistant's turns state the fix or the decision that "how did we fix
    X" asks for: the stage reads chats only."""
    _world(tmp_path, monkeypatch, OPENING_TURNS + 2, agent_work=True)
    with stages.disabled("speaker"):
        control = _first(QUESTION)
    assert control == (ADVICE, "assistant")
    assert _first(QUESTION) == control
