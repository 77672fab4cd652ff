"""History tools for agents: history_search, history_read, history_sessions.

Each one checks its arguments, builds the one scope predicate (`Filters`) and calls the same
`recollect.history` function the CLI calls; it never opens the index or a store itself. Output is
compact text for a model (numbered hits with cursors, a coverage line, ChatML windows) plus the
same data as structured content, bounded by the server's budget.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recollect.history import FILTER_SPEC, Filters, counted, filter_values, git_root_of
from recollect.mcp.args import Param, Signature
from recollect.mcp.base import Lines, Reply, ServerSettings, Tool, fit, for_model, one_line, when
from recollect.redact import redact

if TYPE_CHECKING:
    from recollect.app import Recollect
    from recollect.history import SessionInfo

MAX_SEARCH_LIMIT = 50
MAX_SESSIONS_LIMIT = 100
# A model's calls within one task come seconds apart. An index synced (by any process) this
# recently is searched as it is, and the server brings it up to date after replying
# (`refresh_index` in the background), so a call rarely waits for a sync; an older one is synced first.
INLINE_SYNC_AFTER = 10.0
BACKGROUND_SYNC_AFTER = 2.0  # the library's own freshness window

# Generated from the one filter table (search/filters.py), which also generates the CLI's options.
FILTER_PARAMS: tuple[Param, ...] = tuple(
    Param(s.name, s.kind, s.mcp_help, choices=s.choices, default=False if s.kind == "boolean" else None)
    for s in FILTER_SPEC
)
# history_read and history_save open a session by its cursor: their scope says what they may open.
_SCOPE = next(s for s in FILTER_SPEC if s.name == "scope")
OPEN_SCOPE = Param(_SCOPE.name, _SCOPE.kind, _SCOPE.open_mcp_help, choices=_SCOPE.choices, default=None)


def refresh_index(max_age: float, app: Recollect | None = None) -> Any:
    """Sync the index unless some process synced it within `max_age` seconds; never waits for
    another writer. Returns the library's sync report, or None when nothing was due."""
    from recollect.app import Recollect

    if app is not None:
        with app.index() as conn:
            return app.refresh(conn, max_age=max_age)
    with Recollect() as own, own.index() as conn:
        return own.refresh(conn, max_age=max_age)


def _note_busy(report: Any, coverage: Any) -> None:
    if report is not None and report.lease_busy:
        coverage.limited_by.append("index being updated by another process")


def build_filters(args: dict[str, Any], settings: ServerSettings, app: Recollect | None = None) -> Filters:
    """The scope predicate for a call; the caller's directory defaults to the server's cwd. With the
    call's `app`, the ceiling is read from its config (the ceiling travels on the Filters)."""
    directory = args.get("directory")
    if directory:
        directory = os.path.abspath(os.path.join(settings.cwd, os.path.expanduser(directory)))
    sessions = args.get("session") or []
    ceiling = settings.ceiling(app.config if app is not None else None)
    # Without a scope argument the server's own scope applies, never wider than its ceiling; with
    # one, `Filters.resolve` refuses anything wider (search/ceiling.py).
    scope = args.get("scope") or ("session" if sessions else ceiling.narrow(settings.default_scope))
    values = filter_values(args)
    values.update(scope=scope, directory=directory or settings.cwd, sessions=list(sessions))
    filters = Filters(ceiling=ceiling, parent=args.get("parent") or None, **values)
    filters.validate()
    return filters


# --- history_search ------------------------------------------------------------------------------

SEARCH = Signature(
    "history_search",
    (
        Param(
            "query",
            "string",
            "Words to find: distinctive terms work best — an identifier, a file name, an error message, a "
            "command, a decision's key words. Any language.",
            required=True,
        ),
        Param(
            "limit",
            "integer",
            f"How many hits to return (at most 2 per session). Default 10, at most {MAX_SEARCH_LIMIT}.",
            default=10,
            minimum=1,
            maximum=MAX_SEARCH_LIMIT,
        ),
        *FILTER_PARAMS,
        Param(
            "deep",
            "boolean",
            "Read whole tool outputs from the stores instead of the index, which keeps only the head, error "
            "lines and tail of each output; matches the query literally. For text buried in a long log. Must "
            "be scoped: 'session', or scope 'project'/'directory' with 'since'. Slower. Default false.",
            default=False,
        ),
        Param(
            "exact",
            "boolean",
            "Search the words exactly as typed: no typo correction, no reading of question or time words "
            "('last week' is then searched as words) and no hit by meaning alone. Two or more words are a "
            "phrase: every hit holds them "
            "side by side, in this order (stopwords too), as in a pasted error line. Default false.",
            default=False,
        ),
    ),
)

