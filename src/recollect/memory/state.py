"""Rehearsal counters: how often recall returned each memory, in the root's `.state.json`.

Owns that file only. It is git-ignored on purpose (counting on every recall would make every
cross-device sync conflict); losing it costs ranking, never a memory.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable

from recollect.memory.files import STATE_FILE, MemoryRoot, root_lock, write_text_atomic


def read_hits(root: MemoryRoot) -> dict[str, int]:
    try:
        raw = json.loads((root.path / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    hits = raw.get("hits") if isinstance(raw, dict) else None
    if not isinstance(hits, dict):
        return {}
    return {str(k): int(v) for k, v in hits.items() if isinstance(v, int) and not isinstance(v, bool)}


def add_hits(root: MemoryRoot, memory_ids: Iterable[str]) -> None:
    ids = list(memory_ids)
    if not ids or not root.path.is_dir():
        return
    with root_lock(root):
        hits = read_hits(root)
        for memory_id in ids:
            hits[memory_id] = hits.get(memory_id, 0) + 1
        with contextlib.suppress(OSError):  # counters are a ranking hint, not worth failing a recall
            _write(root, hits)


def drop_hits(root: MemoryRoot, memory_id: str) -> None:
    hits = read_hits(root)
    if memory_id in hits:
        del hits[memory_id]
        with contextlib.suppress(OSError):
            _write(root, hits)


def _write(root: MemoryRoot, hits: dict[str, int]) -> None:
    # Compact on purpose: json's indent switches to its slow pure-Python encoder.
    text = json.dumps({"hits": dict(sorted(hits.items()))}, separators=(",", ":")) + "\n"
    write_text_atomic(root.path / STATE_FILE, text)
