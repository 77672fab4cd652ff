"""Vectors beside the sidecar, keyed by content: search by meaning over the same rows as lexical search.

A chunk of conversational text (what a person typed, what the model said, compaction summaries)
and each session card carry a content hash; the `vector` table maps (hash, model id) to a slot
of that model's vector file. Each vector is stored once, in that file, as int8 with one float32
scale (`pack`): dim + 4 bytes a slot. The file (`<index>.vectors/<index id>-<model>-<epoch>.slots`)
is append-only and memory-mapped by a search, so a one-shot search reads no vector through SQLite.
Keying by content means a session that is re-read after a change never re-embeds text it already
had, identical text across near-duplicate sessions is embedded once, and vectors of another model
are simply never looked up (they are dropped by the next index).

Crash safety: slots are written (and synced) before the transaction that records them commits; the
number of committed slots is kept in `meta`, and a writer first cuts the file back to it, so slots of
a killed pass are never read and are written again. A file found shorter than its committed slots
(deleted, cut) drops that model's vectors: the next index embeds them again (the index is derived).

Embedding is a pass after the sync ("backfill"): whatever text has no vector for the current
model gets one, in batches, under the writer lease. A search never builds the model or embeds
documents; it embeds only the query.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from recollect.config import ensure_private_dir
from recollect.index import slots

if TYPE_CHECKING:  # numpy is imported only when vectors are used: it costs the CLI's start-up ~0.2 s
    import numpy as np

    from recollect.embed.base import Embedder

log = logging.getLogger(__name__)

# Evidence classes whose meaning is worth embedding; tool inputs and outputs are matched by words. Not
# reasoning (2026-12-01): 60% of the vectors of 62 real Claude Code transcripts, and the eval without them
# is equal or better in every category (MRR 0.908 -> 0.909, cross-lingual 0.461 -> 0.472); it stays
# searchable by its words.
EMBED_CLASSES = ("user_text", "assistant_text", "summary", "subtask")
EMBED_CHARS = 1_000  # the head of a chunk: the static model averages, so more text blurs it
BATCH = 512  # texts a transaction writes (each ends with an fdatasync of the vector file)
# Texts embedded between two moves of the progress bar: a batch of 512 took 0.1-0.5 s on a loaded machine, so
# the bar jumped; the static model embeds one text at a time and a remote one 64 a request, so the CPU is the
# same (docs/benchmarks.md). An encoder whose vectors depend on the batch (the full one) sets a smaller `batch`.
PROGRESS_STEP = 64

Progress = Callable[[int, int], None]


def content_hash(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).digest()


def embed_text(text: str) -> str:
    return text[:EMBED_CHARS]


def card_text(title: str, first_human: str, last_outcome: str, identifiers: str) -> str:
    """What a session is about, in a few lines: the card's vector is made from this."""
    idents = " ".join(identifiers.split()[:20])
    return "\n".join(x for x in (title, first_human, last_outcome, idents) if x)[:EMBED_CHARS]


def packed(vectors: np.ndarray) -> np.ndarray:
    """Each row as int8 times its own float32 scale (max |x| / 127), the scale's 4 bytes last: an
    (n, dim + 4) int8 array, the layout of a slot. A unit vector loses at most half a step (~0.004) a
    component; the eval ranks the same."""
    import numpy as np

    vecs = np.asarray(vectors, dtype=np.float32)
    peak = np.abs(vecs).max(axis=1) if vecs.size else np.zeros(len(vecs), np.float32)
    scales = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(vecs / scales[:, None]), -127, 127).astype(np.int8)
    return np.concatenate([q, scales.reshape(-1, 1).view(np.int8)], axis=1)


def pack(vectors: np.ndarray) -> list[bytes]:
    """`packed`, one blob a row."""
    rows = packed(vectors)
    return [rows[i].tobytes() for i in range(len(rows))]


def unpack(blobs: list[bytes], dim: int) -> tuple[np.ndarray, np.ndarray]:
    """(int8 rows, float32 scales) from `pack`'s blobs; a float32 blob of an older index is
    quantized on the way."""
    import numpy as np

    packed = dim + 4
    if all(len(b) == packed for b in blobs):
        raw = np.frombuffer(b"".join(blobs), dtype=np.uint8).reshape(len(blobs), packed)
        return raw[:, :dim].view(np.int8).copy(), raw[:, dim:].copy().view(np.float32).reshape(-1)
    rows = [np.frombuffer(b, dtype=np.int8) if len(b) == packed else None for b in blobs]
    q = np.empty((len(blobs), dim), np.int8)
    scales = np.empty(len(blobs), np.float32)
    for i, (blob, row) in enumerate(zip(blobs, rows, strict=True)):
        repacked = blob if row is not None else pack(np.frombuffer(blob, dtype=np.float32)[None, :])[0]
        q[i] = np.frombuffer(repacked[:dim], dtype=np.int8)
        scales[i] = np.frombuffer(repacked[dim:], dtype=np.float32)[0]
    return q, scales


