"""Plain data objects shared by every layer: what a source yields and what a search returns.

Sources turn their own formats into `Session` / `Message` / `Part`; nothing outside `sources/`
knows a source's field names. Times are epoch milliseconds (UTC).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from recollect.errors import RecollectError


@dataclass
class Part:
    id: str
    # text, reasoning, tool, file, patch, subtask, agent, compaction, step, other; or template: the text a
    # host made from a command's template (its `raw_type` the command's name), never indexed
    kind: str
    raw_type: str = ""
    text: str = ""
    # Text the agent harness injected (file expansion, "continue" nudges, hook output), not typed
    # by a person and not written by the model.
    synthetic: bool = False
    tool: str | None = None
    tool_status: str | None = None  # pending | running | completed | error
    tool_input: Any = None
    tool_output: str | None = None
    tool_error: str | None = None
    files: list[str] = field(default_factory=list)
    time: int | None = None
    child_session_id: str | None = None  # a delegated (subagent) session this part started


@dataclass
class Message:
    id: str
    role: str  # user | assistant | system
    time: int
    parts: list[Part] = field(default_factory=list)
    agent: str | None = None
    model: str | None = None
    summary: bool = False  # a compaction summary written by the model
    error: str | None = None
    completed: bool = True


@dataclass
class Session:
    id: str  # the source's own id, e.g. ses_… or a Claude Code uuid
    source: str  # the configured source id, e.g. "opencode", "claude"
    agent_kind: str  # opencode | claude-code | codex | gemini
    title: str = ""
    directory: str = ""
    project_id: str | None = None
    project_root: str | None = None
    parent_id: str | None = None
    agent: str | None = None
    model: str | None = None
    time_created: int = 0
    time_updated: int = 0
    time_archived: int | None = None
    messages: list[Message] = field(default_factory=list)
    malformed: int = 0  # records of this session that could not be parsed and were skipped
    # Why what the source found is no session at all (a Claude Code file of title records only): the
    # sync leaves it out of the index and counts it apart, until the store changes it.
    not_a_session: str = ""


@dataclass
class SessionStamp:
    """What a source says about a session without reading it: enough to decide whether to re-read."""

    id: str
    watermark: str  # opaque; a different value means the session changed
    # Sessions a source knows are children (subagents) of this one; used for parent lookups.
    parent_id: str | None = None
    # When the source says it last changed (epoch ms, 0 if unknown): a sync reads newest first.
    updated: int = 0


@dataclass
class ScanResult:
    stamps: dict[str, SessionStamp]
    problems: list[str] = field(default_factory=list)
    # Sessions listed but not readable this time (a file's permissions): not in `stamps`, never gone.
    withheld: set[str] = field(default_factory=set)
    # A folder could not be listed, so a session missing from `stamps` may still be there: the sync
    # takes none of this store's sessions for deleted this time (`guard.hidden` sets it).
    partial: bool = False


class SourceError(RecollectError):
    """A source store cannot be read right now. The message says what is wrong and what to do."""

    def __init__(self, message: str, *, reason: str = "unreadable") -> None:
        super().__init__(message)
        self.reason = reason  # missing | locked | corrupt | unreadable
