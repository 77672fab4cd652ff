"""A one-shot search's arms by meaning, computed in a child process beside the rest of the search.

The arms by meaning are most of what a one-shot hybrid `recollect search` spends beyond the words:
numpy's import, the two models' loads, the query's encoding and the nearest vectors (~150 ms of CPU at
5,000 sessions), all Python that a thread could not run beside the word queries (the interpreter runs
one thread at a time). A forked child runs them on the machine's other core while this process imports
the rest of the search and runs the word queries, then sends back what they found: a few hundred
session ids and cosines. This process never imports numpy then.

The child is forked before this process opens the index or starts a thread (so it inherits neither a
SQLite connection nor a lock held by a thread that does not exist in it), opens the index read-only
itself, and computes exactly what `search.rank.search` would: the search uses its answer only when it
was asked what the search asks (`search.meaning.arms_key`: the query, the scope, the counts, the models
and the vectors' generation), and computes the arms itself otherwise, as it does when the child fails.
Only where `os.fork` is safe to use this way (Linux), and only with a core to spare (`core_to_spare`): on
a machine whose cores are all busy the child's own imports (~30 ms of CPU) only add to the wait.
Otherwise `load_ahead` loads the models on a thread, as before.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from recollect.app import Recollect
    from recollect.search.meaning import Arms
    from recollect.search.scope import Filters


class MeaningAhead:
    """A child computing the arms by meaning of one search; `take` waits for its answer (once)."""

    def __init__(self, pid: int, fd: int, now_ms: int) -> None:
        self.pid, self.fd, self.now_ms = pid, fd, now_ms
        self.done = False

    def take(self) -> Arms | None:
        """The child's arms, or None when it failed (the search then computes them itself)."""
        if self.done:
            return None
        chunks = []
        try:
            while chunk := os.read(self.fd, 1 << 16):
                chunks.append(chunk)
        except OSError:
            chunks = []
        self.close()
        try:
            found: Arms | None = pickle.loads(b"".join(chunks)) if chunks else None
        except Exception:  # a child killed halfway: a truncated answer
            return None
        return found

    def close(self) -> None:
        """Stop the child if it still runs (a search that did not need it), and reap it."""
        if self.done:
            return
        self.done = True
        os.close(self.fd)
        try:
            if os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
        except (ChildProcessError, ProcessLookupError):
            pass


def core_to_spare() -> bool:
    """Whether a second process would find a core idle: two or more cores for this process, and a load
    average (the last minute's) below their number."""
    try:
        cores = len(os.sched_getaffinity(0))
        return cores >= 2 and os.getloadavg()[0] < cores
    except (AttributeError, OSError):
        return False


def meaning_ahead(app: Recollect, query: str, filters: Filters, *, exact: bool = False) -> MeaningAhead | None:
    """Fork a child that computes the arms by meaning of `history.search(query, filters, ...)` on `app`'s
    index without a sync, or None where that cannot be done safely (see the module's docstring)."""
    from recollect.history.warm import _meaning_on

    if sys.platform != "linux" or not hasattr(os, "fork") or threading.active_count() > 1:
        return None
    if app._connections or not core_to_spare() or not _meaning_on(app):  # a connection must not cross a fork
        return None
    now_ms = int(time.time() * 1000)
    read_end, write_end = os.pipe()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()  # else the child's copy of what is buffered could be written twice
    pid = os.fork()
    if pid == 0:  # the child: compute, send, and leave without running anything of the parent's
        code = 1
        try:
            os.close(read_end)
            answer = pickle.dumps(_arms(app, query, filters, now_ms, exact), protocol=pickle.HIGHEST_PROTOCOL)
            view = memoryview(answer)
            while view:
                view = view[os.write(write_end, view) :]
            code = 0
        except BaseException:  # anything at all: the parent computes the arms itself
            pass
        os._exit(code)
    os.close(write_end)
    return MeaningAhead(pid, read_end, now_ms)


def _arms(app: Recollect, query: str, filters: Filters, now_ms: int, exact: bool) -> Any:
    from recollect.embed import factory
    from recollect.history.access import scoped
    from recollect.index import store
    from recollect.search.meaning import meaning_only

    filters = scoped(filters, app.config)
    # Its own read-only handle (the search checks the index path with the sources' specs, and opens its own)
    conn = store.connect(app.config.index_path, readonly=True)
    try:
        found = meaning_only(
            conn, query, filters, now_ms=now_ms, embedder=app.embedder, card_encoder=app.card_encoder, exact=exact
        )
    finally:
        conn.close()
    # A model that failed here is reported by the search: let it meet the failure itself
    return None if factory.PROBLEMS else found
