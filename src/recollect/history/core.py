"""The history API's core: index, refresh, search, sessions, read and own_session, each on the config
or the caller's `Recollect`. `recollect.history` names these and every piece beside them."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Unpack

from recollect import hidden as hiding
from recollect.app import FRESH_SECONDS, Recollect
from recollect.config import Config, load_config
from recollect.history.access import Reach, reached, scoped
from recollect.history.access import surface as _surface
from recollect.index import queries, store
from recollect.search import read as reading
from recollect.search.rank import SearchResult, make_cursor
from recollect.search.rank import search as rank_search
from recollect.search.scope import Filters, predicate
from recollect.sources import configured_specs
from recollect.text.plain import display_title
from recollect.times import iso

if TYPE_CHECKING:
    from recollect.history.ahead import MeaningAhead
    from recollect.index.sync import Progress, SyncReport

# The indexing code (index.sync, index.cardsummary) and the deep search are imported where they run:
# a search, a read or a listing of an index that needs no sync does not load them.


def index(
    config: Config | None = None,
    *,
    progress: Progress | None = None,
    wait: bool = False,
    app: Recollect | None = None,
) -> SyncReport:
    """Sync every configured source into the index and embed new text."""
    with _surface(config, app) as app:
        return _index(app, progress=progress, wait=wait)


def _index(app: Recollect, *, progress: Progress | None, wait: bool) -> SyncReport:
    from recollect.index.cardsummary import apply_summaries
    from recollect.index.sync import sync

    config = app.config
    embedder = app.embedder
    with app.index() as conn:

        def run(read_sources: bool) -> SyncReport:
            return sync(
                conn,
                app.specs,
                progress=progress,
                wait=wait,
                embedder=embedder,
                card_encoder=app.card_encoder,
                read_sources=read_sources,
            )

        report = run(True)
        if apply_summaries(conn, config.paths, resynced=report.changed > 0) and not report.lease_busy:
            # Cards that gained a summary have a new text: embed it, without scanning every store again.
            report.add_embedded(run(False))
        return report


def refresh(conn: sqlite3.Connection, config: Config, *, max_age: float = FRESH_SECONDS) -> SyncReport | None:
    """Sync unless the index is fresher than `max_age` seconds. Never waits for another writer."""
    return Recollect(config).refresh(conn, max_age=max_age)


def search(
    query: str,
    filters: Filters | None = None,
    *,
    limit: int = 10,
    per_session: int = 2,
    deep: bool = False,
    ephemeral: bool = False,
    exact: bool = False,
    ahead: MeaningAhead | None = None,
    **reach: Unpack[Reach],
) -> SearchResult:
    """Ranked search of the index; `deep` instead reads whole tool outputs of a scoped set of sessions.
    `exact` searches the words as typed: no typo correction, no reading of question or time words.
    `ahead`: the arms by meaning being computed beside it (history/ahead.py), for a search that syncs nothing.
    `reach` (config, app, sync_first): which index, and whether to sync it first."""
    with reached(**reach) as (app, sync_first):
        filters = scoped(filters, app.config)
        if ephemeral:
            return _search_ephemeral(
                query, filters, limit=limit, per_session=per_session, config=app.config, deep=deep, exact=exact
            )
        with app.index() as conn:
            report = app.refresh(conn) if sync_first else None
            if deep:
                from recollect.search.deep import deep_search

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
                    now_ms=ahead.now_ms if ahead else None,
                    ahead=ahead.take if ahead else None,
                )
        from recollect.embed import factory  # on use: the CLI start-up never imports the embed package

        semantic = factory.semantic_enabled(app.config)
    if report is not None and report.lease_busy:
        result.coverage.limited_by.append("index being updated by another process")
    if semantic:
        result.coverage.limited_by.extend(factory.PROBLEMS.values())  # meaning search that cannot run, and its fix
    return result


def _search_ephemeral(
    query: str, filters: Filters, *, limit: int, per_session: int, config: Config, deep: bool, exact: bool = False
) -> SearchResult:
    """Read every store into an index in memory, search it, and drop it: nothing is written to disk,
    not the index, not a model cache. Words only (the semantic arms would load or cache models)."""
    from recollect.index.sync import sync
    from recollect.search.deep import deep_search

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


@dataclass
class SessionInfo:  # fields in queries.SESSION_COLUMNS' order, then the cursor
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

    @property
    def ending(self) -> str:
        """How it ended, in the words every listing uses. A session with no assistant message did not stop
        midway: typed commands only ('/login', '/clear'), or a message that got no reply."""
        if self.ended == "unfinished" and not self.assistant_messages:
            return "commands only, no reply" if not self.turns and not self.parent_id else "no reply"
        return self.ended

    def to_dict(self) -> dict[str, Any]:
        data = self.__dict__.copy()
        data["updated_iso"] = iso(self.time_updated)
        return data


# What a listing says when another process was writing to the index: it was listed without that sync.
LISTED_AS_IS = (
    "another process is writing to the index, so it was listed as it is: what that process is adding is not "
    "in it yet; list again in a moment"
)


class Listed(list[SessionInfo]):
    """The sessions `sessions` found, and whether the index was listed as it is because another process was
    writing to it (`LISTED_AS_IS`)."""

    as_is: bool = False


def sessions(filters: Filters | None = None, *, limit: int = 20, offset: int = 0, **reach: Unpack[Reach]) -> Listed:
    """Recent sessions, newest first, through the scope predicate (`Filters.parent` lists a session's children).
    `reach` (config, app, sync_first): which index, and whether to sync it first."""
    with reached(**reach) as (app, sync_first), app.index() as conn:
        filters = scoped(filters, app.config)
        report = app.refresh(conn) if sync_first else None
        where, params = predicate(filters.resolve(conn), chunk_alias=None)
        rows = queries.session_rows(conn, where, params, limit, offset)
    infos = Listed()
    infos.as_is = report is not None and report.lease_busy
    for r in rows:
        values: dict[str, Any] = {f.name: value for f, value in zip(fields(SessionInfo), r, strict=False)}
        info = SessionInfo(**values, cursor=make_cursor(r[1], r[0], ""))
        info.title = display_title(info.title, info.first_human)
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
    w = reading.window(session, message_id, before=before, after=after, budget=budget, mode=mode, whole=whole)
    # The store kept no title: the one search and sessions show (the first line a person typed, redacted).
    w.title = w.title or display_title(row["title"], row["first_human"])
    return w


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
