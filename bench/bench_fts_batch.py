"""What storing a sync's sessions costs in SQLite, their FTS rows written per session or per batch (prints figures).

    python bench/bench_fts_batch.py [--sessions 2000] [--repeat 3] [--workdir DIR]

The sessions of a generated store (bench/storegen.py) are prepared once, tokens included (as the
index's workers make them), then stored into fresh indexes the way `index/sync.py` stores a batch:
50 sessions a transaction, each under its own savepoint. "per_session" writes each session's
card_fts and chunk_fts rows under its savepoint (`rows.insert_session` alone, as the sync did before
`rows.write_fts`); "per_batch" writes them after the batch's savepoints, all at once, as the sync
does now. Only the storing is timed (CPU of this process), the two alternating, each `--repeat`
times; both indexes are then compared part by part (bench/index_content.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from bench.index_content import differences, digest  # noqa: E402
from bench.storegen import generate_store  # noqa: E402

BATCH = 50  # index/sync.py's BATCH_SESSIONS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", type=Path, help="default: a new temporary directory")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="recollect-bench-fts-"))
    workdir.mkdir(parents=True, exist_ok=True)
    store_path = workdir / f"store-{args.sessions}.db"
    if not store_path.exists():
        generate_store(store_path, sessions=args.sessions, seed=7)
    os.environ.update(RECOLLECT_HOME=str(workdir / "home"), RECOLLECT_EMBEDDINGS="off")

    from recollect.index import rows, store
    from recollect.sources.base import SourceSpec
    from recollect.sources.opencode import OpenCodeSource

    source = OpenCodeSource(SourceSpec(id="opencode", kind="opencode", path=store_path))
    sessions = list(source.read_sessions(list(source.scan().stamps)))
    prepared = [(s, rows.prepare_session(s, tokens=True)) for s in sessions]

    def stored(path: Path, batched: bool) -> float:
        conn = store.connect(path)
        started = time.process_time()
        for at in range(0, len(prepared), BATCH):
            with store.transaction(conn):
                later: list[rows.Written] | None = [] if batched else None
                for session, rows_of in prepared[at : at + BATCH]:
                    conn.execute("SAVEPOINT one_session")
                    rows.insert_session(conn, session, "w", None, rows_of, fts_later=later)
                    conn.execute("RELEASE one_session")
                if later is not None:
                    rows.write_fts(conn, later)
        cpu = time.process_time() - started
        conn.close()
        return cpu

    cpu: dict[str, list[float]] = {"per_session": [], "per_batch": []}
    for i in range(max(1, args.repeat)):
        for kind in ("per_session", "per_batch") if i % 2 == 0 else ("per_batch", "per_session"):
            path = workdir / f"{kind}.db"
            for old in workdir.glob(f"{kind}.db*"):
                shutil.rmtree(old) if old.is_dir() else old.unlink()
            cpu[kind].append(stored(path, kind == "per_batch"))
    diff = differences(digest(workdir / "per_session.db"), digest(workdir / "per_batch.db"))
    out: dict[str, Any] = {
        "sessions": len(prepared),
        "chunks": sum(len(p.chunks) for _, p in prepared),
        **{f"{kind}_cpu_s": [round(x, 3) for x in v] for kind, v in cpu.items()},
        **{f"{kind}_cpu_s_median": round(statistics.median(v), 3) for kind, v in cpu.items()},
        "per_batch_over_per_session": round(
            statistics.median(cpu["per_batch"]) / statistics.median(cpu["per_session"]), 3
        ),
        "same_content": not diff,
        "content_differences": diff,
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
