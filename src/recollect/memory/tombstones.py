"""Tombstones: what was forgotten stays forgotten.

Owns `tombstones.jsonl` inside each root (tracked by git, merged by union, append-only). A
tombstone keeps the id and a fingerprint of the forgotten memory's terms — short hashes, not the
words — so a re-extraction of the same text, or a file brought back by a sync, is recognised
without the forgotten text being kept. A person can lift a tombstone; that is appended too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import datetime

from recollect.memory.files import TOMBSTONE_FILE, MemoryRoot, append_jsonl, read_jsonl
from recollect.times import iso


@dataclass(frozen=True)
class Tombstone:
    id: str
    at: str
    by: str
    reason: str
    terms: frozenset[str]  # term fingerprints (see term_fingerprint)


def term_fingerprint(terms: Iterable[str]) -> frozenset[str]:
    """4-byte hashes of the distinct terms: enough to compare by Jaccard, not enough to read back."""
    return frozenset(hashlib.blake2b(t.encode("utf-8"), digest_size=4).hexdigest() for t in set(terms))


def add_tombstone(
    root: MemoryRoot, *, memory_id: str, terms: Iterable[str], by: str, reason: str, now: datetime
) -> None:
    append_jsonl(
        root.path / TOMBSTONE_FILE,
        {
            "op": "forget",
            "id": memory_id,
            "at": iso(now),
            "by": by,
            "reason": reason,
            "terms": sorted(term_fingerprint(terms)),
        },
    )


def lift_tombstone(root: MemoryRoot, *, memory_id: str, by: str, now: datetime) -> None:
    append_jsonl(root.path / TOMBSTONE_FILE, {"op": "lift", "id": memory_id, "at": iso(now), "by": by})


def read_tombstones(root: MemoryRoot) -> dict[str, Tombstone]:
    """The tombstones in force, by id: replayed in time order, since a union merge interleaves lines."""
    records = sorted(read_jsonl(root.path / TOMBSTONE_FILE), key=lambda r: str(r.get("at", "")))
    current: dict[str, Tombstone] = {}
    for record in records:
        memory_id = str(record.get("id", ""))
        if record.get("op") == "lift":
            current.pop(memory_id, None)
        elif record.get("op") == "forget" and memory_id:
            current[memory_id] = Tombstone(
                id=memory_id,
                at=str(record.get("at", "")),
                by=str(record.get("by", "")),
                reason=str(record.get("reason", "")),
                terms=frozenset(str(t) for t in record.get("terms", []) or []),
            )
    return current


def jaccard(a: AbstractSet[str], b: AbstractSet[str]) -> float:
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)
