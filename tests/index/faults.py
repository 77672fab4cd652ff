"""kill -9 of a real `recollect index`, at a chosen point, without paying start-up for every kill.

Shared by the CI fault test (tests/index/test_faults.py) and the bench (bench/bench_faults.py).

The caller's process imports recollect and loads both embedding models once (`index_here`). Each run is
a fork of it that runs `history.index` — what `recollect index` runs — on its own `RECOLLECT_HOME`,
so a kill costs only the sync itself. A run is killed with SIGKILL either after a delay (the parent
kills it: the kill can land anywhere, inside a COMMIT or a write of the WAL too) or just before its
n-th SQL statement (the child kills itself from SQLite's trace callback: every statement boundary,
commits included, is an instrumented point), optionally counting only statements that start with a
given prefix ("INSERT OR REPLACE INTO vector": the embedding pass).

`check` gives what must hold after a kill: SQLite's integrity check and no session stored twice;
`dump` gives everything a search can see, vectors included, to compare with a fresh index.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from recollect.index.vectors import stored_vectors
from tests.index.test_sync import dump as rows

VECTOR_WRITE = "INSERT OR REPLACE INTO vector"


@dataclass
class Kill:
    """Where a run dies: before its `statement`-th SQL statement (counting only those starting with
    `prefix`, if given), or `after_s` seconds after it starts; neither: it runs to the end."""

    statement: int | None = None
    prefix: str = ""
    after_s: float | None = None


@dataclass
class Run:
    killed: bool  # False: it finished (or failed) before the kill point
    status: int  # the child's exit status (0: finished, -9: killed, 1: failed)
    statements: int  # statements it ran; for a run to the end, how many points there are to kill at
    seconds: float


def _child(env: dict[str, str], kill: Kill, count_to: Path | None) -> None:
    """The forked run: never returns (a fork must not go back into the caller's code)."""
    status = 1
    try:
        os.environ.update(env)
        seen = [0]
        real = sqlite3.connect

        def tick(sql: str) -> None:
            if kill.prefix and not sql.lstrip().startswith(kill.prefix):
                return
            seen[0] += 1
            if kill.statement is not None and seen[0] >= kill.statement:
                os.kill(os.getpid(), signal.SIGKILL)

        def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
            conn = real(*args, **kwargs)
            conn.set_trace_callback(tick)
            return conn

        sqlite3.connect = connect  # type: ignore[assignment]
        from recollect import history
        from recollect.config import load_config

        history.index(load_config())
        if count_to is not None:
            count_to.write_text(str(seen[0]))
        status = 0
    except BaseException:  # reported through the exit status; the parent re-runs to see why
        status = 1
    finally:
        os._exit(status)


def run(env: dict[str, str], kill: Kill | None = None) -> Run:
    """One `recollect index` in a fork, with `env` on top of ours, killed as `kill` says."""
    kill = kill or Kill()
    counter = Path(env["RECOLLECT_HOME"]) / ".statements"
    counter.parent.mkdir(parents=True, exist_ok=True)
    counter.unlink(missing_ok=True)
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        _child(env, kill, counter)
    done, raw = 0, 0
    if kill.after_s is not None:
        deadline = started + kill.after_s
        while not done and time.perf_counter() < deadline:
            time.sleep(min(0.002, max(0.0, deadline - time.perf_counter())))
            done, raw = os.waitpid(pid, os.WNOHANG)
        if not done:
            os.kill(pid, signal.SIGKILL)
    if not done:
        _, raw = os.waitpid(pid, 0)
    status = -os.WTERMSIG(raw) if os.WIFSIGNALED(raw) else os.WEXITSTATUS(raw)
    statements = int(counter.read_text()) if counter.exists() else 0
    return Run(status == -signal.SIGKILL, status, statements, time.perf_counter() - started)


def index_here(env: dict[str, str]) -> None:
    """`recollect index` in this process, with `env` on top of ours for the call. The first call loads
    both embedding models, which every later fork then starts with."""
    from recollect import history
    from recollect.config import load_config

    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        report = history.index(load_config())
        if not all(s.status == "ok" for s in report.sources):
            raise AssertionError(report.summary())
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def check(path: Path) -> tuple[bool, int]:
    """(integrity check passed, sessions stored more than once) for the index at `path`."""
    conn = sqlite3.connect(path)
    try:
        ok = conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'session'").fetchone() is None:
            return ok, 0  # killed before the schema was made: an empty index, which the next run makes
        dups = conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM session GROUP BY source_id, native_id HAVING count(*) > 1)"
        ).fetchone()[0]
        return ok, int(dups)
    finally:
        conn.close()


def dump(path: Path) -> dict[str, Any]:
    """Everything a search can see (tests/index/test_sync.dump), plus the vectors: for every chunk and
    card text, which models embedded it, and the vector itself; and how many texts have no vector."""
    conn = sqlite3.connect(path)
    try:
        out = rows(conn)
        used = {
            bytes(r[0])
            for r in conn.execute(
                "SELECT hash FROM chunk WHERE hash IS NOT NULL UNION SELECT card_hash FROM session "
                "WHERE card_hash IS NOT NULL"
            )
        }
        out["vectors"] = {k: v for k, v in stored_vectors(conn).items() if k[0] in used}
        out["missing"] = (
            conn.execute(
                "SELECT count(*) FROM chunk c WHERE c.hash IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM vector v WHERE v.hash = c.hash)"
            ).fetchone()[0]
            + conn.execute(
                "SELECT count(*) FROM session s WHERE s.card_hash IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM vector v WHERE v.hash = s.card_hash)"
            ).fetchone()[0]
        )
        return out
    finally:
        conn.close()


def differs(got: dict[str, Any], want: dict[str, Any]) -> str:
    """What differs between two dumps ("" when they are equal). Vectors are equal when each is within
    0.02 of the other in every component: the same text embedded in another batch may differ in the
    last bits of a float, and rows are stored as int8 (a step is at most ~0.004)."""
    for key in want:
        if key != "vectors" and got.get(key) != want[key]:
            return f"{key} differ"
    have, need = got["vectors"], want["vectors"]
    if have.keys() != need.keys():
        return f"vectors differ: {len(have.keys() - need.keys())} extra, {len(need.keys() - have.keys())} missing"
    worst = max((float(np.abs(have[k] - need[k]).max()) for k in need), default=0.0)
    return f"vectors differ by up to {worst:.3f}" if worst > 0.02 else ""
