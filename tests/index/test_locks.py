"""Another process holding a write lock on the index: one line and exit 1, or `--wait` waits for it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import SAMPLE_DB

HOLD = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
"""


def test_a_held_write_lock_gives_one_line_and_exit_1_and_wait_waits(tmp_path: Path, isolated_home: Path) -> None:
    db = tmp_path / "opencode.db"
    db.write_bytes(SAMPLE_DB.read_bytes())
    env = {**os.environ, "OPENCODE_DB": str(db), "RECOLLECT_SOURCES": "opencode"}
    index = [sys.executable, "-m", "recollect.cli", "index"]
    first = subprocess.run(index, env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr  # positive control: no lock, the index is built
    db.write_bytes(SAMPLE_DB.read_bytes().replace(b"fix", b"fiX"))  # something to write next time
    index_db = isolated_home / "index.db"

    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(index_db), "30"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        blocked = subprocess.run(index, env=env, capture_output=True, text=True, timeout=120)
    finally:
        holder.kill()
        holder.wait()
    assert blocked.returncode == 1, blocked.stdout + blocked.stderr
    assert "Traceback" not in blocked.stderr and len(blocked.stderr.strip().splitlines()) == 1, blocked.stderr
    assert "locked by another process" in blocked.stderr and "--wait" in blocked.stderr

    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(index_db), "12"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        waited = subprocess.run([*index, "--wait"], env=env, capture_output=True, text=True, timeout=300)
    finally:
        holder.kill()
        holder.wait()
    # Held 12 s, past the 10 s that failed above: it succeeded because it waited for the holder.
    assert waited.returncode == 0, waited.stdout + waited.stderr
