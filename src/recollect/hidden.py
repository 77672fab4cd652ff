"""Sessions a person has hidden: kept as tombstones outside the disposable index.

Owns `hidden.jsonl` in recollect's data dir (owner-only, append-only): one line per `hide` or
`unhide`, replayed in order. The index can be deleted and rebuilt, and a source re-synced, without
a hidden session coming back, because no read path asks the index whether a session is hidden: the
scope predicate (`search.scope.predicate`) reads this file. The file names sessions by their
qualified id (`source::native`); it never holds a session's text.

Kept free of heavy imports: every search reads it.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HIDDEN_FILE = "hidden.jsonl"


@dataclass(frozen=True)
class HiddenSession:
    session: str  # qualified id: source::native
    at: str  # ISO time, UTC
    by: str  # person | person:<name>
    why: str

    @property
    def key(self) -> tuple[str, str]:
        source, native = self.session.split("::", 1)
        return source, native

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def hidden_file(data_dir: Path) -> Path:
    return data_dir / HIDDEN_FILE


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def append(data_dir: Path, record: dict[str, Any]) -> None:
    """Append one record, creating the dir (0700) and the file (0600) owner-only."""
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = hidden_file(data_dir)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
    os.chmod(path, 0o600)  # a file made by hand, or by an older version, is tightened too
    _CACHE.clear()


# (path, mtime_ns, size) -> hidden sessions; a search reads the file at most once per change.
_CACHE: dict[tuple[str, int, int], dict[str, HiddenSession]] = {}


def read_hidden(data_dir: Path) -> dict[str, HiddenSession]:
    """The sessions hidden now, by qualified id (a torn or hand-mangled line is skipped)."""
    path = hidden_file(data_dir)
    try:
        stat = path.stat()
    except FileNotFoundError:
        return {}
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    current: dict[str, HiddenSession] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        with contextlib.suppress(json.JSONDecodeError, TypeError, AttributeError):
            record = json.loads(line)
            session = str(record.get("session", ""))
            if "::" not in session:
                continue
            if record.get("op") == "unhide":
                current.pop(session, None)
            elif record.get("op") == "hide":
                current[session] = HiddenSession(
                    session=session,
                    at=str(record.get("at", "")),
                    by=str(record.get("by", "")),
                    why=str(record.get("why", "")),
                )
    _CACHE.clear()
    _CACHE[key] = current
    return current


def hidden_keys(data_dir: Path) -> frozenset[tuple[str, str]]:
    """(source, native id) of every hidden session: what the scope predicate leaves out."""
    return frozenset(h.key for h in read_hidden(data_dir).values())
