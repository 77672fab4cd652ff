"""A rule that shapes some sessions' rows changes (index/derivations.py): an index built before re-derives
those sessions on its next sync, by itself, and nothing else; an index at this code's rules re-derives
nothing. Over the relay world of tests/text/test_relays (a parent that relayed the recall agent's answer)."""

from __future__ import annotations

import pytest

from recollect import history
from recollect.config import load_config
from recollect.index import chunks, derivations, store
from recollect.text.relays import Relays
from tests.text.test_relays import ANSWER_WORD, OWN_WORDS, world  # noqa: F401

HELD = "SELECT count(*) FROM chunk c JOIN session s USING (sid) WHERE s.native_id = ? AND c.text LIKE ?"


def _index_with_old_relays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Index the world again from nothing as an older rule did: no relayed sentence hidden."""
    with monkeypatch.context() as patch:
        patch.setattr(chunks, "relays", lambda session: Relays())
        load_config().index_path.unlink()
        history.index(load_config())


def test_an_index_of_an_older_relay_rule_rederives_the_sessions_it_shaped(
    world: dict[str, str],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = load_config().index_path
    conn = store.connect(path)
    tagged = dict(conn.execute("SELECT native_id, derived FROM session").fetchall())
    conn.close()
    # Recorded at index time: the parent was shaped by the relay rule, the session that did the work was not.
    assert tagged[world["parent"]] == f"relays:{derivations.RULES['relays']}" and tagged[world["answered"]] == ""
    # Control: an index at this code's rules re-derives nothing.
    again = history.index(load_config())
    assert again.changed == 0 and again.rederived == 0 and "read again" not in again.summary()

    _index_with_old_relays(monkeypatch)
    old = store.connect(path)  # what an older rule left: its version on the parent, the relayed answer held
    old.execute("UPDATE session SET derived = 'relays:1' WHERE native_id = ?", (world["parent"],))
    old.execute("UPDATE meta SET value = 'relays:1' WHERE key = 'derivations'")
    assert old.execute(HELD, (world["parent"], f"%{ANSWER_WORD}%")).fetchone()[0] > 0  # positive control
    old.close()

    report = history.index(load_config())  # the store did not change: only the rule did
    assert [(s.id, s.updated) for s in report.sources] == [("opencode", 1)] and report.rederived == 1
    assert "1 session read again: a rule that indexes them changed" in report.summary()
    conn = store.connect(path)
    assert conn.execute(HELD, (world["parent"], f"%{ANSWER_WORD}%")).fetchone()[0] == 0
    assert conn.execute(HELD, (world["parent"], f"%{OWN_WORDS}%")).fetchone()[0] > 0
    assert conn.execute("SELECT derived FROM session WHERE native_id = ?", (world["parent"],)).fetchone() == (
        f"relays:{derivations.RULES['relays']}",
    )
    conn.close()
    assert history.index(load_config()).changed == 0  # and once re-derived, it stays


def test_an_index_of_schema_14_rederives_the_parents_of_recall_runs(
    world: dict[str, str],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An index of before 542f390 (a relay holds a phrase of the answer) and of the tags: schema 14.
    _index_with_old_relays(monkeypatch)
    path = load_config().index_path
    old = store.connect(path)
    old.execute("ALTER TABLE session DROP COLUMN derived")
    old.execute("DELETE FROM migrations WHERE name = '015_derived'")
    old.execute("DELETE FROM meta WHERE key = 'derivations'")
    old.execute("PRAGMA user_version=14")
    assert old.execute(HELD, (world["parent"], f"%{ANSWER_WORD}%")).fetchone()[0] > 0  # positive control
    old.close()

    report = history.index(load_config())
    assert [(s.id, s.updated) for s in report.sources] == [("opencode", 1)]  # the parent only
    conn = store.connect(path)
    assert conn.execute(HELD, (world["parent"], f"%{ANSWER_WORD}%")).fetchone()[0] == 0
    conn.close()
    assert history.index(load_config()).changed == 0
