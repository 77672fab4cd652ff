"""`recollect mcp`: run the MCP server on stdio for an agent host (OpenCode, Claude Code, Codex…).

The SDK is imported only when a client speaks the 2026 protocol (mcp/wire.py serves the handshake
without it), so no command pays for it at start-up, and a missing SDK is a one-line install hint
rather than a traceback.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys

import click

from recollect.cli.output import fail
from recollect.config import SCOPE_CEILINGS
from recollect.mcp.base import DEFAULT_BUDGET, MAX_BYTES, MIN_BUDGET, ServerSettings

SDK_MODULES = ("mcp", "mcp_types")


@click.command("mcp")
@click.option(
    "--budget",
    type=click.IntRange(MIN_BUDGET, MAX_BYTES),
    default=DEFAULT_BUDGET,
    show_default=True,
    help="Most characters in one tool reply (OpenCode cuts replies beyond 50 KB).",
)
@click.option(
    "--scope",
    "default_scope",
    type=click.Choice(SCOPE_CEILINGS),
    default="all",
    show_default=True,
    help="The widest history scope this server answers, and its default: every project, only the project "
    "the host started it in, or only that directory. A tool call may narrow it, never widen it; the config's "
    "[scope] ceiling can narrow it further.",
)
def mcp_cmd(budget: int, default_scope: str) -> None:
    """Serve recollect's tools over MCP on stdin/stdout (history_search, history_read, history_sessions,
    history_save, memory_recall, memory_remember, memory_forget, memory_inspect).

    The host starts it in the project directory; that directory is the default for 'project' and
    'directory' scope and for project memories. Logs go to <data dir>/log/mcp.log.
    """
    try:
        # The handshake protocol is served without the SDK (mcp/wire.py), but the 2026 protocol needs
        # it: look for it without importing it (importing it costs over a second).
        if any(importlib.util.find_spec(name) is None for name in SDK_MODULES):
            raise ImportError("the MCP SDK is not installed", name="mcp")
        from recollect.mcp.server import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in SDK_MODULES:
            raise
        fail(
            "the MCP server needs the MCP SDK, which is not installed: "
            "pip install 'recollect[mcp]'  (or: pip install mcp==2.3.0)"
        )
    if sys.stdin.isatty():  # a person ran it by hand: an agent's host gives it a pipe, and stdout is the protocol's
        click.echo(
            "recollect mcp: serving recollect's tools over MCP on stdin/stdout, for an agent to start "
            "('recollect install opencode' sets that up; docs/mcp.md for others). Waiting for a client; "
            "Ctrl-C stops it.",
            err=True,
        )
    with contextlib.suppress(KeyboardInterrupt):  # a person stopping it by hand is not an error
        serve(ServerSettings(cwd=os.getcwd(), budget=budget, default_scope=default_scope))
