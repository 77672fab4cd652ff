"""Reconciling sync: make the index match what the sources hold now.

Every pass compares each source's current membership and watermarks with the index. New and
changed sessions are read and replaced whole (a removal inside a session can therefore never
leave stale text behind); sessions that vanished are dropped with all their rows. Work is
committed in small batches, each one atomic, so a sync killed half-way leaves a consistent index
that the next pass completes, with no duplicates.

A source that cannot be read (missing, locked, damaged) is reported and left as it was in the
index: an unreadable store never empties the index. Never writes a source.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from recollect.index import derivations, prepare, queries, vectors
from recollect.index.batches import EMPTY, REFUSED, Plan
from recollect.index.batches import store_batch as _store_batch  # a module global: tests wrap it
from recollect.index.progress import Bar, Progress
from recollect.index.rows import delete_sessions
from recollect.index.rows import insert_session as insert_session  # where callers have imported it from
from recollect.index.store import BUSY_TIMEOUT_MS, IndexUnavailable, Lease, holder_says, now_ms, transaction
from recollect.model import ScanResult, Session, SessionStamp, SourceError
from recollect.sources import Source, SourceSpec, open_source
from recollect.text.plain import counted

BATCH_SESSIONS = 50
# Sessions read are stored (and let go) once their text adds up to this, whatever their number: a batch
# of 50 sessions with long tool outputs held hundreds of MB at once. Memory follows bytes, not sessions.
BATCH_BYTES = 8_000_000
LEASE_WAIT_SECONDS = 60.0
LOCK_WAIT_SECONDS = 600.0  # `--wait`: how long to wait for another process's write lock on the index
NO_WAIT_LOCK_MS = 200  # without --wait: a write lock held longer than this is another process's sync

_Part = tuple[list[Session], dict[str, str], int | None]  # sessions read, their marks, sessions done


@dataclass
class SourceReport:
    id: str
    kind: str
    location: str
    status: str = "ok"  # ok | missing | locked | corrupt | unreadable | disabled
    message: str = ""
    sessions: int = 0
    added: int = 0
    updated: int = 0
    removed: int = 0
    malformed: int = 0
    # The session holding most of `malformed` and how many ("<id>: <n>"), so the count says where to look.
    malformed_most: str = ""
    skipped_workers: int = 0
    # What the store holds that is no session (`Session.not_a_session`): "<id>: <why>", not counted in `sessions`.
    not_sessions: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # Sessions that could not be read or stored ("<id>: <why>"); skipped until their store changes them.
    bad: list[str] = field(default_factory=list)


@dataclass
class SyncReport:
    sources: list[SourceReport] = field(default_factory=list)
    removed_sources: list[str] = field(default_factory=list)
    seconds: float = 0.0
    lease_busy: bool = False  # another process was syncing; nothing was written by this one
    busy_with: str = ""  # who held the lease then (store.holder_says)
    semantic: vectors.BackfillReport | None = None  # None: semantic search off or unavailable
    cards: vectors.BackfillReport | None = None  # the card encoder's pass; None when it is off
    vectors_dropped: int = 0  # vectors of other models, or of text no longer indexed
    rederived: int = 0  # sessions read again because a rule that shaped them changed (index/derivations.py)

    def add_embedded(self, later: SyncReport) -> None:
        """Count in the embedding work of a `later` pass that read no store (`read_sources=False`)."""
        for attr in ("semantic", "cards"):
            mine, theirs = getattr(self, attr), getattr(later, attr)
            if theirs is not None:
                if mine is None:
                    setattr(self, attr, theirs)
                else:
                    mine.embedded += theirs.embedded
                    mine.pending = theirs.pending
        self.vectors_dropped += later.vectors_dropped
        self.seconds += later.seconds

    @property
    def changed(self) -> int:
        return sum(s.added + s.updated + s.removed for s in self.sources)

    def summary(self) -> str:
        if self.lease_busy:
            return (
                f"{self.busy_with or 'another process'} is writing to the index, so this run wrote "
                "nothing: that one brings it up to date; 'recollect index --wait' waits for it, then syncs"
            )
        parts = []
        for s in self.sources:
            if s.status != "ok":
                parts.append(f"{s.id}: {s.status} ({s.message})")
                continue
            changes = f"+{s.added} new, {s.updated} updated, -{s.removed} removed"
            text = f"{s.id}: {counted(s.sessions, 'session')} ({changes})"
            if s.malformed:
                text += f", {counted(s.malformed, 'malformed record')} skipped or mended"
                text += queries.malformed_where(s.malformed, s.malformed_most)
            if s.not_sessions:
                text += f", {counted(len(s.not_sessions), 'file')} left out as no session (first: {s.not_sessions[0]})"
            refused = [b for b in s.bad if b.partition(": ")[2].startswith(REFUSED)]
            unreadable = [b for b in s.bad if b not in refused]
            # The count ends each clause: no verb has to agree with it ("1 session ... were").
            for said, bad in (("refused by the index, so skipped", refused), ("skipped as unreadable", unreadable)):
                if bad:
                    first = bad[0].replace(REFUSED, "", 1)
                    text += f", {said} until changed: {counted(len(bad), 'session')} (first: {first})"
            if s.problems:  # the first says what; the count says whether there is more to look at
                more = f" (+{len(s.problems) - 1} more)" if len(s.problems) > 1 else ""
                text += f"; note: {s.problems[0]}{more}"
            parts.append(text)
        if not parts:
            parts.append("no session store found ('recollect doctor' says where it looked, and how to add one)")
        if self.rederived:
            parts.append(f"{counted(self.rederived, 'session')} read again: a rule that indexes them changed")
        embedded = sum(r.embedded for r in (self.semantic, self.cards) if r is not None)
        if embedded:
            parts.append(f"{embedded} new texts embedded")
        return "; ".join(parts) + f" in {self.seconds:.2f}s"


class _Helpers:
    """What makes a whole index faster, started when it pays: worker processes that prepare sessions
    and their vectors (`index/prepare.py`) when there are many to read, else a thread that embeds the
    new sessions' cards while the sync reads on. Neither writes the index."""

    def __init__(self, embedder: Any, card_encoder: Any, *, whole: bool) -> None:
        self.embedder, self.card_encoder, self.whole = embedder, card_encoder, whole
        self.pool: prepare.Pool | None = None
        self.prefetch: vectors.Prefetch | None = None
        self.made: dict[str, dict[bytes, Any]] = {}  # by model: vectors the workers made, once they stopped

    def pool_for(self, sessions: int) -> prepare.Pool | None:
        """The worker pool for a source with `sessions` to read (started once per sync), or None."""
        if self.pool is None and self.whole:
            workers = prepare.worker_count(sessions)
            if workers:
                self.pool = prepare.Pool(workers, prepare.Models.of(self.embedder, self.card_encoder))
        if self.pool is None and self.whole and self.card_encoder is not None and self.prefetch is None:
            self.prefetch = vectors.Prefetch(self.card_encoder)
        return self.pool

    def stored(self, conn: sqlite3.Connection, inserted: list[int]) -> None:
        """The sessions `inserted` were just stored: their cards go to the card thread, unless workers
        started (for a later, larger source), which embed every card themselves."""
        if self.pool is None:
            _prefetch_cards(conn, self.prefetch, inserted)

    def stop_workers(self) -> None:
        """Every session is stored: take the vectors the workers made (waiting for those still being made,
        of the texts the writer prepared) and stop them, so that they do not hold their memory (~250 MB
        each) through the embedding passes."""
        if self.pool is not None:
            self.pool.drain()
            self.made, self.pool.ready = self.pool.ready, {}
            self.pool.close()
            self.pool = None

    def ready(self, model: str, progress: vectors.Progress | None) -> dict[bytes, Any] | None:
        """Vectors of `model` made ahead, packed, by content hash (None: none)."""
        found: dict[bytes, Any] = {}
        if self.prefetch is not None and model == self.prefetch.embedder.model_id:
            found.update(self.prefetch.collect(progress))
        found.update(self.made.pop(model, {}))
        return found or None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
        if self.prefetch is not None:
            self.prefetch.close()


