"""The idle sync, one at a time per index: many helpers asking at once cost one or two syncs, and a
request that comes while a sync runs is served by another sync after it (real processes, real locks)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

# One helper's idle sync: ask, and "sync" by appending the time to a file, taking `hold` s.
ASKER = """
import os, sys, time
from pathlib import Path
from recollect.integrations.idlework import coalesced_sync
state, log, hold = Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3])
if len(sys.argv) > 4:  # a start line: say ready, then ask only when every helper is ready
    start = Path(sys.argv[4])
    (start / f"ready-{os.getpid()}").touch()
    while not (start / "go").exists():
        time.sleep(0.01)
def sync():
    with open(log, "a") as f:
        f.write(f"{time.time()}\\n")
    time.sleep(hold)
    return 0
sys.exit(coalesced_sync(state, sync))
"""


def ask(state: Path, log: Path, hold: float, start: Path | None = None) -> subprocess.Popen[bytes]:
    extra = [str(start)] if start else []
    return subprocess.Popen([sys.executable, "-c", ASKER, str(state), str(log), str(hold), *extra])


def syncs(log: Path) -> list[float]:
    return [float(line) for line in log.read_text().split()] if log.exists() else []


def test_one_request_runs_one_sync(tmp_path: Path) -> None:
    log = tmp_path / "syncs"
    assert ask(tmp_path / "state", log, 0.0).wait(60) == 0
    assert len(syncs(log)) == 1
    assert ask(tmp_path / "state", log, 0.0).wait(60) == 0  # the next idle, later: its own sync
    assert len(syncs(log)) == 2


def test_many_requests_at_once_share_one_or_two_syncs(tmp_path: Path) -> None:
    log = tmp_path / "syncs"
    start = tmp_path / "start"
    start.mkdir()
    # At once: all six are started and ready before any asks (six starts take seconds on a loaded machine).
    procs = [ask(tmp_path / "state", log, 1.0, start) for _ in range(6)]
    deadline = time.monotonic() + 120
    while len(list(start.glob("ready-*"))) < 6 and time.monotonic() < deadline:
        assert all(p.poll() is None for p in procs)
        time.sleep(0.02)
    (start / "go").touch()
    assert [p.wait(120) for p in procs] == [0] * 6
    assert 1 <= len(syncs(log)) <= 2, syncs(log)  # not six


def test_a_request_during_a_sync_gets_a_sync_after_it(tmp_path: Path) -> None:
    log = tmp_path / "syncs"
    first = ask(tmp_path / "state", log, 1.5)
    deadline = time.monotonic() + 60
    while not syncs(log):  # the first sync has started (its scan may already be past the new session)
        assert time.monotonic() < deadline
        time.sleep(0.05)
    asked = time.time()
    second = ask(tmp_path / "state", log, 0.0)
    assert second.wait(120) == 0 and first.wait(120) == 0
    times = syncs(log)
    assert len(times) == 2 and times[1] >= asked, times  # served by a sync that began after it asked


def test_the_module_runs_recollect_index(isolated_home: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "recollect.integrations.idlework", "sync"], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0 and r.stdout.strip(), r.stderr  # `recollect index`'s summary
    from recollect.config import resolve_paths

    assert (resolve_paths().data_dir / "idle-sync.lock").exists()  # it synced under the lock
    assert not (resolve_paths().data_dir / "idle-sync.wanted").exists()  # and served its request
    bad = subprocess.run([sys.executable, "-m", "recollect.integrations.idlework"], capture_output=True, text=True)
    assert bad.returncode == 2 and "usage" in bad.stderr


# A sync that found the writer lease taken (LEASE_BUSY) the first time, then synced.
BUSY_ONCE = """
import sys
from pathlib import Path
from recollect.integrations import idlework
state, log = Path(sys.argv[1]), Path(sys.argv[2])
idlework.BUSY_PAUSE = 0.0
def sync():
    with open(log, "a") as f:
        f.write("1\\n")
    return idlework.LEASE_BUSY if len(log.read_text().split()) == 1 else 0
sys.exit(idlework.coalesced_sync(state, sync))
"""


def test_a_sync_that_found_the_lease_taken_is_asked_for_again(tmp_path: Path) -> None:
    log = tmp_path / "syncs"
    r = subprocess.run([sys.executable, "-c", BUSY_ONCE, str(tmp_path / "state"), str(log)], timeout=60)
    assert r.returncode == 0 and len(syncs(log)) == 2  # tried again after the busy one, and it synced
    assert not (tmp_path / "state" / "idle-sync.wanted").exists()


# Another process that holds the index's writer lease for `hold` s (a `recollect index` elsewhere).
LEASE_HOLDER = """
import sys, time
from recollect.config import load_config
from recollect.index import store
conn = store.connect(load_config().index_path)
lease = store.Lease(conn)
assert lease.acquire()
conn.commit()
print("held", flush=True)
time.sleep(float(sys.argv[1]))
lease.release()
conn.commit()
"""


def test_the_idle_sync_waits_for_a_lease_another_process_holds(sample_db: Path, isolated_home: Path) -> None:
    from recollect import configfile
    from recollect.config import load_config, resolve_paths
    from recollect.index import store
    from recollect.integrations import idlework

    configfile.write_config(only_if_missing=True)  # as the idle sync does first, so both open one index
    holder = subprocess.Popen([sys.executable, "-c", LEASE_HOLDER, "2"], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    assert idlework.coalesced_sync(resolve_paths().data_dir, idlework._index, wait=30) == 0
    assert holder.wait(30) == 0
    conn = store.connect(load_config().index_path)
    count = conn.execute("SELECT count(*) FROM session").fetchone()[0]
    conn.close()
    assert count > 0, "the idle sync's request was lost while another process held the lease"
    assert not (resolve_paths().data_dir / "idle-sync.wanted").exists()


def test_the_bridged_extractions_are_waited_for_and_a_thread_of_a_session_too_short_is_not() -> None:
    import threading

    from recollect.integrations.idlework import Bridged

    bridged = Bridged()
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.5)"])
    release = threading.Event()
    short = threading.Thread(target=release.wait, args=(30,))
    short.start()
    bridged.add("ses_long", proc, "http://recollect:s@127.0.0.1:1")
    bridged.add("ses_short", short, "http://recollect:s@127.0.0.1:1")
    plain = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    bridged.add("ses_plain", plain, "")
    started = time.monotonic()
    try:
        assert bridged.wait(10, lambda session: session == "ses_long") == 0
        took = time.monotonic() - started
        assert proc.poll() == 0  # positive control: the extraction's process was waited for, to its end
        assert took < 5  # neither the unwanted thread nor the process given no address held the wait
        assert bridged.wait(0.2, lambda session: True) == 1  # wanted, the thread still running is counted
    finally:
        release.set()
        short.join()
        plain.kill()
        plain.wait()