def bump_generation(conn: sqlite3.Connection) -> None:
    """Mark the vectors (or the rows they map to) changed: per-process matrices reload."""
    conn.execute(
        "INSERT INTO meta(key, value) VALUES ('vector_generation', '1') "
        "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
    )


def generation(conn: sqlite3.Connection) -> str:
    row = conn.execute("SELECT value FROM meta WHERE key = 'vector_generation'").fetchone()
    return str(row[0]) if row else "0"


@dataclass
class BackfillReport:
    model: str
    embedded: int = 0
    pending: int = 0  # texts left without a vector by a pass with a limit


class Prefetch:
    """Embeds texts on a worker thread while the caller goes on reading sessions. The full encoder's
    matrix work releases the GIL, so on a second core the card pass of a first index mostly overlaps
    the sync instead of following it. Results are only vectors: the caller writes them under its lease."""

    def __init__(self, embedder) -> None:  # type: ignore[no-untyped-def]
        from concurrent.futures import ThreadPoolExecutor

        self.embedder = embedder
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="recollect-embed")
        self._jobs: list[tuple[list[bytes], object]] = []
        self._seen: set[bytes] = set()

    def submit(self, items: list[tuple[bytes, str]]) -> None:
        items = [(h, t) for h, t in items if h not in self._seen]
        if items:
            self._seen.update(h for h, _ in items)
            texts = [embed_text(t) for _, t in items]
            self._jobs.append(([h for h, _ in items], self._pool.submit(self.embedder.embed, texts)))

    def collect(self, progress: Progress | None = None) -> dict[bytes, np.ndarray]:
        """Every vector, packed (`packed`), by content hash, once its job is done; a failed job is left
        to the pass."""
        ready: dict[bytes, np.ndarray] = {}
        total = sum(len(hashes) for hashes, _ in self._jobs)
        for hashes, future in self._jobs:
            if progress:
                progress(len(ready), total)
            try:
                vectors = future.result()  # type: ignore[attr-defined]
            except Exception as exc:
                log.info("prefetched embedding failed (%s); the embedding pass redoes it", exc)
                continue
            ready.update(zip(hashes, packed(vectors), strict=True))
        if progress:
            progress(total, total)
        self.close()
        return ready

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._jobs.clear()


def backfill(
    conn: sqlite3.Connection,
    embedder: Embedder,
    *,
    renew: Callable[[], None] | None = None,
    progress: Progress | None = None,
    cards_only: bool = False,
    limit: int | None = None,
    ready: dict[bytes, np.ndarray] | None = None,
) -> BackfillReport:
    """Embed every chunk and card text (with `cards_only`, every card) that has no vector for
    `embedder.model_id`; with `limit`, at most that many (the rest is left `pending` for a later pass).
    Vectors in `ready` (made ahead with the same embedder and packed, by a `Prefetch` or the index
    workers) are written, not made again, and taken out of `ready` as they are.

    What the pass holds is one batch: the texts to embed wait in a temporary table (SQLite keeps it in
    its temporary file, a few MB of cache in memory) and are read back a batch at a time. Held in a list,
    with every ready vector stacked at once, they grew the writer by ~18 MB per 1,000 sessions."""
    from recollect.index.store import transaction

    model = embedder.model_id
    report = BackfillReport(model=model)
    index_id(conn)  # made now, outside the transactions below (their slot files are named after it)
    with transaction(conn):
        if slots.check(conn, model):  # the vector file lost slots: those vectors are made again
            bump_generation(conn)
    chunks = "" if cards_only else "SELECT c.hash AS hash, c.text AS text FROM chunk c WHERE c.hash NOTNULL UNION ALL"
    conn.execute(f"DROP TABLE IF EXISTS temp.{_TODO}")
    # In the order of GROUP BY hash, as rowids: the slots are written in that order, whatever the batches.
    conn.execute(
        f"CREATE TEMP TABLE {_TODO} AS SELECT hash, text FROM ({chunks}"
        " SELECT s.card_hash AS hash, s.card_text AS text FROM session s WHERE s.card_hash IS NOT NULL"
        ") t WHERE NOT EXISTS (SELECT 1 FROM vector v WHERE v.hash = t.hash AND v.model = ?) GROUP BY hash",
        (model,),
    )
    try:
        if ready:
            report.embedded += _write_ready(conn, model, ready)
        _embed_todo(conn, embedder, report, renew, progress, limit)
    finally:
        conn.execute(f"DROP TABLE IF EXISTS temp.{_TODO}")
    if report.pending:
        return report
    with transaction(conn):
        conn.execute(
            "INSERT INTO meta(key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (f"vectors_complete:{model}",),
        )
    return report