SEARCH_DESCRIPTION = (
    "Search the user's earlier coding-agent sessions (OpenCode and other agents' stored transcripts: what the "
    "user asked, what the assistant answered, every tool call and its output). Use it before answering anything "
    "about earlier work — 'last time', 'what did we decide', 'how did we fix X', an error seen before, a file "
    "or command from a past session — instead of guessing.\n"
    "Returns a numbered list of hits, best first: session title, directory, time, evidence class (who said "
    "it: user_text, assistant_text, tool_output …) and a snippet, each with a cursor; then one coverage line "
    "saying how many sessions were searched, and a 'note:' line for what limited the result. Sessions in this "
    "project rank first.\n"
    "Next: pass a hit's cursor to history_read to read the real conversation around it. For more hits raise "
    "'limit' or narrow with filters (scope, since/until, class, tool …); no hits → try other words or widen "
    "the scope. Read-only."
)


def _hit_block(i: int, hit: Any, time_iso: str) -> list[str]:
    what = hit.klass + (f" ({hit.tool})" if hit.tool else "")
    # A model reading a hit that shares no word with its query should know why it is there.
    meaning = {"semantic": " · found by meaning, no shared word", "literal": " · literal match"}.get(hit.why, "")
    return [
        f"{i}. {one_line(hit.title or '(untitled)', 120)} — {hit.directory or '?'} · {when(time_iso)} · "
        f"{what} by {hit.author}{meaning}",
        f"   {one_line(hit.snippet, 400)}",
        f"   cursor: {hit.cursor}",
    ]


def coverage_lines(result: Any) -> list[str]:
    """The coverage line, then a line for each thing that limited the answer (said as the CLI says it, with
    its flags named as this tool's arguments)."""
    from recollect import history

    cov = result.coverage
    text = (
        f"coverage: {counted(cov.hits_returned, 'hit')} from {counted(cov.sessions_returned, 'session')}; "
        f"{cov.sessions_matched} matched, {cov.sessions_in_scope} in scope ({cov.scope}), "
        f"{cov.sessions_indexed} indexed"
    )
    if cov.skipped_by_reason:
        text += "; skipped " + ", ".join(f"{k}={v}" for k, v in cov.skipped_by_reason.items())
    return [text, *(f"note: {for_model(limit)}" for limit in result.limits(history.CLI_OPTIONS))]


def run_search(args: dict[str, Any], settings: ServerSettings) -> Reply:
    from recollect import history  # the library loads after start-up, off the host's critical path
    from recollect.app import Recollect

    with Recollect() as app:  # one config load and one index connection for the whole call
        filters = build_filters(args, settings, app)
        report = refresh_index(INLINE_SYNC_AFTER, app)
        result = history.search(
            args["query"],
            filters,
            limit=args["limit"],
            app=app,
            sync_first=False,
            deep=args["deep"],
            exact=args["exact"],
        )
    cov = result.coverage
    _note_busy(report, cov)
    out = Lines(settings.budget)
    if not result.hits:
        out.add(f"No hits for {redact(args['query'])!r}: {for_model(cov.hint)}".rstrip(": "), *coverage_lines(result))
        return Reply(out.text(), result.to_dict())
    out.add(f"{counted(len(result.hits), 'hit')} for {redact(args['query'])!r}:")
    for note in result.notes("exact: true"):  # a correction or a time reading: say so, or hits look unrelated
        out.add(redact(f"({note})"))
    footer = [
        *coverage_lines(result),
        "Read one: history_read(cursor=…). More: raise limit or add filters.",
    ]
    reserve = sum(len(line) + 1 for line in footer) + 120
    shown_hits = out.add_while_fits(
        (_hit_block(i, hit, history.iso(hit.time)) for i, hit in enumerate(result.hits, 1)), reserve
    )
    if shown_hits < len(result.hits):
        out.add(f"({len(result.hits) - shown_hits} more hits left out to stay within {settings.budget} characters)")
    out.add(*footer)
    data = result.to_dict()
    data["hits"] = data["hits"][:shown_hits]
    return Reply(out.text(), data)


# --- history_read --------------------------------------------------------------------------------

