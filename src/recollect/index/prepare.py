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
from collections.abc import Callable, Iterator
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
JOB_SESSIONS = 4  # sessions per job: small enough to spread a part over the workers and the writer
CREDIT = 2  # jobs a worker is given at a time: its next one is there when it answers, the rest stay to share
# Jobs of texts to embed the writer may have waiting for the workers before it stops preparing sessions
# itself and waits: they bound what it holds (a 5,000-session index peaked at 411 MB in all without it).
EMBEDS_AHEAD = 8
# A worker that has not answered its oldest job in this long (more on a loaded machine than any job
# takes: a job is ~JOB_SESSIONS sessions of ~10-50 ms each) is taken for dead.
JOB_SECONDS = 60.0
SESSION_SECONDS = 5.0
WORKERS_ENV = "RECOLLECT_INDEX_WORKERS"  # how many worker processes; 0: prepare in the writer

Outcome = PreparedSession | str  # a session's rows, or why they could not be made (`describe`)
# A job: sessions to prepare (and embed), or texts the writer prepared, to embed (model kind -> hash -> text).
Job = tuple[list[Session] | None, dict[str, dict[bytes, str]] | None]


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
    """Worker processes, started on first use. `submit` queues sessions in jobs and returns a ticket;
    `outcomes(ticket)` gives one outcome per session, in order.

    Both sides work: each worker is given at most CREDIT jobs at a time, the oldest queued first, and
    the writer prepares the queued jobs of the ticket it waits for itself, from the back (then those of
    later tickets) instead of waiting. What the writer prepared goes back to the workers as a job of
    texts to embed, which they take before any session: the vectors wait in `ready` for the embedding
    pass (`drain` first). A worker that dies, fails, sends what is not a result or stops answering
    (JOB_SECONDS, plus SESSION_SECONDS a session, for its oldest job) costs only speed: it is killed, its
    sessions and every later job are prepared here, and the embedding pass makes the vectors it owed."""

    def __init__(self, workers: int, models: Models) -> None:
        self.workers, self.models = workers, models
        self._procs: list[subprocess.Popen[bytes]] = []
        self._threads: list[threading.Thread] = []  # per worker: its reader and its sender
        self._outboxes: list[queue.SimpleQueue[Any]] = []  # per worker: what its sender sends, in order
        self._inbox: queue.SimpleQueue[tuple[int, Any]] = queue.SimpleQueue()
        # Shared with the reader threads, which give each worker its next job as soon as it answers.
        self._lock = threading.Lock()
        self._queued: deque[int] = deque()  # session jobs no one has taken yet, oldest first
        self._embeds: deque[int] = deque()  # texts the writer prepared, for the workers to embed
        self._jobs: dict[int, Job] = {}  # queued or given job -> what it is
        self._where: dict[int, int] = {}  # job given to a worker and not yet answered -> that worker
        self._load: dict[int, int] = {}  # worker -> jobs given and not yet answered
        self._since: dict[int, float] = {}  # worker -> since when its oldest job in flight is its turn
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
            send = Connection(os.dup(proc.stdin.fileno()), readable=False)
            proc.stdin.close()
            self._load[i] = 0
            self._outboxes.append(queue.SimpleQueue())
            try:
                send.send(self.models)  # here, so that what cannot be pickled fails the start
            except BaseException:
                send.close()  # the worker sees EOF and exits
                raise
            for target, conn in ((self._read, Connection(ours, writable=False)), (self._send, send)):
                thread = threading.Thread(target=target, args=(i, conn), daemon=True)
                thread.start()
                self._threads.append(thread)

    def _read(self, worker: int, conn: Connection) -> None:
        """On a thread: every message of one worker into the inbox, then why it stopped (EOF, or
        whatever made its stream unreadable: a bad length, junk that does not unpickle). Each answer
        frees a place for the worker's next job, given at once."""
        try:
            while True:
                message = conn.recv()
                with self._lock:
                    self._load[worker] = max(0, self._load[worker] - 1)
                    self._since[worker] = time.monotonic()
                self._feed()
                self._inbox.put((worker, message))
        except BaseException as exc:
            self._inbox.put((worker, exc))
        finally:
            conn.close()

    def _send(self, worker: int, conn: Connection) -> None:
        """On a thread: one worker's jobs, in order, until None. A worker that stops reading blocks only
        this thread (the writer's deadline kills it); a failed send is its death."""
        try:
            while (item := self._outboxes[worker].get()) is not None:
                conn.send(item)
            conn.send(None)
        except BaseException as exc:
            self._inbox.put((worker, exc))
        finally:
            conn.close()

    def _feed(self) -> None:
        """Give each live worker jobs up to CREDIT: texts to embed first, then the oldest queued sessions."""
        with self._lock:
            if self._broken:
                return
            for worker in self._load:
                while self._load[worker] < CREDIT and (self._embeds or self._queued):
                    job = (self._embeds or self._queued).popleft()
                    if not self._load[worker]:
                        self._since[worker] = time.monotonic()
                    self._load[worker] += 1
                    self._where[job] = worker
                    self._outboxes[worker].put((job, *self._jobs[job]))

    def submit(self, sessions: list[Session]) -> list[int]:
        """Queue `sessions` for the workers in jobs; the ticket is the list of job numbers."""
        if not self._procs and not self._broken:
            try:
                self._start()
            except Exception as exc:
                log.info("could not start index workers (%s); preparing sessions in this process", exc)
                self._broken = True
        jobs: list[int] = []
        with self._lock:
            for group in _groups(sessions):
                jobs.append(self._add((group, None), self._queued))
        self._feed()
        return jobs

    def _add(self, job: Job, where: deque[int]) -> int:
        number = self._next
        self._next += 1
        self._jobs[number] = job
        where.append(number)
        return number

    def outcomes(self, ticket: list[int], prepared: Callable[[int], None] | None = None) -> list[Outcome]:
        """The ticket's outcomes, in order: its queued jobs are prepared here, last first (then those of
        later tickets), while the workers answer the ones they were given. `prepared(n)` is told of each
        of the ticket's jobs as it is done (n: its sessions), so a progress bar moves while this waits."""
        told: set[int] = set()

        def tell() -> None:
            for job in ticket:
                if prepared is not None and job in self._done and job not in told:
                    told.add(job)
                    prepared(len(self._done[job]))

        while any(job not in self._done for job in ticket):
            tell()
            if self._where and not self._inbox.empty():  # answers first: one may be the job waited for
                self._receive()
                continue
            job = self._claim(ticket)
            if job is None:
                self._receive()
                continue
            sessions = self._jobs.pop(job)[0]
            assert sessions is not None
            self._done[job] = _prepare_here(sessions, tokens=False)  # tokens made as each chunk is written
            self._embed_later(self._done[job])
        tell()
        out: list[Outcome] = []
        for job in ticket:
            out.extend(self._done.pop(job))
        return out

    def _claim(self, ticket: list[int]) -> int | None:
        """A queued job for the writer to prepare: the ticket's last, else the newest of a later ticket
        (only while a worker is busy with the ticket's other jobs, so that the writer never idles)."""
        with self._lock:
            if len(self._embeds) >= EMBEDS_AHEAD and not self._broken:
                return None  # the workers are behind: wait for them rather than hold more texts here
            mine = [job for job in self._queued if job in ticket]
            job = mine[-1] if mine else (self._queued[-1] if self._queued and not self._broken else None)
            if job is not None:
                self._queued.remove(job)
            return job

    def _embed_later(self, outcomes: list[Outcome]) -> None:
        """Hand the texts of sessions prepared here to the workers to embed (none when they are gone)."""
        if self._broken or not self._procs:
            return
        texts = texts_of(outcomes, self.models)
        if any(texts.values()):
            with self._lock:
                self._add((None, texts), self._embeds)
            self._feed()

    def drain(self) -> None:
        """Wait for every job given or queued to be answered (their vectors into `ready`)."""
        # Every job left is given out as the workers answer (the reader feeds them before it hands on the
        # answer), so none is left once none is in flight.
        while not self._broken and self._where:
            self._receive()

    def _receive(self) -> None:
        with self._lock:
            waiting = {w for w in self._where.values()}
            if self._broken or not waiting:
                self._redo_here()
                return
            due, worker = min((self._due(w), w) for w in waiting)
        try:
            worker, message = self._inbox.get(timeout=max(0.0, due - time.monotonic()))
        except queue.Empty:
            log.info("index worker %d stopped answering", worker)
            self._fail(worker)
            return
        try:
            job, outcomes, made = message
            with self._lock:
                if self._where.pop(job) != worker:
                    raise ValueError(f"job {job} was not given to worker {worker}")
            sessions = self._jobs.pop(job)[0]
        except Exception as exc:  # it died, or what it sent is not a result
            log.info("index worker %d: %r", worker, message if isinstance(message, BaseException) else exc)
            self._fail(worker)
            return
        if sessions is not None:
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
        """When `worker` must have answered its oldest job in flight (the lock held)."""
        oldest = min(job for job, w in self._where.items() if w == worker)
        sessions = self._jobs[oldest][0]
        size = JOB_SESSIONS if sessions is None else len(sessions)
        return self._since[worker] + JOB_SECONDS + SESSION_SECONDS * size

    def _fail(self, worker: int) -> None:
        log.info("an index worker stopped; preparing the rest of the sessions in this process")
        with contextlib.suppress(OSError):
            self._procs[worker].kill()
        with self._lock:
            self._broken = True
            self._redo_here()

    def _redo_here(self) -> None:
        """The sessions of every job given to a worker, prepared here; texts to embed are left to the
        embedding pass (the lock held)."""
        for job in list(self._where):
            sessions = self._jobs.pop(job)[0]
            if sessions is not None:
                self._done[job] = _prepare_here(sessions)
        self._where.clear()
        for job in self._embeds:
            self._jobs.pop(job, None)
        self._embeds.clear()

    def close(self) -> None:
        """Stop the workers: they finish at once when no job is left (else they are killed: the writer
        stopped early and their results are of no use)."""
        with self._lock:
            busy = bool(self._where)
        for outbox in self._outboxes:
            outbox.put(None)
        for proc in self._procs:
            try:
                proc.wait(timeout=5 if not busy else 0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        for thread in self._threads:
            thread.join(timeout=5)  # each ends at its pipe's EOF or error, now that its worker is gone
        self._outboxes, self._procs, self._threads = [], [], []


def texts_of(outcomes: list[Outcome], models: Models) -> dict[str, dict[bytes, str]]:
    """What a worker embeds for these sessions, by model kind ("static", "card"): content hash -> text."""
    prepared = [o for o in outcomes if isinstance(o, PreparedSession)]
    cards = {p.columns["card_hash"]: p.columns["card_text"] for p in prepared if p.columns["card_hash"]}
    texts: dict[str, dict[bytes, str]] = {}
    if models.static_id:
        chunks = {row[9]: row[8] for p in prepared for row in p.chunks if row[9] is not None}
        texts["static"] = {**chunks, **cards}  # the static model embeds cards too
    if models.card:
        texts["card"] = cards
    return texts


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


def ahead(
    parts: Iterator[tuple[list[Session], dict[str, str], int | None]],
    pool: Pool | None,
    prepared: Callable[[int], None] | None = None,
) -> Iterator[Any]:
    """`parts` as (sessions, marks, done, outcomes), with the next part read and handed to the workers
    before this one is given to the writer: the workers prepare it while the writer stores. Without a
    pool, outcomes is None (the writer prepares each session itself). `prepared(n)`: n more sessions
    were prepared (`Pool.outcomes`)."""
    if pool is None:
        for sessions, marks, done in parts:
            yield sessions, marks, done, None
        return
    pending: deque[tuple[list[Session], dict[str, str], int | None, list[int]]] = deque()
    for sessions, marks, done in parts:
        pending.append((sessions, marks, done, pool.submit(sessions)))
        if len(pending) > 1:
            sessions, marks, done, ticket = pending.popleft()
            yield sessions, marks, done, pool.outcomes(ticket, prepared)
    while pending:
        sessions, marks, done, ticket = pending.popleft()
        yield sessions, marks, done, pool.outcomes(ticket, prepared)


def _groups(sessions: list[Session]) -> Iterator[list[Session]]:
    # By count only: the part they come from is bounded by bytes already (sync.BATCH_BYTES).
    for start in range(0, len(sessions), JOB_SESSIONS):
        yield sessions[start : start + JOB_SESSIONS]


def _prepare_here(sessions: list[Session], *, tokens: bool = True) -> list[Outcome]:
    from recollect.sources.guard import describe

    out: list[Outcome] = []
    for session in sessions:
        try:
            out.append(prepare_session(session, tokens=tokens))
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

    def make(self, texts: dict[str, dict[bytes, str]]) -> dict[str, dict[bytes, np.ndarray]]:
        """Vectors of `texts` (`texts_of`) by model id."""
        made: dict[str, dict[bytes, np.ndarray]] = {}
        if self.static is not None and "static" in texts:
            made[self.static.model_id] = self._embed(self.static, texts["static"])
        if self.card is not None and "card" in texts:
            made[self.card.model_id] = self._embed(self.card, texts["card"])
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
            number, sessions, texts = job
            outcomes = _prepare_here(sessions) if sessions is not None else []
            results.send((number, outcomes, made.make(texts if texts is not None else texts_of(outcomes, made.models))))
    except (EOFError, OSError, KeyboardInterrupt):
        return  # the writer stopped (killed, or done): nothing here is worth keeping
    except Exception:  # the writer sees the pipe close and prepares the rest itself
        raise SystemExit(1) from None


if __name__ == "__main__":  # a worker of `Pool`: jobs on stdin, results on the pipe its argument names
    _serve(Connection(os.dup(0), writable=False), Connection(int(sys.argv[1]), readable=False))
