"""A whole index prepared by worker processes (index/prepare.py) is the index the writer makes alone."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bench.storegen import generate_store
from recollect import history
from recollect.config import load_config
from recollect.index import prepare, vectors
from recollect.index.rows import PreparedSession
from recollect.sources.base import SourceSpec
from recollect.sources.opencode import OpenCodeSource
from tests.index import faults


def _rows(index: Path) -> dict[str, Any]:
    """Every column of every session and chunk row (row ids included), beside faults.dump."""
    conn = sqlite3.connect(index)
    try:
        return {
            "session": conn.execute("SELECT * FROM session ORDER BY sid").fetchall(),
            "chunk": conn.execute("SELECT * FROM chunk ORDER BY id").fetchall(),
            **faults.dump(index),
        }
    finally:
        conn.close()


def _index(home: Path, workers: int, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setenv("RECOLLECT_HOME", str(home))
    monkeypatch.setenv(prepare.WORKERS_ENV, str(workers))
    history.index(load_config())
    return _rows(home / "index.db")


@pytest.mark.usefixtures("semantic")
def test_workers_make_the_index_the_writer_makes_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp_path / "opencode.db"
    generate_store(store, sessions=24, seed=11)
    monkeypatch.setenv("OPENCODE_DB", str(store))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    monkeypatch.setattr(prepare, "JOB_SESSIONS", 3)  # several jobs per part, over both workers
    used: list[int] = []
    left: list[int] = []  # ready vectors an embedding pass did not write (it takes out those it writes)
    original, backfill = prepare.Pool.outcomes, vectors.backfill

    def outcomes(self: prepare.Pool, ticket: list[int], prepared: Any = None) -> list[prepare.Outcome]:
        out = original(self, ticket, prepared)
        used.append(sum(isinstance(o, PreparedSession) for o in out))
        return out

    def passes(*args: Any, ready: Any = None, **kwargs: Any) -> vectors.BackfillReport:
        report = backfill(*args, ready=ready, **kwargs)
        left.append(len(ready or ()))
        return report

    monkeypatch.setattr(prepare.Pool, "outcomes", outcomes)
    monkeypatch.setattr(vectors, "backfill", passes)
    alone = _index(tmp_path / "alone", 0, monkeypatch)
    assert not used and left == [0, 0]  # positive control: no workers when told none
    assert len(alone["session"]) == 24 and alone["chunk"] and not alone["missing"]
    pooled = _index(tmp_path / "pooled", 2, monkeypatch)
    assert sum(used) == 24 and left == [0, 0, 0, 0]  # every session came from a worker; every vector was used
    assert pooled["session"] == alone["session"]
    assert pooled["chunk"] == alone["chunk"]
    assert faults.differs(pooled, alone) == ""


def test_a_worker_that_dies_costs_only_speed(sample_db: Path) -> None:
    source = OpenCodeSource(SourceSpec(id="opencode", kind="opencode", path=sample_db))
    sessions = list(source.read_sessions(list(source.scan().stamps)))
    assert len(sessions) > 4
    here = prepare._prepare_here(sessions)
    pool = prepare.Pool(1, prepare.Models())
    procs = pool._procs
    try:
        first = pool.submit(sessions[:2])
        assert pool.outcomes(first) == here[:2]  # positive control: the worker answers
        pool._procs[0].kill()
        pool._procs[0].wait()
        rest = pool.submit(sessions[2:])
        assert pool.outcomes(rest) == here[2:]
    finally:
        pool.close()
    assert procs and all(proc.poll() is not None for proc in procs)


def workers_of(home: Path) -> list[int]:
    """Index workers still running for the index in `home`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if b"recollect.index.prepare" in cmdline and f"RECOLLECT_HOME={home}\0".encode() in environ + b"\0":
            found.append(int(pid))
    return found


def test_worker_count_follows_the_cores_the_size_and_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(prepare.WORKERS_ENV, raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2})
    # With memory for every core's worker (the budget bounds them too: tests/index/test_workers.py).
    monkeypatch.setattr(prepare, "MEMORY_BYTES", prepare.WRITER_BYTES + 8 * prepare.WORKER_BYTES)
    monkeypatch.setattr(prepare, "_available", lambda: None)
    assert prepare.worker_count(prepare.MIN_SESSIONS) == 3  # one per core for a large sync
    assert prepare.worker_count(prepare.MIN_SESSIONS - 1) == 0  # a small one prepares its sessions itself
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert prepare.worker_count(10_000) == 0  # one core: workers would only add their start
    monkeypatch.setenv(prepare.WORKERS_ENV, "2")
    assert prepare.worker_count(1) == 2
    monkeypatch.setenv(prepare.WORKERS_ENV, "0")
    assert prepare.worker_count(10_000) == 0
    monkeypatch.setenv(prepare.WORKERS_ENV, "99")
    assert prepare.worker_count(1) == prepare.MAX_WORKERS
