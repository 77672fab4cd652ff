"""Succession: one memory replacing another, whether through the API or written by hand.

Markdown is the human interface, so a person may write a new memory whose frontmatter says
`supersedes: decisions/old-id` and expect the old one to stop surfacing. `honour_hand_successions`
finds such successors that the old file does not yet acknowledge and marks the old file
`superseded_by`, with an audit entry, exactly as `memory add --supersedes` would. Recall, injection
and compile call it first, so a hand edit takes effect at the next one of them.

`succession_problems` explains the successions that cannot be honoured (a missing target, a
cycle, another root, a hard rule a model tries to replace) for `memory inspect`.

Never touches a successor itself, and never marks anything that is not active as written.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from recollect.memory import audit
from recollect.memory.catalog import RootContents, forget_cached, load_root
from recollect.memory.compile import is_hard_rule, standing
from recollect.memory.files import Memory, MemoryRoot, render_memory, root_lock, write_text_atomic
from recollect.memory.space import MemorySpace
from recollect.memory.tombstones import read_tombstones


@dataclass(frozen=True)
class Succession:
    successor: Memory
    target_ref: str  # as written in the successor's frontmatter
    target: Memory | None  # None when it names nothing in the successor's root
    problem: str | None  # why it cannot be honoured; None when it can (or already is)

    @property
    def pending(self) -> bool:
        """Honourable and not yet written into the old file."""
        return self.problem is None and self.target is not None and self.target.superseded_by is None


def mark_superseded(root: MemoryRoot, old: Memory, new_id: str, *, actor: str, now: datetime) -> None:
    """Write `superseded_by` into the old file and log it. The caller holds the root's lock."""
    before = old.path.read_text(encoding="utf-8")
    updated = replace(old, status="superseded", superseded_by=new_id, updated=now, extra=dict(old.extra))
    after = render_memory(updated)
    write_text_atomic(old.path, after)
    forget_cached(root, old.id)
    audit.record(
        root, actor=actor, op="supersede", memory_id=old.id, before=before, after=after, now=now, note=f"by {new_id}"
    )


def _target_id(ref: str, scope: str) -> tuple[str, str | None]:
    """`decisions/x` or `project:decisions/x` -> (id, problem when it names another root)."""
    prefix, sep, rest = ref.partition(":")
    if sep and prefix in ("project", "global"):
        if prefix != scope:
            return (
                rest,
                f"supersedes {ref}, which is in the {prefix} root; a memory can only supersede one in its own root",
            )
        return rest, None
    return ref, None


def _in_cycle(start: str, edges: dict[str, list[str]]) -> bool:
    """Whether following `supersedes` from `start` comes back to it (A replaces B replaces A)."""
    seen: set[str] = set()
    stack = list(edges.get(start, []))
    while stack:
        node = stack.pop()
        if node == start:
            return True
        if node in seen:
            continue
        seen.add(node)
        stack.extend(edges.get(node, []))
    return False


def successions(contents: RootContents, tombstoned: set[str]) -> list[Succession]:
    """Every succession the active memories of one root declare, honourable or not."""
    files = contents.by_id
    live = [e.memory for e in contents.entries if standing(e.memory) == "active" and e.memory.id not in tombstoned]
    edges = {m.id: [_target_id(ref, m.scope)[0] for ref in m.supersedes] for m in live}
    out: list[Succession] = []
    for memory in live:
        for ref in memory.supersedes:
            target_id, problem = _target_id(ref, memory.scope)
            entry = files.get(target_id)
            target = entry.memory if entry is not None else None
            if problem is None:
                problem = _why_not(memory, ref, target, target_id, tombstoned, edges)
            out.append(Succession(memory, ref, target, problem))
    return out


def _why_not(
    successor: Memory,
    ref: str,
    target: Memory | None,
    target_id: str,
    tombstoned: set[str],
    edges: dict[str, list[str]],
) -> str | None:
    if target is None:
        return None if target_id in tombstoned else f"supersedes {ref}, which does not exist"
    if target.id == successor.id:
        return "supersedes itself"
    if target.superseded_by is not None:
        if target.superseded_by == successor.id:
            return None
        return f"supersedes {ref}, which {target.superseded_by} already superseded"
    if standing(target) not in ("active", "proposed"):
        return None  # rejected or expired: nothing left to replace
    if _in_cycle(successor.id, edges):
        return f"supersedes {ref}, which (through its own supersedes) supersedes this memory: break the cycle"
    if is_hard_rule(target) and not (successor.by_person or successor.reviewed_by):
        return f"supersedes the hard rule {ref}, but only a person may replace a hard rule"
    return None


def honour_hand_successions(space: MemorySpace, now: datetime, *, exact: bool = False) -> list[str]:
    """Mark every old memory a hand-written successor replaces; returns the qualified ids marked.

    Cheap when there is nothing to do: one cached load per root and no write. Like `load_view`,
    a file edited in place may take `rescan_seconds` to be noticed unless `exact`.
    """
    rescan = 0.0 if exact else space.settings.rescan_seconds
    marked: list[str] = []
    for root in space.roots():
        if not root.path.is_dir():
            continue
        contents = load_root(root, space.cache_dir, rescan_seconds=rescan)
        if not any(s.pending for s in successions(contents, set(read_tombstones(root)))):
            continue
        with root_lock(root):
            # Re-read under the lock: another process may have honoured them meanwhile.
            contents = load_root(root, space.cache_dir, rescan_seconds=0.0)
            for item in successions(contents, set(read_tombstones(root))):
                if item.pending and item.target is not None:
                    mark_superseded(root, item.target, item.successor.id, actor=item.successor.author, now=now)
                    marked.append(item.target.qualified_id)
    return marked
