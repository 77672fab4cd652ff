"""Index workers (index/prepare.py) that misbehave cost only speed: the writer prepares their sessions
itself and never hangs, whatever a worker does or prints; and no card is embedded twice. Real worker
processes throughout."""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.index import prepare, sync
from recollect.model import Session
from recollect.sources.base import SourceSpec
from recollect.sources.opencode import OpenCodeSource

BOUND = 120.0  # seconds a call may take before the test calls it hung (the old code never returned)


def _sessions(store: Path) -> list[Session]:
    source = OpenCodeSource(SourceSpec(id="opencode", kind="opencode", path=store))
    sessions = list(source.read_sessions(list(source.scan().stamps)))
    assert len(sessions) > 4
    return sessions


def _bounded(pool: prepare.Pool, ticket: list[int]) -> list[prepare.Outcome] | None:
    """`pool.outcomes(ticket)`, or None if it has not returned within BOUND."""
    got: list[list[prepare.Outcome]] = []
    thread = threading.Thread(target=lambda: got.append(pool.outcomes(ticket)), daemon=True)
    thread.start()
    thread.join(BOUND)
    return got[0] if got else None


def test_a_worker_that_stops_answering_is_killed_and_its_jobs_done_here(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = _sessions(sample_db)
    here = prepare._prepare_here(sessions)
    pool = prepare.Pool(1, prepare.Models())
    try:
        first = pool.submit(sessions[:2])
        assert _bounded(pool, first) == here[:2] and not pool._broken  # positive control: the worker answers
        proc = pool._procs[0]
        monkeypatch.setattr(prepare, "JOB_SECONDS", 1.0, raising=False)
        monkeypatch.setattr(prepare, "SESSION_SECONDS", 0.0, raising=False)
        os.kill(proc.pid, signal.SIGSTOP)  # as a wedged or swapped-out worker
        rest = pool.submit(sessions[2:])
        assert _bounded(pool, rest) == here[2:]
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        for p in pool._procs:
            if p.poll() is None:
                os.kill(p.pid, signal.SIGCONT)
        pool.close()


def test_what_a_worker_prints_at_start_does_not_reach_the_results(
    sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = _sessions(sample_db)
    here = prepare._prepare_here(sessions[:3])
    pool = prepare.Pool(1, prepare.Models())
    try:  # positive control: without a noisy start the worker's results are used
        assert _bounded(pool, pool.submit(sessions[:3])) == here and not pool._broken
    finally:
        pool.close()
    noisy = tmp_path / "site"
    noisy.mkdir()
    # A sitecustomize that prints (corporate and conda setups have them): a line, and bytes that read as
    # a short pickled message would, to a reader of the worker's stdout.
    (noisy / "sitecustomize.py").write_text(
        "import sys\nprint('hello from sitecustomize')\nsys.stdout.flush()\n"
        "sys.stdout.buffer.write(b'\\0\\0\\0\\x04junk')\nsys.stdout.flush()\n"
    )
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(noisy), os.environ.get("PYTHONPATH")])))
    pool = prepare.Pool(1, prepare.Models())
    try:
        assert _bounded(pool, pool.submit(sessions[:3])) == here
        assert not pool._broken  # the worker's results were read, not redone here
    finally:
        pool.close()


def test_a_worker_that_cannot_be_sent_its_models_is_reaped(sample_db: Path) -> None:
    sessions = _sessions(sample_db)
    here = prepare._prepare_here(sessions[:2])
    pool = prepare.Pool(1, prepare.Models())
    try:  # positive control: a worker is started and answers
        assert _bounded(pool, pool.submit(sessions[:2])) == here and not pool._broken
        procs = list(pool._procs)
    finally:
        pool.close()
    assert procs and all(p.poll() is not None for p in procs)
    # What cannot be pickled fails the first send, after the worker has started.
    pool = prepare.Pool(1, prepare.Models(static_id=lambda: None))  # type: ignore[arg-type]
    try:
        assert pool.outcomes(pool.submit(sessions[:2])) == here and pool._broken
        procs = list(pool._procs)
    finally:
        pool.close()
    assert len(procs) == 1 and procs[0].poll() is not None


