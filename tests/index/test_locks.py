"""Another process holding a write lock on the index: one line and exit 1, or `--wait` waits for it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import SAMPLE_DB

# Holds a write lock on the index until a line arrives on its stdin.
HOLD = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.readline()
conn.execute("COMMIT")
"""

# `recollect index` in its own process, with the busy timeout (10 s in use) set by the test: the lock is
# real and so is the one-line report; only the time it takes to give up is short.
BUSY_TIMEOUT_MS = 300
INDEX = f"""
import sys
from recollect.index import store
store.BUSY_TIMEOUT_MS = {BUSY_TIMEOUT_MS}
from recollect.cli import run
sys.argv = ["recollect", "index", *sys.argv[1:]]
run()
"""


def _hold(index_db: Path) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(index_db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def _release(holder: subprocess.Popen[str]) -> None:
    if holder.poll() is None:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        try:
            holder.wait(timeout=30)
        except subprocess.TimeoutExpired:
            holder.kill()
            holder.wait()


def _has_open(pid: int, path: Path) -> bool:
    """Whether process `pid` has `path` open (Linux's /proc; elsewhere, say yes and rely on the wait)."""
    fds = Path(f"/proc/{pid}/fd")
    if not fds.is_dir():
        return True
    for fd in fds.iterdir():
        try:
            if Path(os.readlink(fd)) == path.resolve():
                return True
        except OSError:
            continue
    return False


def test_a_held_write_lock_gives_one_line_and_exit_1_and_wait_waits(tmp_path: Path, isolated_home: Path) -> None:
    db = tmp_path / "opencode.db"
    db.write_bytes(SAMPLE_DB.read_bytes())
    env = {**os.environ, "OPENCODE_DB": str(db), "RECOLLECT_SOURCES": "opencode"}
    index = [sys.executable, "-c", INDEX]
    first = subprocess.run(index, env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr  # positive control: no lock, the index is built
    db.write_bytes(SAMPLE_DB.read_bytes().replace(b"fix", b"fiX"))  # something to write next time
    index_db = isolated_home / "index.db"

    holder = _hold(index_db)
    try:
        blocked = subprocess.run(index, env=env, capture_output=True, text=True, timeout=120)
    finally:
        _release(holder)
    assert blocked.returncode == 1, blocked.stdout + blocked.stderr
    assert "Traceback" not in blocked.stderr and len(blocked.stderr.strip().splitlines()) == 1, blocked.stderr
    assert "locked by another process" in blocked.stderr and "--wait" in blocked.stderr

    holder = _hold(index_db)
    try:
        waiting = subprocess.Popen(
            [*index, "--wait"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        deadline = time.monotonic() + 60
        while not _has_open(waiting.pid, index_db) and waiting.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        # Many times the timeout that failed above has passed with the index open: it is still there, waiting.
        time.sleep(BUSY_TIMEOUT_MS / 1000 * 5)
        assert waiting.poll() is None, waiting.communicate()
    finally:
        _release(holder)
    out, err = waiting.communicate(timeout=300)
    assert waiting.returncode == 0, out + err
