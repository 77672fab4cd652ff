"""The history API: index, search, read, list and diagnose. The CLI and the MCP server call these
functions and nothing below them; each opens what it needs from the config and closes it.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from recollect.config import Config, load_config
from recollect.index import store, vectors
from recollect.index.sync import Progress, SyncReport, sync
from recollect.search import read as reading
from recollect.search.deep import deep_search
from recollect.search.rank import SearchResult, iso, make_cursor
from recollect.search.rank import search as rank_search
from recollect.search.scope import Filters, predicate
from recollect.sources import SourceSpec, configured_specs

# A search syncs first unless the index was synced this recently (keeps back-to-back calls fast).
FRESH_SECONDS = 2.0


@contextmanager
def open_index(config: Config | None = None, *, readonly: bool = False) -> Iterator[sqlite3.Connection]:
    config = config or load_config()
    conn = store.connect(config.index_path, readonly=readonly)
    try:
        yield conn
    finally:
        conn.close()


def index(config: Config | None = None, *, progress: Progress | None = None, wait: bool = False) -> SyncReport:
    """Sync every configured source into the index and embed new text (building the model on first use)."""
    config = config or load_config()
    build_progress = (lambda done, total: progress("semantic model (first use)", done, total)) if progress else None
    embedder = vectors.embedder_for(config, build=True, progress=build_progress)
    with open_index(config) as conn:
        return sync(
            conn,
            configured_specs(config),
            progress=progress,
            wait=wait,
            embedder=embedder,
            card_encoder=vectors.card_encoder_for(config),
        )


def _last_sync_ms(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT min(time_synced) FROM source").fetchone()
    return int(row[0] or 0)


def refresh(conn: sqlite3.Connection, config: Config, *, max_age: float = FRESH_SECONDS) -> SyncReport | None:
    """Sync unless the index is fresher than `max_age` seconds. Never waits for another writer."""
    specs = configured_specs(config)
    if max_age > 0 and time.time() * 1000 - _last_sync_ms(conn) < max_age * 1000:
        recorded = {r[0] for r in conn.execute("SELECT id FROM source")}
        if recorded == {s.id for s in specs if s.enabled}:
            return None
    # A search embeds what changed only if the model is already built; it never waits for a build.
    return sync(
        conn,
        specs,
        embedder=vectors.embedder_for(config),
        card_encoder=vectors.card_encoder_for(config),
        prune_vectors=False,
        embed_batches=1,  # a few hundred texts at most: a whole history is `recollect index`'s job
    )


def search(
    query: str,
    filters: Filters | None = None,
    *,
    limit: int = 10,
    per_session: int = 2,
    config: Config | None = None,
    sync_first: bool = True,
    deep: bool = False,
) -> SearchResult:
    """Ranked search of the index; `deep` instead reads whole tool outputs of a scoped set of sessions."""
    config = config or load_config()
    with open_index(config) as conn:
        report = refresh(conn, config) if sync_first else None
        if deep:
            specs = {s.id: s for s in configured_specs(config)}
            result = deep_search(conn, specs, query, filters or Filters(), limit=limit)
        else:
            result = rank_search(
                conn,
                query,
                filters,
                limit=limit,
                per_session=per_session,
                embedder=vectors.embedder_for(config),
                card_encoder=vectors.card_encoder_for(config),
            )
    if report is not None and report.lease_busy:
        result.coverage.limited_by.append("index being updated by another process")
    return result


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
    first_human: str
    last_outcome: str
    tools: str
    cursor: str

    def to_json(self) -> dict[str, Any]:
        data = self.__dict__.copy()
        data["updated_iso"] = iso(self.time_updated)
        return data


def sessions(
    filters: Filters | None = None,
    *,
    limit: int = 20,
    offset: int = 0,
    config: Config | None = None,
    sync_first: bool = True,
) -> list[SessionInfo]:
    """Recent sessions, newest first, through the scope predicate."""
    config = config or load_config()
    filters = filters or Filters()
    with open_index(config) as conn:
        if sync_first:
            refresh(conn, config)
        where, params = predicate(filters.resolve(conn), chunk_alias=None)
        rows = conn.execute(
            "SELECT native_id, source_id, agent_kind, title, directory, parent_id, time_created, time_updated, "
            f"message_count, first_human, last_outcome, tools FROM session s WHERE {where} "
            "ORDER BY time_updated DESC LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()
    infos = []
    for r in rows:
        info = SessionInfo(*r[:12], cursor=make_cursor(r[1], r[0], ""))  # type: ignore[arg-type]
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
    config: Config | None = None,
) -> reading.Window:
    """A bounded window of the real transcript around `cursor`, read from the source store."""
    config = config or load_config()
    specs = {s.id: s for s in configured_specs(config)}
    with open_index(config) as conn:
        row, message_id = reading.resolve_cursor(conn, cursor, filters)
    session = reading.load_session(specs, row)
    return reading.window(session, message_id, before=before, after=after, budget=budget, mode=mode)


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


def doctor(config: Config | None = None) -> Diagnosis:
    """What recollect found and what is wrong, without changing anything."""
    config = config or load_config()
    diagnosis = Diagnosis(
        config_file=str(config.paths.config_file),
        config_exists=config.paths.config_file.exists(),
        index_path=str(config.index_path),
        index_exists=config.index_path.exists(),
    )
    recorded: dict[str, tuple[Any, ...]] = {}
    if diagnosis.index_exists:
        try:
            with open_index(config, readonly=True) as conn:
                diagnosis.index_sessions = conn.execute("SELECT count(*) FROM session").fetchone()[0]
                for row in conn.execute("SELECT id, status, message, sessions, malformed, time_synced FROM source"):
                    recorded[row[0]] = row
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
        else:
            entry.update(status="not indexed yet")
        if not spec.path.exists() and spec.enabled:
            diagnosis.problems.append(f"{spec.id}: store not found at {spec.path}")
        diagnosis.sources.append(entry)
    return diagnosis
