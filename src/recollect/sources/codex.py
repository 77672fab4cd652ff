"""Codex CLI's rollouts, read-only: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl[.zst]`.

What it reads:
- Live rollouts under `sessions/` and archived ones under `archived_sessions/`. Codex compresses
  rollouts older than a week to `.jsonl.zst`; both forms are read, and a plain file wins over its
  compressed sibling while Codex is between the two (its own reader does the same).
- Each line is `{"timestamp", "type", "payload"}` with type `session_meta`, `response_item`,
  `compacted`, `turn_context` or `event_msg`; rollouts from before mid-2025 hold bare response
  items after a `{"id", "timestamp", "instructions"}` first line, and are read too.
- `response_item`s are the conversation (messages, reasoning, tool calls with JSON-in-a-string
  arguments, their outputs joined by `call_id`). `event_msg`s mostly repeat them, so they are used
  only to tell typed prompts from injected context, for titles, rollbacks and sub-agent links.

Forked and sub-agent rollouts open with a copy of the parent's history (its `session_meta`, turns
and messages, re-stamped). That copy is dropped: it is indexed once, in the parent. The copy ends
at the first turn whose UUIDv7 `turn_id` was minted after the child was created.

Never writes, renames or decompresses a rollout in place.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from recollect.model import ScanResult, Session, SessionStamp, SourceError
from recollect.sources.base import SourceSpec, register
from recollect.sources.codex_records import Builder, spawn_parent
from recollect.sources.codex_records import uuid7_ms as uuid7_ms  # named here too: the adapter's public helper
from recollect.sources.jsonl import (
    ZST_SUFFIX,
    first_records,
    newest_mtime,
    read_jsonl,
    readable,
    stat_mark,
    walk,
)

log = logging.getLogger(__name__)

KIND = "codex"
SOURCE_ID = "codex"
_HINT = "point the source at the Codex home ($CODEX_HOME, default ~/.codex) or its sessions/ folder"
_ROLLOUT_RE = re.compile(
    r"^rollout-.*?([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl(\.zst)?$"
)


def codex_home() -> Path:
    env = os.environ.get("CODEX_HOME")
    return Path(env).expanduser() if env else Path.home() / ".codex"


def discover() -> list[SourceSpec]:
    home = codex_home()
    if (home / "sessions").is_dir() or (home / "archived_sessions").is_dir():
        return [SourceSpec(id=SOURCE_ID, kind=KIND, path=home, discovered=True)]
    return []


@dataclass
class _Rollout:
    id: str
    path: Path
    archived: bool


class CodexSource:
    kind = KIND

    def __init__(self, spec: SourceSpec) -> None:
        self.id = spec.id
        self.unreadable: dict[str, str] = {}
        self.location = spec.path
        self._discovered = spec.discovered
        self._parents: dict[Path, str | None] = {}  # the session_meta line never changes

    def _roots(self) -> list[tuple[Path, bool]] | None:
        path = self.location
        if not path.exists():
            if self._discovered:
                return None
            raise SourceError(f"Codex store not found at {path}; {_HINT}", reason="missing")
        if not path.is_dir() or not os.access(path, os.R_OK | os.X_OK):
            raise SourceError(f"Codex store at {path} cannot be read; {_HINT}", reason="unreadable")
        roots = [(path / "sessions", False), (path / "archived_sessions", True)]
        found = [(root, archived) for root, archived in roots if root.is_dir()]
        if found:
            return found
        if path.name in ("sessions", "archived_sessions"):
            return [(path, path.name == "archived_sessions")]
        if self._discovered:
            return []
        raise SourceError(f"{path} has no sessions/ folder; {_HINT}", reason="missing")

    def _rollouts(self, roots: list[tuple[Path, bool]]) -> dict[str, _Rollout]:
        found: dict[str, _Rollout] = {}
        for root, archived in roots:
            for dirpath, dirnames, filenames in walk(root):
                dirnames.sort()
                names = set(filenames)
                for name in sorted(filenames):
                    match = _ROLLOUT_RE.match(name)
                    if match is None:
                        continue
                    if name.endswith(ZST_SUFFIX) and name[: -len(ZST_SUFFIX)] in names:
                        continue  # mid-compression: the plain file is still the truth
                    sid = match.group(1).lower()
                    current = found.get(sid)
                    # A rollout being archived can exist in both places for a moment: keep the live one.
                    if current is None or (current.archived and not archived):
                        found[sid] = _Rollout(id=sid, path=Path(dirpath) / name, archived=archived)
        return found

    def _parent_of(self, path: Path) -> str | None:
        if path not in self._parents:
            try:
                head = first_records(path, 1)
            except OSError:
                return None  # deleted or unreadable since the listing; the read will tell
            if not head:
                return None  # the first line is still being written: ask again next scan
            meta = head[0].get("payload") if head[0].get("type") == "session_meta" else None
            self._parents[path] = spawn_parent(meta) if isinstance(meta, dict) else None
        return self._parents[path]

    def scan(self) -> ScanResult:
        roots = self._roots()
        if roots is None:
            return ScanResult(stamps={})
        stamps: dict[str, SessionStamp] = {}
        problems: list[str] = []
        for rollout in self._rollouts(roots).values():
            try:
                if not readable(rollout.path):
                    problems.append(f"{rollout.path} is not readable; session {rollout.id} is left out")
                    continue
                mark = stat_mark(rollout.path)
            except FileNotFoundError:
                continue
            # The physical form is part of the mark: plain -> .zst re-reads once, which is cheap and safe.
            suffix = "z" if rollout.path.name.endswith(ZST_SUFFIX) else "p"
            stamps[rollout.id] = SessionStamp(
                id=rollout.id,
                watermark=f"{mark}:{suffix}",
                parent_id=self._parent_of(rollout.path),
                updated=newest_mtime([rollout.path]),
            )
        return ScanResult(stamps=stamps, problems=problems)

    def read_sessions(self, ids: Iterable[str]) -> Iterator[Session]:
        roots = self._roots()
        if roots is None:
            return
        rollouts = self._rollouts(roots)
        names = _thread_names(self.location / "session_index.jsonl")
        for sid in ids:
            rollout = rollouts.get(sid)
            if rollout is None:
                continue
            try:
                result = read_jsonl(rollout.path)
                mtime = rollout.path.stat().st_mtime_ns // 1_000_000
            except FileNotFoundError:
                continue
            except OSError as exc:
                log.warning("codex: cannot read session %s: %s", sid, exc)
                self.unreadable[sid] = str(exc)
                continue
            builder = Builder(sid, self.id, KIND)
            session = builder.build([record for _, record in result.records], [n for n, _ in result.records])
            session.malformed += result.malformed
            if not session.title:
                session.title = names.get(sid, "")
            if rollout.archived:
                session.time_archived = mtime
            if not session.time_created:
                session.time_created = session.time_updated = mtime
            yield session


def _thread_names(path: Path) -> dict[str, str]:
    """Thread names Codex keeps beside the rollouts (`session_index.jsonl`); the newest wins."""
    names: dict[str, str] = {}
    if not path.is_file():
        return names
    try:
        result = read_jsonl(path)
    except OSError:
        return names
    for _, record in result.records:
        sid, name = record.get("id"), record.get("thread_name")
        if isinstance(sid, str) and isinstance(name, str) and name.strip():
            names[sid.lower()] = name.strip()
    return names


register(KIND, CodexSource, discover)
