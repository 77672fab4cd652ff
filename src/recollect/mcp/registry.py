"""The tool list, the server instructions, and `call_tool`: one request in, one bounded reply out.

`call_tool` never raises. A bad argument, a library error (index locked, cursor gone, memory
refused) or a bug becomes an error reply whose text tells the model what to do next; the server
stays up, because a crashed MCP server's tools are gone from OpenCode until someone reconnects it.
SDK-free, so the whole request path is testable without the MCP package.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from recollect.errors import RecollectError
from recollect.mcp import history_tools, memory_tools
from recollect.mcp.args import ArgumentError
from recollect.mcp.base import Reply, ServerSettings, Tool, fit, for_model

log = logging.getLogger("recollect.mcp")

TOOLS: tuple[Tool, ...] = (*history_tools.TOOLS, *memory_tools.TOOLS)
BY_NAME: dict[str, Tool] = {t.name: t for t in TOOLS}

INSTRUCTIONS = """\
recollect is the user's local memory: every earlier coding-agent session (read-only history) and a small \
set of curated memories (rules, preferences, decisions, pitfalls, facts).
- When the user refers to earlier work ("last time", "what did we decide", "how did we fix …", an error \
seen before), call history_search with distinctive words (identifiers, file names, error text) before \
answering, then history_read a hit's cursor to see what really happened. Say which session you relied on.
- At the start of a substantial task, memory_recall a few key words to pick up the user's rules and known \
pitfalls; follow what it returns.
- When the user states a lasting preference or decision, or you learn a non-obvious pitfall, save it with \
memory_remember (one idea, no secrets). Rules you save wait for the user's review.
- History shows the past; when it disagrees with the current code, trust the code."""


def instructions(settings: ServerSettings) -> str:
    """The server instructions, plus one line when the operator bounded the scope (so the model does
    not spend calls on scopes that are refused). The `--scope` flag alone decides it here: the config
    file is read per call, not at start-up, where a broken one must not stop the server."""
    if settings.default_scope == "all":
        return INSTRUCTIONS
    where = "project" if settings.default_scope == "project" else "directory (and below)"
    return (
        f"{INSTRUCTIONS}\n- This server sees only the history of the {where} it runs in; the user set that "
        "limit, so wider scopes are refused. Say so when a question needs other projects."
    )


def error_reply(text: str, budget: int) -> Reply:
    return Reply(fit(text, budget), {"error": text}, is_error=True)


def call_tool(name: str, arguments: Mapping[str, Any] | None, settings: ServerSettings) -> Reply:
    tool = BY_NAME.get(name)
    if tool is None:
        return error_reply(f"no tool {name!r}; recollect has: {', '.join(BY_NAME)}", settings.budget)
    try:
        args = tool.signature.bind(arguments)
        reply = tool.run(args, settings)
    except ArgumentError as exc:
        return error_reply(f"{name}: {str(exc).rstrip('.')}. Fix the argument and call again.", settings.budget)
    except RecollectError as exc:  # written for the caller: it says what to change
        return error_reply(f"{name}: {for_model(str(exc))}", settings.budget)
    except OSError as exc:  # a path or directory argument the file system refuses (too long, not there)
        where = str(exc.filename or "")
        where = f" ({where[:120]}{'…' if len(where) > 120 else ''})" if where else ""
        return error_reply(
            f"{name}: {exc.strerror or exc}{where}; check the path or directory argument and call again.",
            settings.budget,
        )
    except Exception as exc:
        log.exception("%s failed", name)
        return error_reply(
            f"{name} failed inside recollect ({type(exc).__name__}: {exc}). This is a bug, logged for the "
            "user; the other tools still work. Tell the user if it keeps happening.",
            settings.budget,
        )
    reply.text = fit(reply.text, settings.budget)
    return reply
