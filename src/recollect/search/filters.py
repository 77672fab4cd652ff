"""The filters a read path takes, declared once: `FILTER_SPEC` generates the CLI's filter options
(cli/history.py) and the MCP tools' filter parameters (mcp/history_tools.py), and `filter_values`
turns either surface's values into `Filters` fields.

Each entry has two help texts: the CLI's speaks to a person at a shell, the MCP one to a model
deciding how to call a tool. A surface's own defaults (the MCP server's directory and scope, the
CLI's "--session implies --scope session") stay with that surface.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from recollect.search.scope import AUTHORS, CLASSES, ROLES, SCOPES
from recollect.times import WHEN_FORMS, parse_when

Kind = Literal["string", "string_list", "boolean"]


@dataclass(frozen=True)
class FilterSpec:
    name: str  # the MCP parameter; the CLI option is --name with dashes
    kind: Kind
    field: str  # the `Filters` attribute it sets
    cli_help: str
    mcp_help: str
    choices: tuple[str, ...] = ()  # allowed values (MCP checks them, and the CLI unless cli_choices is False)
    cli_choices: bool = True  # False: the CLI lists the values in its help and `Filters.validate` checks them
    cli_dest: str | None = None  # the click parameter name, when not `name`
    metavar: str | None = None
    short: str | None = None  # a short CLI flag
    time: Literal["since", "until"] | None = None  # parsed with times.parse_when (until: a bare date's end)
    # The help where a command opens a session by its cursor (read, save) instead of searching, when it differs.
    open_cli_help: str = ""
    open_mcp_help: str = ""

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def dest(self) -> str:
        return self.cli_dest or self.name


FILTER_SPEC: tuple[FilterSpec, ...] = (
    FilterSpec(
        "scope",
        "string",
        "scope",
        cli_help="Which sessions to search: all, this project, this directory, or named sessions. Default: all, "
        "or the [scope] ceiling of the config file, which no --scope can widen.",
        mcp_help="'all' projects (this one ranks first), this git 'project', this 'directory' and below, or only the "
        "'session' ids given. Default: the server's scope ('session' when 'session' is given); a scope wider "
        "than the server allows is refused.",
        choices=SCOPES,
        open_cli_help="Which sessions it may open: all, this project, this directory, or named sessions; a cursor "
        "outside them is refused. Default: all, or the [scope] ceiling of the config file, which no --scope can "
        "widen.",
        open_mcp_help="Which sessions it may open: 'all' projects, this git 'project', or this 'directory' and "
        "below; a cursor outside them is refused. Default: the server's scope; a scope wider than the server "
        "allows is refused.",
    ),
    FilterSpec(
        "directory",
        "string",
        "directory",
        cli_help="The directory that 'project' and 'directory' scope mean (default: here).",
        mcp_help="What 'project' and 'directory' scope mean (absolute or relative). Default: the project the server "
        "runs in.",
        metavar="DIR",
        short="-C",
    ),
    FilterSpec(
        "session",
        "string_list",
        "sessions",
        cli_help="Only these sessions (repeatable; implies --scope session).",
        mcp_help="Only these session ids (e.g. from history_sessions); implies scope 'session'.",
        cli_dest="sessions",
        metavar="ID",
    ),
    FilterSpec(
        "exclude_session",
        "string_list",
        "exclude_sessions",
        cli_help="Leave these sessions out (e.g. the current one).",
        mcp_help="Leave these session ids out (e.g. the current session).",
        metavar="ID",
    ),
    FilterSpec(
        "since",
        "string",
        "since",
        cli_help=f"Only after this time: {WHEN_FORMS}.",
        mcp_help=f"Only after this time: {WHEN_FORMS}.",
        metavar="WHEN",
        time="since",
    ),
    FilterSpec(
        "until",
        "string",
        "until",
        cli_help="Only before this time (same forms as --since; a day named whole, as a date, today or yesterday, "
        "includes all of it).",
        mcp_help="Only before this time (same forms as 'since'; a day named whole, as a date, 'today' or "
        "'yesterday', includes all of it).",
        metavar="WHEN",
        time="until",
    ),
    FilterSpec(
        "role",
        "string_list",
        "roles",
        cli_help="Message role.",
        mcp_help="Only messages with this role.",
        choices=ROLES,
        cli_dest="roles",
    ),
    FilterSpec(
        "class",
        "string_list",
        "classes",
        cli_help="Evidence class: user_text, assistant_text, reasoning, tool_input, tool_output, tool_error, "
        "summary, subtask.",
        mcp_help="Only this kind of evidence: what the user typed, what the assistant wrote, its reasoning, a tool's "
        "input/output/error, a compaction summary, a subtask.",
        choices=CLASSES,
        cli_choices=False,
        cli_dest="classes",
        metavar="CLASS",
    ),
    FilterSpec(
        "tool",
        "string_list",
        "tools",
        cli_help="Only chunks of this tool (bash, read, edit, …).",
        mcp_help="Only calls of these tools (bash, read, edit, grep …).",
        cli_dest="tools",
        metavar="NAME",
    ),
    FilterSpec(
        "author",
        "string_list",
        "authors",
        cli_help="Who wrote it: typed by a person, the model, injected by the harness, or a subagent.",
        mcp_help="Who wrote it: typed by a person, the model, injected by the harness, or a subagent.",
        choices=AUTHORS,
        cli_dest="authors",
    ),
    FilterSpec(
        "agent",
        "string_list",
        "agents",
        cli_help="Agent store: opencode, claude-code, codex, gemini.",
        mcp_help="Only sessions of these agents: opencode, claude-code, codex, gemini.",
        cli_dest="agents",
        metavar="KIND",
    ),
    FilterSpec(
        "include_recall",
        "boolean",
        "include_recall",
        cli_help="Also search the recall subagent's own runs (left out by default: they repeat what they found).",
        mcp_help="Also search the recall subagent's own earlier runs (left out by default: they only repeat what "
        "these tools found, so they would outrank the sessions that hold the answer).",
    ),
)

BY_NAME: dict[str, FilterSpec] = {s.name: s for s in FILTER_SPEC}


def filter_values(values: Mapping[str, Any], *, key: Literal["name", "dest"] = "name") -> dict[str, Any]:
    """`Filters` keyword arguments from a surface's values, keyed by MCP parameter name (`key="name"`)
    or by click parameter name (`key="dest"`); a filter absent from `values` is left to its default."""
    out: dict[str, Any] = {}
    for spec in FILTER_SPEC:
        k = spec.name if key == "name" else spec.dest
        if k not in values:
            continue
        value = values[k]
        if spec.time is not None:
            out[spec.field] = parse_when(value, end=spec.time == "until")
        elif spec.kind == "string_list":
            out[spec.field] = list(value or [])
        elif spec.kind == "boolean":
            out[spec.field] = value is True
        else:
            out[spec.field] = value
    return out