_TODO = "embed_todo"  # the texts an embedding pass has left to write (`backfill`), in a temporary table
READY_ROWS = 4096  # ready vectors written by one `slots.append` (~1-3 MB): all of them at once were ~160 MB


def _todo_page(conn: sqlite3.Connection, columns: str, after: int, rows: int) -> list[tuple]:
    return conn.execute(
        f"SELECT rowid, {columns} FROM temp.{_TODO} WHERE rowid > ? ORDER BY rowid LIMIT ?", (after, rows)
    ).fetchall()


def _write_ready(conn: sqlite3.Connection, model: str, ready: dict[bytes, np.ndarray]) -> int:
    """Write the vectors of `ready` that the todo table asks for, in its order, in one transaction, and
    take them out of both; returns how many."""
    import numpy as np

    from recollect.index.store import transaction

    written, after = 0, 0
    with transaction(conn):
        while page := _todo_page(conn, "hash", after, READY_ROWS):
            after = page[-1][0]
            found = [(rowid, bytes(h)) for rowid, h in page if bytes(h) in ready]
            if not found:
                continue
            slots.append(conn, model, [h for _, h in found], np.stack([ready.pop(h) for _, h in found]))
            conn.executemany(f"DELETE FROM temp.{_TODO} WHERE rowid = ?", [(rowid,) for rowid, _ in found])
            written += len(found)
        if written:
            bump_generation(conn)
    return written


def _embed_todo(
    conn: sqlite3.Connection,
    embedder: Embedder,
    report: BackfillReport,
    renew: Callable[[], None] | None,
    progress: Progress | None,
    limit: int | None,
) -> None:
    """Embed the texts left in the todo table (at most `limit`), a batch a transaction."""
    import numpy as np

    from recollect.index.store import transaction

    model = embedder.model_id
    total = conn.execute(f"SELECT count(*) FROM temp.{_TODO}").fetchone()[0]
    if limit is not None and total > limit:
        report.pending = total - limit
        total = limit
    step = getattr(embedder, "batch", BATCH)  # a slow encoder renews the writer lease more often
    ahead = report.embedded  # made by a prefetch: the bar goes on from there rather than restarting
    if progress:
        progress(ahead, ahead + total)
    move = min(step, PROGRESS_STEP)
    after = 0
    for start in range(0, total, step):
        page = _todo_page(conn, "hash, text", after, min(step, total - start))
        after = page[-1][0]
        parts = []
        for at in range(0, len(page), move):
            parts.append(embedder.embed([embed_text(text) for _, _, text in page[at : at + move]]))
            if progress and at + move < len(page):  # the last part is told once it is written, below
                progress(ahead + start + at + move, ahead + total)
        vectors = np.concatenate([np.asarray(p, dtype=np.float32) for p in parts])
        if renew:
            renew()
        with transaction(conn):
            slots.append(conn, model, [bytes(h) for _, h, _ in page], packed(vectors))
            bump_generation(conn)
        report.embedded += len(page)
        if progress:
            progress(ahead + min(start + step, total), ahead + total)


def prune(conn: sqlite3.Connection, models: list[str]) -> int:
    """Drop vectors of any model not in `models`, and vectors no chunk or card uses any more (a
    whole-table pass: `recollect index` does it, a search does not). Returns how many were dropped."""
    from recollect.index.store import transaction

    marks = ", ".join("?" * len(models)) or "NULL"
    with transaction(conn):
        cur = conn.execute(
            f"DELETE FROM vector WHERE model NOT IN ({marks}) "
            "OR (hash NOT IN (SELECT hash FROM chunk WHERE hash IS NOT NULL) "
            "AND hash NOT IN (SELECT card_hash FROM session WHERE card_hash IS NOT NULL))",
            models,
        )
        conn.execute(
            f"DELETE FROM meta WHERE key LIKE 'vectors\\_complete:%' ESCAPE '\\' AND substr(key, 18) NOT IN ({marks})",
            models,
        )
        conn.execute(
            "INSERT INTO meta(key, value) VALUES ('vector_models', ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (json.dumps(sorted(models)),),
        )
        # Other models' files go with their rows (a new file for them if they come back).
        conn.execute(
            f"DELETE FROM meta WHERE key LIKE 'vector\\_file:%' ESCAPE '\\' AND substr(key, 13) NOT IN ({marks})",
            models,
        )
        if cur.rowcount:
            bump_generation(conn)
    for model in models:
        slots.compact(conn, model)  # when most of a file is text no longer indexed
    slots.remove_stale(conn, models)
    return cur.rowcount


