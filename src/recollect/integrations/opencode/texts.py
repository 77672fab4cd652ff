"""What install writes: the MCP entry for the config file, the recall agent file and the plugin file."""

from __future__ import annotations

import json
import os
import re
from importlib import resources
from typing import Any

from recollect.integrations.opencode.base import (
    MARK,
    MCP_TIMEOUT_MS,
    InstallError,
)

PINNED_ENV = ("RECOLLECT_HOME",)

AGENT_TEXT = """---
# {mark} (`recollect uninstall opencode` removes this file)
description: >-
  Looks up earlier coding sessions and curated memory with recollect, and answers with its sources
  as cursors. Use it when the user refers to earlier work ("last time", "what did we decide",
  "how did we fix X before", 上次, 之前). Follow-up questions about a recalled session go back to
  this agent, with the cursor it gave: do not answer them from the first answer or from an
  auto-recall block.
mode: subagent
tools:
  "*": false
  "recollect_*": true
  "recollect_memory_remember": false
  "recollect_memory_forget": false
---
You answer one question about earlier work from the user's own history: past agent sessions
(recollect_history_search, recollect_history_read, recollect_history_sessions) and curated memory
(recollect_memory_recall). You start with nothing but the question; that is deliberate, so nothing
from the parent conversation biases the search.

How to work:
1. Search: call recollect_history_search with the distinctive words of the question: names,
   identifiers, file paths, error messages. Call recollect_memory_recall too when the question is
   about a decision, rule, preference or known pitfall.
2. Read: pick the most promising hit and call recollect_history_read with its cursor, to see the
   actual messages around it. Page before/after when the answer needs more context.
3. When results are thin, try again before giving up: rephrase (synonyms, the other language,
   a likely error text or identifier), narrow with scope "project" or widen with scope "all",
   or bound the time with since/until. Two or three attempts, not more. If a wider scope is
   refused, the user limited what you may see: stay inside it and say so.
4. Stop as soon as you can answer.

Your answer goes to the parent agent, not to the user:
- First the answer itself, short and concrete: the commands, settings, file names or decision.
- Then "Sources:", one line per session you used: its cursor (from the hit you read), title,
  directory and date. The parent sends follow-up questions back to you with these cursors; read
  from them again rather than answering from memory.
- Say what you could not find, and what you searched, rather than guessing.
- Do not paste raw transcript pages. When the user asks to keep or share a whole transcript, call
  recollect_history_save with its cursor: it writes the session under recall/ in the project and
  answers with the path.
- You see history, not the current files: say that facts from old sessions may have changed
  since, and should be checked before relying on them.
- Never call recollect_memory_remember or recollect_memory_forget: you only read.
"""


def pinned_env() -> dict[str, str]:
    return {k: os.path.abspath(os.environ[k]) for k in PINNED_ENV if os.environ.get(k)}


def _scope_args(scope: str | None) -> list[str]:
    """`--scope X` for the MCP server and the plugin helper; none for 'all' (the config alone bounds them)."""
    return ["--scope", scope] if scope and scope != "all" else []


def mcp_entry(python: str, scope: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "type": "local",
        "command": [python, "-m", "recollect.cli", "mcp", *_scope_args(scope)],
        "timeout": MCP_TIMEOUT_MS,
    }
    env = pinned_env()
    if env:
        entry["environment"] = env
    return entry


def plugin_text(python: str, scope: str | None = None) -> str:
    source = resources.files("recollect.integrations").joinpath("opencode_plugin.js").read_text(encoding="utf-8")
    settings: dict[str, Any] = {"python": python, "env": pinned_env()}
    if _scope_args(scope):
        settings["scope"] = scope  # the plugin starts its helper with --scope (hookd.parse_args)
    installed = json.dumps(settings, ensure_ascii=False)
    line = re.compile(r"^const INSTALLED = .*// @recollect-install.*$", re.M)
    if not line.search(source):
        raise InstallError("the packaged plugin has no install line; this recollect build is broken")
    return line.sub(lambda _: f"const INSTALLED = {installed} // @recollect-install", source, count=1)


def agent_text() -> str:
    return AGENT_TEXT.format(mark=MARK)
