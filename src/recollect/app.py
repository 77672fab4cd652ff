"""`Recollect`: what one surface holds while it works, built once from the config.

A CLI invocation, one MCP tool call, or the plugin helper builds one `Recollect` and passes it to
the library (`history.search(..., app=app)`), so the config is loaded once, the source specs are
resolved once, the index is opened once, and the embedders are looked up once. It also holds the
freshness policy (`refresh`: sync before a search unless the index is fresh). The operator's scope
ceiling is not here: it travels on each call's `Filters` (search/ceiling.py).

Closing it closes the index connections it opened; `with Recollect() as app:` does that.

A long-running surface (the UI, the plugin helper) builds one for the process and gives each request
its own `for_call()`: the same config, its own connection. Requests run side by side in threads, and
one shared connection would let a search's sync transaction take in another request's statements.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from types import TracebackType
from typing import TYPE_CHECKING, Any

from recollect.config import Config, load_config
from recollect.index import queries, store

if TYPE_CHECKING:
    from recollect.index.sync import SyncReport
    from recollect.sources import SourceSpec

# A search syncs first unless the index was synced this recently (keeps back-to-back calls fast).
FRESH_SECONDS = 2.0


class Recollect:
    def __init__(self, config: Config | None = None) -> None:
        self.config = config if config is not None else load_config()
        self._connections: dict[bool, sqlite3.Connection] = {}

    def for_call(self) -> Recollect:
        """A `Recollect` for one request of a long-running process: this config, its own connections
        (close it when the request ends), and the source specs resolved afresh, so a store that
        appears while the process runs is seen. The embedders are kept per process by embed/factory."""
        return Recollect(self.config)

    def __enter__(self) -> Recollect:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @cached_property
    def specs(self) -> list[SourceSpec]:
        """The configured and discovered sources (refuses an index path that is a store)."""
        from recollect.sources import configured_specs  # on use: history/ahead.py's child opens no store

        return configured_specs(self.config)

    def specs_by_id(self) -> dict[str, SourceSpec]:
        return {s.id: s for s in self.specs}

    @contextmanager
    def index(self, *, readonly: bool = False) -> Iterator[sqlite3.Connection]:
        """The index connection, opened on first use and kept until `close`. A read-only request
        is served by the read-write connection when one is open, else by a read-only one (which
        never creates the index)."""
        conn = self._connections.get(False) or (self._connections.get(True) if readonly else None)
        if conn is None:
            self.specs  # noqa: B018 - refuses an index path that is a store before anything opens it
            conn = store.connect(self.config.index_path, readonly=readonly)
            self._connections[readonly] = conn
        yield conn

    def close(self) -> None:
        for conn in self._connections.values():
            conn.close()
        self._connections.clear()

    @cached_property
    def embedder(self) -> Any:
        """The configured embedder, or None when search by meaning is off or unavailable."""
        from recollect.embed import factory  # on use: the CLI start-up never imports the embed package

        return factory.embedder_for(self.config)

    @cached_property
    def card_encoder(self) -> Any:
        """The full encoder over session cards, or None."""
        from recollect.embed import factory  # on use: the CLI start-up never imports the embed package

        return factory.card_encoder_for(self.config)

    def refresh(self, conn: sqlite3.Connection, *, max_age: float = FRESH_SECONDS) -> SyncReport | None:
        """The freshness policy: sync unless the index is fresher than `max_age` seconds and knows
        every enabled source. Never waits for another writer."""
        specs = self.specs
        if max_age > 0 and time.time() * 1000 - queries.last_sync_ms(conn) < max_age * 1000:
            recorded = queries.recorded_sources(conn)
            if recorded == {s.id for s in specs if s.enabled}:
                return None
        # The sync and the summaries are imported when a sync runs: a search of a fresh index (and any
        # `--no-sync`) does not load the indexing code (rows, chunks, redaction).
        from recollect.index.cardsummary import apply_summaries
        from recollect.index.sync import sync

        report = sync(
            conn,
            specs,
            embedder=self.embedder,
            card_encoder=self.card_encoder,
            prune_vectors=False,
            embed_batches=1,  # a few hundred texts at most: a whole history is `recollect index`'s job
            locked_is_busy=True,  # another process writing: read the index as it is, at once (WAL)
        )
        if not report.lease_busy:
            apply_summaries(conn, self.config.paths, resynced=report.changed > 0)
        return report
