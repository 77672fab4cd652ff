"""Vectors in the sidecar, keyed by content: search by meaning over the same rows as lexical search.

A chunk of conversational text (what a person typed, what the model said, compaction summaries)
and each session card carry a content hash; the `vector` table maps (hash, model id)
to a vector stored as int8 with one float32 scale (`pack`): dim + 4 bytes, which fits in a page of a
WITHOUT ROWID table (a 1 KB float32 blob spilled into a 4 KB overflow page of its own). Keying by
content means a session that is re-read after a change never
re-embeds text it already had, identical text across near-duplicate sessions is embedded once,
and vectors of another model are simply never looked up (they are dropped by the next index).

Embedding is a pass after the sync ("backfill"): whatever text has no vector for the current
model gets one, in batches, under the writer lease. A search never builds the model or embeds
documents; it embeds only the query.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sqlite3
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recollect.config import Config, ensure_private_dir

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
BATCH = 512

Progress = Callable[[int, int], None]


def content_hash(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).digest()


def embed_text(text: str) -> str:
    return text[:EMBED_CHARS]


def card_text(title: str, first_human: str, last_outcome: str, identifiers: str) -> str:
    """What a session is about, in a few lines: the card's vector is made from this."""
    idents = " ".join(identifiers.split()[:20])
    return "\n".join(x for x in (title, first_human, last_outcome, idents) if x)[:EMBED_CHARS]


def pack(vectors: np.ndarray) -> list[bytes]:
    """Each row as int8 times its own float32 scale (max |x| / 127), the scale last: dim + 4 bytes.
    A unit vector loses at most half a step (~0.004) a component; the eval ranks the same."""
    import numpy as np

    vecs = np.asarray(vectors, dtype=np.float32)
    peak = np.abs(vecs).max(axis=1) if vecs.size else np.zeros(len(vecs), np.float32)
    scales = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
    q = np.clip(np.rint(vecs / scales[:, None]), -127, 127).astype(np.int8)
    return [q[i].tobytes() + scales[i : i + 1].tobytes() for i in range(len(q))]


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


def model_cache_dir(config: Config) -> Path:
    """Where the full encoder's loaded form is kept: the user's cache (`$XDG_CACHE_HOME/recollect`),
    shared by every `RECOLLECT_HOME`; `RECOLLECT_MODEL_CACHE` points elsewhere (tests, CI)."""
    override = os.environ.get("RECOLLECT_MODEL_CACHE")
    if override:
        return Path(override).expanduser()
    from recollect.config import xdg_dir

    return xdg_dir("XDG_CACHE_HOME", ".cache") / "recollect"


def semantic_enabled(config: Config) -> bool:
    if os.environ.get("RECOLLECT_EMBEDDINGS", "").lower() in ("0", "off", "false", "no"):
        return False
    return config.section("embeddings").get("enabled", True) is not False


_EMBEDDERS: dict[str, object] = {}
_LOCK = threading.Lock()
_SOURCE: list[object] = []  # the installed model package, located once per process (hashing it costs ~30 ms)
# Why search by meaning cannot run in this process, with the fix, for each arm that failed to load.
PROBLEMS: dict[str, str] = {}


def _muse_source(cache_dir: Path):  # type: ignore[no-untyped-def]
    if not _SOURCE:
        from recollect.embed import muse

        _SOURCE.append(muse.locate_source(cache_dir))
    return _SOURCE[0]


def _memoized(key: str, make: Callable[[], object], what: str) -> object:
    """One model object per process and key; a failure is logged and kept in PROBLEMS, not cached
    (the next call retries)."""
    with _LOCK:
        if key in _EMBEDDERS:
            return _EMBEDDERS[key]
    try:
        model = make()
    except Exception as exc:  # semantic search is an addition: its failure must not break search
        log.info("%s unavailable: %s", what, exc)
        PROBLEMS[what] = (
            f"{what} unavailable ({exc}); fix: reinstall recollect (pip install --force-reinstall recollect)"
        )
        return None
    if model is not None:
        PROBLEMS.pop(what, None)
        with _LOCK:
            _EMBEDDERS[key] = model
    return model


def embedder_for(config: Config):  # type: ignore[no-untyped-def]
    """The configured embedder, or None when semantic search is off or unavailable. The default
    static model ships in the package: nothing is built."""
    if not semantic_enabled(config):
        return None
    section = config.section("embeddings")
    provider = str(section.get("provider", "static")).lower()
    cache_dir = model_cache_dir(config)

    def make():  # type: ignore[no-untyped-def]
        if provider == "static":
            return LazyStatic()
        from recollect import embed

        return embed.from_config(section, cache_dir)

    return _memoized(f"{provider}:{cache_dir}:{sorted(section.items())}", make, "search by meaning")


