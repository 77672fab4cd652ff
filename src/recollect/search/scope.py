"""Scope and filters as ONE predicate, applied in SQL by every read path.

Search, read, get, session listing, auto-recall and injection all build their WHERE clause here,
so no path can forget the scope: a foreign project's session never leaks. The predicate is over
the index tables `session s` and, for chunk-level filters, `chunk c`.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from recollect.errors import FilterError

if TYPE_CHECKING:
    from recollect.search.ceiling import Ceiling

SCOPES = ("all", "project", "directory", "session")
CLASSES = (
    "user_text",
    "assistant_text",
    "reasoning",
    "tool_input",
    "tool_output",
    "tool_error",
    "summary",
    "subtask",
)
AUTHORS = ("person", "model", "injected", "subagent")
ROLES = ("user", "assistant")


def git_root_of(directory: str) -> str | None:
    """The git worktree root containing `directory` (a `.git` dir or file), if it exists on disk."""
    path = Path(directory)
    for candidate in (path, *path.parents):
        if (candidate / ".git").exists():
            return str(candidate)
    return None


def resolve_project_root(conn: sqlite3.Connection, directory: str) -> str:
    """The project a directory belongs to: its git worktree on disk, else the deepest project root the
    index knows that contains it (sessions recorded their worktree), else the directory itself."""
    root = git_root_of(directory)
    if root:
        return root
    row = conn.execute(
        "SELECT project_root FROM session WHERE project_root IS NOT NULL AND (project_root = ? OR "
        "substr(?, 1, length(project_root) + 1) = project_root || '/') ORDER BY length(project_root) DESC LIMIT 1",
        (directory, directory),
    ).fetchone()
    return row[0] if row else directory


@dataclass
class Filters:
    scope: str = "all"
    directory: str | None = None  # the caller's directory for project/directory scope (default: cwd)
    sessions: list[str] = field(default_factory=list)  # native or qualified ids (scope "session")
    since: int | None = None  # epoch ms
    until: int | None = None
    roles: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)  # agent kinds: opencode, claude-code, codex, gemini
    sources: list[str] = field(default_factory=list)
    exclude_sessions: list[str] = field(default_factory=list)  # e.g. the current session
    parent: str | None = None  # only the children (subagent sessions) of this session id or SOURCE::ID
    include_archived: bool = True
    # Sessions recollect caused (the recall subagent's runs, text/markers.py) are left out unless asked
    # for, named in `sessions`, or listed as `parent`'s children: they repeat what our tools found and
    # would outrank their source.
    include_recall: bool = False
    exclude_messages: list[str] = field(default_factory=list)  # chunks of these messages (e.g. the one answered)
    project_root: str | None = None  # resolved from `directory` by `resolve()`; set it to override
    # (source, native id) of sessions a person hid (`recollect hide`): no read path shows them. None
    # means "read the tombstones in recollect's data dir" (`recollect.hidden`); history.scoped passes its config's.
    hidden: frozenset[tuple[str, str]] | None = None
    # The operator's ceiling (search/ceiling.py): `resolve()` refuses what reaches beyond it and
    # `predicate()` ANDs it into every query. None: unbounded (library callers, the eval).
    ceiling: Ceiling | None = None

    def validate(self) -> None:
        if self.scope not in SCOPES:
            raise FilterError(f"scope must be one of {', '.join(SCOPES)} (got {self.scope!r})")
        if self.scope == "session" and not self.sessions:
            raise FilterError("scope 'session' needs at least one session id (--session ID)")
        for name, values, allowed in (
            ("class", self.classes, CLASSES),
            ("author", self.authors, AUTHORS),
            ("role", self.roles, ROLES),
        ):
            bad = [v for v in values if v not in allowed]
            if bad:
                raise FilterError(f"unknown {name} {bad[0]!r}; use one of {', '.join(allowed)}")
        if self.since is not None and self.until is not None and self.since > self.until:
            raise FilterError("'since' is after 'until'; swap them")

    @property
    def chunk_level(self) -> bool:
        """Filters that only chunks can answer (a card has no role or class)."""
        return bool(self.roles or self.classes or self.tools or self.authors)

    def admits(self, *, role: str, klass: str, author: str, tool: str | None, time: int) -> bool:
        """The chunk-level half of `predicate`, for text read straight from a source (deep search)
        rather than from index rows: the same rules, so every read path honours the same filters."""
        return (
            (self.since is None or time >= self.since)
            and (self.until is None or time <= self.until)
            and (not self.roles or role in self.roles)
            and (not self.classes or klass in self.classes)
            and (not self.tools or tool in self.tools)
            and (not self.authors or author in self.authors)
        )

    def hidden_sessions(self) -> frozenset[tuple[str, str]]:
        if self.hidden is None:
            from recollect.config import resolve_paths
            from recollect.hidden import hidden_keys

            self.hidden = hidden_keys(resolve_paths().data_dir)
        return self.hidden

    def caller_directory(self) -> str:
        return os.path.abspath(self.directory or os.getcwd())

    @property
    def widest_scope(self) -> str:
        """The widest scope a query may ask for: 'all', or the operator's ceiling."""
        return self.ceiling.scope if self.ceiling is not None else "all"

    def resolve(self, conn: sqlite3.Connection) -> Filters:
        """Fill in what needs the index (the caller's project root, the ceiling's) and refuse what
        reaches beyond the ceiling (`ScopeCeilingError`). Every read path calls this."""
        here = self.project_root is None
        if here:
            self.project_root = resolve_project_root(conn, self.caller_directory())
        if self.ceiling is not None:
            if here and self.ceiling.root is None and self.ceiling.anchor == self.caller_directory():
                # Anchored where the caller is (the plugin helper's case): the same root, resolved once.
                self.ceiling = replace(self.ceiling, root=self.project_root)
            self.ceiling = self.ceiling.resolved(conn)
            self.ceiling.check(self, conn)
        return self


