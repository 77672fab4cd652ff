"""Compiling the derived files (index.md, ROOT.md) and inspecting a space for problems."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from recollect.memory.catalog import RootContents, load_root
from recollect.memory.compile import CompiledFile, is_hard_rule, listed_slugs, plan_compile, write_compiled
from recollect.memory.files import (
    ROOT_FILE,
    InvalidMemory,
    MemoryRoot,
    root_lock,
    utcnow,
)
from recollect.memory.results import Inspection, MemoryEntry, Problem
from recollect.memory.settings import RULES_CATEGORY
from recollect.memory.space import MemorySpace, load_view
from recollect.memory.succession import honour_hand_successions, successions
from recollect.memory.tombstones import Tombstone, read_tombstones
from recollect.memory.write import memory_text, secret_location

# A problem found at a path: (path, code, message).
Report = Callable[[Any, str, str], None]


def compile_memory(space: MemorySpace, *, check: bool = False) -> list[str]:
    """Regenerate every root's index.md files and ROOT.md tables; returns the files that changed.

    With `check`, nothing is written and the result names the files that would change.
    Roots that do not exist yet are skipped (compiling never creates a root).
    """
    changed: list[str] = []
    if not check:
        honour_hand_successions(space, utcnow(), exact=True)
    for root in space.roots():
        if not root.path.is_dir():
            continue
        memories = [e.memory for e in load_root(root, space.cache_dir, rescan_seconds=0).entries]
        planned: list[CompiledFile] = plan_compile(
            root, memories, space.settings.categories, set(read_tombstones(root))
        )
        if check:
            changed.extend(str(p.path) for p in planned if p.stale)
        else:
            with root_lock(root):
                changed.extend(str(p) for p in write_compiled(planned))
    return changed


def _rel(root: MemoryRoot, path: Any) -> str:
    try:
        return str(path.relative_to(root.path))
    except ValueError:
        return str(path)


def inspect(space: MemorySpace, *, now: datetime | None = None) -> Inspection:
    """Every memory with its effective status, and a consistency self-check of every root."""
    now = now or utcnow()
    view = load_view(space, now, exact=True)
    result = Inspection()
    for root in space.roots():
        contents = view.contents[root.scope]
        result.roots.append(
            {
                "scope": root.scope,
                "path": str(root.path),
                "exists": root.path.is_dir(),
                "memories": len(contents.entries),
            }
        )
        if not root.path.is_dir():
            continue
        tombs = view.tombstones.get(root.scope, {})

        def problem(path: Any, code: str, message: str, root: MemoryRoot = root) -> None:
            result.problems.append(Problem(root.scope, _rel(root, path), code, message))

        _check_files(space, root, contents, tombs, problem)
        _check_compiled(space, root, contents, tombs, problem)
        for entry in contents.entries:
            memory = entry.memory
            result.memories.append(MemoryEntry(memory, view.status(memory), view.shadowed(memory)))
    return result


def _check_files(
    space: MemorySpace, root: MemoryRoot, contents: RootContents, tombs: Mapping[str, Tombstone], problem: Report
) -> None:
    """The problems of a root's files: names, categories, successions, frontmatter, lifecycle, secrets."""
    for path in contents.bad_names:
        problem(path, "bad-file-name", "file name is not a memory id (lowercase letters, digits, '-', '_'); rename it")
    for directory in root.category_dirs():
        if directory.name not in space.settings.categories and any(directory.glob("*.md")):
            problem(
                directory,
                "unknown-category",
                f"category {directory.name!r} is not configured ({', '.join(space.settings.categories)}); "
                "rename the directory or add it to [memory] categories",
            )
    ids = contents.by_id
    for item in successions(contents, set(tombs)):
        if item.problem is not None:
            code = "dangling-supersedes" if item.target is None else "unresolved-supersedes"
            problem(item.successor.path, code, item.problem)
    for entry in contents.entries:
        memory = entry.memory
        for text in memory.problems:
            code = "no-frontmatter" if not memory.has_frontmatter else "bad-frontmatter"
            problem(memory.path, code, text)
        if memory.superseded_by and memory.superseded_by not in ids and memory.superseded_by not in tombs:
            problem(memory.path, "dangling-supersedes", f"superseded_by {memory.superseded_by}, which does not exist")
        if memory.status == "superseded" and not memory.superseded_by:
            problem(memory.path, "dangling-supersedes", "status is superseded but superseded_by names no successor")
        if memory.id in tombs:
            problem(
                memory.path,
                "forgotten-file",
                f"{memory.id} was forgotten {tombs[memory.id].at}; it is hidden. Delete the file, "
                "or re-add it on purpose with 'recollect memory add --force'",
            )
        if memory.category == RULES_CATEGORY and memory.status == "active" and not is_hard_rule(memory):
            problem(
                memory.path,
                "unreviewed-rule",
                "a model wrote this rule as active; it counts as a proposal until reviewed",
            )
        where = secret_location(memory_text(memory))  # the cached parse: no file read
        if where:
            problem(memory.path, "secret", f"{where}; remove it from the file")


def _check_compiled(
    space: MemorySpace, root: MemoryRoot, contents: RootContents, tombs: Mapping[str, Tombstone], problem: Report
) -> None:
    """Derived files (ROOT.md, index.md) that no longer match the memories."""
    try:
        planned = plan_compile(root, [e.memory for e in contents.entries], space.settings.categories, set(tombs))
    except InvalidMemory as exc:
        problem(root.path / ROOT_FILE, "root-broken", str(exc))
        planned = []
    for compiled in planned:
        if not compiled.stale:
            continue
        if compiled.path.name == ROOT_FILE:
            problem(
                compiled.path,
                "root-drift",
                "ROOT.md's generated tables are out of date; run 'recollect memory compile'",
            )
            continue
        want, have = set(listed_slugs(compiled.text)), set(listed_slugs(compiled.current or ""))
        detail = []
        if want - have:
            detail.append("missing " + ", ".join(sorted(want - have)))
        if have - want:
            detail.append("lists absent " + ", ".join(sorted(have - want)))
        problem(
            compiled.path,
            "index-drift",
            f"index.md is out of date ({'; '.join(detail) or 'lines differ'}); run 'recollect memory compile'",
        )
