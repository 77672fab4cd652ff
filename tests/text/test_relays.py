"""The recall agent's answer, come back into the session that called it, is recollect's own text
(text/relays.py): not in chunks, cards or vectors, and a read shows a marker instead. Over a store
in OpenCode 1.18.33's own shapes (the `task` part as the real OpenCode stores it, REPORT.md §4.3),
each "must not" after a positive control."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.model import Message, Part, Session
from recollect.search.read import render_text
from recollect.search.scope import Filters
from recollect.text.markers import RECALL_AGENT
from recollect.text.relays import RECALL_ANSWER_OMITTED, RELAYED_OMITTED, relays
from tests.extract.store import T0, Msg, Store, assistant, text, tool, user

ANSWER_WORD = "quokkaqueue"  # only the session that decided it, and our text, ever hold it
OWN_WORDS = "retry limit"  # what the parent did next, in its own words
ANSWER = f"You use {ANSWER_WORD} for the billing worker, rather than celery, since you run no broker."


def step(reason: str) -> list[dict[str, object]]:
    return [{"type": "step-start", "snapshot": "10b45b18"}, {"type": "step-finish", "reason": reason, "cost": 0}]


def task_part(child: str, answer: str) -> dict[str, object]:
    """A completed `task` call to the recall agent, as OpenCode 1.18.33 stores it."""
    return {
        "type": "tool",
        "tool": "task",
        "callID": "call_00001_ed225096",
        "state": {
            "status": "completed",
            "input": {"description": "queue library", "prompt": "which queue library?", "subagent_type": "recall"},
            "output": f'<task id="{child}" state="completed">\n<task_result>\n{answer}\n</task_result>\n</task>',
            "metadata": {"sessionId": child, "truncated": False},
            "title": "queue library",
            "time": {"start": T0, "end": T0 + 900},
        },
    }


def relaying_turn(child: str, relay: str) -> list[Msg]:
    """A parent's turn: `@recall …`, a step that calls the recall agent, a step that relays its answer."""
    start, finish = step("tool-calls")
    again, done = step("stop")
    asked = "@recall which queue library does the billing worker use?"
    mention = {"type": "agent", "name": RECALL_AGENT, "source": {"value": "@recall", "start": 0, "end": 7}}
    return [
        Msg("user", [text(asked), mention], {"agent": "build"}),
        Msg("assistant", [start, task_part(child, ANSWER), finish], {"agent": "build", "finish": "tool-calls"}),
        Msg("assistant", [again, text(relay), done], {"agent": "build", "finish": "stop"}),
    ]


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    project = tmp_path / "billing"
    (project / ".git").mkdir(parents=True)
    store = Store(tmp_path / "store" / "opencode.db")
    answered = store.session(
        project,
        [
            user("Which job queue library should the billing worker use?"),
            assistant(
                f"Decision: the billing worker uses {ANSWER_WORD} rather than celery, since we run no broker.",
                tool("bash", "added quokkaqueue==2.1", command="pip install quokkaqueue"),
            ),
        ],
        title="Queue library for the billing worker",
    )
    parent = store.session(project, [], title="Ask recall about the billing worker")
    child = store.session(
        project,
        [
            Msg("user", [text("which queue library does the billing worker use?")], {"agent": RECALL_AGENT}),
            Msg(
                "assistant",
                [
                    {
                        "type": "tool",
                        "tool": "recollect_history_search",
                        "callID": "call_2",
                        "state": {
                            "status": "completed",
                            "input": {"query": "billing worker queue library"},
                            "output": f"1. {answered}: Decision: the billing worker uses {ANSWER_WORD}",
                            "time": {"start": T0},
                        },
                    },
                    text(ANSWER),
                ],
                {"agent": RECALL_AGENT},
            ),
        ],
        title="queue library (@recall subagent)",
        parent=parent,
    )
    relay = (
        "The recall agent found this in an earlier session:\n\n"
        f"> {ANSWER}\n\n"
        f"So the billing worker already uses {ANSWER_WORD}. "
        f"I added a {OWN_WORDS} of five to worker/settings.py instead of changing the library."
    )
    store.append(parent, relaying_turn(child, relay))
    monkeypatch.setenv("OPENCODE_DB", str(store.path))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())
    return {"answered": answered, "parent": parent, "child": child}


def found(query: str, **filters: object) -> list[str]:
    return [h.session_id for h in history.search(query, Filters(**filters), sync_first=False).hits]  # type: ignore[arg-type]


def test_the_relaying_parent_is_not_found_by_the_answer(world: dict[str, str]) -> None:
    # Positive controls: the session that did the work comes first; the parent's own words find it.
    hits = found(ANSWER_WORD)
    assert hits and hits[0] == world["answered"]
    assert world["parent"] in found(OWN_WORDS)
    assert world["child"] in found(ANSWER_WORD, include_recall=True)  # the subagent's own run, when asked for
    # The parent only relayed the answer: it is nowhere in the answer's hits, let alone the top 5.
    assert world["parent"] not in hits[:5] and world["parent"] not in hits


def test_the_relayed_answer_is_not_in_the_index(world: dict[str, str]) -> None:
    conn = sqlite3.connect(load_config().index_path)
    try:
        sid = conn.execute("SELECT sid FROM session WHERE native_id = ?", (world["parent"],)).fetchone()[0]
        texts = [r[0] for r in conn.execute("SELECT text FROM chunk WHERE sid = ?", (sid,))]
        card = conn.execute(
            "SELECT first_human, last_outcome, identifiers, files, tools, decisions, card_text FROM session "
            "WHERE sid = ?",
            (sid,),
        ).fetchone()
        answering = conn.execute(
            "SELECT group_concat(c.text, ' ') FROM chunk c JOIN session s USING (sid) WHERE s.native_id = ?",
            (world["answered"],),
        ).fetchone()[0]
    finally:
        conn.close()
    assert ANSWER_WORD in answering  # positive control: the word is indexed where it was said
    joined = " ".join(texts)
    assert OWN_WORDS in joined and "@recall which queue library" in joined  # the parent's own text stays
    assert ANSWER_WORD not in joined and "no broker" not in joined and "task_result" not in joined
    assert not any(ANSWER_WORD in (field or "") for field in card), card
    assert "task" not in (card[4] or "")  # the recall call is not a tool the session used