class LazyStatic:
    """The shipped static model, named from its meta.json and loaded (numpy, the mapped table, the
    tokenizer: ~0.1 s) only when something is embedded: a sync with nothing new never loads it."""

    def __init__(self) -> None:
        import recollect

        meta_file = Path(recollect.__file__).parent / "data" / "model" / "static-muse-v1" / "meta.json"
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
            self.model_id: str = str(meta["model_id"])
            self.dim: int = int(meta["dim"])
        except (OSError, ValueError, KeyError) as exc:
            from recollect.embed import EmbedError

            raise EmbedError(f"static model at {meta_file.parent} is unreadable: {exc}") from exc
        self._model: object = None

    def embed(self, texts):  # type: ignore[no-untyped-def]
        if self._model is None:
            from recollect.embed import default_embedder

            model = default_embedder()
            if model.model_id != self.model_id:
                from recollect.embed import EmbedError

                raise EmbedError(f"the shipped model's files disagree ({model.model_id} vs {self.model_id})")
            self._model = model
        return self._model.embed(texts)  # type: ignore[attr-defined]


def card_encoder_for(config: Config):  # type: ignore[no-untyped-def]
    """The full encoder over session cards (a second semantic arm), or None when semantic search is
    off, the model package is missing, or `[embeddings] cards = false`. Never loads the encoder."""
    if not semantic_enabled(config) or config.section("embeddings").get("cards", True) is False:
        return None
    cache_dir = model_cache_dir(config)

    def make():  # type: ignore[no-untyped-def]
        from recollect.embed.muse import INSTALL_HINT, PACKAGE, CardEncoder, MuseEmbedder

        source = _muse_source(cache_dir)
        if source is None:
            PROBLEMS["the session-card encoder"] = (
                f"session cards are not searched by meaning: {PACKAGE} is not installed; fix: {INSTALL_HINT}"
            )
            return None
        return CardEncoder(MuseEmbedder(source, cache_dir=cache_dir))

    return _memoized(f"cards:{cache_dir}", make, "the session-card encoder")


def semantic_state(config: Config) -> dict[str, Any]:
    """What `recollect doctor` (and its --json) says about search by meaning: whether it is on, why not,
    the fix, and both arms' models. Loads the static model to check it (~0.1 s), never the full encoder."""
    from recollect.embed import describe

    state: dict[str, object] = {"enabled": semantic_enabled(config)}
    if not state["enabled"]:
        why = (
            "RECOLLECT_EMBEDDINGS is set to off"
            if os.environ.get("RECOLLECT_EMBEDDINGS", "").lower() in ("0", "off", "false", "no")
            else f"[embeddings] enabled = false in {config.paths.config_file}"
        )
        state.update(status="off", reason=why, fix="unset RECOLLECT_EMBEDDINGS, or remove [embeddings] enabled = false")
        return state
    section = config.section("embeddings")
    provider = str(section.get("provider", "static")).lower()
    info = describe(model_cache_dir(config))
    cards_on = section.get("cards", True) is not False
    state.update(provider=provider, static=info, cards_enabled=cards_on)
    problems: list[str] = []
    if provider == "static" and not info.get("ready"):
        problems.append(f"the shipped model cannot be read ({info.get('problem')}); fix: {info.get('fix')}")
    card_info = info.get("card_encoder", {})
    if cards_on and isinstance(card_info, dict) and not card_info.get("installed"):
        problems.append(
            f"session cards are not searched by meaning: {card_info.get('problem')}; fix: {card_info.get('fix')}"
        )
    state["status"] = "on" if not problems else ("degraded" if provider != "static" or info.get("ready") else "broken")
    state["problems"] = problems
    return state


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
        """Every vector, by content hash, once its job is done; a failed job is left to the pass."""
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
            ready.update(zip(hashes, vectors, strict=True))
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
    Vectors in `ready` (made ahead by a `Prefetch` of the same embedder) are written, not made again."""
    import numpy as np

    from recollect.index.store import transaction

    model = embedder.model_id
    report = BackfillReport(model=model)
    chunks = "" if cards_only else "SELECT c.hash AS hash, c.text AS text FROM chunk c WHERE c.hash NOTNULL UNION ALL"
    todo = conn.execute(
        f"SELECT hash, text FROM ({chunks}"
        " SELECT s.card_hash AS hash, s.card_text AS text FROM session s WHERE s.card_hash IS NOT NULL"
        ") t WHERE NOT EXISTS (SELECT 1 FROM vector v WHERE v.hash = t.hash AND v.model = ?) GROUP BY hash",
        (model,),
    ).fetchall()
    if ready:
        done = [(h, ready[h]) for h, _ in todo if h in ready]
        with transaction(conn):
            conn.executemany(
                "INSERT OR REPLACE INTO vector(hash, model, dim, vec) VALUES (?, ?, ?, ?)",
                [
                    (h, model, len(v), blob)
                    for (h, v), blob in zip(done, pack(np.stack([v for _, v in done])) if done else [], strict=True)
                ],
            )
            bump_generation(conn)
        report.embedded += len(done)
        todo = [(h, t) for h, t in todo if h not in ready]
    if limit is not None and len(todo) > limit:
        report.pending = len(todo) - limit
        todo = todo[:limit]
    total = len(todo)
    step = getattr(embedder, "batch", BATCH)  # a slow encoder renews the writer lease more often
    ahead = report.embedded  # made by a prefetch: the bar goes on from there rather than restarting
    if progress:
        progress(ahead, ahead + total)
    for start in range(0, total, step):
        batch = todo[start : start + step]
        vectors = np.asarray(embedder.embed([embed_text(text) for _, text in batch]), dtype=np.float32)
        if renew:
            renew()
        with transaction(conn):
            conn.executemany(
                "INSERT OR REPLACE INTO vector(hash, model, dim, vec) VALUES (?, ?, ?, ?)",
                [(h, model, vectors.shape[1], blob) for (h, _), blob in zip(batch, pack(vectors), strict=True)],
            )
            bump_generation(conn)
        report.embedded += len(batch)
        if progress:
            progress(ahead + min(start + step, total), ahead + total)
    if report.pending:
        return report
    with transaction(conn):
        conn.execute(
            "INSERT INTO meta(key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (f"vectors_complete:{model}",),
        )
    return report


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
        if cur.rowcount:
            bump_generation(conn)
    return cur.rowcount


def prune_needed(conn: sqlite3.Connection, models: list[str]) -> bool:
    """Whether the models in use differ from those of the last prune (one turned off, or replaced)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'vector_models'").fetchone()
    return row is None or json.loads(row[0]) != sorted(models)


