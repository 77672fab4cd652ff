"""Several processes (CLI, MCP servers, the plugin's helper) open and sync one new index at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from recollect.index import migrations, store

SCRIPT = """
import sys
from pathlib import Path
from recollect.index import store
from recollect.index.sync import sync
from recollect.sources.base import SourceSpec
from recollect.search.rank import search
conn = store.connect(Path(sys.argv[1]))
report = sync(conn, [SourceSpec(id="opencode", kind="opencode", path=Path(sys.argv[2]))], wait=True)
assert not report.lease_busy, "lease never acquired"
assert search(conn, "readme").hits
"""


def test_many_processes_open_and_sync_a_new_index_together(sample_db: Path, tmp_path: Path) -> None:
    index = tmp_path / "shared" / "index.db"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", SCRIPT, str(index), str(sample_db)],
            env={**os.environ},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    results = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in procs]
    assert all(code == 0 for code, _ in results), [err[-400:] for code, err in results if code]
    conn = store.connect(index)
    assert conn.execute("SELECT count(*) FROM session").fetchone()[0] == 12
    assert conn.execute("SELECT count(*) FROM migrations").fetchone()[0] == len(migrations.MIGRATIONS)


def test_threads_opening_a_new_index_at_once_never_see_locked(tmp_path: Path) -> None:
    """Seen in the plugin's helper: a recall thread and the main thread both open a fresh index."""
    import threading

    failures: list[str] = []
    for round_ in range(40):
        path = tmp_path / f"r{round_}" / "index.db"

        def open_and_read(target: Path = path) -> None:
            try:
                conn = store.connect(target)
                conn.execute("SELECT count(*) FROM session").fetchone()
                conn.close()
            except Exception as exc:  # collected: an assertion in a thread would be lost
                failures.append(str(exc))

        threads = [threading.Thread(target=open_and_read) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert failures == []
