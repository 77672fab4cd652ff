"""Deep search: read full tool outputs from the stores themselves, for text the index only excerpts.

The index keeps a bounded excerpt of each tool output (head, error-looking lines, tail). An error
buried in the middle of a 200 KB build log may fall outside it; a deep search reads the whole
outputs of the sessions in scope and matches the query literally. Because that reads real
transcripts, it is refused unless it is scoped: named sessions, or a project/directory scope
together with a lower time bound. It is also capped in sessions and characters, and its coverage
says what those caps left out.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass, field

from recollect.model import Session
from recollect.redact import redact
from recollect.search.rank import Coverage, Hit, SearchResult, make_cursor
from recollect.search.scope import FilterError, Filters, predicate, visible_sessions
from recollect.sources import SourceSpec, open_source
from recollect.text.markers import is_our_tool, is_recall_tool_call
from recollect.text.tokenize import fold, query_terms

MAX_SESSIONS = 50
MAX_CHARS = 50_000_000  # characters of tool output read per query
SNIPPET = 280


def require_scope(filters: Filters) -> None:
    """Refuse an unscoped sweep with an error that names what is missing."""
    if filters.sessions:
        return
    missing = []
    if filters.scope not in ("project", "directory"):
        missing.append("a scope (--scope project or --scope directory, or --session ID)")
    if filters.since is None:
        missing.append("a lower time bound (--since, e.g. --since 14d)")
    if missing:
        raise FilterError(
            "a deep search reads whole tool outputs from the stores, so it must be scoped; missing: "
            + " and ".join(missing)
        )


def _line_matches(line: str, phrase: str, terms: list[str]) -> bool:
    folded = fold(line)
    return phrase in folded or (len(terms) > 1 and all(t in folded for t in terms))


@dataclass
class _Sweep:
    """One deep search as it reads: what it looks for, and what it has found and read so far."""

    filters: Filters
    phrase: str
    terms: list[str]
    limit: int
    hits: list[Hit] = field(default_factory=list)
    read_chars: int = 0
    searched: int = 0
    over_budget: bool = False


def deep_search(
    conn: sqlite3.Connection, specs: dict[str, SourceSpec], query: str, filters: Filters, *, limit: int = 10
) -> SearchResult:
    started = time.perf_counter()
    filters.resolve(conn)
    require_scope(filters)
    phrase = fold(query.strip())
    terms = [t for t in query_terms(query) if "/" not in t] or [phrase]
    rows, coverage = _sessions_in_scope(conn, filters)
    sweep = _Sweep(filters, phrase, terms, limit)
    by_source: dict[str, list[tuple]] = {}
    for row in rows:
        by_source.setdefault(row[1], []).append(row)
    for source_id, source_rows in by_source.items():
        spec = specs.get(source_id)
        if spec is None:
            coverage.skipped_by_reason["source_not_configured"] = len(source_rows)
            continue
        meta = {r[2]: r for r in source_rows}
        for session in open_source(spec).read_sessions(list(meta)):
            if sweep.over_budget or len(sweep.hits) >= limit:
                break
            sweep.searched += 1
            _read_session(sweep, session, meta[session.id])
            if sweep.read_chars > MAX_CHARS and not sweep.over_budget:
                sweep.over_budget = True
                coverage.limited_by.append("deep character budget")
    hits = sweep.hits
    coverage.sessions_matched = len({h.session_id for h in hits})
    coverage.sessions_returned = coverage.sessions_matched
    coverage.hits_returned = len(hits)
    coverage.skipped_by_reason["sessions_not_read"] = max(0, len(rows) - sweep.searched)
    if not coverage.skipped_by_reason["sessions_not_read"]:
        del coverage.skipped_by_reason["sessions_not_read"]
    if not hits:
        coverage.hint = "no tool output in scope contains that text; widen --since or the scope"
    return SearchResult(query, terms, hits, coverage, (time.perf_counter() - started) * 1000)


def _sessions_in_scope(conn: sqlite3.Connection, filters: Filters) -> tuple[list[tuple], Coverage]:
    """The sessions to read, newest first and capped, and the coverage that says what bounded them."""
    where, params = predicate(filters, chunk_alias=None)
    rows = conn.execute(
        f"SELECT sid, source_id, native_id, title, directory, parent_id, agent_kind FROM session s WHERE {where} "
        "ORDER BY time_updated DESC LIMIT ?",
        [*params, MAX_SESSIONS + 1],
    ).fetchall()
    coverage = Coverage(scope=filters.scope, sessions_indexed=visible_sessions(conn, filters))
    coverage.sessions_in_scope = len(rows)
    coverage.limited_by.append("scope")
    if filters.since is not None:
        coverage.limited_by.append("time window")
    if len(rows) > MAX_SESSIONS:
        coverage.limited_by.append(f"deep search reads at most {MAX_SESSIONS} sessions (newest first)")
        coverage.skipped_by_reason["beyond_deep_session_cap"] = 1
        rows = rows[:MAX_SESSIONS]
    return rows, coverage


def _read_session(sweep: _Sweep, session: Session, row: tuple) -> None:
    """Every tool output of one session the filters admit: counted as read, and matched line by line."""
    _, source_id, native, title, directory, parent, kind = row
    for message in session.messages:
        for part in message.parts:
            if is_our_tool(part.tool) or is_recall_tool_call(part.tool, part.tool_input):
                continue  # our own earlier answers, the recall agent's (they may show other projects): never read back
            output = part.tool_output or part.tool_error or ""
            klass = "tool_error" if part.tool_error and not part.tool_output else "tool_output"
            author = "subagent" if parent else "model"
            when = part.time or message.time
            if not output or not sweep.filters.admits(
                role=message.role, klass=klass, author=author, tool=part.tool or "tool", time=when
            ):
                continue
            sweep.read_chars += len(output)
            if len(sweep.hits) >= sweep.limit:
                continue
            line = _first_match(output, sweep.phrase, sweep.terms)
            if line is None:
                continue
            clean = re.sub(r"\s+", " ", line).strip()
            sweep.hits.append(  # one hit per part
                Hit(
                    session_id=native,
                    source=source_id,
                    agent_kind=kind,
                    message_id=message.id,
                    part_id=part.id,
                    cursor=make_cursor(source_id, native, message.id),
                    score=1.0 / (len(sweep.hits) + 1),
                    title=title,
                    directory=directory,
                    time=when,
                    role=message.role,
                    klass=klass,
                    author=author,
                    tool=part.tool,
                    snippet=clean[:SNIPPET],
                    matched=sweep.terms,
                    why="deep",
                    parent_id=parent,
                )
            )


def _first_match(output: str, phrase: str, terms: list[str]) -> str | None:
    # Redact the whole output first: a private key's body lines are only caught whole.
    for line in redact(output).splitlines():
        if _line_matches(line, phrase, terms):
            return line
    return None
