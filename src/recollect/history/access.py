"""How every history call reaches the index: the one error type of the history API, the hidden
sessions every read path leaves out (`scoped`), and the index connection (`open_index`, `surface`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from recollect import hidden as hiding
from recollect.app import Recollect
from recollect.config import Config, load_config
from recollect.errors import RecollectError
from recollect.index import store
from recollect.search.scope import Filters
from recollect.sources import configured_specs


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


@contextmanager
def surface(config: Config | None, app: Recollect | None) -> Iterator[Recollect]:
    """The caller's `Recollect`, or one for this call alone (closed when the call ends)."""
    if app is not None:
        yield app
        return
    with Recollect(config) as own:
        yield own