def _sync_source(
    conn: sqlite3.Connection,
    source: Source,
    report: SourceReport,
    lease: Lease,
    progress: Progress | None,
    helpers: _Helpers,
) -> None:
    row = conn.execute("SELECT location FROM source WHERE id = ?", (source.id,)).fetchone()
    known: str | None = row[0] if row else None  # where the store was the last time
    try:
        scan = source.scan()
    except SourceError as exc:
        report.status, report.message = exc.reason, str(exc)
        # A store not found where it is said to be (a mistyped OPENCODE_DB, say) is no move: what the index
        # holds of the one it knows stays, and so does its location, so the next right run changes nothing.
        _record_source(conn, source, report, known or str(source.location))
        return
    if known is not None and known != str(source.location):  # only once the new store is there to re-index
        _forget_moved_store(conn, source, report, lease, known)
    report.problems.extend(scan.problems)
    plan = _plan(conn, source, scan, report)
    # A session the scan could not read, or could not list (a folder it could not read), is not gone.
    listed = scan.stamps.keys() | scan.withheld
    vanished = [] if scan.partial else [sid for native, (sid, _) in plan.indexed.items() if native not in listed]
    if vanished:
        lease.renew()
        with transaction(conn):
            delete_sessions(conn, vanished)
        report.removed += len(vanished)

    bar = Bar(source.id, len(plan.todo), progress)
    pool = helpers.pool_for(bar.total)
    # The bar moves a session at a time: as the workers prepare them, or, without workers, as each is stored.
    parts = prepare.ahead(_parts(source, plan.todo, report), pool, bar.add if pool else None)
    for sessions, marks, done, outcomes in parts:
        lease.renew()
        with transaction(conn):
            inserted = _store_batch(conn, source, sessions, marks, plan, report, outcomes, None if pool else bar.add)
        if not pool and sessions:
            bar.add(1)  # the part's last session: told once committed, so a batch's end on the bar is searchable
        helpers.stored(conn, inserted)
        if done is not None:
            bar.reach(done)  # those asked for that never came back (deleted meanwhile) count as done
    _note_unreadable(source, report)
    _record_source(conn, source, report, str(source.location))


