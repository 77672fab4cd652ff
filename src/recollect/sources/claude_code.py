"""Claude Code's transcripts, read-only: `<config>/projects/<encoded-cwd>/<session-uuid>.jsonl`.

What it reads:
- Main sessions: `<project>/<uuid>.jsonl`, one JSON record per line, appended as the session runs.
- Sub-agents: `<project>/<session>/subagents/agent-<id>.jsonl` (Claude Code 2.1+) and the older
  `<project>/agent-<id>.jsonl` (2.0), each a child session whose parent is the main session.
- Titles: `custom-title` (set by /rename) over `ai-title` over the legacy `summary` records, which
  Claude Code appended to whichever file was current, keyed by the leaf message they describe. A
  session of slash commands only (`/clear`, `/login`), which Claude Code never titles and in which
  nothing was typed to stand in, is titled by its commands.

What it must never do: write, rename or lock a transcript; trust the project folder name (the cwd
is encoded lossily — the records carry the real one); count a person as the author of text the
harness injected (tool results, `isMeta` records, `<system-reminder>`, slash-command blocks, hook
output, interruption notes are all `Part.synthetic`).
"""

from __future__ import annotations

import contextlib
import logging
import mmap
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from recollect.config import xdg_dir
from recollect.model import Session, SourceError
from recollect.sources.base import SourceSpec, register
from recollect.sources.claude_code_records import Entry, Transcript
from recollect.sources.jsonl import (
    SHAPE_ERRORS,
    JsonlSource,
    head_session_id,
    list_dir,
    parse_line,
    read_jsonl,
    stat_mark,
)

log = logging.getLogger(__name__)

KIND = "claude-code"
SOURCE_ID = "claude"

_SUMMARY_MARK = b'"type":"summary"'
# When Claude Code failed to generate a summary it stored the error in its place: not a title.
_FAILED_SUMMARY_RE = re.compile(
    r"^(API Error\b|Invalid API key\b|Request timed out|Prompt is too long|Credit balance is too low|"
    r"Claude AI usage limit|OAuth token)",
    re.I,
)


def config_dirs() -> list[Path]:
    """Claude Code's config dirs: `CLAUDE_CONFIG_DIR` (comma-separated allowed), else ~/.claude and ~/.config/claude."""
    env = os.environ.get("CLAUDE_CONFIG_DIR")
    if env:
        return [Path(p.strip()).expanduser() for p in env.split(",") if p.strip()]
    return [Path.home() / ".claude", xdg_dir("XDG_CONFIG_HOME", ".config") / "claude"]


def discover() -> list[SourceSpec]:
    specs: list[SourceSpec] = []
    seen: set[Path] = set()
    for directory in config_dirs():
        projects = directory / "projects"
        if not projects.is_dir():
            continue
        real = projects.resolve()
        if real in seen:
            continue
        seen.add(real)
        source_id = SOURCE_ID if not specs else f"{SOURCE_ID}-{len(specs) + 1}"
        specs.append(SourceSpec(id=source_id, kind=KIND, path=directory, discovered=True))
    return specs


