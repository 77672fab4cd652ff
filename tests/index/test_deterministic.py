"""Rankings do not depend on sync history: an index synced step by step through the sample store's 39
checkpoints returns exactly what a fresh index of the last checkpoint returns (issue 14, item 8)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recollect import history
from tests.conftest import CHECKPOINTS, unpack_checkpoint

QUERIES = ["missing-file.txt", "list files", "hello", "README", "error", "test", "greeting text", "bash"]


def build(home: Path, store: Path, steps: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    use(home, store, monkeypatch)
    for n in steps:
        for suffix in ("-wal", "-shm"):
            if os.path.exists(str(store) + suffix):
                os.remove(str(store) + suffix)
        unpack_checkpoint(n, store)
        history.index()


def use(home: Path, store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECOLLECT_HOME", str(home))
    monkeypatch.setenv("OPENCODE_DB", str(store))


def ranked(home: Path, store: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[tuple]]:
    use(home, store, monkeypatch)
    out = {}
    for query in QUERIES:
        hits = history.search(query, limit=20, sync_first=False).hits
        out[query] = [(h.session_id, h.message_id, h.part_id, round(h.score, 9)) for h in hits]
    return out


def test_a_step_by_step_index_ranks_like_a_fresh_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    last = len(sorted(CHECKPOINTS.glob("*.db.gz")))
    fresh, stepped = (
        (tmp_path / "fresh", tmp_path / "a" / "opencode.db"),
        (tmp_path / "stepped", tmp_path / "b" / "opencode.db"),
    )
    build(*fresh, [last], monkeypatch)
    build(*stepped, list(range(1, last + 1)), monkeypatch)
    # Both are queried back to back: recency is measured from now, so minutes of indexing between the
    # two would move the scores (at the ninth digit), which is not what this test is about.
    fresh_hits = ranked(*fresh, monkeypatch)
    assert sum(1 for hits in fresh_hits.values() if hits) >= 6  # positive control: the queries find things
    assert ranked(*stepped, monkeypatch) == fresh_hits