def _parts(source: Source, todo: list[SessionStamp], report: SourceReport) -> Iterator[_Part]:
    """The sessions of `todo` as read, in parts to store: at most BATCH_SESSIONS, and cut as soon as their
    text adds up to BATCH_BYTES. Each part comes with the marks it stores under; the last part of a
    batch also carries the sessions asked for that never came back (deleted, unreadable, bad), and how
    many of `todo` are done with it. A store that fails to read ends the parts (reported)."""
    for start in range(0, len(todo), BATCH_SESSIONS):
        batch = todo[start : start + BATCH_SESSIONS]
        marks = {stamp.id: stamp.watermark for stamp in batch}
        given: set[str] = set()
        sessions: list[Session] = []
        held = 0
        try:
            for session in source.read_sessions(list(marks)):
                sessions.append(session)
                held += session_bytes(session)
                if held >= BATCH_BYTES:  # store what was read so far, under the marks of those sessions only
                    part = {s.id: marks[s.id] for s in sessions if s.id in marks}
                    given.update(part)
                    yield sessions, part, None
                    sessions, held = [], 0
        except SourceError as exc:
            report.status, report.message = exc.reason, str(exc)
            return
        yield sessions, {i: m for i, m in marks.items() if i not in given}, min(start + len(batch), len(todo))


