"""A sync killed half-way (kill -9) leaves an index that the next sync completes, without duplicates."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from bench.storegen import generate_store
from recollect.index import store
from recollect.index.sync import sync
from recollect.sources.base import SourceSpec
from tests.index.test_sync import dump

SESSIONS = 160


def test_killed_sync_is_completed_by_the_next_one(tmp_path: Path) -> None:
    source = tmp_path / "opencode.db"
    generate_store(source, sessions=SESSIONS, seed=11)
    index_path = tmp_path / "recollect" / "index.db"
    env = {
        **os.environ,
        "OPENCODE_DB": str(source),
        "RECOLLECT_HOME": str(index_path.parent),
        "RECOLLECT_SOURCES": "opencode",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "recollect.cli", "index"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    partial = 0
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if index_path.exists():
                try:
                    with sqlite3.connect(f"file:{index_path}?mode=ro", uri=True) as peek:
                        partial = peek.execute("SELECT count(*) FROM session").fetchone()[0]
                except sqlite3.OperationalError:
                    partial = 0  # schema not created yet
                if 0 < partial < SESSIONS:
                    os.kill(proc.pid, signal.SIGKILL)
                    break
            time.sleep(0.01)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    assert 0 < partial < SESSIONS, f"could not catch the sync half-way (saw {partial})"

    # The next ordinary `recollect index` takes over the dead process's lease and completes the work.
    rerun = subprocess.run([sys.executable, "-m", "recollect.cli", "index"], env=env, capture_output=True, text=True)
    assert rerun.returncode == 0 and "another recollect process" not in rerun.stdout, rerun.stdout + rerun.stderr
    conn = store.connect(index_path)
    assert conn.execute("SELECT count(*) FROM session").fetchone()[0] == SESSIONS
    assert (
        conn.execute(
            "SELECT count(*) FROM (SELECT native_id FROM session GROUP BY native_id HAVING count(*) > 1)"
        ).fetchone()[0]
        == 0
    )
    fresh = store.connect(tmp_path / "fresh.db")
    sync(fresh, [SourceSpec(id="opencode", kind="opencode", path=source)])
    assert dump(conn) == dump(fresh)