def visible_sessions(conn: sqlite3.Connection, filters: Filters) -> int:
    """How many sessions this caller could ever see: inside the ceiling, not hidden, not recollect's own
    (unless asked for). What coverage reports as "indexed": a bounded caller learns nothing about the
    size of the history beyond its ceiling."""
    where, params = _visible_predicate(filters)
    return int(conn.execute(f"SELECT count(*) FROM session s WHERE {where}", params).fetchone()[0])


@dataclass(frozen=True)
class SessionCounts:
    visible: int  # `visible_sessions`: what coverage reports as indexed
    in_scope: int  # inside `filters` (the scope, the time window, ...)
    total: int  # every session of the index, seen or not (never reported: it only tells whether to mask)
    carded: int  # sessions of the index with a card (their card vectors may still be missing)


def counts_query(filters: Filters) -> tuple[str, list[object]]:
    """The one query `session_counts` runs: all sessions, the visible ones, those in scope, those carded."""
    visible, visible_params = _visible_predicate(filters)
    scoped, scoped_params = predicate(filters, chunk_alias=None)
    sql = (
        f"SELECT count(*), coalesce(sum(CASE WHEN {visible} THEN 1 ELSE 0 END), 0), "
        f"coalesce(sum(CASE WHEN {scoped} THEN 1 ELSE 0 END), 0), count(s.card_hash) FROM session s"
    )
    return sql, [*visible_params, *scoped_params]


def session_counts(conn: sqlite3.Connection, filters: Filters) -> SessionCounts:
    """The session counts a search reports, in one pass over the session table (each count of its own
    cost one scan: ~7 ms at 5,000 sessions)."""
    row = conn.execute(*counts_query(filters)).fetchone()
    return SessionCounts(visible=int(row[1]), in_scope=int(row[2]), total=int(row[0]), carded=int(row[3]))


def _visible_predicate(filters: Filters) -> tuple[str, list[object]]:
    visible = Filters(
        directory=filters.directory,
        include_recall=filters.include_recall,
        project_root=filters.project_root,
        hidden=filters.hidden,
        ceiling=filters.ceiling,
    )
    return predicate(visible, chunk_alias=None)


def split_session_ref(ref: str) -> tuple[str | None, str]:
    """`claude::abc` -> ("claude", "abc"); a raw id -> (None, id)."""
    if "::" in ref:
        source, native = ref.split("::", 1)
        return source, native
    return None, ref


def _dir_clause(column: str, directory: str, params: list[object]) -> str:
    """`column` is `directory` or below it. A range, not LIKE: '_' and '%' in paths are not wildcards,
    and case matters ('/' + 1 is '0', so [dir/, dir0) is exactly everything under dir/)."""
    directory = directory.rstrip("/") or "/"
    base = directory.rstrip("/")
    params.extend([directory, base + "/", base + "0"])
    return f"({column} = ? OR ({column} >= ? AND {column} < ?))"


def scope_clause(scope: str, directory: str, project_root: str | None, alias: str, params: list[object]) -> str:
    """SQL for "session `alias` is in `scope` seen from `directory`" ('1' for 'all' and 'session',
    whose ids are a separate clause). One rule for a query's scope and for the operator's ceiling."""
    if scope == "directory":
        return _dir_clause(f"{alias}.directory", directory, params)
    if scope == "project":
        root = project_root or git_root_of(directory) or directory
        dir_clause = _dir_clause(f"{alias}.directory", root, params)
        params.append(root)
        return f"({dir_clause} OR {alias}.project_root = ?)"
    return "1"