def session_bytes(session: Session) -> int:
    """About how much memory a read session holds: the characters of its texts and tool outputs."""
    total = 0
    for message in session.messages:
        for part in message.parts:
            total += len(part.text) + len(part.tool_output or "") + len(part.tool_error or "") + 64
            if part.tool_input is not None:
                total += len(part.tool_input) if isinstance(part.tool_input, str) else 256
    return total


def _prefetch_cards(conn: sqlite3.Connection, prefetch: vectors.Prefetch | None, inserted: list[int]) -> None:
    """Hand the cards of the sessions just stored that have no vector yet to the prefetch, to embed them
    while the next part is stored."""
    if prefetch is not None and inserted:
        prefetch.submit(
            conn.execute(
                f"SELECT card_hash, card_text FROM session s WHERE sid IN ({','.join('?' * len(inserted))}) "
                "AND card_hash IS NOT NULL AND NOT EXISTS "
                "(SELECT 1 FROM vector v WHERE v.hash = s.card_hash AND v.model = ?)",
                [*inserted, prefetch.embedder.model_id],
            ).fetchall()
        )


def _forget_moved_store(
    conn: sqlite3.Connection, source: Source, report: SourceReport, lease: Lease, known: str
) -> None:
    """Same source id, different store than the one at `known`: never reconcile the wrong database into
    this one's rows."""
    lease.renew()
    with transaction(conn):
        sids = [r[0] for r in conn.execute("SELECT sid FROM session WHERE source_id = ?", (source.id,))]
        delete_sessions(conn, sids)
        conn.execute("DELETE FROM skipped WHERE source_id = ?", (source.id,))
        report.problems.append(f"store moved from {known}; its {len(sids)} sessions were re-indexed")


def _plan(conn: sqlite3.Connection, source: Source, scan: ScanResult, report: SourceReport) -> Plan:
    """Which sessions to read: new ones, and those whose watermark moved since they were indexed or
    skipped (a bad session is retried as soon as its store says it changed)."""
    stamps = scan.stamps
    indexed = {
        native: (sid, mark)
        for sid, native, mark in conn.execute(
            "SELECT sid, native_id, watermark FROM session WHERE source_id = ?", (source.id,)
        )
    }
    skipped = {
        native: (mark, reason)
        for native, mark, reason in conn.execute(
            "SELECT native_id, watermark, reason FROM skipped WHERE source_id = ?", (source.id,)
        )
    }
    todo = [
        stamp
        for native, stamp in stamps.items()
        if indexed.get(native, (0, None))[1] != stamp.watermark and skipped.get(native, (None,))[0] != stamp.watermark
    ]
    # Newest first: during a long first index the sessions people look for first are searchable first.
    todo.sort(key=lambda stamp: -stamp.updated)
    report.skipped_workers = sum(1 for native, (_, why) in skipped.items() if native in stamps and why == "worker")
    again = {stamp.id for stamp in todo}  # those read again say for themselves
    report.not_sessions = [
        f"{native}: {why[len(EMPTY) :]}"
        for native, (_, why) in skipped.items()
        if native in stamps and why.startswith(EMPTY) and native not in again
    ]
    gone_skipped = [] if scan.partial else [n for n in skipped if n not in stamps and n not in scan.withheld]
    if gone_skipped:
        with transaction(conn):
            conn.executemany(
                "DELETE FROM skipped WHERE source_id = ? AND native_id = ?", [(source.id, n) for n in gone_skipped]
            )
    parents = {native: stamp.parent_id for native, stamp in stamps.items()}
    return Plan(indexed=indexed, skipped=skipped, todo=todo, parents=parents)


def _note_unreadable(source: Source, report: SourceReport) -> None:
    unreadable = getattr(source, "unreadable", {})
    if unreadable:
        first = next(iter(unreadable.items()))
        report.problems.append(
            f"unreadable this time, so kept as indexed: {counted(len(unreadable), 'session')} "
            f"(first: {first[0]}: {first[1]}), each read again on the next sync"
        )