def prune_needed(conn: sqlite3.Connection, models: list[str]) -> bool:
    """Whether the models in use differ from those of the last prune (one turned off, or replaced)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'vector_models'").fetchone()
    return row is None or json.loads(row[0]) != sorted(models)


def backfill_needed(conn: sqlite3.Connection, model: str, changed: bool) -> bool:
    """Whether an embedding pass has anything to do: the sync changed rows, or no complete pass of
    this model ever ran on the index. Keeps a no-change sync from scanning every chunk."""
    if changed or not slots.intact(conn, model):  # a vector file cut or deleted: its vectors are made again
        return True
    row = conn.execute("SELECT 1 FROM meta WHERE key = ?", (f"vectors_complete:{model}",)).fetchone()
    return row is None


@dataclass
class VectorMatrix:
    """All vectors of one model, as arrays: rows are chunks (kind 0) or cards (kind 1); each row's
    vector is `matrix[slots[row]]` (texts that repeat share a slot)."""

    ids: np.ndarray  # chunk id, or session sid for cards
    sids: np.ndarray
    kinds: np.ndarray
    slots: np.ndarray  # row -> slot of `matrix`
    matrix: np.ndarray  # int8 slots (`packed`), memory-mapped from the model's vector file
    scales: np.ndarray  # float32, one per slot: vector ≈ scale * matrix[slot]


_MATRICES: dict[tuple[str, str, str], VectorMatrix] = {}


def load_matrix(conn: sqlite3.Connection, model: str) -> VectorMatrix:
    """The vectors of `model`, cached per process until the index's vector generation changes. The
    vectors are the model's slot file, memory-mapped; which row is which slot is gathered from
    SQLite once per generation and kept in a file beside the index (~0.1 s at 5,000 sessions, which a
    one-shot CLI search would otherwise pay every time)."""
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    key = (path, model, generation(conn))
    cached = _MATRICES.get(key)
    if cached is not None:
        return cached
    ident = index_id(conn) if path else None
    rows_file = _rows_file(Path(path), ident, model, key[2]) if ident else None
    result = None
    for _ in range(2):  # a compaction between reading the state and opening its file: read again
        with _snapshot(conn):
            rows = _read_rows(rows_file) if rows_file else None
            gathered = rows is None
            if rows is None:
                rows = _gather_rows(conn, model)
            vectors = slots.read(conn, model)
        if vectors is not None:
            result = _matrix(rows, vectors)
            if gathered and rows_file:
                _write_rows(rows_file, rows)
            break
    if result is None:  # the vector file is gone or short: no vectors until the next index makes them
        result = _matrix(_gather_rows(conn, model, empty=True), _no_vectors())
    for old in [k for k in list(_MATRICES) if k[:2] == (path, model)]:
        _MATRICES.pop(old, None)  # one generation per index and model is enough
    _MATRICES[key] = result
    return result


def sessions_without_vectors(conn: sqlite3.Connection, models: list[str], carded: int) -> int:
    """How many of the `carded` sessions (those with a card: a search counts them in its one pass over
    the session table, `search.scope.session_counts`) some model in `models` has no card vector for yet."""
    return max(carded - int((load_matrix(conn, m).kinds == 1).sum()) for m in models)


def index_id(conn: sqlite3.Connection) -> str | None:
    """A random id of this index, made once: files derived from the index (the vector matrices) are
    never taken for those of an index deleted and rebuilt in the same place. None on a read-only
    handle to an index that has none yet."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'index_id'").fetchone()
    if row is None:
        try:  # inside a caller's transaction it commits with it; `with conn` would commit that early
            conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('index_id', ?)", (os.urandom(8).hex(),))
        except sqlite3.OperationalError:  # read-only, or the writer holds the lock: no file cache this time
            return None
        row = conn.execute("SELECT value FROM meta WHERE key = 'index_id'").fetchone()
    return str(row[0])


