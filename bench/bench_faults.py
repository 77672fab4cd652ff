"""kill -9 at random points of a cold index and of an incremental sync, with semantic search on.

After each kill: SQLite's integrity check, no duplicated session, and the next `recollect index` must
give an index equal to a fresh one, vectors included (the same (hash, model) set for every chunk and
card that is embedded).

    python -m bench.bench_faults --trials 100 --sessions 40
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.storegen import generate_store


def dump(path: Path) -> dict[str, Any]:
    from tests.index.test_sync import dump as rows

    conn = sqlite3.connect(path)
    try:
        out = rows(conn)
        out["vectors"] = sorted(
            conn.execute(
                "SELECT DISTINCT v.model, v.hash FROM vector v WHERE v.hash IN (SELECT hash FROM chunk) "
                "OR v.hash IN (SELECT card_hash FROM session)"
            ).fetchall()
        )
        out["missing"] = conn.execute(
            "SELECT count(*) FROM chunk c WHERE c.hash IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM vector v WHERE v.hash = c.hash)"
        ).fetchone()[0]
        return out
    finally:
        conn.close()


def index(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "recollect.cli", "index"], env=env, capture_output=True, text=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="recollect-faults-"))
    try:
        old, new = work / "old.db", work / "new.db"
        generate_store(old, sessions=args.sessions, seed=args.seed)
        generate_store(new, sessions=args.sessions + args.sessions // 2, seed=args.seed)  # a grown store
        base = {k: v for k, v in os.environ.items() if k != "RECOLLECT_EMBEDDINGS"}
        base["RECOLLECT_SOURCES"] = "opencode"

        def env_for(home: Path, store: Path) -> dict[str, str]:
            return {**base, "RECOLLECT_HOME": str(home), "OPENCODE_DB": str(store)}

        live = work / "live.db"
        shutil.copy(new, live)
        started = time.perf_counter()
        assert index(env_for(work / "fresh", live)).returncode == 0
        full = time.perf_counter() - started
        fresh = dump(work / "fresh" / "index.db")
        assert fresh["vectors"], "semantic search is off: install the [semantic] extra"
        shutil.copy(old, live)
        assert index(env_for(work / "old-index", live)).returncode == 0
        corrupt = duplicated = unequal = not_killed = 0
        for trial in range(args.trials):
            kind = "cold" if trial % 2 == 0 else "incremental"
            home = work / f"t{trial}"
            if kind == "incremental":
                shutil.copytree(work / "old-index", home)
            shutil.copy(new, live)
            env = env_for(home, live)
            proc = subprocess.Popen(
                [sys.executable, "-m", "recollect.cli", "index"], env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            time.sleep(rng.uniform(0.3, full))
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
            else:
                not_killed += 1
            proc.wait()
            db = home / "index.db"
            if db.exists():
                conn = sqlite3.connect(db)
                ok = conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                dups = conn.execute(
                    "SELECT count(*) FROM (SELECT native_id FROM session "
                    "GROUP BY source_id, native_id HAVING count(*) > 1)"
                ).fetchone()[0]
                conn.close()
                corrupt += not ok
                duplicated += dups > 0
            rerun = index(env)
            same = rerun.returncode == 0 and dump(db) == fresh
            unequal += not same
            print(f"trial {trial} {kind}: {'equal' if same else 'UNEQUAL'}", flush=True)
            shutil.rmtree(home, ignore_errors=True)
        print(
            f"trials={args.trials} sessions={args.sessions} full_index_s={full:.1f} corrupt={corrupt} "
            f"duplicated={duplicated} unequal={unequal} finished_before_kill={not_killed}"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
