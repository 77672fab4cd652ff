"""How every history call reaches the index: the one error type of the history API, the hidden
sessions every read path leaves out (`scoped`), the index connection (`open_index`, `surface`), and the
keywords that say which index a search or a listing reads and whether it syncs first (`Reach`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypedDict

from recollect import hidden as hiding
from recollect.app import Recollect
from recollect.config import Config, load_config
from recollect.errors import RecollectError
from recollect.index import store
from recollect.search.scope import Filters


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
    from recollect.sources import configured_specs

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


class Reach(TypedDict, total=False):
    """The keywords of `history.search` and `history.sessions` that say which index they read and
    whether they sync it first; each may be left out:

    - `config`: the config to work with (default: the one of the environment, `load_config`);
    - `app`: the caller's `Recollect` instead, with its config and its open index (a surface passes it,
      so one call loads the config once and opens the index once);
    - `sync_first` (default True): sync before reading unless the index is fresh (`Recollect.refresh`).
    """

    config: Config | None
    app: Recollect | None
    sync_first: bool


@contextmanager
def reached(
    config: Config | None = None, app: Recollect | None = None, sync_first: bool = True
) -> Iterator[tuple[Recollect, bool]]:
    """The `Recollect` a call given these `Reach` keywords works on, and whether it syncs first (a
    keyword that is not one of them is a TypeError, as on any function)."""
    with surface(config, app) as own:
        yield own, sync_first