def test_a_read_shows_markers_instead_of_the_answer(world: dict[str, str]) -> None:
    window = history.read(f"opencode::{world['parent']}", mode="head")
    shown = render_text(window)
    assert "@recall which queue library" in shown and OWN_WORDS in shown  # positive control
    assert RECALL_ANSWER_OMITTED in shown and RELAYED_OMITTED in shown
    assert ANSWER_WORD not in shown and "no broker" not in shown
    # The answering session reads whole: only what relays our answer is ever elided.
    assert ANSWER_WORD in render_text(history.read(f"opencode::{world['answered']}", mode="head"))


def _session(*messages: Message) -> Session:
    return Session(id="s", source="opencode", agent_kind="opencode", title="", directory="/p", messages=list(messages))


def _call(answer: str) -> Part:
    return Part(
        id="t",
        kind="tool",
        tool="task",
        tool_input={"subagent_type": "recall", "prompt": "q"},
        tool_output=f'<task id="ses_c" state="completed">\n<task_result>\n{answer}\n</task_result>\n</task>',
    )


def test_only_sentences_that_restate_the_answer_are_relays() -> None:
    answer = "上次决定 billing worker 用 quokkaqueue，不用 celery，因为我们没有 broker。"
    person = Part(id="p", kind="text", text="billing worker 用 quokkaqueue 还是 celery？")
    before = Part(id="b", kind="text", text="我去问一下 recall。")
    said = Part(
        id="a",
        kind="text",
        text="billing worker 用的是 quokkaqueue，不用 celery，因为没有 broker。我把重试次数改成了五次。好的。",
    )
    again = Part(id="n", kind="text", text="billing worker 用的是 quokkaqueue，不用 celery。")
    later = Message(id="m3", role="assistant", time=3, parts=[said])
    next_turn = Message(id="m5", role="assistant", time=5, parts=[again])
    s = _session(
        Message(id="m1", role="user", time=1, parts=[person]),
        Message(id="m2", role="assistant", time=2, parts=[before, _call(answer)]),
        later,
        Message(id="m4", role="user", time=4, parts=[Part(id="q", kind="text", text="再确认一下？")]),
        next_turn,
    )
    found_relays = relays(s)
    assert found_relays.is_call(s.messages[1], s.messages[1].parts[1])
    # The sentence restating the answer goes; the parent's own step, and a sentence too short to tell, stay.
    assert found_relays.text(later, said) == "我把重试次数改成了五次。好的。"
    # Typed by a person, or written before the answer came back: never a relay.
    assert found_relays.left(s.messages[0], person) is None and found_relays.left(s.messages[1], before) is None
    # After the person speaks again the model answers them, in its own words: not judged.
    assert found_relays.left(next_turn, again) is None
    # A session that never called the recall agent relays nothing.
    plain = _session(Message(id="m1", role="assistant", time=1, parts=[said]))
    assert not relays(plain) and relays(plain).text(plain.messages[0], said) == said.text


def test_a_short_sentence_of_the_parents_own_is_not_a_relay() -> None:
    # Two of "I'll run the worker."'s three tokens are the answer's (run, worker): mostly its words by
    # share alone, yet the parent's own step; no two of them stand in a row as the answer has them.
    said = "I'll run the worker. So the billing worker already uses quokkaqueue.\nbilling/queue_config.py"
    own = Part(id="o", kind="text", text=said)
    reply = Message(id="m3", role="assistant", time=3, parts=[own])
    s = _session(
        Message(id="m1", role="user", time=1, parts=[Part(id="p", kind="text", text="@recall queue library?")]),
        Message(id="m2", role="assistant", time=2, parts=[_call(f"{ANSWER} It is set in billing/queue_config.py.")]),
        reply,
    )
    # Positive controls: the paraphrase beside it holds a phrase of the answer ("billing worker") and goes;
    # the answer's file name copied on a line of its own, one word, every token of it the answer's, goes.
    assert relays(s).text(reply, own) == "I'll run the worker."


def test_an_index_of_schema_12_rereads_the_sessions_that_called_the_recall_agent(
    world: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from recollect.index import chunks, store
    from recollect.text.relays import Relays

    path = load_config().index_path
    held = "SELECT count(*) FROM chunk c JOIN session s USING (sid) WHERE s.native_id = ? AND c.text LIKE ?"
    with monkeypatch.context() as patch:  # what schema 12 stored: the relayed answer indexed as the parent's
        patch.setattr(chunks, "relays", lambda session: Relays())
        path.unlink()
        history.index(load_config())
    old = store.connect(path)
    old.execute("DELETE FROM migrations WHERE name = '013_recall_relays'")
    old.execute("PRAGMA user_version=12")
    assert old.execute(held, (world["parent"], f"%{ANSWER_WORD}%")).fetchone()[0] > 0  # positive control
    old.close()
    report = history.index(load_config())
    assert [(s.id, s.updated) for s in report.sources] == [("opencode", 1)]  # the parent only
    conn = store.connect(path)
    assert conn.execute(held, (world["parent"], f"%{ANSWER_WORD}%")).fetchone()[0] == 0
    assert conn.execute(held, (world["parent"], f"%{OWN_WORDS}%")).fetchone()[0] > 0
    conn.close()
