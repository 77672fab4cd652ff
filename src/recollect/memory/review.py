"""Review: a person accepts, rejects or edits what a model proposed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from recollect.memory import audit
from recollect.memory.catalog import Loaded, forget_cached, load_memory_file
from recollect.memory.files import (
    InvalidMemory,
    Memory,
    NotAllowed,
    check_author,
    is_person,
    render_memory,
    root_lock,
    utcnow,
    write_text_atomic,
)
from recollect.memory.space import MemorySpace, load_view
from recollect.memory.succession import mark_superseded
from recollect.memory.write import as_time, check_no_secrets, memory_text, recompile


def _require_person(who: str, action: str) -> None:
    check_author(who)
    if not is_person(who):
        raise NotAllowed(f"only a person can {action}; models propose, people decide")


def _rewrite(
    space: MemorySpace, entry: Loaded, updated: Memory, *, actor: str, op: str, note: str, now: datetime
) -> Memory:
    root = space.root(entry.memory.scope)
    with root_lock(root):
        before = entry.memory.path.read_text(encoding="utf-8")
        after = render_memory(updated)
        write_text_atomic(updated.path, after)
        forget_cached(root, updated.id)
        audit.record(root, actor=actor, op=op, memory_id=updated.id, before=before, after=after, now=now, note=note)
        if op == "accept":
            # A proposal's supersedes waits for acceptance: apply it now.
            for old_id in updated.supersedes:
                path = root.file_for(old_id)
                old = load_memory_file(path, old_id, root).memory if path.is_file() else None
                if old is not None and old.status == "active" and not old.superseded_by:
                    mark_superseded(root, old, updated.id, actor=actor, now=now)
        recompile(space, root, {updated.category, *(i.split("/", 1)[0] for i in updated.supersedes)})
    return updated


def accept(
    space: MemorySpace, ref: str, *, reviewer: str = "person", note: str = "", now: datetime | None = None
) -> Memory:
    """A person accepts a proposal: it becomes active (and what it supersedes, superseded)."""
    now = now or utcnow()
    _require_person(reviewer, "accept a proposal")
    view = load_view(space, now, exact=True)
    entry = view.find(ref)
    if view.status(entry.memory) != "proposed":
        raise InvalidMemory(f"{entry.memory.id} is {view.status(entry.memory)}, not a proposal; nothing to accept")
    memory = entry.memory
    check_no_secrets(memory_text(memory))
    updated = replace(
        memory,
        status="active",
        reviewed_by=reviewer,
        reviewed_at=now,
        review_note=note or None,
        updated=now,
        extra=dict(memory.extra),
    )
    return _rewrite(space, entry, updated, actor=reviewer, op="accept", note=note, now=now)


def reject(
    space: MemorySpace, ref: str, *, reason: str, reviewer: str = "person", now: datetime | None = None
) -> Memory:
    """A person rejects a proposal, with a reason; the file stays (status rejected) so it is not proposed again."""
    now = now or utcnow()
    _require_person(reviewer, "reject a proposal")
    if not reason.strip():
        raise InvalidMemory("a rejection needs a reason (it is kept in the file and the audit log)")
    view = load_view(space, now, exact=True)
    entry = view.find(ref)
    if view.status(entry.memory) != "proposed":
        raise InvalidMemory(f"{entry.memory.id} is {view.status(entry.memory)}, not a proposal; nothing to reject")
    memory = entry.memory
    updated = replace(
        memory,
        status="rejected",
        reviewed_by=reviewer,
        reviewed_at=now,
        review_note=reason.strip(),
        extra=dict(memory.extra),
    )
    return _rewrite(space, entry, updated, actor=reviewer, op="reject", note=reason.strip(), now=now)


_UNSET: Any = object()


def edit(
    space: MemorySpace,
    ref: str,
    *,
    author: str = "person",
    summary: str | None = None,
    body: str | None = None,
    highlight: str | None = None,
    load_when: Sequence[str] | None = None,
    pinned: bool | None = None,
    valid_from: datetime | str | None = _UNSET,
    valid_to: datetime | str | None = _UNSET,
    now: datetime | None = None,
) -> Memory:
    """A person changes a memory's text or fields in place (None leaves a field as it is)."""
    now = now or utcnow()
    _require_person(author, "edit a memory (a model supersedes instead)")
    view = load_view(space, now, exact=True)
    entry = view.find(ref)
    memory = entry.memory
    changes: dict[str, Any] = {}
    if summary is not None:
        if not summary.strip():
            raise InvalidMemory("summary cannot be empty")
        changes["summary"] = summary.strip()
    if body is not None:
        changes["body"] = body.strip("\n")
    if highlight is not None:
        changes["highlight"] = highlight.strip()
    if load_when is not None:
        changes["load_when"] = [w.strip() for w in load_when if w.strip()]
    if pinned is not None:
        changes["pinned"] = pinned
    if valid_from is not _UNSET:
        changes["valid_from"] = as_time(valid_from, "valid_from")
    if valid_to is not _UNSET:
        changes["valid_to"] = as_time(valid_to, "valid_to")
    if not changes:
        raise InvalidMemory("nothing to change: give at least one field")
    check_no_secrets({k: v for k, v in changes.items() if k in ("summary", "body", "highlight", "load_when")})
    updated = replace(memory, updated=now, extra=dict(memory.extra), **changes)
    return _rewrite(space, entry, updated, actor=author, op="edit", note=", ".join(sorted(changes)), now=now)