def backfill_needed(conn: sqlite3.Connection, model: str, changed: bool) -> bool:
    """Whether an embedding pass has anything to do: the sync changed rows, or no complete pass of
    this model ever ran on the index. Keeps a no-change sync from scanning every chunk."""
    if changed:
        return True
    row = conn.execute("SELECT 1 FROM meta WHERE key = ?", (f"vectors_complete:{model}",)).fetchone()
    return row is None


@dataclass
class VectorMatrix:
    """All vectors of one model, as arrays: rows are chunks (kind 0) or cards (kind 1)."""

    ids: np.ndarray  # chunk id, or session sid for cards
    sids: np.ndarray
    kinds: np.ndarray
    matrix: np.ndarray  # int8 rows (`pack`), often a view of the memory-mapped file
    scales: np.ndarray  # float32, one per row: row ≈ scale * matrix[row]


_MATRICES: dict[tuple[str, str, str], VectorMatrix] = {}


def load_matrix(conn: sqlite3.Connection, model: str) -> VectorMatrix:
    """The vectors of `model`, cached per process until the index's vector generation changes, and
    on disk beside the index: gathering them from SQLite costs ~1 s at 5,000 sessions, which a
    one-shot CLI search would otherwise pay every time; the file is memory-mapped in milliseconds."""
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    key = (path, model, generation(conn))
    cached = _MATRICES.get(key)
    if cached is not None:
        return cached
    ident = index_id(conn) if path else None
    files = _matrix_files(Path(path), ident, model, key[2]) if ident else None
    result = _read_matrix(files) if files else None
    if result is None:
        result = _gather_matrix(conn, model)
        if files:
            _write_matrix(files, result)
    for old in [k for k in list(_MATRICES) if k[:2] == (path, model)]:
        _MATRICES.pop(old, None)  # one generation per index and model is enough
    _MATRICES[key] = result
    return result


_CARDS: dict[tuple[str, str], int] = {}


def sessions_without_vectors(conn: sqlite3.Connection, models: list[str]) -> int:
    """How many sessions with a card some model in `models` has no card vector for yet. The count of
    carded sessions scans the session table (~25 ms at 5,000 sessions), so it is kept per index
    generation, which every insert and delete moves, like the matrices themselves."""
    path = conn.execute("PRAGMA database_list").fetchone()[2]
    key = (path, generation(conn))
    if key not in _CARDS:
        for old in [k for k in _CARDS if k[0] == path]:
            del _CARDS[old]
        _CARDS[key] = conn.execute("SELECT count(*) FROM session WHERE card_hash IS NOT NULL").fetchone()[0]
    return max(_CARDS[key] - int((load_matrix(conn, m).kinds == 1).sum()) for m in models)


