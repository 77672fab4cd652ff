"""The history API: index, search, read, list and diagnose. The CLI and the MCP server call these
functions and nothing below them; each opens what it needs from the config and closes it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from recollect import hidden as hiding
from recollect.app import FRESH_SECONDS, Recollect
from recollect.config import Config, ConfigError, load_config
from recollect.errors import RecollectError
from recollect.index import store, vectors
from recollect.index.cardsummary import apply_summaries
from recollect.index.sync import Progress, SyncReport, sync
from recollect.search import read as reading
from recollect.search.ceiling import Ceiling
from recollect.search.ceiling import from_config as ceiling_from_config
from recollect.search.deep import deep_search
from recollect.search.rank import SearchResult, make_cursor
from recollect.search.rank import search as rank_search
from recollect.search.scope import Filters, predicate
from recollect.sources import SourceSpec, configured_specs
from recollect.times import iso


class HistoryError(RecollectError):
    """A history operation cannot be done as asked; the message says why and what to do."""


def scoped(filters: Filters | None, config: Config) -> Filters:
    """`filters` with the sessions hidden under `config` left out (every read path below calls this)."""
    filters = filters or Filters()
    if filters.hidden is None:
        filters.hidden = hiding.hidden_keys(config.paths.data_dir)
    return filters


@contextmanager
def open_index(config: Config | None = None, *, readonly: bool = False) -> Iterator[sqlite3.Connection]:
    config = config or load_config()
    configured_specs(config)  # refuses an index path that is a store before anything opens it
    conn = store.connect(config.index_path, readonly=readonly)
    try:
        yield conn
    finally:
        conn.close()


def index(config: Config | None = None, *, progress: Progress | None = None, wait: bool = False) -> SyncReport:
    """Sync every configured source into the index and embed new text."""
    config = config or load_config()
    embedder = vectors.embedder_for(config)
    with open_index(config) as conn:

        def run() -> SyncReport:
            return sync(
                conn,
                configured_specs(config),
                progress=progress,
                wait=wait,
                embedder=embedder,
                card_encoder=vectors.card_encoder_for(config),
            )

        report = run()
        if apply_summaries(conn, config.paths, resynced=report.changed > 0) and not report.lease_busy:
            report = run()  # nothing to read again: it embeds the cards that gained a summary
        return report


@contextmanager
def _surface(config: Config | None, app: Recollect | None) -> Iterator[Recollect]:
    """The caller's `Recollect`, or one for this call alone (closed when the call ends)."""
    if app is not None:
        yield app
        return
    with Recollect(config) as own:
        yield own


def refresh(conn: sqlite3.Connection, config: Config, *, max_age: float = FRESH_SECONDS) -> SyncReport | None:
    """Sync unless the index is fresher than `max_age` seconds. Never waits for another writer."""
    return Recollect(config).refresh(conn, max_age=max_age)


def search(
    query: str,
    filters: Filters | None = None,
    *,
    limit: int = 10,
    per_session: int = 2,
    config: Config | None = None,
    app: Recollect | None = None,
    sync_first: bool = True,
    deep: bool = False,
    ephemeral: bool = False,
    exact: bool = False,
) -> SearchResult:
    """Ranked search of the index; `deep` instead reads whole tool outputs of a scoped set of sessions.
    `exact` searches the words as typed: no typo correction, no reading of question or time words."""
    with _surface(config, app) as app:
        filters = scoped(filters, app.config)
        if ephemeral:
            return _search_ephemeral(
                query, filters, limit=limit, per_session=per_session, config=app.config, deep=deep, exact=exact
            )
        with app.index() as conn:
            report = app.refresh(conn) if sync_first else None
            if deep:
                result = deep_search(conn, app.specs_by_id(), query, filters, limit=limit)
            else:
                result = rank_search(
                    conn,
                    query,
                    filters,
                    limit=limit,
                    per_session=per_session,
                    embedder=app.embedder,
                    card_encoder=app.card_encoder,
                    exact=exact,
                )
        semantic = vectors.semantic_enabled(app.config)
    if report is not None and report.lease_busy:
        result.coverage.limited_by.append("index being updated by another process")
    if semantic:
        result.coverage.limited_by.extend(vectors.PROBLEMS.values())  # meaning search that cannot run, and its fix
    return result


