"""What each ranking stage costs: in-process query latency with everything on, then with each stage of
recollect.search.stages switched off in turn (not a timed test: it prints figures).

    python bench/bench_index.py --sessions 5000          # builds store-5000.db and its index first
    python bench/bench_stages.py --sessions 5000 [--workdir DIR] [--stage NAME ...]

Reuses the store and index that bench_index.py left in the work directory (it indexes them if they
are missing). The query set is bench_index's (identifiers, pasted errors, Chinese, generic words)
plus question-shaped queries, time words and pasted test ids, since those are what the newer stages
read. A stage's cost is the p50 / p95 with it on minus with it off. Each run reports wall and CPU time
(user + sys of this process) per query and the load average, since a shared machine's wall figures are
noise; `--profile` adds the functions that take the most time with everything on.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from bench.bench_index import queries_for  # noqa: E402
from bench.storegen import WORKDIR, generate_store  # noqa: E402

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


def _latencies(search, conn, queries, embedder, cards) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """Sorted wall and CPU milliseconds per query."""
    wall, cpu = [], []
    for q in queries:
        t, c = time.perf_counter(), time.process_time()
        search(conn, q, embedder=embedder, card_encoder=cards)
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return sorted(wall), sorted(cpu)


def _p(values: list[float], share: float) -> float:
    return values[max(0, int(len(values) * share) - 1)] if share < 1 else values[-1]


def _profile(search, conn, queries, embedder, cards) -> None:  # type: ignore[no-untyped-def]
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    _latencies(search, conn, queries, embedder, cards)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--workdir", type=Path, default=WORKDIR)
    parser.add_argument("--profile", action="store_true", help="also print a cProfile of the all-on run")
    parser.add_argument("--stage", action="append", default=[], help="only this stage off (repeatable) [every stage]")
    parser.add_argument(
        "--no-sync", action="store_true", help="search the work directory's index as it is, without syncing it first"
    )
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
    from recollect.embed import factory
    from recollect.index import store as index_store
    from recollect.search import stages
    from recollect.search.rank import search

    config = load_config()
    if not args.no_sync:
        history.index(config)
    conn = index_store.connect(config.index_path)
    embedder, cards = factory.embedder_for(config), factory.card_encoder_for(config)
    queries = queries_for(manifest, random.Random(3)) + QUESTIONS
    for q in queries[:5]:
        search(conn, q, embedder=embedder, card_encoder=cards)  # warm the page cache and the vector matrices
    load_before = os.getloadavg()
    print(
        f"{args.sessions} sessions, {len(queries)} queries, semantic={embedder is not None}, "
        f"cards={cards is not None}; load average {load_before[0]:.1f} at the start on {os.cpu_count()} cores"
    )
    print("| run | wall p50 ms | wall p95 ms | CPU p50 ms | CPU p95 ms | stage cost CPU p50 | stage cost CPU p95 |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    cpu: list[float] = []
    unknown = set(args.stage) - set(stages.STAGES)
    if unknown:
        parser.error(f"unknown stage(s) {sorted(unknown)}; known: {', '.join(stages.STAGES)}")
    # Each row is printed as soon as it is measured: a run cut short keeps the rows it has.
    for stage in ["", *(args.stage or stages.STAGES)]:
        with stages.disabled(*([stage] if stage else [])):
            w, c = _latencies(search, conn, queries, embedder, cards)
        cpu = cpu or c
        cost = f"{_p(cpu, 0.5) - _p(c, 0.5):+.1f} | {_p(cpu, 0.95) - _p(c, 0.95):+.1f}" if stage else "| "
        name = f"-{stage}" if stage else "all on"
        row = f"| {name} | {_p(w, 0.5):.1f} | {_p(w, 0.95):.1f} | {_p(c, 0.5):.1f} | {_p(c, 0.95):.1f} | {cost} |"
        print(row, flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    if args.profile:
        _profile(search, conn, queries, embedder, cards)


if __name__ == "__main__":
    main()
