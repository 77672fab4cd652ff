"""The audit log: one JSON line per mutation of a memory root (who, when, what, before/after hash).

Owns `audit.jsonl` inside each root (tracked by git, merged by union). It records hashes and ids,
never memory text, so forgetting a memory does not leave its words behind here. It never
rewrites or truncates the log.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from recollect.memory.files import AUDIT_FILE, MemoryRoot, Scope, append_jsonl, read_jsonl
from recollect.times import iso


@dataclass(frozen=True)
class AuditEntry:
    at: str  # ISO time, UTC
    actor: str  # person | person:<name> | model | model:<id>
    op: str  # remember | update | forget | supersede | accept | reject | edit | lift-tombstone
    id: str
    scope: Scope
    before: str | None  # sha256 of the file before, None when it did not exist
    after: str | None  # sha256 of the file after, None when it was removed
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def content_hash(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


def record(
    root: MemoryRoot,
    *,
    actor: str,
    op: str,
    memory_id: str,
    before: str | None,
    after: str | None,
    now: datetime,
    note: str = "",
) -> AuditEntry:
    entry = AuditEntry(
        at=iso(now),
        actor=actor,
        op=op,
        id=memory_id,
        scope=root.scope,
        before=content_hash(before),
        after=content_hash(after),
        note=note,
    )
    record_dict = entry.to_dict()
    del record_dict["scope"]  # implied by the file's place
    append_jsonl(root.path / AUDIT_FILE, record_dict)
    return entry


def read_audit(root: MemoryRoot) -> list[AuditEntry]:
    entries: list[AuditEntry] = []
    for raw in read_jsonl(root.path / AUDIT_FILE):
        try:
            entries.append(
                AuditEntry(
                    at=str(raw["at"]),
                    actor=str(raw["actor"]),
                    op=str(raw["op"]),
                    id=str(raw["id"]),
                    scope=root.scope,
                    before=raw.get("before"),
                    after=raw.get("after"),
                    note=str(raw.get("note") or ""),
                )
            )
        except KeyError:
            continue  # a hand-mangled line is not worth failing the whole log for
    return entries
