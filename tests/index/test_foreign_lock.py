"""A write lock another process holds on index.db (BEGIN IMMEDIATE or EXCLUSIVE, as an older recollect's
sync or a `sqlite3` shell would) costs a search no wait: WAL readers do not block, so it answers from the
index as it is, at once, and says the index is being updated."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from recollect.config import load_config
from recollect.mcp import history_tools
from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool

HOLD = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN " + sys.argv[2])
conn.execute("CREATE TABLE IF NOT EXISTS held_by_another(x)")  # a write under way
print("held", flush=True)
sys.stdin.read()  # until the test closes stdin
conn.execute("ROLLBACK")
"""


def _recollect(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "recollect.cli", *args], capture_output=True, text=True, env=os.environ, timeout=120
    )


@pytest.mark.parametrize("mode", ["IMMEDIATE", "EXCLUSIVE"])
def test_search_answers_at_once_from_an_index_another_process_is_writing(
    sample_db: Path, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    indexed = _recollect("index")
    assert indexed.returncode == 0, indexed.stderr
    free = _recollect("search", "readme", "-n", "2")
    assert free.returncode == 0 and "1. " in free.stdout, free.stderr  # positive control: no lock, no note
    assert "another process is writing" not in free.stdout
    time.sleep(2.1)  # past the freshness window, so that the listing below syncs, as the one under the lock
    listed_free = _recollect("sessions", "-n", "1", "--json")
    assert json.loads(listed_free.stdout)["listed_as_is"] is False, listed_free.stderr
    assert "another process is writing" not in _recollect("sessions", "-n", "1").stdout
    index = load_config().index_path
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(index), mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        time.sleep(2.1)  # past a search's freshness window (2 s): each call below tries to sync first
        found = _recollect("search", "readme", "-n", "2")
        assert found.returncode == 0, found.stderr
        assert "1. " in found.stdout and "another process is writing to the index, so it was searched as it is" in (
            found.stdout
        ), found.stdout
        # The old code sat out SQLite's 10 s busy timeout and then failed ("the index is locked"): the return
        # codes and the note tell it apart, not a clock (the note comes only from the 200 ms writer-lease try).
        listed = _recollect("sessions", "-n", "1")
        assert listed.returncode == 0 and "1. " in listed.stdout, listed.stderr
        assert "another process is writing to the index, so it was listed as it is" in listed.stdout, listed.stdout
        as_json = json.loads(_recollect("sessions", "-n", "1", "--json").stdout)
        assert as_json["listed_as_is"] is True and len(as_json["sessions"]) == 1
        # The MCP listing says it too (and lists the index as it is). Its own freshness window is 10 s, and the
        # CLI calls above can all fit inside it on a quiet machine: it would then not try to sync at all.
        monkeypatch.setattr(history_tools, "INLINE_SYNC_AFTER", 0.0)
        reply = call_tool("history_sessions", {"limit": 1, "scope": "all"}, ServerSettings(cwd=str(sample_db.parent)))
        assert "it was listed as it is" in reply.text and reply.structured["listed_as_is"] is True, reply.text
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)


def test_an_index_to_upgrade_under_a_foreign_lock_is_not_called_unreadable(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from recollect.index import store

    indexed = _recollect("index")
    assert indexed.returncode == 0, indexed.stderr
    index = load_config().index_path
    store.connect(index).close()  # positive control: an index of this schema opens
    with sqlite3.connect(index) as raw:
        raw.execute("PRAGMA user_version = 1")  # written by an older recollect: this one must migrate it
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(index), "IMMEDIATE"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    monkeypatch.setattr(store, "BUSY_TIMEOUT_MS", 100)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(store.IndexUnavailable) as refused:
            store.connect(index)
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    said = str(refused.value)
    assert "another process is writing to the index" in said and "retry in a moment" in said, said
    assert "unreadable" not in said and "delete it" not in said, said  # the file is fine: never "delete it"
