"""What the memory operations return: entries, recall hits, write results, problems, inspections."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from recollect.memory.files import (
    Memory,
    Scope,
)
from recollect.memory.score import Why


def _with_memory(memory: Memory, **about: Any) -> dict[str, Any]:
    """A result about one memory: the memory's fields, what the result says about it, its qualified id."""
    return {**memory.to_dict(), **about, "qualified_id": memory.qualified_id}


@dataclass(frozen=True)
class MemoryEntry:
    """A memory with what it is now: its effective status, and whether a project file hides it."""

    memory: Memory
    status: str
    shadowed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return _with_memory(self.memory, effective_status=self.status, shadowed=self.shadowed)


@dataclass(frozen=True)
class Recalled:
    """A recall hit: the memory, its score, and why it matched (the query terms it shares)."""

    memory: Memory
    score: float
    why: Why

    def to_dict(self) -> dict[str, Any]:
        return _with_memory(self.memory, score=round(self.score, 6), why=self.why.to_dict())


Outcome = Literal["written", "proposed", "duplicate", "forgotten"]


@dataclass(frozen=True)
class RememberResult:
    outcome: Outcome
    id: str  # the id written, or the id the candidate would have had
    scope: Scope
    message: str  # one sentence for people (and models) saying what happened and why
    memory: Memory | None = None  # set when something was written
    similar_to: str | None = None  # qualified id of the duplicate, or of the tombstone that matched
    similarity: float = 0.0
    superseded: str | None = None  # the memory this write marked superseded
    # What a person's `force` would do ("re-add it", "add it anyway"), when it would write past this refusal.
    # Each surface names its own switch (`--force` on the command line); a model's write never has one.
    forceable: str | None = None

    @property
    def written(self) -> bool:
        return self.outcome in ("written", "proposed")

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "id": self.id,
            "scope": self.scope,
            "qualified_id": f"{self.scope}:{self.id}",
            "message": self.message,
            "similar_to": self.similar_to,
            "similarity": round(self.similarity, 4),
            "superseded": self.superseded,
            "forceable": self.forceable,
            "memory": self.memory.to_dict() if self.memory else None,
        }


@dataclass(frozen=True)
class Problem:
    scope: Scope
    path: str  # relative to the root
    code: str  # index-drift, root-drift, dangling-supersedes, unknown-category, no-frontmatter, …
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"scope": self.scope, "path": self.path, "code": self.code, "message": self.message}


@dataclass
class Inspection:
    roots: list[dict[str, Any]] = field(default_factory=list)
    memories: list[MemoryEntry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "roots": self.roots,
            "memories": [m.to_dict() for m in self.memories],
            "problems": [p.to_dict() for p in self.problems],
            "ok": self.ok,
        }


@dataclass(frozen=True)
class ForgetResult:
    id: str
    scope: Scope
    message: str

    @property
    def qualified_id(self) -> str:
        return f"{self.scope}:{self.id}"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "scope": self.scope, "qualified_id": self.qualified_id, "message": self.message}