def session_ref_clause(
    ref: str, params: list[object], *, id_column: str = "s.native_id", source_column: str = "s.source_id"
) -> str:
    """SQL for "this row is session `ref`" (`ID`, any source, or `SOURCE::ID`), its parameters added to
    `params`. The id may sit in another column (a child's `parent_id`, a chunk's `message_id`). The one
    place a session reference becomes SQL: scope, exclusions, parents and the ceiling's checks use it."""
    source, native = split_session_ref(ref)
    params.append(native)
    if source:
        params.append(source)
        return f"({id_column} = ? AND {source_column} = ?)"
    return f"{id_column} = ?"


def predicate(filters: Filters, *, session_alias: str = "s", chunk_alias: str | None = "c") -> tuple[str, list[object]]:
    """SQL WHERE fragment and parameters for `filters`. `chunk_alias=None` when no chunk is joined."""
    filters.validate()
    s = session_alias
    ids, source = f"{s}.native_id", f"{s}.source_id"
    clauses: list[str] = []
    params: list[object] = []
    if filters.ceiling is not None and not filters.ceiling.unbounded:
        clauses.append(filters.ceiling.clause(s, params))
    if filters.scope in ("directory", "project"):
        clauses.append(scope_clause(filters.scope, filters.caller_directory(), filters.project_root, s, params))
    if filters.sessions:
        refs = (session_ref_clause(ref, params, id_column=ids, source_column=source) for ref in filters.sessions)
        clauses.append("(" + " OR ".join(refs) + ")")
    for ref in filters.exclude_sessions:
        clauses.append(f"NOT ({session_ref_clause(ref, params, id_column=ids, source_column=source)})")
    if filters.parent:
        clauses.append(session_ref_clause(filters.parent, params, id_column=f"{s}.parent_id", source_column=source))
    hidden = sorted(filters.hidden_sessions())
    if hidden:  # a hidden session is out of every scope, whatever else the call asked for
        clauses.append(f"({s}.source_id, {s}.native_id) NOT IN (VALUES {', '.join(['(?, ?)'] * len(hidden))})")
        params.extend(part for key in hidden for part in key)
    if filters.agents:
        clauses.append(f"{s}.agent_kind IN ({','.join('?' * len(filters.agents))})")
        params.extend(filters.agents)
    if filters.sources:
        clauses.append(f"{s}.source_id IN ({','.join('?' * len(filters.sources))})")
        params.extend(filters.sources)
    if not filters.include_archived:
        clauses.append(f"{s}.time_archived IS NULL")
    if not filters.include_recall and not filters.sessions and not filters.parent:
        clauses.append(f"{s}.origin = ''")
    if filters.exclude_messages and chunk_alias:
        clauses.append(f"{chunk_alias}.message_id NOT IN ({','.join('?' * len(filters.exclude_messages))})")
        params.extend(filters.exclude_messages)
    # A chunk is in the window when it was written in it; a session (cards, meaning, listings) when
    # it was active in it: created before the window ends and updated after it starts.
    if filters.since is not None:
        clauses.append(f"{chunk_alias}.time >= ?" if chunk_alias else f"{s}.time_updated >= ?")
        params.append(filters.since)
    if filters.until is not None:
        clauses.append(f"{chunk_alias}.time <= ?" if chunk_alias else f"{s}.time_created <= ?")
        params.append(filters.until)
    if chunk_alias:
        for column, values in (
            ("role", filters.roles),
            ("class", filters.classes),
            ("tool", filters.tools),
            ("author", filters.authors),
        ):
            if values:
                clauses.append(f"{chunk_alias}.{column} IN ({','.join('?' * len(values))})")
                params.extend(values)
    elif filters.chunk_level:
        # Session-level read path asked for chunk-level filters: keep sessions having such a chunk.
        sub_filters = Filters(
            roles=filters.roles,
            classes=filters.classes,
            tools=filters.tools,
            authors=filters.authors,
            hidden=frozenset(),  # the outer clause already leaves hidden sessions out
        )
        sub, sub_params = predicate(sub_filters, session_alias=s, chunk_alias="fc")
        clauses.append(f"EXISTS (SELECT 1 FROM chunk fc WHERE fc.sid = {s}.sid AND {sub})")
        params.extend(sub_params)
    return (" AND ".join(clauses) or "1"), params
