"""Which memory roots a call can see, and one consistent read of them.

`MemorySpace` is the global root plus (when there is one) the project's `.memory/` root and the
`[memory]` settings; `View` is everything read from them for one operation, with the rules that
decide what may surface: status, validity times, tombstones, and "project wins on conflict"
(except that global hard rules always stay). This module never writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np

from recollect.config import Paths, load_config, resolve_paths
from recollect.memory.catalog import Loaded, RootContents, load_root
from recollect.memory.compile import is_hard_rule, standing
from recollect.memory.files import (
    PROJECT_DIR_NAME,
    InvalidMemory,
    Memory,
    MemoryNotFound,
    MemoryRoot,
    Scope,
    find_project_root,
    split_id,
)
from recollect.memory.settings import RULES_CATEGORY, MemorySettings
from recollect.memory.state import read_hits
from recollect.memory.tombstones import Tombstone, read_tombstones

# Effective statuses beyond the written ones: "forgotten" (a file whose id is tombstoned, e.g.
# brought back by a sync) and "pending" (valid_from is still in the future).
SURFACING = "active"

# The roots in the order a lookup tries them.
NEAREST_FIRST: tuple[Scope, ...] = ("project", "global")


@dataclass(frozen=True)
class MemorySpace:
    global_root: MemoryRoot
    project_root: MemoryRoot | None
    settings: MemorySettings = field(default_factory=MemorySettings)
    cache_dir: Path | None = None  # where the parse cache sidecars go; None disables them

    def roots(self) -> list[MemoryRoot]:
        """Project first: on an id conflict it is the one that counts."""
        return [r for r in (self.project_root, self.global_root) if r is not None]

    def root(self, scope: Scope | None = None) -> MemoryRoot:
        if scope is None:
            return self.project_root or self.global_root
        if scope == "global":
            return self.global_root
        if self.project_root is None:
            raise InvalidMemory(
                "not inside a project (no git work tree found): use the global root, or run from a project"
            )
        return self.project_root


def open_memory(
    cwd: Path | None = None,
    *,
    project: Path | None = None,
    no_project: bool = False,
    paths: Paths | None = None,
    settings: MemorySettings | None = None,
) -> MemorySpace:
    """The roots seen from `cwd`: the global root, and `<git work tree top>/.memory/` when inside one.

    `project` names a project directory explicitly (its git top if it has one, else itself);
    `no_project` limits the space to the global root.
    """
    paths = paths or resolve_paths()
    if settings is None:
        settings = MemorySettings.from_section(load_config(paths).section("memory"))
    project_dir: Path | None = None
    if not no_project:
        if project is not None:
            project_dir = find_project_root(project) or project.resolve()
        else:
            project_dir = find_project_root(cwd or Path.cwd())
    return MemorySpace(
        global_root=MemoryRoot(paths.global_memory, "global"),
        project_root=MemoryRoot(project_dir / PROJECT_DIR_NAME, "project") if project_dir else None,
        settings=settings,
        cache_dir=paths.cache_dir,
    )


def parse_ref(ref: str) -> tuple[Scope | None, str]:
    """`pitfalls/x`, `project:pitfalls/x` or `global:pitfalls/x` -> (scope or None, id)."""
    scope: Scope | None = None
    text = ref.strip()
    for prefix in ("project", "global"):
        if text.startswith(prefix + ":"):
            scope = prefix  # type: ignore[assignment]
            text = text[len(prefix) + 1 :]
    split_id(text)
    return scope, text


def effective_status(memory: Memory, now: datetime, tombstoned: bool = False) -> str:
    """What a memory is now, as opposed to what its file says."""
    if tombstoned:
        return "forgotten"
    written = standing(memory)
    if written != "active":
        return written
    return _by_clock(memory, now)


def _by_clock(memory: Memory, now: datetime) -> str:
    if memory.valid_to is not None and memory.valid_to <= now:
        return "expired"
    if memory.valid_from is not None and memory.valid_from > now:
        return "pending"
    return "active"


@dataclass
class View:
    """One read of every root in a space, for one operation."""

    space: MemorySpace
    now: datetime
    contents: dict[Scope, RootContents]
    tombstones: dict[Scope, dict[str, Tombstone]]
    hits: dict[Scope, dict[str, int]]
    _eligible: dict[Scope, np.ndarray] = field(default_factory=dict, repr=False)

    def entries(self) -> list[Loaded]:
        return [e for scope in NEAREST_FIRST if scope in self.contents for e in self.contents[scope].entries]

    def status(self, memory: Memory) -> str:
        return effective_status(memory, self.now, memory.id in self.tombstones.get(memory.scope, {}))

    def shadowed(self, memory: Memory) -> bool:
        """A global memory hidden by a project file with the same id (global hard rules never are)."""
        if memory.scope != "global" or "project" not in self.contents:
            return False
        if memory.category == RULES_CATEGORY and is_hard_rule(memory):
            return False
        return memory.id in self.contents["project"].by_id

    def eligible(self, scope: Scope) -> np.ndarray:
        """Row mask of the memories of `scope` that may surface now: the rules of `status` and
        `shadowed`, as one vectorized pass (recall runs it on every query)."""
        cached = self._eligible.get(scope)
        if cached is not None:
            return cached
        contents = self.contents[scope]
        columns, position = contents.columns, contents.position
        mask = columns.active.copy()
        for memory_id in self.tombstones.get(scope, {}):
            row = position.get(memory_id)
            if row is not None:
                mask[row] = False
        for row in columns.bounded:
            if mask[row] and _by_clock(contents.order[row].memory, self.now) != SURFACING:
                mask[row] = False
        if scope == "global" and "project" in self.contents:
            # Shadowed by the project's file with the same id; a global hard rule never is.
            project_files = self.contents["project"].files
            for memory_id, row in position.items():
                if memory_id in project_files and not columns.rule[row]:
                    mask[row] = False
        self._eligible[scope] = mask
        return mask

    def surfaces(self, memory: Memory) -> bool:
        """Whether recall and injection may return it: active, valid now, not forgotten, not shadowed."""
        contents = self.contents.get(memory.scope)
        row = contents.position.get(memory.id) if contents else None
        return (
            row is not None
            and contents is not None
            and contents.order[row].memory is memory
            and bool(self.eligible(memory.scope)[row])
        )

    def find(self, ref: str) -> Loaded:
        scope, memory_id = parse_ref(ref)
        for root_scope in ("project", "global"):
            if scope not in (None, root_scope) or root_scope not in self.contents:
                continue
            entry = self.contents[root_scope].by_id.get(memory_id)
            if entry is not None:
                return entry
        where = f"the {scope} root" if scope else "the project or global root"
        forgotten = [s for s in NEAREST_FIRST if memory_id in self.tombstones.get(s, {})]
        if forgotten:
            raise MemoryNotFound(f"{memory_id} was forgotten ({forgotten[0]} root); there is nothing to act on")
        raise MemoryNotFound(f"no memory {memory_id} in {where}; 'recollect memory list' shows the ids")


def load_view(space: MemorySpace, now: datetime, *, exact: bool = False) -> View:
    """Read every root. `exact` stats every file now; otherwise files edited in place by hand may
    take up to `rescan_seconds` to be noticed (creations, deletions and renames never do)."""
    rescan = 0.0 if exact else space.settings.rescan_seconds
    contents: dict[Scope, RootContents] = {}
    tombstones: dict[Scope, dict[str, Tombstone]] = {}
    hits: dict[Scope, dict[str, int]] = {}
    for root in space.roots():
        contents[root.scope] = load_root(root, space.cache_dir, rescan_seconds=rescan)
        tombstones[root.scope] = read_tombstones(root)
        hits[root.scope] = read_hits(root)
    return View(space, now, contents, tombstones, hits)