def _search_ephemeral(
    query: str, filters: Filters, *, limit: int, per_session: int, config: Config, deep: bool, exact: bool = False
) -> SearchResult:
    """Read every store into an index in memory, search it, and drop it: nothing is written to disk,
    not the index, not a model cache. Words only (the semantic arms would load or cache models)."""
    specs = configured_specs(config)
    conn = store.connect_memory()
    try:
        sync(conn, specs, prune_vectors=False)
        if deep:
            return deep_search(conn, {s.id: s for s in specs}, query, filters, limit=limit)
        result = rank_search(conn, query, filters, limit=limit, per_session=per_session, exact=exact)
    finally:
        conn.close()
    result.coverage.limited_by.append("ephemeral: words only, nothing written")
    return result


# The listing columns, in SessionInfo's order (a row of `session s`).
_SESSION_COLUMNS = (
    "native_id, source_id, agent_kind, title, directory, parent_id, time_created, time_updated, message_count, "
    "turns, assistant_messages, tool_messages, text_parts, approx_context_chars, ended, first_human, last_outcome, "
    "tools, summary"
)


@dataclass
class SessionInfo:
    session_id: str
    source: str
    agent_kind: str
    title: str
    directory: str
    parent_id: str | None
    time_created: int
    time_updated: int
    messages: int
    turns: int  # messages a person typed
    assistant_messages: int
    tool_messages: int  # messages that call a tool
    text_parts: int
    approx_context_chars: int  # text, reasoning, tool input and output
    ended: str  # finished | cancelled | error | unfinished
    first_human: str
    last_outcome: str
    tools: str
    summary: str  # two or three sentences from `recollect summarize`, "" until it has run
    cursor: str

    def to_dict(self) -> dict[str, Any]:
        data = self.__dict__.copy()
        data["updated_iso"] = iso(self.time_updated)
        return data


