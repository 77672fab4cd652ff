"""Markers that close the self-ingestion loops: what recollect injects or answers is never indexed back.

Every block we put in front of a model opens with one of `INJECTED_BLOCK_TAGS`; every tool we
expose has one of `OUR_TOOL_NAMES` (hosts prefix it, e.g. OpenCode's `recollect_history_search`),
and worker sessions we start carry `WORKER_TITLE_MARKER` in their title.

Sessions recollect itself caused are recognised by their structure, not by a title alone
(`session_origin`):

* `worker`: extraction and summary workers. They carry the title marker and run in recollect's
  own worker directory (`<data dir>/opencode-worker`); either one is enough. Never indexed.
* `recall`: the recall subagent's runs. Their messages name the agent our installer writes
  (`RECALL_AGENT`), or they are a child session whose every tool call is one of ours. Indexed, but
  left out of every search unless asked for (`Filters.include_recall`): their question is the
  parent's and their answer paraphrases our own tool output, so they would outrank their source.

Files under a memory root (a project's `.memory/`, the global memory dir) are curated memory, not
history: they never enter a card's inventories (`is_memory_path`).
"""

from __future__ import annotations

import os
from pathlib import PurePath
from typing import TYPE_CHECKING

from recollect.config import RECALL_AGENT as RECALL_AGENT  # the subagent `recollect install opencode` writes

if TYPE_CHECKING:
    from recollect.model import Session

INJECTED_BLOCK_TAGS = ("<recollect-memory", "<recollect-recall", "<recollect-context")
OUR_TOOL_NAMES = (
    "history_search",
    "history_read",
    "history_sessions",
    "history_save",
    "memory_recall",
    "memory_remember",
    "memory_forget",
    "memory_inspect",
)
WORKER_TITLE_MARKER = "[recollect-worker]"
# What a read shows instead of one of our own earlier tool calls (its arguments and its answer).
OWN_OUTPUT_OMITTED = (
    "[recollect's own earlier tool call omitted; call the tool again to see its answer within the current scope]"
)
WORKER_DIR_NAME = "opencode-worker"  # under recollect's data dir (extract/run.py, extract/summaries.py)
MEMORY_DIR_NAME = ".memory"  # a project's memory root (memory/files.py PROJECT_DIR_NAME)


def is_our_tool(name: str | None) -> bool:
    """True for our MCP tools under any host prefix (`recollect_history_search`, `mcp__recollect__…`)."""
    if not name:
        return False
    lowered = name.lower()
    return any(lowered == t or lowered.endswith("_" + t) for t in OUR_TOOL_NAMES)


def carries_injected_block(text: str) -> bool:
    return any(tag in text for tag in INJECTED_BLOCK_TAGS)


_PATH_ENV = ("RECOLLECT_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "HOME")
_OWN_DIRS: dict[tuple[str | None, ...], tuple[str, str]] = {}


def _own_dirs() -> tuple[str, str]:
    """(global memory root, worker directory) of this install, with a trailing slash. Kept per value of
    the environment they follow (RECOLLECT_HOME, XDG_*, HOME): resolving them cost ~80 us, three
    times per session indexed."""
    key = tuple(os.environ.get(name) for name in _PATH_ENV)
    found = _OWN_DIRS.get(key)
    if found is None:
        from recollect.config import resolve_paths

        paths = resolve_paths()
        found = str(paths.global_memory).rstrip("/") + "/", str(paths.data_dir / WORKER_DIR_NAME).rstrip("/") + "/"
        _OWN_DIRS[key] = found
    return found


def global_memory_prefix() -> str:
    return _own_dirs()[0]


def is_memory_path(path: str, global_prefix: str | None = None) -> bool:
    """A file of a memory root: a `.memory` directory anywhere in the path, or the global memory dir
    (`global_prefix`, from `global_memory_prefix()`; pass it when checking many paths)."""
    if not path:
        return False
    # The substring test first: parsing every path of an index (~50,000 per 1,000 sessions) cost 10% of it.
    if MEMORY_DIR_NAME in path and MEMORY_DIR_NAME in PurePath(path).parts:
        return True
    return (path.rstrip("/") + "/").startswith(global_prefix or _own_dirs()[0])


def is_recall_tool_call(tool: str | None, tool_input: object) -> bool:
    """A call that starts our recall subagent (OpenCode's `task` with `subagent_type: recall`): its
    output is the subagent's answer, a paraphrase of our own tool output."""
    if not isinstance(tool_input, dict) or (tool or "").lower() not in ("task", "agent"):
        return False
    agent = tool_input.get("subagent_type") or tool_input.get("agent")
    return isinstance(agent, str) and agent.lower() == RECALL_AGENT


def session_origin(session: Session) -> str:
    """`worker`, `recall`, or "" for an ordinary session: by structure (see the module docstring)."""
    directory = (session.directory or "").rstrip("/") + "/"
    if WORKER_TITLE_MARKER in (session.title or "") or directory.startswith(_own_dirs()[1]):
        return "worker"
    if any((m.agent or "").lower() == RECALL_AGENT for m in session.messages if m.role == "user"):
        return "recall"
    if session.parent_id:
        tools = [p.tool for m in session.messages for p in m.parts if p.kind == "tool"]
        if tools and all(is_our_tool(t) for t in tools):
            return "recall"
    return ""
