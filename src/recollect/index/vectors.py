"""Vectors in the sidecar, keyed by content: search by meaning over the same rows as lexical search.

A chunk of conversational text (what a person typed, what the model said or reasoned, compaction
summaries) and each session card carry a content hash; the `vector` table maps (hash, model id)
to a float32 vector. Keying by content means a session that is re-read after a change never
re-embeds text it already had, identical text across near-duplicate sessions is embedded once,
and vectors of another model are simply never looked up (they are dropped by the next index).

Embedding is a pass after the sync ("backfill"): whatever text has no vector for the current
model gets one, in batches, under the writer lease. A search never builds the model or embeds
documents; it embeds only the query.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from recollect.config import Config

if TYPE_CHECKING:  # numpy is imported only when vectors are used: it costs the CLI's start-up ~0.2 s
    import numpy as np

log = logging.getLogger(__name__)

# Evidence classes whose meaning is worth embedding; tool inputs and outputs are matched by words.
EMBED_CLASSES = ("user_text", "assistant_text", "reasoning", "summary", "subtask")
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


def model_cache_dir(config: Config) -> Path:
    """Where built models live; `RECOLLECT_MODEL_CACHE` shares one build between homes (tests, CI)."""
    override = os.environ.get("RECOLLECT_MODEL_CACHE")
    return Path(override).expanduser() if override else config.paths.cache_dir


def semantic_enabled(config: Config) -> bool:
    if os.environ.get("RECOLLECT_EMBEDDINGS", "").lower() in ("0", "off", "false", "no"):
        return False
    return config.section("embeddings").get("enabled", True) is not False


_EMBEDDERS: dict[tuple[str, bool], object] = {}
_LOCK = threading.Lock()
_SOURCE: list[object] = []  # the installed model package, located once per process (hashing it costs ~30 ms)


def _muse_source():  # type: ignore[no-untyped-def]
    if not _SOURCE:
        from recollect.embed import muse

        _SOURCE.append(muse.locate_source())
    return _SOURCE[0]


def embedder_for(config: Config, *, build: bool = False, progress: Progress | None = None):  # type: ignore[no-untyped-def]
    """The configured embedder, or None when semantic search is off or unavailable.

    With `build=False` (searches), the default static model is used only if it was already built:
    a search never waits for a model build. `recollect index` passes `build=True`."""
    if not semantic_enabled(config):
        return None
    section = config.section("embeddings")
    provider = str(section.get("provider", "static")).lower()
    cache_dir = model_cache_dir(config)
    key = (f"{provider}:{cache_dir}:{sorted(section.items())}", build)
    with _LOCK:
        if key in _EMBEDDERS:
            return _EMBEDDERS[key]
    try:
        from recollect import embed
        from recollect.embed import static

        if provider == "static":
            source = _muse_source()
            if source is None or (not build and not static.is_built(cache_dir, source)):
                return None  # not cached: once `recollect index` builds the model, the next search uses it
            model = static.load_or_build(cache_dir, source, progress=progress)
        else:
            model = embed.from_config(section, cache_dir, progress=progress)
    except Exception as exc:  # semantic search is an addition: its failure must not break search
        log.warning("semantic search unavailable: %s", exc)
        return None
    with _LOCK:
        _EMBEDDERS[key] = model
        if model is not None:
            _EMBEDDERS[(key[0], False)] = model
    return model


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
    reused: int = 0  # texts whose vector already existed (unchanged or duplicated text)
    dropped: int = 0  # vectors no chunk or card needs any more, or of another model


def backfill(
    conn: sqlite3.Connection,
    embedder,  # type: ignore[no-untyped-def]
    *,
    renew: Callable[[], None] | None = None,
    progress: Progress | None = None,
    prune: bool = True,
) -> BackfillReport:
    """Embed every chunk and card text that has no vector for `embedder.model_id`; with `prune`, drop
    vectors nothing uses any more (a whole-table pass: `recollect index` does it, a search does not)."""
    import numpy as np

    from recollect.index.store import transaction

    model = embedder.model_id
    report = BackfillReport(model=model)
    todo = conn.execute(
        "SELECT hash, text FROM ("
        "  SELECT c.hash AS hash, c.text AS text FROM chunk c WHERE c.hash IS NOT NULL"
        "  UNION ALL SELECT s.card_hash, s.card_text FROM session s WHERE s.card_hash IS NOT NULL"
        ") t WHERE NOT EXISTS (SELECT 1 FROM vector v WHERE v.hash = t.hash AND v.model = ?) GROUP BY hash",
        (model,),
    ).fetchall()
    total = len(todo)
    if progress:
        progress(0, total)
    for start in range(0, total, BATCH):
        batch = todo[start : start + BATCH]
        vectors = np.asarray(embedder.embed([embed_text(text) for _, text in batch]), dtype=np.float32)
        if renew:
            renew()
        with transaction(conn):
            conn.executemany(
                "INSERT OR REPLACE INTO vector(hash, model, dim, vec) VALUES (?, ?, ?, ?)",
                [(h, model, vectors.shape[1], vectors[i].tobytes()) for i, (h, _) in enumerate(batch)],
            )
            bump_generation(conn)
        report.embedded += len(batch)
        if progress:
            progress(min(start + BATCH, total), total)
    with transaction(conn):
        conn.execute(
            "INSERT INTO meta(key, value) VALUES ('vectors_complete', ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (model,),
        )
    if not prune:
        return report
    with transaction(conn):
        cur = conn.execute(
            "DELETE FROM vector WHERE model != ? OR (hash NOT IN (SELECT hash FROM chunk WHERE hash IS NOT NULL) "
            "AND hash NOT IN (SELECT card_hash FROM session WHERE card_hash IS NOT NULL))",
            (model,),
        )
        report.dropped = cur.rowcount
        if report.dropped:
            bump_generation(conn)
    return report


def backfill_needed(conn: sqlite3.Connection, model: str, changed: bool) -> bool:
    """Whether an embedding pass has anything to do: the sync changed rows, or the last complete pass
    was for another model (or never ran). Keeps a no-change sync from scanning every chunk."""
    if changed:
        return True
    row = conn.execute("SELECT value FROM meta WHERE key = 'vectors_complete'").fetchone()
    return row is None or row[0] != model


@dataclass
class VectorMatrix:
    """All vectors of one model, as arrays: rows are chunks (kind 0) or cards (kind 1)."""

    ids: np.ndarray  # chunk id, or session sid for cards
    sids: np.ndarray
    kinds: np.ndarray
    matrix: np.ndarray


_MATRICES: dict[tuple[str, str, str], VectorMatrix] = {}


def load_matrix(conn: sqlite3.Connection, model: str) -> VectorMatrix:
    """The vectors of `model`, cached per process until the index's vector generation changes."""
    import numpy as np

    path = conn.execute("PRAGMA database_list").fetchone()[2]
    key = (path, model, generation(conn))
    cached = _MATRICES.get(key)
    if cached is not None:
        return cached
    rows = conn.execute(
        "SELECT c.id, c.sid, 0, v.vec FROM chunk c JOIN vector v ON v.hash = c.hash AND v.model = ? "
        "UNION ALL SELECT s.sid, s.sid, 1, v.vec FROM session s JOIN vector v ON v.hash = s.card_hash AND v.model = ?",
        (model, model),
    ).fetchall()
    if rows:
        matrix = np.frombuffer(b"".join(r[3] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    else:
        matrix = np.zeros((0, 1), dtype=np.float32)
    result = VectorMatrix(
        ids=np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows)),
        sids=np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows)),
        kinds=np.fromiter((r[2] for r in rows), dtype=np.int8, count=len(rows)),
        matrix=matrix,
    )
    for old in [k for k in list(_MATRICES) if k[0] == path]:
        _MATRICES.pop(old, None)  # one generation per index is enough
    _MATRICES[key] = result
    return result
