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

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from recollect.model import Session
from recollect.sources.base import SourceSpec, register
from recollect.sources.codex_records import Builder, spawn_parent
from recollect.sources.codex_records import uuid7_ms as uuid7_ms  # named here too: the adapter's public helper
from recollect.sources.jsonl import (
    ZST_SUFFIX,
    JsonlSource,
    SessionFile,
    first_records,
    read_jsonl,
    stat_mark,
    walk,
)

KIND = "codex"
SOURCE_ID = "codex"
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
class _Rollout(SessionFile):
    archived: bool


class CodexSource(JsonlSource[list[tuple[Path, bool]], _Rollout]):
    kind = KIND
    name = "Codex"
    hint = "point the source at the Codex home ($CODEX_HOME, default ~/.codex) or its sessions/ folder"

    def __init__(self, spec: SourceSpec) -> None:
        super().__init__(spec)
        self._parents: dict[Path, str | None] = {}  # the session_meta line never changes

    def _layout(self) -> list[tuple[Path, bool]] | None:
        """The folders rollouts are in, each with whether it holds archived ones."""
        path = self._store()
        if path is None:
            return None
        roots = [(path / "sessions", False), (path / "archived_sessions", True)]
        found = [(root, archived) for root, archived in roots if root.is_dir()]
        if found:
            return found
        if path.name in ("sessions", "archived_sessions"):
            return [(path, path.name == "archived_sessions")]
        self._absent("sessions/ folder")
        return None

    def _list(self, layout: list[tuple[Path, bool]], problems: list[str]) -> dict[str, _Rollout]:
        found: dict[str, _Rollout] = {}
        for root, archived in layout:
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

    def _mark(self, rollout: _Rollout, listing: dict[str, _Rollout]) -> str:
        # The physical form is part of the mark: plain -> .zst re-reads once, which is cheap and safe.
        suffix = "z" if rollout.path.name.endswith(ZST_SUFFIX) else "p"
        return f"{stat_mark(rollout.path)}:{suffix}"

    def _parent(self, rollout: _Rollout) -> str | None:
        path = rollout.path
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

    def _reader(self, layout: list[tuple[Path, bool]]) -> Callable[[_Rollout], Session]:
        names = _thread_names(self.location / "session_index.jsonl")
        return lambda rollout: self._read(rollout, names)

    def _read(self, rollout: _Rollout, names: dict[str, str]) -> Session:
        result = read_jsonl(rollout.path)
        mtime = rollout.path.stat().st_mtime_ns // 1_000_000
        builder = Builder(rollout.id, self.id, KIND)
        session = builder.build([record for _, record in result.records], [n for n, _ in result.records])
        session.malformed += result.malformed
        if not session.title:
            session.title = names.get(rollout.id, "")
        if rollout.archived:
            session.time_archived = mtime
        if not session.time_created:
            session.time_created = session.time_updated = mtime
        return session


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