class _snapshot:
    """One read transaction around the rows and the vector file's state (unless the caller is in one)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.began = False

    def __enter__(self) -> None:
        if not self.conn.in_transaction:
            self.conn.execute("BEGIN")
            self.began = True

    def __exit__(self, *exc: object) -> None:
        if self.began:
            self.conn.execute("COMMIT")


def _no_vectors() -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    return np.zeros((0, 1), np.int8), np.zeros(0, np.float32)


def _gather_rows(conn: sqlite3.Connection, model: str, *, empty: bool = False) -> np.ndarray:
    """(ids, sids, kinds, slots) of every chunk and card with a vector of `model`, as a (4, n) array."""
    import numpy as np

    if empty:
        return np.zeros((4, 0), np.int64)
    rows = conn.execute(
        "SELECT c.id, c.sid, 0, v.slot FROM chunk c JOIN vector v ON v.hash = c.hash AND v.model = ? "
        "UNION ALL SELECT s.sid, s.sid, 1, v.slot FROM session s "
        "JOIN vector v ON v.hash = s.card_hash AND v.model = ?",
        (model, model),
    ).fetchall()
    flat = np.fromiter((x for r in rows for x in r), dtype=np.int64, count=4 * len(rows))
    return flat.reshape(len(rows), 4).T.copy()


def _matrix(rows: np.ndarray, vectors: tuple[np.ndarray, np.ndarray]) -> VectorMatrix:
    import numpy as np

    matrix, scales = vectors
    keep = rows[3] < len(scales)  # never a slot past the file (a row map of another state)
    rows = rows[:, keep] if not keep.all() else rows
    return VectorMatrix(
        ids=rows[0], sids=rows[1], kinds=rows[2].astype(np.int8), slots=rows[3], matrix=matrix, scales=scales
    )


def _gather_matrix(conn: sqlite3.Connection, model: str) -> VectorMatrix:
    """The vectors of `model` read afresh (no cache): what `load_matrix` must equal."""
    with _snapshot(conn):
        rows = _gather_rows(conn, model)
        vectors = slots.read(conn, model)
    return _matrix(rows, vectors) if vectors is not None else _matrix(rows[:, :0], _no_vectors())


def stored_vectors(conn: sqlite3.Connection) -> dict[tuple[bytes, str], np.ndarray]:
    """Every stored vector as float32, by (content hash, model): what an index holds, to compare two."""
    out: dict[tuple[bytes, str], np.ndarray] = {}
    for (model,) in conn.execute("SELECT DISTINCT model FROM vector").fetchall():
        with _snapshot(conn):
            found = slots.read(conn, model)
            pairs = conn.execute("SELECT hash, slot FROM vector WHERE model = ?", (model,)).fetchall()
        if found is None:
            continue
        matrix, scales = found
        for hash_, slot in pairs:
            if slot < len(scales):
                out[(bytes(hash_), model)] = matrix[slot].astype("float32") * scales[slot]
    return out


def matrix_dir(index_path: Path) -> Path:
    """Where the vector files of an index are kept (`slots.directory`)."""
    return slots.directory(index_path)


def _rows_file(index_path: Path, index_id: str, model: str, gen: str) -> Path:
    return matrix_dir(index_path) / f"{slots.stem(index_id, model)}-{gen}.rows.npy"


def _read_rows(rows_file: Path) -> np.ndarray | None:
    import numpy as np

    try:
        rows = np.load(rows_file)
    except (OSError, ValueError):  # missing (the usual case after a change), or cut short
        return None
    return rows if rows.ndim == 2 and rows.shape[0] == 4 and rows.dtype == np.int64 else None


def _write_rows(rows_file: Path, rows: np.ndarray) -> None:
    import numpy as np

    stem = rows_file.name.rsplit("-", 1)[0]
    try:
        ensure_private_dir(rows_file.parent)
        fd, tmp = tempfile.mkstemp(dir=rows_file.parent, prefix=".rows-", suffix=".npy")
        with os.fdopen(fd, "wb") as f:
            np.save(f, rows)
        os.replace(tmp, rows_file)  # readers see the old file or the whole new one
        index_id = stem.split("-", 1)[0]
        for old in rows_file.parent.glob("*.npy"):
            # An older generation of this model, an older version's matrix, or an index since rebuilt.
            if old != rows_file and (old.name.startswith(f"{stem}-") or not old.name.startswith(f"{index_id}-")):
                old.unlink(missing_ok=True)
            elif old.name.endswith(".vecs.npy"):
                old.unlink(missing_ok=True)  # the second copy of every vector an older version kept
    except OSError as exc:  # a read-only or full disk costs only speed
        log.info("could not keep the vector rows in %s: %s", rows_file.parent, exc)