READ = Signature(
    "history_read",
    (
        Param(
            "cursor",
            "string",
            "Where to read: a cursor from history_search or history_sessions, a 'nav' cursor from an earlier "
            "history_read, or a session id.",
            required=True,
        ),
        Param(
            "before", "integer", "Messages before the cursor's message. Default 3.", default=3, minimum=0, maximum=50
        ),
        Param("after", "integer", "Messages after it. Default 4.", default=4, minimum=0, maximum=50),
        Param(
            "mode",
            "string",
            "'around' the cursor (default), the one 'message' whole, or the session's 'head' or 'tail'.",
            default="around",
            choices=("around", "message", "head", "tail"),
        ),
        Param(
            "budget",
            "integer",
            "Most characters to return (the messages nearest the cursor are kept first). Default and "
            "maximum: the server's budget (20000 unless configured).",
            minimum=1_000,
        ),
        Param(
            "whole",
            "boolean",
            "With mode 'message': the one message with its full tool input and output (no per-part caps; pruned "
            "output too, where the store still holds it), cut only by 'budget', with a note when it cuts. "
            "Default false.",
            default=False,
        ),
        OPEN_SCOPE,
        FILTER_PARAMS[1],  # directory
    ),
)

READ_DESCRIPTION = (
    "Read the real transcript of an earlier session around a cursor: a bounded window of messages with the "
    "user's words, the assistant's answers and reasoning, and tool calls with their (capped) output — what "
    "actually happened, read from the agent's own store.\n"
    "Returns ChatML-like text: <hist …> with the session's title, directory and message range, one "
    "<|im_start|>role … <|im_end|> block per message, notes on anything cut, and <nav prev=… next=… head=… "
    "tail=…/> cursors.\n"
    "Paging: call history_read again with the 'next' (or 'prev') nav cursor and the same before/after to move "
    "through the session; mode='message' shows one long message (whole=true: with its full tool output); "
    "mode='head'/'tail' jump to the "
    "session's start or end. Read-only."
)


def run_read(args: dict[str, Any], settings: ServerSettings) -> Reply:
    from recollect import history
    from recollect.app import Recollect
    from recollect.history import render_chatml

    overhead = 1_500  # ChatML headers and nav around the window's own budget
    budget = min(args["budget"] or settings.budget, settings.budget) - overhead
    with Recollect() as app:  # one config load and one index connection for the whole call
        filters = build_filters({"scope": args["scope"], "directory": args["directory"]}, settings, app)
        window = history.read(
            args["cursor"],
            filters,
            before=args["before"],
            after=args["after"],
            budget=max(budget, 500),
            mode=args["mode"],
            whole=args["whole"],
            app=app,
        )
    text = fit(render_chatml(window), settings.budget)
    return Reply(text, window.to_dict())


# --- history_save --------------------------------------------------------------------------------

SAVE = Signature(
    "history_save",
    (
        Param(
            "cursor",
            "string",
            "The session to save: any cursor from history_search, history_read or history_sessions, or a session id.",
            required=True,
        ),
        Param(
            "path",
            "string",
            "Where to write, under recall/ in the project (relative to the project root). Default: "
            "recall/<session id>.chatml. Any other place is refused.",
        ),
        OPEN_SCOPE,
        FILTER_PARAMS[1],  # directory
    ),
)

SAVE_DESCRIPTION = (
    "Save the whole transcript of an earlier session to a file in the project, as ChatML (the format "
    "history_read returns, every message, tool outputs uncapped, secrets redacted): for when the user wants "
    "the conversation kept beside the code, or to read it with other tools.\n"
    "Writes only under recall/ in the project; any other path is refused. Returns the path, its size in bytes "
    "and the number of messages. Writes a file; changes nothing else."
)


def project_dir(settings: ServerSettings) -> Path:
    """The project the server runs in: the git worktree holding its cwd, else the cwd."""
    return Path(git_root_of(settings.cwd) or settings.cwd)


def run_save(args: dict[str, Any], settings: ServerSettings) -> Reply:
    from recollect import history
    from recollect.app import Recollect

    with Recollect() as app:  # one config load and one index connection for the whole call
        filters = build_filters({"scope": args["scope"], "directory": args["directory"]}, settings, app)
        saved = history.save_transcript(args["cursor"], args["path"], filters, within=project_dir(settings), app=app)
    shown = os.path.relpath(saved.path, project_dir(settings).resolve())
    text = f"saved {counted(saved.messages, 'message')} ({saved.bytes} bytes) to {shown}"
    return Reply(text, {**saved.to_dict(), "path": shown})


# --- history_sessions ----------------------------------------------------------------------------

