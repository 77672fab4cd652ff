"""Worker processes that make a whole index's rows and vectors while the one writer stores them.

What a session becomes in the index (`rows.prepare_session`: redaction, chunks, the card, FTS tokens)
and its vectors (the session card's with the full encoder, the chunks' with the static model) depend
on the session alone. On a first index they are most of the CPU, and the full encoder's matrix work
alone is ~10 ms a card; so a sync that has many sessions to read hands them, a part at a time, to a
few worker processes (one per core) and goes on reading. The writer gets each part back in the
order it was read and stores it exactly as it would have made it itself: the same transactions and
savepoints, so a kill leaves what it always left. Workers never open the index or a store; a worker
whose writer died finds its pipe closed and exits.

Vectors come back packed (`vectors.packed`) and wait in memory, by content hash, for the embedding
pass, which writes those it needs instead of making them again: ~0.5 KB a vector, ~20 MB at 5,000
generated sessions, and never more than READY_BYTES (the pass makes the rest).

Each worker is a whole Python with numpy and both models, ~200-250 MB at its peak: the number of
workers is bounded by memory as well as by cores (`worker_count`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recollect.index import vectors
from recollect.index.rows import PreparedSession, prepare_session
from recollect.model import Session

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

# A sync with fewer sessions to read than this prepares them itself: starting a worker (a Python with
# numpy and both models) costs ~0.5-1 s of CPU, what ~30-50 sessions cost to prepare.
MIN_SESSIONS = 150
MAX_WORKERS = 8
# Memory: a worker is a whole Python with numpy and both models; its peak (VmHWM) was ~195 MB at 500
# generated sessions and ~245 MB at 5,000, the writer's own ~90-120 MB (bench/bench_index.py,
# docs/benchmarks.md). The whole index, writer and workers, stays within issue 15's 400 MB: on most
# machines that is one worker, beside the writer, which is the other busy process.
WORKER_BYTES = 256 << 20
# The vectors workers made wait for the embedding pass, ~0.5 KB each in the writer (a 260-byte packed
# row, its array and its key): 32 MB is ~64,000, more than a 5,000-session history has (~40,000).
# Past that, the pass makes them, in the writer alone.
READY_BYTES = 32 << 20
READY_OVERHEAD = 250
WRITER_BYTES = 128 << 20
MEMORY_BYTES = 400 << 20
JOB_SESSIONS = 8  # sessions per job: small enough to spread a part over the workers
# A worker that has not answered its oldest job in this long (more on a loaded machine than any job
# takes: a job is ~JOB_SESSIONS sessions of ~10-50 ms each) is taken for dead.
JOB_SECONDS = 60.0
SESSION_SECONDS = 5.0
WORKERS_ENV = "RECOLLECT_INDEX_WORKERS"  # how many worker processes; 0: prepare in the writer

Outcome = PreparedSession | str  # a session's rows, or why they could not be made (`describe`)


@dataclass(frozen=True)
class Models:
    """Which models a worker makes vectors with, as it can build them itself (None: no vectors of that
    kind come from the workers; the embedding pass makes them)."""

    static_id: str | None = None  # the shipped static model, over chunks
    card: tuple[Any, Path | None, int, str] | None = None  # (MuseSource, cache dir, chars, model id)

    @classmethod
    def of(cls, embedder: Any, card_encoder: Any) -> Models:
        from recollect.embed.factory import LazyStatic
        from recollect.embed.muse import CardEncoder

        static_id = embedder.model_id if isinstance(embedder, LazyStatic) else None
        card = None
        if isinstance(card_encoder, CardEncoder):
            inner = card_encoder.encoder
            card = (inner.source, inner._cache_dir, card_encoder.chars, card_encoder.model_id)
        return cls(static_id=static_id, card=card)


def worker_count(sessions: int) -> int:
    """How many workers a sync with `sessions` to read starts: one per core it may use (at most
    MAX_WORKERS) and as many as fit in memory (`memory_workers`), none on one core or for a small
    sync. RECOLLECT_INDEX_WORKERS sets the number. None on Windows, where a pipe `Connection` would
    send over sockets."""
    if os.name == "nt":
        return 0
    wanted = os.environ.get(WORKERS_ENV, "").strip()
    if wanted:
        try:
            return max(0, min(int(wanted), MAX_WORKERS))
        except ValueError:
            log.info("%s=%r is not a number; using the cores", WORKERS_ENV, wanted)
    if sessions < MIN_SESSIONS:
        return 0
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return min(cores, MAX_WORKERS, memory_workers(_available())) if cores > 1 else 0


def memory_workers(available: int | None) -> int:
    """How many workers fit in memory: within the whole index's budget (MEMORY_BYTES, the writer
    included) and within what the machine has `available` (None: unknown, the budget alone)."""
    room = MEMORY_BYTES - WRITER_BYTES
    if available is not None:
        room = min(room, available)
    return max(0, room // WORKER_BYTES)


def _available() -> int | None:
    """The memory the machine can give without swapping (Linux's MemAvailable), or None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


class Pool:
    """Worker processes, started on first use. `submit` hands over sessions and returns a ticket;
    `outcomes(ticket)` gives one outcome per session, in order. A worker that dies, fails, sends what
    is not a result or stops answering (JOB_SECONDS, plus SESSION_SECONDS a session, for its oldest job)
    costs only speed: it is killed, and its jobs and every later one are prepared here."""

    def __init__(self, workers: int, models: Models) -> None:
        self.workers, self.models = workers, models
        self._sends: list[Connection] = []  # where each worker's jobs go
        self._procs: list[subprocess.Popen[bytes]] = []
        self._readers: list[threading.Thread] = []  # one a worker: its results, as they come, into _inbox
        self._inbox: queue.SimpleQueue[tuple[int, Any]] = queue.SimpleQueue()
        self._load: dict[int, int] = {}  # worker index -> jobs in flight
        self._since: dict[int, float] = {}  # worker index -> since when its oldest job in flight is its turn
        self._where: dict[int, tuple[int, list[Session]]] = {}  # job -> (worker, its sessions)
        self._done: dict[int, list[Outcome]] = {}
        self._next = 0
        self._broken = False
        self.ready: dict[str, dict[bytes, np.ndarray]] = {}  # model id -> content hash -> packed vector
        self._ready_bytes = 0

    def _start(self) -> None:
        # A fresh interpreter that runs this module: not a fork of a process that holds the index open,
        # and not multiprocessing's spawn, which would run the caller's main script again in every
        # worker. Jobs go in on its stdin; results come back on a pipe of their own (its number is the
        # worker's argument), so nothing the interpreter prints (a sitecustomize, a .pth) can corrupt
        # them. Each process is tracked before anything is sent to it, so `close` always reaps it.
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}  # the workers are the parallelism
        env["PYTHONPATH"] = _pythonpath(env.get("PYTHONPATH"))
        for i in range(self.workers):
            ours, theirs = os.pipe()  # results flow from the worker (theirs, the write end) to here
            try:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "recollect.index.prepare", str(theirs)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    env=env,
                    pass_fds=(theirs,),
                )
            except BaseException:
                os.close(ours)
                raise
            finally:
                os.close(theirs)
            self._procs.append(proc)
            assert proc.stdin is not None
            self._sends.append(Connection(os.dup(proc.stdin.fileno()), readable=False))
            proc.stdin.close()
            self._load[i] = 0
            reader = threading.Thread(target=self._read, args=(i, Connection(ours, writable=False)), daemon=True)
            reader.start()
            self._readers.append(reader)
            self._sends[i].send(self.models)

    def _read(self, worker: int, conn: Connection) -> None:
        """On a thread: every message of one worker into the inbox, then why it stopped (EOF, or
        whatever made its stream unreadable: a bad length, junk that does not unpickle)."""
        try:
            while True:
                self._inbox.put((worker, conn.recv()))
        except BaseException as exc:
            self._inbox.put((worker, exc))
        finally:
            conn.close()

    def submit(self, sessions: list[Session]) -> list[int]:
        """Hand `sessions` to the workers in jobs; the ticket is the list of job numbers."""
        if not self._procs and not self._broken:
            try:
                self._start()
            except Exception as exc:
                log.info("could not start index workers (%s); preparing sessions in this process", exc)
                self._broken = True
        jobs: list[int] = []
        for group in _groups(sessions):
            job = self._next
            self._next += 1
            jobs.append(job)
            worker = min(self._load, key=self._load.__getitem__) if not self._broken else -1
            if worker >= 0:
                try:
                    self._sends[worker].send((job, group))
                    if not self._load[worker]:
                        self._since[worker] = time.monotonic()
                    self._load[worker] += 1
                    self._where[job] = (worker, group)
                    continue
                except OSError:
                    self._fail(worker)
            self._done[job] = _prepare_here(group)
        return jobs

    def outcomes(self, ticket: list[int]) -> list[Outcome]:
        out: list[Outcome] = []
        for job in ticket:
            while job not in self._done:
                self._receive()
            out.extend(self._done.pop(job))
        return out

    def _receive(self) -> None:
        if self._broken or not self._where:
            self._redo_here()
            return
        due, worker = min((self._due(w), w) for w in {w for w, _ in self._where.values()})
        try:
            worker, message = self._inbox.get(timeout=max(0.0, due - time.monotonic()))
        except queue.Empty:
            log.info("index worker %d stopped answering", worker)
            self._fail(worker)
            return
        try:
            job, outcomes, made = message
            if self._where.pop(job)[0] != worker:
                raise ValueError(f"job {job} was not given to worker {worker}")
        except Exception as exc:  # it died, or what it sent is not a result
            log.info("index worker %d: %r", worker, message if isinstance(message, BaseException) else exc)
            self._fail(worker)
            return
        self._load[worker] -= 1
        self._since[worker] = time.monotonic()
        self._done[job] = outcomes
        for model, found in made.items():
            self._keep(model, found)

    def _keep(self, model: str, found: dict[bytes, np.ndarray]) -> None:
        """Hold vectors for the embedding pass up to READY_BYTES in all; the pass makes the rest."""
        held = self.ready.setdefault(model, {})
        for key, vector in found.items():
            size = vector.nbytes + READY_OVERHEAD
            if self._ready_bytes + size > READY_BYTES:
                return
            if key not in held:
                held[key] = vector
                self._ready_bytes += size

    def _due(self, worker: int) -> float:
        """When `worker` must have answered its oldest job in flight."""
        oldest = min(job for job, (w, _) in self._where.items() if w == worker)
        return self._since[worker] + JOB_SECONDS + SESSION_SECONDS * len(self._where[oldest][1])

    def _fail(self, worker: int) -> None:
        log.info("an index worker stopped; preparing the rest of the sessions in this process")
        with contextlib.suppress(OSError):
            self._procs[worker].kill()
        self._broken = True
        self._redo_here()

    def _redo_here(self) -> None:
        for job, (_, group) in list(self._where.items()):
            self._done[job] = _prepare_here(group)
        self._where.clear()

    def close(self) -> None:
        """Stop the workers: they finish at once when no job is left (else they are killed: the writer
        stopped early and their results are of no use)."""
        for send in self._sends:
            with contextlib.suppress(OSError):
                send.send(None)
                send.close()
        for proc in self._procs:
            try:
                proc.wait(timeout=5 if not self._where else 0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        for reader in self._readers:
            reader.join(timeout=5)  # each ends at its pipe's EOF, now that its worker is gone
        self._sends, self._procs, self._readers = [], [], []


def _pythonpath(current: str | None) -> str:
    """The workers' PYTHONPATH: as given, with the directory recollect was imported from first only when
    a plain interpreter would not find it (a source checkout). An installed package's directory is
    site-packages, which must stay behind the standard library."""
    import site

    import recollect

    root = Path(recollect.__file__).resolve().parent.parent
    installed = {Path(p).resolve() for p in [*site.getsitepackages(), site.getusersitepackages()]}
    given = [p for p in (current or "").split(os.pathsep) if p]
    if root in installed or str(root) in given:
        return os.pathsep.join(given)
    return os.pathsep.join([str(root), *given])


def ahead(parts: Iterator[tuple[list[Session], dict[str, str], int | None]], pool: Pool | None) -> Iterator[Any]:
    """`parts` as (sessions, marks, done, outcomes), with the next part read and handed to the workers
    before this one is given to the writer: the workers prepare it while the writer stores. Without a
    pool, outcomes is None (the writer prepares each session itself)."""
    if pool is None:
        for sessions, marks, done in parts:
            yield sessions, marks, done, None
        return
    pending: deque[tuple[list[Session], dict[str, str], int | None, list[int]]] = deque()
    for sessions, marks, done in parts:
        pending.append((sessions, marks, done, pool.submit(sessions)))
        if len(pending) > 1:
            sessions, marks, done, ticket = pending.popleft()
            yield sessions, marks, done, pool.outcomes(ticket)
    while pending:
        sessions, marks, done, ticket = pending.popleft()
        yield sessions, marks, done, pool.outcomes(ticket)


def _groups(sessions: list[Session]) -> Iterator[list[Session]]:
    # By count only: the part they come from is bounded by bytes already (sync.BATCH_BYTES).
    for start in range(0, len(sessions), JOB_SESSIONS):
        yield sessions[start : start + JOB_SESSIONS]


def _prepare_here(sessions: list[Session]) -> list[Outcome]:
    from recollect.sources.guard import describe

    out: list[Outcome] = []
    for session in sessions:
        try:
            out.append(prepare_session(session, tokens=True))
        except Exception as exc:  # this session costs itself: the writer records it as bad
            out.append(describe(exc))
    return out


class _Vectors:
    """A worker's models, built on first use; one that fails to load makes no vectors (the pass does)."""

    def __init__(self, models: Models) -> None:
        self.models = models
        self.static: Any = None
        self.card: Any = None
        if models.static_id:
            try:
                from recollect.embed.factory import LazyStatic

                static = LazyStatic()
                self.static = static if static.model_id == models.static_id else None
            except Exception as exc:
                log.info("index worker: no static model (%s)", exc)
        if models.card:
            from recollect.embed.muse import CardEncoder, MuseEmbedder

            source, cache_dir, chars, model_id = models.card
            card = CardEncoder(MuseEmbedder(source, cache_dir=cache_dir), chars)
            self.card = card if card.model_id == model_id else None

    def make(self, outcomes: list[Outcome]) -> dict[str, dict[bytes, np.ndarray]]:
        made: dict[str, dict[bytes, np.ndarray]] = {}
        prepared = [o for o in outcomes if isinstance(o, PreparedSession)]
        if self.static is not None:
            texts = {row[9]: row[8] for p in prepared for row in p.chunks if row[9] is not None}
            cards = {p.columns["card_hash"]: p.columns["card_text"] for p in prepared if p.columns["card_hash"]}
            texts.update(cards)  # the static model embeds cards too
            made[self.static.model_id] = self._embed(self.static, texts)
        if self.card is not None:
            cards = {p.columns["card_hash"]: p.columns["card_text"] for p in prepared if p.columns["card_hash"]}
            made[self.card.model_id] = self._embed(self.card, cards)
        return made

    @staticmethod
    def _embed(model: Any, texts: dict[bytes, str]) -> dict[bytes, np.ndarray]:
        if not texts:
            return {}
        try:
            rows = vectors.packed(model.embed([vectors.embed_text(t) for t in texts.values()]))
        except Exception as exc:  # the embedding pass makes them instead
            log.info("index worker: embedding failed (%s)", exc)
            return {}
        return dict(zip(texts, rows, strict=True))


def _serve(jobs: Connection, results: Connection) -> None:
    """A worker: its models first, then jobs in, (job, outcomes, vectors) out, until None or until its
    writer is gone. Jobs are read as they come, on a thread: a writer blocked sending the next job
    while this worker is blocked sending a result would wait for each other forever."""
    import queue
    import threading

    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def read() -> None:
        try:
            while True:
                job = jobs.recv()
                inbox.put(job)
                if job is None:
                    return
        except (EOFError, OSError):
            inbox.put(None)

    try:
        made = _Vectors(jobs.recv())
        threading.Thread(target=read, daemon=True).start()
        while True:
            job = inbox.get()
            if job is None:
                return
            number, sessions = job
            outcomes = _prepare_here(sessions)
            results.send((number, outcomes, made.make(outcomes)))
    except (EOFError, OSError, KeyboardInterrupt):
        return  # the writer stopped (killed, or done): nothing here is worth keeping
    except Exception:  # the writer sees the pipe close and prepares the rest itself
        raise SystemExit(1) from None


if __name__ == "__main__":  # a worker of `Pool`: jobs on stdin, results on the pipe its argument names
    _serve(Connection(os.dup(0), writable=False), Connection(int(sys.argv[1]), readable=False))
