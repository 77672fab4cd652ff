"""A summary is a card field: searched (weighed 1.8 x the title, as seed 000 does), embedded, shown in
listings and over MCP, and dropped from the card when the card changes until it is summarized again."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect import history
from recollect.cli import main
from recollect.config import load_config
from recollect.extract.summaries import summarize
from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool
from recollect.search.rank import CARD_WEIGHTS
from tests.e2e.fake_llm import FakeLLM

from .store import Store, assistant, user

WORD = "zeppelinwidget"  # only in the summary, never in the session


def _answer(*summaries: str) -> dict[str, object]:
    body = {"summaries": [{"n": i, "summary": s} for i, s in enumerate(summaries, 1)]}
    return {"kind": "any", "match": ["cards:"], "text": json.dumps(body)}


@pytest.fixture
def session(project: Path, store: Store, configure: Callable[..., Path], llm: FakeLLM) -> str:
    return store.session(project, [user("fix the flaky deploy"), assistant("Pinned pnpm.")], title="deploy")


def found(query: str) -> list[str]:
    return [h.session_id for h in history.search(query, limit=10).hits]


def card_text(session_id: str) -> str:
    con = sqlite3.connect(load_config().index_path)
    (text,) = con.execute("SELECT card_text FROM session WHERE native_id = ?", (session_id,)).fetchone()
    con.close()
    return str(text)


def test_a_summary_is_searched_embedded_and_shown(session: str, llm: FakeLLM) -> None:
    history.index()
    assert found(WORD) == []  # positive control: the word is in no session
    llm.set_rules([_answer(f"Fixed a flaky deploy of the {WORD} service by pinning pnpm.")])
    assert summarize().written
    assert found(WORD) == [session]
    assert WORD in card_text(session)  # the card's vector is made from it
    rows = json.loads(CliRunner().invoke(main, ["sessions", "--json"]).output)["sessions"]
    assert WORD in next(r for r in rows if r["session_id"] == session)["summary"]
    reply = call_tool("history_sessions", {}, ServerSettings(cwd="/"))
    assert f"summary: Fixed a flaky deploy of the {WORD} service" in reply.text
    assert CARD_WEIGHTS[-1] == pytest.approx(1.8 * CARD_WEIGHTS[0])  # summary vs title, as the seed weighs them


def test_a_summary_leaves_the_card_when_the_card_changes(session: str, store: Store, llm: FakeLLM) -> None:
    llm.set_rules([_answer(f"The {WORD} deploy was fixed.")])
    summarize()
    assert found(WORD) == [session]
    store.append(session, [user("also pin node"), assistant("Pinned node 22.")])
    history.index()
    assert found(WORD) == []  # written from the old card: not used for the new one
    llm.set_rules([_answer(f"The {WORD} deploy now pins pnpm and node.")])
    assert summarize().written
    assert found(WORD) == [session] and "pins pnpm and node" in card_text(session)


def test_index_embeds_new_summaries_without_scanning_the_stores_again(
    session: str, llm: FakeLLM, monkeypatch: pytest.MonkeyPatch, semantic: None
) -> None:
    from recollect.index import sync as sync_module

    history.index()
    scans: list[str] = []
    real = sync_module._sync_source

    def counted(conn, source, *args, **kwargs):  # type: ignore[no-untyped-def]
        scans.append(source.id)
        return real(conn, source, *args, **kwargs)

    monkeypatch.setattr(sync_module, "_sync_source", counted)
    llm.set_rules([_answer(f"Fixed a flaky deploy of the {WORD} service by pinning pnpm.")])
    assert summarize().written  # it indexes before it reads the cards, and after it wrote the summaries
    assert WORD in card_text(session)  # positive control: the summary reached the card ...
    con = sqlite3.connect(load_config().index_path)
    embedded = con.execute(
        "SELECT count(DISTINCT v.model) FROM session s JOIN vector v ON v.hash = s.card_hash WHERE s.native_id = ?",
        (session,),
    ).fetchone()[0]
    con.close()
    assert embedded == 2  # ... and its new text was embedded by both models
    assert len(scans) == 2  # one scan of the store per index: none again after applying the summary
