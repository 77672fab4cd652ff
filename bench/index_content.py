"""What an index holds, as a digest per part, so two indexes of one store can be compared: a change
that makes indexing faster must leave every one of these the same.

    python -m bench.index_content A/index.db B/index.db     (exit 1 when a part differs)

Parts: the sessions (every column but the row id), their cards (the card columns, apart, to say
which changed), the chunks (every column, keyed by their session and their place in it), the vectors
(hash, model, dim; their values apart, `vector_gap`), and both FTS tables token by token
(`fts5vocab` instances: term, column and offset in each document, the document named by its chunk or
session, not by its row id). Row ids, the order rows were written in, the FTS segment layout and the
slot order of the vector files may differ between two equal indexes and are left out.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import sys
from collections.abc import Iterable
from pathlib import Path

# The session columns that make its card (index/rows.py, index/fts.py); the rest is "sessions".
CARD_COLUMNS = (
    *("title", "first_human", "identifiers", "files", "errors", "last_outcome", "decisions"),
    *("summary", "card_text", "card_hash"),
)
VECTOR_GAP = 1.5  # quantization steps: equal vectors made in different processes differ by one at most
Digest = dict[str, tuple[int, str]]  # part -> (rows, sha256 of them)


def _hashed(rows: Iterable[tuple[object, ...]]) -> tuple[int, str]:
    h = hashlib.sha256()
    n = 0
    for row in rows:
        h.update(repr(row).encode())
        h.update(b"\n")
        n += 1
    return n, h.hexdigest()


def _fts(conn: sqlite3.Connection, table: str, names: dict[int, tuple[object, ...]]) -> tuple[int, str]:
    """Every token instance of `table` (term, column, offset), per document, the document by its name."""
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab_{table} USING fts5vocab(main, {table}, instance)")
    per_doc: dict[int, hashlib._Hash] = {}
    n = 0
    for term, doc, col, offset in conn.execute(f"SELECT term, doc, col, offset FROM temp.vocab_{table}"):
        h = per_doc.get(doc)
        if h is None:
            h = per_doc[doc] = hashlib.sha256()
        h.update(f"{term}\0{col}\0{offset}\n".encode())
        n += 1
    unnamed = [doc for doc in per_doc if doc not in names]
    if unnamed:
        raise ValueError(f"{table}: {len(unnamed)} documents match no row (first: rowid {unnamed[0]})")
    return n, hashlib.sha256(
        "".join(
            f"{names[d]!r} {h.hexdigest()}\n" for d, h in sorted(per_doc.items(), key=lambda item: repr(names[item[0]]))
        ).encode()
    ).hexdigest()


def _vectors(conn: sqlite3.Connection, index: Path) -> Iterable[tuple[object, ...]]:
    """(model, hash, dim, the vector's bytes) of every vector, by model and hash: the bytes read from the
    model's slot file beside the index (index/slots.py), where the `vector` row points."""
    ident = (conn.execute("SELECT value FROM meta WHERE key = 'index_id'").fetchone() or ["unnamed"])[0]
    files: dict[str, tuple[bytes, int]] = {}
    for model, value in conn.execute("SELECT substr(key, 13), value FROM meta WHERE key LIKE 'vector_file:%'"):
        state = json.loads(value)
        name = f"{ident}-{re.sub(r'[^A-Za-z0-9_.-]', '_', model)}-{state['epoch']}.slots"
        files[model] = ((index.parent / f"{index.name}.vectors" / name).read_bytes(), state["dim"] + 4)
    for model, key, dim, slot in conn.execute("SELECT model, hash, dim, slot FROM vector ORDER BY model, hash"):
        data, size = files[model]
        yield model, key, dim, data[slot * size : (slot + 1) * size]


def vector_gap(a: Path, b: Path) -> float:
    """The largest difference between two indexes' vectors of the same text and model, in quantization
    steps (a component is int8 times its vector's scale). A card vector's last bits depend on the process
    that made it (a worker runs OpenBLAS on one thread, the writer on all), so equal indexes differ by at
    most one step, where a component's rounding flips; a vector of another text, by tens of steps."""
    import numpy as np

    def values(index: Path) -> dict[tuple[str, bytes], tuple[np.ndarray, float]]:
        conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
        try:
            out = {}
            for model, key, dim, data in _vectors(conn, index):
                scale = float(np.frombuffer(data[dim:], np.float32)[0])
                out[(model, key)] = (np.frombuffer(data[:dim], np.int8) * scale, scale)
            return out
        finally:
            conn.close()

    first, second = values(a), values(b)
    gaps = (
        float(np.abs(v - second[k][0]).max()) / max(scale, second[k][1], 1e-30)
        for k, (v, scale) in first.items()
        if k in second
    )
    return max(gaps, default=0.0)


def digest(index: Path) -> Digest:
    """The index's parts, each as (rows, sha256). Opened read-only."""
    conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    try:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(session)")]
        cards = [c for c in CARD_COLUMNS if c in columns]
        rest = [c for c in columns if c not in cards and c != "sid"]
        key = "source_id, native_id"
        out: Digest = {
            "sessions": _hashed(conn.execute(f"SELECT {', '.join(rest)} FROM session ORDER BY {key}")),
            "cards": _hashed(conn.execute(f"SELECT {key}, {', '.join(cards)} FROM session ORDER BY {key}")),
        }
        # A chunk is named by its session and its place among the session's chunks (ids in write order).
        chunk_columns = [row[1] for row in conn.execute("PRAGMA table_info(chunk)") if row[1] not in ("id", "sid")]
        named: dict[int, tuple[object, ...]] = {}
        query = (
            f"SELECT c.id, s.source_id, s.native_id, {', '.join('c.' + c for c in chunk_columns)} "
            "FROM chunk c JOIN session s ON s.sid = c.sid ORDER BY s.source_id, s.native_id, c.id"
        )

        def chunks() -> Iterable[tuple[object, ...]]:
            last, at = None, 0
            for cid, source, native, *values in conn.execute(query):
                at = at + 1 if (source, native) == last else 0
                last = (source, native)
                named[cid] = (source, native, at)
                yield (source, native, at, *values)

        out["chunks"] = _hashed(chunks())
        out["chunk_fts"] = _fts(conn, "chunk_fts", named)
        sessions = {sid: (source, native) for sid, source, native in conn.execute(f"SELECT sid, {key} FROM session")}
        out["card_fts"] = _fts(conn, "card_fts", sessions)
        out["vectors"] = _hashed(conn.execute("SELECT model, hash, dim FROM vector ORDER BY model, hash"))
        return out
    finally:
        conn.close()


def differences(a: Digest, b: Digest) -> list[str]:
    """The parts that differ, with their row counts on each side; empty when the indexes hold the same."""
    return [
        f"{part}: {a.get(part, (0, ''))[0]} rows against {b.get(part, (0, ''))[0]}"
        for part in sorted(set(a) | set(b))
        if a.get(part) != b.get(part)
    ]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m bench.index_content A/index.db B/index.db", file=sys.stderr)
        return 2
    first, second = (digest(Path(p)) for p in argv)
    for part, (rows, _) in sorted(first.items()):
        print(f"{part}: {rows} rows")
    diff = differences(first, second)
    gap = vector_gap(Path(argv[0]), Path(argv[1]))
    print(f"vectors of the same text differ by at most {gap:.2f} quantization steps")
    if gap > VECTOR_GAP:
        diff.append(f"vector values: {gap:.1f} steps apart")
    print("the same" if not diff else "DIFFERENT: " + "; ".join(diff))
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