def sessions(
    filters: Filters | None = None,
    *,
    limit: int = 20,
    offset: int = 0,
    config: Config | None = None,
    app: Recollect | None = None,
    sync_first: bool = True,
) -> list[SessionInfo]:
    """Recent sessions, newest first, through the scope predicate (`Filters.parent` lists a session's children)."""
    with _surface(config, app) as app, app.index() as conn:
        filters = scoped(filters, app.config)
        if sync_first:
            app.refresh(conn)
        where, params = predicate(filters.resolve(conn), chunk_alias=None)
        rows = conn.execute(
            f"SELECT {_SESSION_COLUMNS} FROM session s WHERE {where} ORDER BY time_updated DESC LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()
    infos = []
    for r in rows:
        values: dict[str, Any] = {f.name: value for f, value in zip(fields(SessionInfo), r, strict=False)}
        info = SessionInfo(**values, cursor=make_cursor(r[1], r[0], ""))
        info.title = info.title or info.first_human[:80]  # agents that store no title
        infos.append(info)
    return infos


def read(
    cursor: str,
    filters: Filters | None = None,
    *,
    before: int = reading.DEFAULT_BEFORE,
    after: int = reading.DEFAULT_AFTER,
    budget: int = reading.DEFAULT_BUDGET,
    mode: str = "around",
    whole: bool = False,
    config: Config | None = None,
    app: Recollect | None = None,
) -> reading.Window:
    """A bounded window of the real transcript around `cursor`, read from the source store.
    `whole` gives the one message at `cursor` uncapped but for `budget` (mode is then "message")."""
    with _surface(config, app) as app:
        return _read(cursor, filters, app, before=before, after=after, budget=budget, mode=mode, whole=whole)


def _read(
    cursor: str,
    filters: Filters | None,
    app: Recollect,
    *,
    before: int,
    after: int,
    budget: int,
    mode: str,
    whole: bool,
) -> reading.Window:
    config = app.config
    specs = app.specs_by_id()
    filters = scoped(filters, config)
    with app.index() as conn:
        try:
            row, message_id = reading.resolve_cursor(conn, cursor, filters)
        except reading.ReadError:
            pieces = cursor.strip().split("::")
            if any(
                pieces[0] in (h.session, h.key[1]) or "::".join(pieces[:2]) == h.session
                for h in hiding.read_hidden(config.paths.data_dir).values()
            ):
                raise reading.ReadError(
                    f"session {cursor!r} is hidden ('recollect sessions --hidden' says why); "
                    "'recollect unhide SESSION' shows it again"
                ) from None
            raise
    session = reading.load_session(specs, row)
    if whole and mode == "around":
        mode = "message"
    return reading.window(session, message_id, before=before, after=after, budget=budget, mode=mode, whole=whole)


def own_session(session_id: str, config: Config | None = None, *, kind: str = "opencode") -> list[str]:
    """The qualified ids that name a host's current session, in the host's own source only.

    A host (the OpenCode plugin) knows its session's raw id, not which configured source it is: it is
    the source of that agent kind whose store is the one the host uses (`OPENCODE_DB`, else its data
    dir), or, when none matches, every source of that kind. Never another agent's store, where the
    same raw id would be a different session."""
    if "::" in session_id:
        return [session_id]
    config = config or load_config()
    specs = [s for s in configured_specs(config) if s.kind == kind]
    if kind == "opencode":
        from recollect.sources.opencode import find_stores

        host = {p.resolve() for p in find_stores()}
        specs = [s for s in specs if s.path.resolve() in host] or specs
    return [f"{s.id}::{session_id}" for s in specs]


# --- saving a transcript -------------------------------------------------------------------------

SAVE_DIR = "recall"  # where an agent may save transcripts: <project>/recall/


@dataclass
class SavedTranscript:
    path: str
    bytes: int
    messages: int

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def save_target(path: str, project: Path) -> Path:
    """Where an agent's `history_save` may write: a file under `<project>/recall/`, after resolving
    symlinks and '..'; anything else is refused. A relative `path` is taken from the project root."""
    root = project.resolve()
    allowed = root / SAVE_DIR
    target = Path(os.path.expanduser(path))
    target = (target if target.is_absolute() else root / target).resolve()
    if target == allowed or not target.is_relative_to(allowed):
        raise HistoryError(
            f"refused to write {path!r}: transcripts are saved only under {SAVE_DIR}/ in the project "
            f"({allowed}); pass a path like {SAVE_DIR}/session.chatml"
        )
    return target


def save_transcript(
    cursor: str,
    path: str | Path | None,
    filters: Filters | None = None,
    *,
    within: Path | None = None,
    config: Config | None = None,
) -> SavedTranscript:
    """Write the whole session at `cursor` as ChatML to `path` (secrets redacted, no per-part caps).

    With `within` (a project directory) the path must lie under `<within>/recall/`, and defaults to
    `recall/<session id>.chatml`. A source store or the index is never a target."""
    config = config or load_config()
    specs = {s.id: s for s in configured_specs(config)}
    filters = scoped(filters, config)
    with open_index(config) as conn:
        row, _ = reading.resolve_cursor(conn, cursor, filters)
    if path is None:
        if within is None:
            raise HistoryError("name the file to save to (--save PATH)")
        path = f"{SAVE_DIR}/{row['native_id']}.chatml"
    where = str(path)
    target = save_target(where, within) if within is not None else Path(os.path.expanduser(where)).resolve()
    protected = {config.index_path.resolve(), *(s.path.resolve() for s in specs.values())}
    if target in protected or any(target.is_relative_to(p) for p in protected if p.is_dir()):
        raise HistoryError(f"refused to write {target}: it is a session store or recollect's index")
    if target.is_dir():
        raise HistoryError(f"{target} is a directory; name a file, e.g. {target / 'session.chatml'}")
    window = reading.transcript(reading.load_session(specs, row))
    data = (reading.render_chatml(window) + "\n").encode("utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".recollect-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o600)  # a transcript is as private as the store it came from
        os.replace(tmp, target)  # replaces a symlink itself, never the file it points to
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return SavedTranscript(path=str(target), bytes=len(data), messages=len(window.messages))


# --- hiding a session ------------------------------------------------------------------------------


def _qualify(conn: sqlite3.Connection, ref: str, config: Config) -> str:
    """`source::native` for a session reference (a qualified id, a cursor, or a raw id the index knows)."""
    pieces = ref.strip().split("::")
    if len(pieces) >= 2 and pieces[0] and pieces[1]:
        source, native = pieces[0], pieces[1]
        known = {s.id for s in configured_specs(config)} | {r[0] for r in conn.execute("SELECT id FROM source")}
        if source not in known:
            raise HistoryError(f"no source {source!r}; use one of {', '.join(sorted(known)) or '(none configured)'}")
        return f"{source}::{native}"
    if len(pieces) != 1 or not pieces[0]:
        raise HistoryError(f"cannot read the session {ref!r}; pass a session id or SOURCE::ID")
    rows = conn.execute("SELECT source_id, native_id FROM session WHERE native_id = ?", (pieces[0],)).fetchall()
    if not rows:
        raise HistoryError(
            f"no indexed session {ref!r}; run 'recollect index' first, or name it as SOURCE::ID (e.g. opencode::{ref})"
        )
    if len(rows) > 1:
        raise HistoryError(
            f"session {ref!r} is in more than one source; use one of: " + ", ".join(f"{a}::{b}" for a, b in rows)
        )
    return f"{rows[0][0]}::{rows[0][1]}"


def _audit(config: Config, *, op: str, session: str, by: str, note: str) -> None:
    """One line in the audit log of the global memory root (`recollect memory log` shows it)."""
    from recollect.memory.audit import record
    from recollect.memory.files import MemoryRoot, utcnow

    root = MemoryRoot(config.paths.global_memory, "global")
    record(root, actor=by, op=op, memory_id=f"session:{session}", before=None, after=None, now=utcnow(), note=note)


def hide_session(ref: str, *, why: str, by: str = "person", config: Config | None = None) -> hiding.HiddenSession:
    """Hide a session from every read path (search, read, listings, MCP tools, auto-recall).

    `ref` is a session id, `SOURCE::ID`, or a cursor. The hide is a tombstone in recollect's data
    dir, not a mark in the index, so it survives re-syncs and index rebuilds; it goes to the audit
    log with `why`. Hiding a hidden session again replaces its reason. Returns the tombstone."""
    why = " ".join(why.split())
    if not why:
        raise HistoryError("say why the session is hidden (--why TEXT); the reason goes to the audit log")
    config = config or load_config()
    with open_index(config) as conn:
        session = _qualify(conn, ref, config)
    entry = hiding.HiddenSession(session=session, at=hiding.now_iso(), by=by, why=why)
    hiding.append(config.paths.data_dir, {"op": "hide", **entry.to_dict()})
    _audit(config, op="hide", session=session, by=by, note=why)
    return entry


def unhide_session(ref: str, *, by: str = "person", config: Config | None = None) -> hiding.HiddenSession:
    """Bring a hidden session back into every read path; written to the audit log. Returns the lifted tombstone."""
    config = config or load_config()
    current = hiding.read_hidden(config.paths.data_dir)
    pieces = ref.strip().split("::")
    matches = [h for h in current.values() if h.session == "::".join(pieces[:2]) or h.key[1] == pieces[0]]
    if not matches:
        raise HistoryError(f"session {ref!r} is not hidden; 'recollect sessions --hidden' lists the hidden ones")
    if len(matches) > 1:
        raise HistoryError(
            f"session {ref!r} is hidden in more than one source; use one of: " + ", ".join(h.session for h in matches)
        )
    entry = matches[0]
    hiding.append(config.paths.data_dir, {"op": "unhide", "session": entry.session, "at": hiding.now_iso(), "by": by})
    _audit(config, op="unhide", session=entry.session, by=by, note="")
    return entry


@dataclass
class HiddenInfo:
    session: str
    at: str
    by: str
    why: str
    title: str  # from the index, when it still holds the session
    directory: str

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def hidden_sessions(config: Config | None = None, *, ceiling: Ceiling | None = None) -> list[HiddenInfo]:
    """The hidden sessions, newest hide first, with their title and directory where the index has them.

    Under a bounded scope ceiling (default: the config's `[scope] ceiling`, anchored here) only the
    hidden sessions inside it are listed: a title or directory from beyond it is never shown, and a
    session the index no longer holds cannot be placed, so it is left out too."""
    config = config or load_config()
    ceiling = ceiling if ceiling is not None else ceiling_from_config(config)
    entries = sorted(hiding.read_hidden(config.paths.data_dir).values(), key=lambda h: h.at, reverse=True)
    known: dict[tuple[str, str], tuple[str, str]] = {}
    if entries and config.index_path.exists():
        with open_index(config, readonly=True) as conn:
            bound = ceiling.resolved(conn)
            params: list[object] = []
            inside = bound.clause("s", params)
            for h in entries:
                row = conn.execute(
                    "SELECT title, first_human, directory FROM session s WHERE source_id = ? AND native_id = ? "
                    f"AND {inside}",
                    [*h.key, *params],
                ).fetchone()
                if row:
                    known[h.key] = ((row[0] or row[1] or "")[:80], row[2] or "")
    if not ceiling.unbounded:
        entries = [h for h in entries if h.key in known]
    return [HiddenInfo(h.session, h.at, h.by, h.why, *known.get(h.key, ("", ""))) for h in entries]


@dataclass
class Diagnosis:
    config_file: str
    config_exists: bool
    index_path: str
    index_exists: bool
    sources: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    index_sessions: int = 0
    index_bytes: int = 0
    semantic: dict[str, Any] = field(default_factory=dict)  # search by meaning: vectors.semantic_state


def doctor(config: Config | None = None) -> Diagnosis:
    """What recollect found and what is wrong, without changing anything."""
    config = config or load_config()
    diagnosis = Diagnosis(
        config_file=str(config.paths.config_file),
        config_exists=config.paths.config_file.exists(),
        index_path=str(config.index_path),
        index_exists=config.index_path.exists(),
    )
    try:
        configured_specs(config)
    except ConfigError as exc:  # two sources naming one store, or the index is a store: nothing else is safe
        diagnosis.problems.append(str(exc))
        return diagnosis
    recorded: dict[str, tuple[Any, ...]] = {}
    bad: dict[str, tuple[int, str]] = {}  # sessions a sync could not read or store, per source
    if diagnosis.index_exists:
        try:
            with open_index(config, readonly=True) as conn:
                diagnosis.index_sessions = conn.execute("SELECT count(*) FROM session").fetchone()[0]
                for row in conn.execute("SELECT id, status, message, sessions, malformed, time_synced FROM source"):
                    recorded[row[0]] = row
                for source_id, count, first in conn.execute(
                    "SELECT source_id, count(*), min(native_id || ': ' || substr(reason, 6)) FROM skipped "
                    "WHERE reason LIKE 'bad:%' GROUP BY source_id"
                ):
                    bad[source_id] = (count, first)
            diagnosis.index_bytes = sum(  # the database, its WAL, and the vector matrices kept beside it
                f.stat().st_size
                for p in config.index_path.parent.glob(config.index_path.name + "*")
                for f in ([p] if p.is_file() else p.rglob("*"))
                if f.is_file()
            )
        except store.IndexUnavailable as exc:
            diagnosis.problems.append(str(exc))
    specs: list[SourceSpec] = configured_specs(config)
    if not specs:
        diagnosis.problems.append(
            "no session store found: set OPENCODE_DB, or list a store under [[source]] in " + diagnosis.config_file
        )
    for spec in specs:
        entry: dict[str, Any] = {
            "id": spec.id,
            "kind": spec.kind,
            "path": str(spec.path),
            "enabled": spec.enabled,
            "discovered": spec.discovered,
            "exists": spec.path.exists(),
        }
        if spec.id in recorded:
            _, status, message, count, malformed, synced = recorded[spec.id]
            entry.update(
                status=status,
                message=message or "",
                indexed_sessions=count,
                malformed=malformed,
                synced=iso(synced or 0),
            )
            if status not in ("ok", None):
                diagnosis.problems.append(f"{spec.id}: {message}")
            if spec.id in bad:
                count, first = bad[spec.id]
                entry["bad_sessions"] = count
                diagnosis.problems.append(
                    f"{spec.id}: {count} sessions could not be read and are skipped until they change "
                    f"(first: {first}); the rest of the store is indexed"
                )
        else:
            entry.update(status="not indexed yet")
        if not spec.path.exists() and spec.enabled:
            diagnosis.problems.append(f"{spec.id}: store not found at {spec.path}")
        diagnosis.sources.append(entry)
    try:
        diagnosis.semantic = vectors.semantic_state(config)
    except Exception as exc:  # doctor must report, never crash
        diagnosis.semantic = {"status": "broken", "problems": [f"search by meaning cannot be checked: {exc}"]}
    diagnosis.problems.extend(diagnosis.semantic.get("problems", []))
    return diagnosis


@dataclass
class SessionCard:
    """What the index knows of one session at a glance: the card beside a transcript."""

    session_id: str
    source: str
    title: str
    directory: str
    project_root: str
    time_created: int
    time_updated: int
    messages: int
    first_human: str
    last_outcome: str
    files: list[str]
    tools: list[str]
    errors: list[str]
    decisions: list[str]
    identifiers: list[str]

    def to_dict(self) -> dict[str, Any]:
        data = self.__dict__.copy()
        data.update(created_iso=iso(self.time_created), updated_iso=iso(self.time_updated))
        return data


def session_card(session: str, filters: Filters | None = None, *, config: Config | None = None) -> SessionCard | None:
    """The card of one session (a native or `SOURCE::ID` id) if the scope admits it, else None."""
    config = config or load_config()
    base = scoped(filters, config)
    narrowed = replace(base, sessions=[session], scope="session" if base.scope == "all" else base.scope)
    with open_index(config, readonly=True) as conn:
        where, params = predicate(narrowed.resolve(conn), chunk_alias=None)
        row = conn.execute(
            "SELECT native_id, source_id, title, directory, coalesce(project_root, ''), time_created, time_updated, "
            "message_count, first_human, last_outcome, files, tools, errors, coalesce(decisions, ''), identifiers "
            f"FROM session s WHERE {where} ORDER BY time_updated DESC LIMIT 1",
            params,
        ).fetchone()
    if row is None:
        return None
    return SessionCard(
        session_id=row[0],
        source=row[1],
        title=row[2] or (row[8] or "")[:80],  # agents that store no title: the first thing typed
        directory=row[3],
        project_root=row[4],
        time_created=row[5],
        time_updated=row[6],
        messages=row[7],
        first_human=row[8],
        last_outcome=row[9],
        files=_lines(row[10]),
        tools=(row[11] or "").split(),
        errors=_lines(row[12]),
        decisions=_lines(row[13]),
        identifiers=(row[14] or "").split()[:40],
    )


def _lines(text: str | None) -> list[str]:
    return [line for line in (text or "").splitlines() if line.strip()]


@dataclass
class ProjectActivity:
    """One project's sessions per day (UTC), for the picture of a project over time."""

    project: str
    sessions: int
    first: int
    last: int
    per_day: dict[str, int]  # "YYYY-MM-DD" -> sessions active (updated) that day


def activity(filters: Filters | None = None, *, config: Config | None = None, limit: int = 50) -> list[ProjectActivity]:
    """Sessions per project and day, busiest projects first, through the scope predicate."""
    config = config or load_config()
    with open_index(config, readonly=True) as conn:
        where, params = predicate(scoped(filters, config).resolve(conn), chunk_alias=None)
        rows = conn.execute(
            "SELECT coalesce(nullif(project_root, ''), directory) AS project, "
            "strftime('%Y-%m-%d', time_updated / 1000, 'unixepoch') AS day, count(*), "
            f"min(time_created), max(time_updated) FROM session s WHERE {where} GROUP BY project, day",
            params,
        ).fetchall()
    projects: dict[str, ProjectActivity] = {}
    for project, day, count, first, last in rows:
        entry = projects.setdefault(project, ProjectActivity(project, 0, first, last, {}))
        entry.sessions += count
        entry.first, entry.last = min(entry.first, first), max(entry.last, last)
        entry.per_day[day] = count
    ranked = sorted(projects.values(), key=lambda p: (-p.sessions, p.project))
    return ranked[:limit]