def index_id(conn: sqlite3.Connection) -> str | None:
    """A random id of this index, made once: files derived from the index (the vector matrices) are
    never taken for those of an index deleted and rebuilt in the same place. None on a read-only
    handle to an index that has none yet."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'index_id'").fetchone()
    if row is None:
        try:
            with conn:
                conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('index_id', ?)", (os.urandom(8).hex(),))
        except sqlite3.OperationalError:  # read-only, or the writer holds the lock: no file cache this time
            return None
        row = conn.execute("SELECT value FROM meta WHERE key = 'index_id'").fetchone()
    return str(row[0])


def _gather_matrix(conn: sqlite3.Connection, model: str) -> VectorMatrix:
    import numpy as np

    rows = conn.execute(
        "SELECT c.id, c.sid, 0, v.vec, v.dim FROM chunk c JOIN vector v ON v.hash = c.hash AND v.model = ? "
        "UNION ALL SELECT s.sid, s.sid, 1, v.vec, v.dim FROM session s "
        "JOIN vector v ON v.hash = s.card_hash AND v.model = ?",
        (model, model),
    ).fetchall()
    if rows:
        matrix, scales = unpack([r[3] for r in rows], int(rows[0][4]))
    else:
        matrix, scales = np.zeros((0, 1), dtype=np.int8), np.zeros(0, dtype=np.float32)
    return VectorMatrix(
        ids=np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)),
        sids=np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows)),
        kinds=np.fromiter((r[2] for r in rows), dtype=np.int8, count=len(rows)),
        matrix=matrix,
        scales=scales,
    )


def matrix_dir(index_path: Path) -> Path:
    """Where the matrices of an index are kept: disposable, rebuilt from the index when missing."""
    return index_path.with_name(index_path.name + ".vectors")


def _matrix_files(index_path: Path, index_id: str, model: str, gen: str) -> tuple[Path, Path]:
    stem = f"{index_id}-{re.sub(r'[^A-Za-z0-9_.-]', '_', model)}"
    directory = matrix_dir(index_path)
    return directory / f"{stem}-{gen}.rows.npy", directory / f"{stem}-{gen}.vecs.npy"


def _read_matrix(files: tuple[Path, Path]) -> VectorMatrix | None:
    import numpy as np

    rows_file, vecs_file = files
    try:
        rows = np.load(rows_file)
        packed = np.load(vecs_file, mmap_mode="r")  # int8 rows with their scale's 4 bytes last, as stored
    except (OSError, ValueError):  # missing (the usual case after a change), or cut short
        return None
    if rows.ndim != 2 or rows.shape[0] != 3 or packed.ndim != 2 or rows.shape[1] != packed.shape[0]:
        return None
    if packed.dtype != np.int8 or packed.shape[1] < 5:
        return None  # a float32 file of an older version: gathered and written anew
    dim = packed.shape[1] - 4
    scales = np.ascontiguousarray(packed[:, dim:]).view(np.float32).reshape(-1)
    return VectorMatrix(ids=rows[0], sids=rows[1], kinds=rows[2].astype(np.int8), matrix=packed[:, :dim], scales=scales)


def _write_matrix(files: tuple[Path, Path], result: VectorMatrix) -> None:
    import numpy as np

    rows_file, vecs_file = files
    stem = rows_file.name.rsplit("-", 1)[0]
    try:
        ensure_private_dir(rows_file.parent)
        rows = np.stack([result.ids, result.sids, result.kinds.astype(np.int64)])
        # Rows first, vectors last, each renamed into place whole: a reader that finds the vectors
        # file finds its rows too, and a torn pair is refused by the shape check.
        packed = np.concatenate(
            [np.asarray(result.matrix, np.int8), result.scales.reshape(-1, 1).view(np.int8)], axis=1
        )
        for target, array in ((rows_file, rows), (vecs_file, packed)):
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".matrix-", suffix=".npy")
            with os.fdopen(fd, "wb") as f:
                np.save(f, array)
            os.replace(tmp, target)
        index_id = stem.split("-", 1)[0]
        for old in target.parent.glob("*.npy"):
            # An older generation of this model, or any file of an index since deleted and rebuilt.
            if old not in files and (old.name.startswith(f"{stem}-") or not old.name.startswith(f"{index_id}-")):
                old.unlink(missing_ok=True)
    except OSError as exc:  # a read-only or full disk costs only speed
        log.info("could not keep the vector matrix in %s: %s", rows_file.parent, exc)