def _record_source(conn: sqlite3.Connection, source: Source, report: SourceReport, location: str) -> None:
    """Store the source's state at `location`, with its session and malformed counts as the index now holds them."""
    row = conn.execute(
        "SELECT count(*), coalesce(sum(malformed), 0) FROM session WHERE source_id = ?", (source.id,)
    ).fetchone()
    report.sessions, report.malformed = row[0], row[1]
    report.malformed_most = queries.malformed_most(conn, source.id).get(source.id, "")
    report.bad = [
        f"{native}: {reason.removeprefix('bad: ')}"
        for native, reason in conn.execute(
            "SELECT native_id, reason FROM skipped WHERE source_id = ? AND reason LIKE 'bad:%' ORDER BY native_id",
            (source.id,),
        )
    ]
    conn.execute(
        "INSERT INTO source(id, kind, location, time_synced, status, message, malformed, sessions) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET kind=excluded.kind, "
        "location=excluded.location, time_synced=excluded.time_synced, status=excluded.status, "
        "message=excluded.message, malformed=excluded.malformed, sessions=excluded.sessions",
        (
            source.id,
            source.kind,
            location,
            now_ms(),
            report.status,
            report.message,
            report.malformed,
            report.sessions,
        ),
    )


def sync(conn: sqlite3.Connection, specs: list[SourceSpec], *, wait: bool = False, **options: Any) -> SyncReport:
    """Bring the index up to date (see `_sync` for the options).

    A write lock another process holds on the index past SQLite's busy timeout (10 s) is an
    `IndexUnavailable` with one line saying what to do, never a raw "database is locked". With
    `wait`, the sync waits for that lock (up to LOCK_WAIT_SECONDS) as it waits for the lease."""
    if wait:
        conn.execute(f"PRAGMA busy_timeout={int(LOCK_WAIT_SECONDS * 1000)}")
    try:
        return _sync(conn, specs, wait=wait, **options)
    except sqlite3.OperationalError as exc:
        if "locked" not in str(exc) and "busy" not in str(exc):
            raise
        raise IndexUnavailable(
            "the index is locked by another process that is writing to it; retry in a moment, or run "
            "'recollect index --wait' to wait for it"
        ) from exc
    finally:
        if wait:
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")


def _sync(
    conn: sqlite3.Connection,
    specs: list[SourceSpec],
    *,
    progress: Progress | None = None,
    wait: bool = False,
    embedder: Any = None,
    card_encoder: Any = None,
    prune_vectors: bool = True,
    embed_batches: int | None = None,
    read_sources: bool = True,
    locked_is_busy: bool = False,
) -> SyncReport:
    """Bring the index up to date with every enabled source in `specs`, then embed what is new: chunks
    and cards with `embedder`, cards with `card_encoder`. With `prune_vectors`, vectors of other
    models and of text no longer indexed are dropped. `embed_batches` caps the embedding work (a
    search's sync must not embed a whole history: what is left waits for `recollect index`). Without
    `read_sources`, no store is scanned: only the embedding passes run (cards that gained a summary).
    With `locked_is_busy` (a search's sync), another process's write lock on the index skips the sync
    as a held lease does, at once."""
    started = time.perf_counter()
    report = SyncReport()
    lease = Lease(conn)
    if not _acquire(lease, wait, locked_is_busy and not wait):
        report.lease_busy = True
        report.busy_with = holder_says(lease.holder_info()[0])
        report.seconds = time.perf_counter() - started
        return report
    # A whole index prepares sessions and embeds them on other cores while it reads on (a search's
    # bounded sync embeds too little for that to pay).
    helpers = _Helpers(embedder, card_encoder, whole=embed_batches is None)
    try:
        if read_sources:
            if derivations.behind(conn):  # this recollect derives some sessions otherwise: read those again
                with transaction(conn):
                    report.rederived = derivations.rederive(conn)
            _drop_unconfigured(conn, specs, report)
            _sync_sources(conn, specs, report, lease, progress, helpers)
        helpers.stop_workers()
        changed = report.changed > 0 or bool(report.removed_sources) or not read_sources
        passes = [
            ("semantic", "embedding texts", embedder, False),
            ("cards", "embedding session cards", card_encoder, True),
        ]
        embedded_any = False
        for attr, label, model, cards_only in passes:
            if model is None:
                continue
            backfill = vectors.BackfillReport(model=model.model_id)
            if vectors.backfill_needed(conn, model.model_id, changed):
                embed_progress = (lambda done, total, label=label: progress(label, done, total)) if progress else None
                limit = None if embed_batches is None else embed_batches * getattr(model, "batch", vectors.BATCH)
                # Made ahead by the workers, or by the card thread while the static pass ran: collect them.
                ready = helpers.ready(model.model_id, embed_progress)
                backfill = vectors.backfill(
                    conn,
                    model,
                    renew=lease.renew,
                    progress=embed_progress,
                    cards_only=cards_only,
                    limit=limit,
                    ready=ready,
                )
                embedded_any = True
            setattr(report, attr, backfill)
        models = [m.model_id for m in (embedder, card_encoder) if m is not None]
        if prune_vectors and models and (embedded_any or vectors.prune_needed(conn, models)):
            report.vectors_dropped = vectors.prune(conn, models)
    finally:
        helpers.close()
        lease.release()
    report.seconds = time.perf_counter() - started
    return report


