"""The one copy of each vector: an append-only file of slots per index and model, memory-mapped to read.

A slot is one vector as `vectors.packed` lays it out: dim int8 components, then its float32 scale
(dim + 4 bytes). The `vector` table maps (content hash, model) to a slot; `meta` holds, per model,
the file's epoch, how many slots are committed, and the dimension (`vector_file:<model>`).

- Writing (under the writer lease, inside the caller's transaction): the file is cut back to the
  committed slots (what a killed pass left after them goes), the new slots are written and synced,
  then the rows and the new count are recorded; they commit with the caller's transaction.
- Reading: the slots a snapshot of the index committed, mapped read-only; never past them.
- Compaction (`compact`, when most slots belong to text no longer indexed): the live slots are
  written to a file of the next epoch, renumbered in one transaction, and the old file removed.
  A reader that still holds the old file keeps its mapping; one that read the old epoch retries.
- A file shorter than its committed slots (deleted, cut, a disk that lost it) loses that model's
  vectors (`check`): its rows are dropped and the next embedding pass makes them again.

An index in memory (`recollect search --ephemeral`) keeps its slots in memory.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from recollect.config import ensure_private_dir

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

SUFFIX = ".slots"
_MEMORY: dict[str, bytearray] = {}  # slot files of indexes in memory, by name


def _key(model: str) -> str:
    return f"vector_file:{model}"


def state(conn: sqlite3.Connection, model: str) -> tuple[int, int, int]:
    """(epoch, committed slots, dim) of `model` in this index; (0, 0, 0) before its first vector."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (_key(model),)).fetchone()
    if row is None:
        return 0, 0, 0
    value = json.loads(row[0])
    return int(value["epoch"]), int(value["count"]), int(value["dim"])


def _set_state(conn: sqlite3.Connection, model: str, epoch: int, count: int, dim: int) -> None:
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (_key(model), json.dumps({"epoch": epoch, "count": count, "dim": dim})),
    )


def directory(index_path: Path) -> Path:
    """Where an index keeps its vector files (and the cached row maps of `vectors.load_matrix`)."""
    return index_path.with_name(index_path.name + ".vectors")


def _index_path(conn: sqlite3.Connection) -> str:
    return str(conn.execute("PRAGMA database_list").fetchone()[2] or "")


def stem(index_id: str, model: str) -> str:
    return f"{index_id}-{re.sub(r'[^A-Za-z0-9_.-]', '_', model)}"


def _name(conn: sqlite3.Connection, model: str, epoch: int) -> tuple[str, Path | None]:
    """(file name, path on disk or None for an index in memory) of `model`'s slots at `epoch`."""
    from recollect.index.vectors import index_id

    ident = index_id(conn) or "unnamed"
    name = f"{stem(ident, model)}-{epoch}{SUFFIX}"
    path = _index_path(conn)
    return name, (directory(Path(path)) / name if path else None)


def _size(name: str, path: Path | None) -> int:
    if path is None:
        return len(_MEMORY.get(name, b""))
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def append(conn: sqlite3.Connection, model: str, hashes: list[bytes], rows: np.ndarray) -> None:
    """Store `rows` (`vectors.packed`, one per hash) as new slots of `model`, inside the caller's
    transaction: the slots are on disk before the rows that point at them can commit."""
    if not hashes:
        return
    dim = rows.shape[1] - 4
    epoch, count, known = state(conn, model)
    if count and known != dim:
        raise ValueError(f"{model} vectors have {dim} dimensions, the index holds {known}")
    name, path = _name(conn, model, epoch)
    offset = count * (dim + 4)
    data = rows.astype("int8", copy=False).tobytes()
    if path is None:
        buffer = _MEMORY.setdefault(name, bytearray())
        del buffer[offset:]
        buffer += data
    else:
        ensure_private_dir(path.parent)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            os.ftruncate(fd, offset)  # slots of a pass that never committed: written again here
            os.pwrite(fd, data, offset)
            os.fdatasync(fd)
        finally:
            os.close(fd)
    conn.executemany(
        "INSERT OR REPLACE INTO vector(hash, model, dim, slot) VALUES (?, ?, ?, ?)",
        [(h, model, dim, count + i) for i, h in enumerate(hashes)],
    )
    _set_state(conn, model, epoch, count + len(hashes), dim)


