"""The plugin helper's idle work: whether the idle `recollect extract` is worth starting, and the
idle sync, one at a time per index (below).

`recollect extract --session ID` leaves a session with fewer than `[extract] min_turns` turns a person
typed alone; most `opencode run` sessions have one. Starting it only to hear that costs a Python start
and the extractor's imports (~0.5 s of CPU), so the helper asks the index first, read-only and with
plain SQLite: importing the history or extract packages here would cost more than the run it saves.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from recollect.config import Config, lock_within

# `[extract] min_turns`'s default (extract/settings.py ExtractSettings; a test holds them equal).
EXTRACT_MIN_TURNS = 4
EXTRACT_WAIT_SECONDS = 300.0  # the longest a deferred extraction waits for the idle sync it follows


def min_turns(config: Config | None) -> int | None:
    """`[extract] min_turns`, or None when it is not a number (the extractor reports that itself)."""
    value = config.section("extract").get("min_turns", EXTRACT_MIN_TURNS) if config else EXTRACT_MIN_TURNS
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def may_extract(config: Config, session: str, typed: int) -> bool:
    """Whether an idle of `session` may start an extraction: the turns the index holds plus the
    `typed` messages the helper saw reach min_turns (at least as many as the extractor will count:
    what the index already holds of those messages is counted twice)."""
    needed = min_turns(config)
    if not session or needed is None:
        return bool(session)
    return (session_turns(config.index_path, session) or 0) + typed >= needed


class Bridged:
    """The extractions given an address (the OpenCode plugin's bridge), by session: a thread waiting
    for the idle sync to start one, or the `recollect extract` process. They fail once that OpenCode
    exits, so its plugin waits for them at exit (`wait`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._work: list[tuple[str, threading.Thread | subprocess.Popen[bytes]]] = []

    def add(self, session: str, work: threading.Thread | subprocess.Popen[bytes], address: str) -> None:
        """Keep `work` for `session` if it was given an `address` (else it needs no OpenCode alive)."""
        if not address:
            return
        with self._lock:
            self._work = [(s, w) for s, w in self._work if _running(w)] + [(session, work)]

    def wait(self, timeout: float, wanted: Callable[[str], bool]) -> int:
        """Wait up to `timeout` s for the threads of `wanted` sessions (another only waits for the sync
        to find too few turns), then for every process; how many still run."""
        deadline = time.monotonic() + timeout
        with self._lock:
            threads = [(s, w) for s, w in self._work if isinstance(w, threading.Thread)]
        for session, thread in threads:
            if thread.is_alive() and wanted(session):
                thread.join(max(deadline - time.monotonic(), 0.0))
        with self._lock:  # the threads joined may have started their processes
            work = list(self._work)
        for _, proc in work:
            if isinstance(proc, subprocess.Popen):
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(max(deadline - time.monotonic(), 0.0))
        return sum(_running(w) for s, w in work if isinstance(w, subprocess.Popen) or wanted(s))


def _running(work: threading.Thread | subprocess.Popen[bytes]) -> bool:
    return work.is_alive() if isinstance(work, threading.Thread) else work.poll() is None


def session_turns(index_path: Path, session: str) -> int | None:
    """The turns a person typed in the OpenCode session `session` (its native id), as the index at
    `index_path` holds them; None when it holds no such session or cannot be read: then only the
    extractor can tell."""
    if not index_path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{index_path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute(
                "SELECT max(turns) FROM session WHERE native_id = ? AND agent_kind = 'opencode'", (session,)
            ).fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return None if row is None or row[0] is None else int(row[0])


# --- the idle sync, one at a time per index -------------------------------------------------------
#
# Every OpenCode process has its own helper, and each starts `recollect index` when its session
# goes idle: eight agents finishing at once would start eight syncs of the same index, all but one
# of which find the writer lease taken and write nothing, so a session that ended while the one
# sync was already past its scan would wait for some later idle. Instead the helper starts
# `python -m recollect.integrations.idlework sync`, which asks for a sync and runs it under a lock
# file beside the index: the request is a marker file, set before waiting for the lock; whoever
# holds the lock clears the marker, then syncs, and syncs again while the marker came back. A
# request set before a clear is served by the sync after that clear; one set later finds the marker
# still there when it gets the lock. So N requests at once cost one or two syncs. A process outside
# this lock (a `recollect index`, a search's own sync) may hold the index's writer lease: the sync
# waits for it, and asks again when it stayed taken, so no request is lost while one is alive.

SYNC_LOCK = "idle-sync.lock"
SYNC_WANTED = "idle-sync.wanted"
SYNC_WAIT_SECONDS = 600.0  # the longest a request waits for the lock before it syncs anyway
# `sync`'s status when another process held the index's writer lease for as long as it waited
# (sysexits' EX_TEMPFAIL): that process may have been past its scan of the session that just ended.
LEASE_BUSY = 75
BUSY_PAUSE = 1.0  # between two tries of a sync that found the lease taken


def coalesced_sync(state_dir: Path, sync: Callable[[], int], wait: float = SYNC_WAIT_SECONDS) -> int:
    """Ask for a sync of the index whose lock and marker live in `state_dir`, and run `sync` (what
    `recollect index` does) as often as requests came while holding the lock. Returns the last
    sync's exit status, or 0 when another process served the request. A sync that returns LEASE_BUSY
    is asked for again, for up to `wait` s in all."""
    state_dir.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + wait
    wanted = state_dir / SYNC_WANTED
    wanted.touch()
    with open(state_dir / SYNC_LOCK, "a") as lock:
        if not lock_within(lock, wait):  # a wedged holder must not keep the index stale for ever
            return sync()
        status = 0
        while wanted.exists():
            wanted.unlink(missing_ok=True)
            status = sync()
            if status == LEASE_BUSY and time.monotonic() < deadline:
                wanted.touch()
                time.sleep(BUSY_PAUSE)
        return status


def _index() -> int:
    """What `recollect index` does, in this process (its imports then serve every sync the lock
    holder runs): the summary line to stdout (the helper's background log), 1 when no source read,
    LEASE_BUSY when another process held the writer lease for as long as the sync waits for it."""
    from recollect import configfile, history

    try:
        configfile.write_config(only_if_missing=True)
        report = history.index(wait=True)
    except Exception as exc:  # a failed sync must not lose the requests that came meanwhile
        print(f"recollect index: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return 1
    print(report.summary(), flush=True)
    if report.lease_busy:
        return LEASE_BUSY
    return int(bool(report.sources) and all(s.status != "ok" for s in report.sources))


def main(argv: list[str] | None = None) -> int:
    """`python -m recollect.integrations.idlework sync`: the plugin helper's idle sync."""
    args = sys.argv[1:] if argv is None else argv
    if args != ["sync"]:
        print("usage: python -m recollect.integrations.idlework sync", file=sys.stderr)
        return 2
    from recollect import history
    from recollect.config import resolve_paths

    os.umask(0o077)
    history.take_leases_as("plugin")  # a sync that finds the index held says who is writing
    return coalesced_sync(resolve_paths().data_dir, _index)


def exit_fast(code: int) -> None:
    """Exit without the interpreter's teardown (freeing every module of the index stack costs ~50 ms
    of CPU and does nothing here): exit handlers run and output is flushed first, as `recollect`'s
    own exit does; with another thread alive, the normal way."""
    import atexit
    import threading

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    if threading.active_count() == 1:
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    exit_fast(main())
