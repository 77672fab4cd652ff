"""Markers that close the self-ingestion loops: what recollect injects or answers is never indexed back.

Every block we put in front of a model opens with one of `INJECTED_BLOCK_TAGS`; every tool we
expose has one of `OUR_TOOL_NAMES` (hosts prefix it, e.g. OpenCode's `recollect_history_search`),
and worker sessions we start carry `WORKER_TITLE_MARKER` in their title.
"""

from __future__ import annotations

INJECTED_BLOCK_TAGS = ("<recollect-memory", "<recollect-recall", "<recollect-context")
OUR_TOOL_NAMES = (
    "history_search",
    "history_read",
    "history_sessions",
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


def is_our_tool(name: str | None) -> bool:
    """True for our MCP tools under any host prefix (`recollect_history_search`, `mcp__recollect__…`)."""
    if not name:
        return False
    lowered = name.lower()
    return any(lowered == t or lowered.endswith("_" + t) for t in OUR_TOOL_NAMES)


def carries_injected_block(text: str) -> bool:
    return any(tag in text for tag in INJECTED_BLOCK_TAGS)