class ClaudeCodeSource(JsonlSource[list[Path], Entry]):
    kind = KIND
    name = "Claude Code"
    hint = "point the source at a Claude Code config dir (~/.claude) or its projects/ folder"

    def __init__(self, spec: SourceSpec) -> None:
        super().__init__(spec)
        self._head_ids: dict[Path, str] = {}
        self._summaries: dict[Path, tuple[str, list[tuple[str, str]]]] = {}

    # -- layout -------------------------------------------------------------------------------

    def _layout(self) -> list[Path] | None:
        """Project folders to read, or None when a discovered store is absent."""
        path = self._store()
        if path is None:
            return None
        if (path / "projects").is_dir():
            root = path / "projects"
        elif path.name == "projects":
            root = path
        elif any(e.name.endswith(".jsonl") and e.is_file() for e in list_dir(path)):
            return [path]  # pointed straight at one project folder
        else:
            self._absent("projects/ folder: Claude Code has not recorded a session there, or the path is wrong")
            return None
        if not os.access(root, os.R_OK | os.X_OK):
            raise SourceError(f"{root} cannot be read (permission denied)", reason="unreadable")
        return [Path(e.path) for e in list_dir(root) if e.is_dir()]

    def _list(self, layout: list[Path], problems: list[str]) -> dict[str, Entry]:
        entries: dict[str, Entry] = {}

        def add(sid: str, project_dir: Path, role: str, item: os.DirEntry[str], parent: str | None = None) -> None:
            try:
                st = item.stat()  # listing stats are cheap; the watermark needs nothing else
            except FileNotFoundError:
                return  # deleted while we listed
            entry = entries.get(sid)
            if entry is None:
                entry = entries[sid] = Entry(id=sid, project_dir=project_dir, role=role, parent_id=parent)
            # The same session in two project folders (moved cwd): one session, records deduplicated.
            entry.files.append(Path(item.path))
            entry.marks.append(f"{st.st_size}:{st.st_mtime_ns}")

        for project_dir in layout:
            for item in list_dir(project_dir):
                if item.name.endswith(".jsonl") and item.is_file():
                    sid = item.name[: -len(".jsonl")]
                    add(sid, project_dir, "agent" if sid.startswith("agent-") else "main", item)
                elif item.is_dir():
                    for sub in list_dir(Path(item.path) / "subagents"):
                        if sub.name.endswith(".jsonl") and sub.is_file():
                            add(sub.name[: -len(".jsonl")], project_dir, "subagent", sub, item.name)
        return entries

    def _head_session_id(self, path: Path) -> str | None:
        try:
            return head_session_id(path, self._head_ids)
        except OSError:
            return None  # deleted or unreadable since the listing; the read will tell

    # -- scan ---------------------------------------------------------------------------------

    def _mark(self, entry: Entry, listing: dict[str, Entry]) -> str:
        mark = "|".join(sorted(entry.marks))
        if entry.role == "main":
            # A resumed session may open with a copy of another session's history. That copy is
            # dropped while the original file exists, so the original's presence is part of the mark.
            first = self._head_session_id(entry.files[0])
            if first and first != entry.id:
                original = listing.get(first)
                mark += f"|from:{first}:{int(original is not None and original.project_dir == entry.project_dir)}"
        return mark

    def _parent(self, entry: Entry) -> str | None:
        if entry.role == "agent":
            return self._head_session_id(entry.files[0])  # 2.0 sub-agents record their parent's id
        return entry.parent_id

    # -- reading ------------------------------------------------------------------------------

    def _reader(self, layout: list[Path]) -> Callable[[Entry], Session]:
        summaries: dict[Path, dict[str, str]] = {}  # per project folder, built once per call
        return lambda entry: self._read(entry, summaries)

    def _read(self, entry: Entry, summaries: dict[Path, dict[str, str]]) -> Session:
        files = sorted(entry.files, key=lambda p: (p.stat().st_mtime_ns, str(p)))
        builder = Transcript(entry, self.id, KIND)
        for file in files:
            result = read_jsonl(file)
            builder.malformed += result.malformed
            for number, record in result.records:
                try:
                    builder.add(record)
                except SHAPE_ERRORS as exc:
                    # A record shaped unlike any we know is skipped and counted; it never ends the read.
                    log.debug("claude %s %s:%d: %r", entry.id, file.name, number, exc)
                    builder.malformed += 1
        session = builder.finish()
        if not session.title and builder.leaf_order:
            if entry.project_dir not in summaries:
                summaries[entry.project_dir] = self._project_summaries(entry.project_dir)
            by_leaf = summaries[entry.project_dir]
            # The legacy title is the summary whose leaf is the latest message of this session.
            session.title = next((by_leaf[u] for u in reversed(builder.leaf_order) if u in by_leaf), "")
        if not session.title and entry.role == "main":
            session.title = builder.command_title()  # Claude Code titles no session of slash commands only
        if not session.time_created:
            session.time_created = session.time_updated = max(f.stat().st_mtime_ns for f in files) // 1_000_000
        return session

    def _project_summaries(self, project_dir: Path) -> dict[str, str]:
        """Legacy `summary` titles by leaf message, from every file of the project folder.

        Claude Code appended them to whichever file was current, not to the session they describe.
        """
        summaries: dict[str, str] = {}
        files = [Path(e.path) for e in list_dir(project_dir) if e.name.endswith(".jsonl") and e.is_file()]
        with contextlib.suppress(OSError):
            files.sort(key=lambda p: p.stat().st_mtime_ns)  # the newest summary of a leaf wins
        for file in files:
            summaries.update(self._file_summaries(file))
        return summaries

    def _file_summaries(self, path: Path) -> list[tuple[str, str]]:
        try:
            mark = stat_mark(path)
        except OSError:
            return []
        cached = self._summaries.get(path)
        if cached and cached[0] == mark:
            return cached[1]
        found: list[tuple[str, str]] = []
        try:
            with path.open("rb") as fh:
                if os.fstat(fh.fileno()).st_size:
                    with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
                        # A byte search skips the JSON parse of every other line: summaries are rare.
                        at = data.find(_SUMMARY_MARK)
                        while at != -1:
                            start = data.rfind(b"\n", 0, at) + 1
                            end = data.find(b"\n", at)
                            if end == -1:
                                break  # still being written
                            summary = _summary_of(parse_line(data[start:end]))
                            if summary is not None:
                                found.append(summary)
                            at = data.find(_SUMMARY_MARK, end)
        except (OSError, ValueError, RecursionError):
            return []
        self._summaries[path] = (mark, found)
        return found


def _summary_of(record: dict[str, Any] | None) -> tuple[str, str] | None:
    """(leaf uuid, title) of a legacy `summary` record."""
    if not record or record.get("type") != "summary":
        return None
    leaf, text = record.get("leafUuid"), record.get("summary")
    if not isinstance(leaf, str) or not isinstance(text, str) or not text.strip():
        return None
    if _FAILED_SUMMARY_RE.match(text.strip()):
        return None  # the error Claude Code got while summarizing, stored in place of a summary
    return leaf, text.strip()


register(KIND, ClaudeCodeSource, discover)
