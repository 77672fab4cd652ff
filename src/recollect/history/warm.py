"""Loading ahead what a search by meaning needs, so that the caller waits less for it.

- `load_ahead(app, query)`: a one-shot `recollect search` loads numpy and the models on a thread while
  it opens the index and runs the word queries (SQLite leaves the interpreter free meanwhile).
- `warm_up(step)`: the MCP server, once it has sent its tool list, pays ahead in steps (`WARM_UP_STEPS`)
  what its first call would otherwise pay on the model's wait: the imports, the models, then the sync
  that call would run first and one search, which maps the index's vector files and reads their pages.

Each model loads once per process (their loads are locked, embed/factory.py and embed/muse.py), so a
search that meets a model still loading waits for it rather than loading it again.
"""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from recollect.app import Recollect

WARM_UP_STEPS = ("imports", "models", "index")


def _meaning_on(app: Recollect) -> bool:
    from recollect.embed import factory
    from recollect.search import stages

    return factory.semantic_enabled(app.config) and stages.on("meaning")


def load_models(app: Recollect, query: str | None = None) -> None:
    """Load the models a search by meaning uses (numpy with them): the card encoder only when `query`
    has prose, as the search asks it (search/rank.py), or whatever the query when none is given."""
    if not _meaning_on(app):
        return
    import numpy  # noqa: F401

    from recollect.search.meaning import prose_share

    cards = query is None or prose_share(query) > 0
    for model in (app.embedder, app.card_encoder if cards else None):
        if model is not None and hasattr(model, "load"):
            model.load()


def load_ahead(app: Recollect, query: str, *, chunk_level: bool = False) -> threading.Thread | None:
    """`load_models` on a thread (join it before exiting), or None when the search will use no model:
    meaning off, or a chunk-level filter (--role/--class/...) that leaves the arms by meaning out."""
    if chunk_level or not _meaning_on(app):
        return None

    def load() -> None:
        with contextlib.suppress(Exception):  # the search meets the same problem and reports it
            load_models(app, query)

    thread = threading.Thread(target=load, name="recollect-load-ahead", daemon=True)
    thread.start()
    return thread


def warm_up(step: str, *, sync_after: float | None = None) -> None:
    """One step of `WARM_UP_STEPS` for a long-running process: "imports" (numpy, the search, the sync),
    "models" (`load_models`), "index" (when an index exists: never creates one; with `sync_after`, the
    sync a call would run first when the index is older than that many seconds, then a search without
    a sync)."""
    from recollect.app import Recollect

    if step == "imports":
        import numpy  # noqa: F401

        import recollect.embed.topk
        import recollect.extract.summaries  # what a sync reads the summaries with (index/cardsummary.py)
        import recollect.history.core
        import recollect.index.cardsummary
        import recollect.index.sync  # noqa: F401
    elif step == "models":
        load_models(Recollect())  # the models are kept per process (embed/factory.py); no index is opened
    elif step == "index":
        from recollect.history.core import search

        with Recollect() as app:
            if app.config.index_path.exists():
                if sync_after is not None:
                    with app.index() as conn:
                        app.refresh(conn, max_age=sync_after)
                search("recollect warm up", limit=1, sync_first=False, app=app)
    else:
        raise ValueError(f"unknown warm-up step {step!r}: one of {', '.join(WARM_UP_STEPS)}")