def intact(conn: sqlite3.Connection, model: str) -> bool:
    """Whether `model`'s file holds every slot the index committed (one stat)."""
    epoch, count, dim = state(conn, model)
    if not count:
        return True
    name, path = _name(conn, model, epoch)
    return _size(name, path) >= count * (dim + 4)


def check(conn: sqlite3.Connection, model: str) -> bool:
    """Drop `model`'s vectors when its file no longer holds every committed slot (inside the caller's
    transaction); True when they were dropped. The next embedding pass makes them again."""
    if intact(conn, model):
        return False
    epoch, count, dim = state(conn, model)
    name, path = _name(conn, model, epoch)
    log.info("the vector file %s lost slots; its %d vectors are embedded again", path or name, count)
    conn.execute("DELETE FROM vector WHERE model = ?", (model,))
    conn.execute("DELETE FROM meta WHERE key = ?", (f"vectors_complete:{model}",))
    _set_state(conn, model, epoch + 1, 0, dim)  # a new file: nothing of the old one is ever read
    return True


def read(conn: sqlite3.Connection, model: str) -> tuple[np.ndarray, np.ndarray] | None:
    """(int8 slots, float32 scales) of `model` as the index has committed them (the slots memory-mapped);
    None when the file is missing or short (the next index embeds them again). Call it in the same
    read transaction as the rows that point into it."""
    import numpy as np

    epoch, count, dim = state(conn, model)
    if not count:
        return np.zeros((0, max(dim, 1)), np.int8), np.zeros(0, np.float32)
    name, path = _name(conn, model, epoch)
    width = dim + 4
    if _size(name, path) < count * width:
        return None
    if path is None:
        raw = np.frombuffer(bytes(_MEMORY[name][: count * width]), dtype=np.int8).reshape(count, width)
    else:
        try:
            raw = np.memmap(path, dtype=np.int8, mode="r", shape=(count, width))
        except (OSError, ValueError):  # removed by a compaction since the state was read
            return None
    scales = np.ascontiguousarray(raw[:, dim:]).view(np.float32).reshape(-1)
    return raw[:, :dim], scales


def compact(conn: sqlite3.Connection, model: str) -> None:
    """Rewrite `model`'s file with only the slots rows still point at, when they are under half of
    it (under the writer lease, outside a transaction). Renumbered rows and the new epoch commit
    together; the old file is removed after."""
    from recollect.index.store import transaction

    epoch, count, dim = state(conn, model)
    live = conn.execute("SELECT hash, slot FROM vector WHERE model = ? ORDER BY slot", (model,)).fetchall()
    if count < 1024 or len(live) * 2 > count:
        return
    current = read(conn, model)
    if current is None:
        return
    import numpy as np

    matrix, scales = current
    slots = np.fromiter((slot for _, slot in live), np.int64, count=len(live))
    rows = np.concatenate([np.asarray(matrix[slots]), scales[slots].reshape(-1, 1).view(np.int8)], axis=1)
    new_name, new_path = _name(conn, model, epoch + 1)
    old_name, old_path = _name(conn, model, epoch)
    if new_path is None:
        _MEMORY[new_name] = bytearray(rows.tobytes())
    else:
        with open(new_path, "wb") as f:
            f.write(rows.tobytes())
            f.flush()
            os.fdatasync(f.fileno())
    from recollect.index.vectors import bump_generation

    with transaction(conn):
        conn.executemany(
            "UPDATE vector SET slot = ? WHERE hash = ? AND model = ?", [(i, h, model) for i, (h, _) in enumerate(live)]
        )
        _set_state(conn, model, epoch + 1, len(live), dim)
        bump_generation(conn)  # row maps cached by generation hold the old slot numbers
    if old_path is None:
        _MEMORY.pop(old_name, None)
    else:
        old_path.unlink(missing_ok=True)


def remove_stale(conn: sqlite3.Connection, models: list[str]) -> None:
    """Remove vector files no model in use points at: other epochs, other models, an index deleted and
    rebuilt in the same place (another index id)."""
    path = _index_path(conn)
    if not path:
        return
    keep = {_name(conn, m, state(conn, m)[0])[0] for m in models}
    for file in directory(Path(path)).glob(f"*{SUFFIX}"):
        if file.name not in keep:
            file.unlink(missing_ok=True)
