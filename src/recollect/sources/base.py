"""The source protocol: how an agent's own store is read, always read-only.

A source is an adapter. It lists its sessions cheaply with a watermark each (`scan`), and reads
whole sessions on demand (`read_sessions`). The sync engine compares watermarks with the index
and re-reads only what changed; a session missing from a scan is gone and is dropped.

A source must never write its store, must turn an unreadable store into `SourceError` with a
message a person can act on (never an empty scan), and must count what it skipped
(`Session.malformed`) rather than crash.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from recollect.model import ScanResult, Session
from recollect.sources.guard import Guarded


class Source(Protocol):
    id: str  # unique among configured sources; qualifies ids and cursors ("claude::<uuid>")
    kind: str  # opencode | claude-code | codex | gemini
    location: Path  # the store: a file or a directory
    # Sessions `read_sessions` found but could not read (permissions, I/O errors), with why: a sync
    # keeps what it indexed of them and reports them, rather than taking them for deleted.
    unreadable: dict[str, str]

    def scan(self) -> ScanResult: ...

    def read_sessions(self, ids: Iterable[str]) -> Iterator[Session]:
        """Sessions for `ids`, in any order; ids that vanished since the scan are skipped, ids that
        are there but cannot be read are skipped and recorded in `unreadable`."""
        ...


@dataclass
class SourceSpec:
    """One configured or discovered source, before it is opened."""

    id: str
    kind: str
    path: Path
    enabled: bool = True
    discovered: bool = False  # found by default discovery rather than listed in config
    options: dict[str, object] = field(default_factory=dict)


SourceFactory = Callable[[SourceSpec], Source]
Discoverer = Callable[[], list[SourceSpec]]

# Built-in sources register here exactly as a third-party one would.
FACTORIES: dict[str, SourceFactory] = {}
DISCOVERERS: dict[str, Discoverer] = {}


def register(kind: str, factory: SourceFactory, discover: Discoverer | None = None) -> None:
    FACTORIES[kind] = factory
    if discover is not None:
        DISCOVERERS[kind] = discover


def open_source(spec: SourceSpec) -> Source:
    try:
        factory = FACTORIES[spec.kind]
    except KeyError:
        known = ", ".join(sorted(FACTORIES)) or "none"
        raise ValueError(f"unknown source kind {spec.kind!r} for source {spec.id!r} (known: {known})") from None
    # Every source, built-in or not, is read through the guard: a bad record costs at most its session.
    return Guarded(factory(spec))
