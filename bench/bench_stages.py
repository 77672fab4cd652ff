"""What each ranking stage costs: in-process query latency with everything on, then with each stage of
recollect.search.stages switched off in turn (not a timed test: it prints figures).

    python bench/bench_index.py --sessions 5000          # builds store-5000.db and its index first
    python bench/bench_stages.py --sessions 5000 [--workdir /tmp/recollect-bench]

Reuses the store and index that bench_index.py left in the work directory (it indexes them if they
are missing). The query set is bench_index's (identifiers, pasted errors, Chinese, generic words)
plus question-shaped queries, time words and pasted test ids, since those are what the newer stages
read. A stage's cost is the p50 / p95 with it on minus with it off.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from bench.bench_index import queries_for  # noqa: E402
from bench.storegen import generate_store  # noqa: E402

QUESTIONS = [
    "which session fixed the flaky test",
    "the session where we changed the retry policy",
    "what did we decide about the cache",
    "how did we fix the migration last week",
    "what did I say about the deploy two weeks ago",
    "when do we release",
    "上次我们怎么修的部署脚本",
    "上个月的配置错误",
]


def _latencies(search, conn, queries, embedder, cards) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for q in queries:
        t = time.perf_counter()
        search(conn, q, embedder=embedder, card_encoder=cards)
        out.append((time.perf_counter() - t) * 1000)
    out.sort()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/recollect-bench"))
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    store = args.workdir / f"store-{args.sessions}.db"
    if not store.exists():
        generate_store(store, sessions=args.sessions, seed=7)
    manifest = json.loads(Path(str(store) + ".manifest.json").read_text())
    os.environ.update(
        RECOLLECT_HOME=str(args.workdir / f"home-{args.sessions}"), OPENCODE_DB=str(store), RECOLLECT_SOURCES="opencode"
    )
    from recollect import history
    from recollect.config import load_config
    from recollect.index import store as index_store
    from recollect.index import vectors
    from recollect.search import stages
    from recollect.search.rank import search

    config = load_config()
    history.index(config)
    conn = index_store.connect(config.index_path)
    embedder, cards = vectors.embedder_for(config), vectors.card_encoder_for(config)
    queries = queries_for(manifest, random.Random(3)) + QUESTIONS
    for q in queries[:5]:
        search(conn, q, embedder=embedder, card_encoder=cards)  # warm the page cache and the vector matrices
    runs = {"all on": _latencies(search, conn, queries, embedder, cards)}
    for stage in stages.STAGES:
        with stages.disabled(stage):
            runs[f"-{stage}"] = _latencies(search, conn, queries, embedder, cards)
    full = runs["all on"]
    p50, p95 = statistics.median(full), full[int(len(full) * 0.95) - 1]
    print(
        f"{args.sessions} sessions, {len(queries)} queries, semantic={embedder is not None}, cards={cards is not None}"
    )
    print("| run | p50 ms | p95 ms | stage cost p50 | stage cost p95 |")
    print("|---|--:|--:|--:|--:|")
    for name, lat in runs.items():
        q50, q95 = statistics.median(lat), lat[int(len(lat) * 0.95) - 1]
        cost = "" if name == "all on" else f"{p50 - q50:+.1f} | {p95 - q95:+.1f}"
        print(f"| {name} | {q50:.1f} | {q95:.1f} | {cost or ' | '} |")


if __name__ == "__main__":
    main()