def _acquire(lease: Lease, wait: bool, locked_is_busy: bool) -> bool:
    """Take the writer lease, waiting up to LEASE_WAIT_SECONDS with `wait`; False if another holds it.
    With `locked_is_busy`, a write lock another process holds on the index (a sync of an older recollect,
    a `sqlite3` shell in a transaction) is as busy as a held lease: a search's sync lets it read the index
    as it is at once (WAL readers do not block) instead of waiting SQLite's busy timeout and failing."""
    deadline = time.monotonic() + (LEASE_WAIT_SECONDS if wait else 0)
    while not _try_lease(lease, locked_is_busy):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.2)
    return True


def _try_lease(lease: Lease, locked_is_busy: bool) -> bool:
    if not locked_is_busy:
        return lease.acquire()
    lease.conn.execute(f"PRAGMA busy_timeout={NO_WAIT_LOCK_MS}")
    try:
        return lease.acquire()
    except sqlite3.OperationalError as exc:
        if "locked" not in str(exc) and "busy" not in str(exc):
            raise
        return False
    finally:
        lease.conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")


def _drop_unconfigured(conn: sqlite3.Connection, specs: list[SourceSpec], report: SyncReport) -> None:
    """A source that is no longer configured (or was turned off) leaves the index."""
    configured = {s.id for s in specs if s.enabled}
    stale = [r[0] for r in conn.execute("SELECT DISTINCT source_id FROM session")]
    stale += [r[0] for r in conn.execute("SELECT id FROM source")]
    for source_id in sorted(set(stale) - configured):
        with transaction(conn):
            sids = [r[0] for r in conn.execute("SELECT sid FROM session WHERE source_id = ?", (source_id,))]
            delete_sessions(conn, sids)
            conn.execute("DELETE FROM source WHERE id = ?", (source_id,))
            conn.execute("DELETE FROM skipped WHERE source_id = ?", (source_id,))
        report.removed_sources.append(source_id)


def _sync_sources(
    conn: sqlite3.Connection,
    specs: list[SourceSpec],
    report: SyncReport,
    lease: Lease,
    progress: Progress | None,
    helpers: _Helpers,
) -> None:
    for spec in specs:
        if not spec.enabled:
            continue
        source_report = SourceReport(id=spec.id, kind=spec.kind, location=str(spec.path))
        report.sources.append(source_report)
        try:
            source = open_source(spec)
        except (ValueError, SourceError) as exc:
            source_report.status, source_report.message = "unreadable", str(exc)
            continue
        _sync_source(conn, source, source_report, lease, progress, helpers)