def test_no_workers_where_pipes_would_be_sockets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(prepare.WORKERS_ENV, "2")
    assert prepare.worker_count(5000) == 2  # positive control
    with monkeypatch.context() as windows:  # os.name back before any report: pathlib reads it
        windows.setattr(os, "name", "nt")
        count = prepare.worker_count(5000)
    assert count == 0


def test_workers_keep_site_packages_behind_the_standard_library(tmp_path: Path) -> None:
    import site

    import recollect

    root = str(Path(recollect.__file__).resolve().parent.parent)
    installed = {str(Path(p).resolve()) for p in [*site.getsitepackages(), site.getusersitepackages()]}
    path = prepare._pythonpath(str(tmp_path)).split(os.pathsep)
    if root in installed:
        assert path == [str(tmp_path)]  # an installed package: the interpreter finds it where it is
    else:  # a source checkout: found first, the caller's path after it
        assert path == [root, str(tmp_path)]
    # Whatever the install, the path never holds site-packages of its own making.
    assert not installed.intersection(prepare._pythonpath(None).split(os.pathsep))


def test_the_card_thread_gets_no_cards_once_workers_start(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A small source first (no workers: the card thread embeds what it stores), then a large one.
    from recollect.embed.factory import LazyStatic

    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())  # semantic search off: no card has a vector yet
    conn = sqlite3.connect(load_config().index_path)
    sids = [r[0] for r in conn.execute("SELECT sid FROM session WHERE card_hash IS NOT NULL ORDER BY sid")]
    assert len(sids) >= 2
    helpers = sync._Helpers(None, LazyStatic(), whole=True)
    try:
        monkeypatch.setenv(prepare.WORKERS_ENV, "0")
        assert helpers.pool_for(20) is None and helpers.prefetch is not None
        helpers.stored(conn, sids[:1])
        assert len(helpers.prefetch._seen) == 1  # positive control: the card thread embeds a stored card
        monkeypatch.setenv(prepare.WORKERS_ENV, "1")
        assert helpers.pool_for(5000) is not None
        helpers.stored(conn, sids[1:])
        assert len(helpers.prefetch._seen) == 1  # the workers embed these: not twice
    finally:
        helpers.close()
        conn.close()


def test_workers_fit_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(prepare.WORKERS_ENV, raising=False)
    plenty = 64 << 30
    assert prepare.memory_workers(plenty) >= 1  # positive control: a worker fits beside the writer
    assert prepare.worker_count(5000) <= len(os.sched_getaffinity(0))
    budget = prepare.memory_workers(plenty) * prepare.WORKER_BYTES + prepare.WRITER_BYTES
    assert budget <= 400 << 20  # issue 15: the whole index, writer and workers, under 400 MB
    assert prepare.memory_workers(prepare.WORKER_BYTES - 1) == 0  # no room on the machine: none
    assert prepare.memory_workers(None) == prepare.memory_workers(plenty)  # unknown: the budget alone


@pytest.mark.usefixtures("semantic")
def test_vectors_held_for_the_embedding_pass_are_bounded_by_bytes(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from recollect.embed.factory import LazyStatic

    sessions = _sessions(sample_db)
    models = prepare.Models(static_id=LazyStatic().model_id)

    def held(pool: prepare.Pool) -> list[int]:
        try:
            assert _bounded(pool, pool.submit(sessions)) is not None and not pool._broken
            return [v.nbytes + prepare.READY_OVERHEAD for found in pool.ready.values() for v in found.values()]
        finally:
            pool.close()

    every = held(prepare.Pool(1, models))
    assert len(every) > 4  # positive control: the worker's vectors are all kept under the default cap
    monkeypatch.setattr(prepare, "READY_BYTES", sum(every) // 2, raising=False)
    capped = held(prepare.Pool(1, models))
    assert 0 < sum(capped) <= sum(every) // 2