SESSIONS = Signature(
    "history_sessions",
    (
        Param(
            "limit",
            "integer",
            f"How many sessions per page. Default 20, at most {MAX_SESSIONS_LIMIT}.",
            default=20,
            minimum=1,
            maximum=MAX_SESSIONS_LIMIT,
        ),
        Param(
            "offset", "integer", "Skip this many (for the next page). Default 0.", default=0, minimum=0, maximum=10**9
        ),
        # The filters that make sense for a list of sessions; fewer parameters, fewer tokens per request.
        *(p for p in FILTER_PARAMS if p.name in ("scope", "directory", "since", "until", "tool", "agent")),
        Param(
            "parent",
            "string",
            "Only the children (subagent sessions) of this session id, each saying how it ended (finished, "
            "cancelled, error, unfinished): to recover the work of a cancelled subagent.",
        ),
    ),
)

SESSIONS_DESCRIPTION = (
    "List earlier sessions, newest first: to see what was worked on recently, find a session by date or "
    "directory, or get a session's cursor when you know roughly when it happened but not its words. "
    "Filters: scope, directory, since/until, tool (sessions that used it), agent; 'parent' lists a session's "
    "subagents.\n"
    "Returns a numbered list: title, directory, last update, size (messages, turns, approximate characters), how "
    "it ended, the first thing the user asked, the last outcome, and a cursor for history_read (mode='head' reads "
    "from the start).\n"
    "Paging: when a page is full, call again with offset = offset + limit. Read-only."
)


def run_sessions(args: dict[str, Any], settings: ServerSettings) -> Reply:
    from recollect import history
    from recollect.app import Recollect

    with Recollect() as app:  # one config load and one index connection for the whole call
        filters = build_filters(args, settings, app)
        report = refresh_index(INLINE_SYNC_AFTER, app)
        rows = history.sessions(filters, limit=args["limit"], offset=args["offset"], app=app, sync_first=False)
    offset = args["offset"]
    out = Lines(settings.budget)
    as_is = report is not None and report.lease_busy
    if as_is:
        out.add(f"Note: {history.LISTED_AS_IS}.")
    if not rows:
        hint = "no sessions in this scope" if offset == 0 else f"no sessions beyond offset {offset}"
        out.add(f"{hint} (scope {filters.scope}); widen the scope or drop filters.")
        return Reply(out.text(), {"sessions": [], "offset": offset, "next_offset": None, "listed_as_is": as_is})
    out.add(f"Sessions {offset + 1}-{offset + len(rows)}, newest first (scope {filters.scope}):")
    next_offset = offset + len(rows) if len(rows) == args["limit"] else None
    footer = (
        f"More: history_sessions(offset={next_offset}, limit={args['limit']})."
        if next_offset is not None
        else "End of the list."
    )
    shown_rows = out.add_while_fits(
        (_session_block(i, row, history.iso(row.time_updated)) for i, row in enumerate(rows, offset + 1)),
        len(footer) + 120,
    )
    if shown_rows < len(rows):
        next_offset = offset + shown_rows
        footer = f"More (page cut to stay within the budget): history_sessions(offset={next_offset})."
    out.add(footer)
    data = {
        "sessions": [r.to_dict() for r in rows[:shown_rows]],
        "offset": offset,
        "next_offset": next_offset,
        "listed_as_is": as_is,
    }
    return Reply(out.text(), data)


def _session_block(i: int, row: SessionInfo, updated: str) -> list[str]:
    block = [
        f"{i}. {one_line(row.title or '(untitled)', 120)} — {row.directory or '?'} · updated "
        f"{when(updated)} · {counted(row.messages, 'message')}, {counted(row.turns, 'turn')}, "
        f"~{row.approx_context_chars} chars · ended: {row.ending or '?'} · {row.agent_kind}"
        + (" · subagent" if row.parent_id else ""),
    ]
    for label, value, width in (
        ("summary", row.summary, 400),
        ("asked", row.first_human, 200),
        ("outcome", row.last_outcome, 200),
    ):
        if value:
            block.append(f"   {label}: {one_line(value, width)}")
    block.append(f"   cursor: {row.cursor}")
    return block


TOOLS = (
    Tool(SEARCH, SEARCH_DESCRIPTION, run_search, title="Search past sessions"),
    Tool(READ, READ_DESCRIPTION, run_read, title="Read a past session"),
    Tool(SESSIONS, SESSIONS_DESCRIPTION, run_sessions, title="List past sessions"),
    Tool(SAVE, SAVE_DESCRIPTION, run_save, read_only=False, title="Save a past session to a file"),
)
