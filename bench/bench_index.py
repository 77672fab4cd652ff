"""Benchmark the history index on large realistic stores (not a timed test: it prints figures).

    python bench/bench_index.py --sessions 1000 [--sessions 5000] [--workdir DIR]
    python bench/bench_index.py --sessions 500 --before OTHER/src [--pairs 3]
    python bench/bench_index.py --sessions 1000 --rederive

For each size it generates (or reuses) a store with bench/storegen.py, then measures in a fresh
process: cold index (sessions/s, wall and CPU), a sync with nothing changed, a sync after one
session changed, in-process query latency p50/p95 over a mixed query set, peak memory of the
indexing process, the sidecar's size against the store's, and how many embeddable chunks share a
vector (a generator that repeats text flatters the sidecar and the embedding time). The baseline
measured in the same run is the time to merely read every session from the store (no index work),
so the index cost can be stated as a ratio of it. Last, one-shot ``recollect search --no-sync``
processes (hybrid, as a user runs them) against the CLI's own import time, wall and CPU, in the same
run. CPU times are printed because a shared machine's load inflates wall times.

`--before OTHER/src` compares two checkouts instead (a `git archive` of another commit, say): only the
cold index, `--pairs` pairs of runs on the same store, the order alternating from pair to pair so a
drifting load favours neither side, each run in a fresh home; then the two indexes' contents are
compared part by part (bench/index_content.py: sessions, cards, chunks, FTS tokens, vectors). A
change meant only to make indexing cheaper must print `"same_content": true`. Its CPU of one run moves
by ~10% with the load of the moment on a shared machine: read the medians and the pair ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from bench.index_content import VECTOR_GAP, differences, digest, vector_gap  # noqa: E402
from bench.storegen import WORKDIR, StoreMutator, generate_store  # noqa: E402


def _child(code: str, env: dict[str, str]) -> dict[str, Any]:
    """Run `code` in a fresh interpreter; it prints one JSON line; add its peak RSS."""
    peak = "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss"
    wrapped = code + f"\nimport resource, json as _j\nprint(_j.dumps({{'maxrss_kb': {peak}}}))"
    out = subprocess.run([sys.executable, "-c", wrapped], env=env, capture_output=True, text=True, check=True)
    result: dict[str, Any] = {}
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            result.update(json.loads(line))
    return result


# CPU and peak memory count the index's worker processes too (index/prepare.py; RUSAGE_CHILDREN once
# they have been waited for): "cpu" is the whole index's, "cpu_writer" the indexing process's own.
# Each worker's peak (VmHWM) is sampled from /proc every 0.25 s while it runs: their sum plus the
# writer's own is what the whole index can hold at once, at most. VmHWM, not ru_maxrss: on Linux a
# process's ru_maxrss starts from its parent's RSS at the fork before exec (this bench's, which made
# the store), so it overstates the indexing process.
# Phases: the sync's progress labels (the source's id while it reads and stores, "embedding texts",
# "embedding session cards"), "start" before the first; the last one runs to the end (pruning, summaries).
# At each change the writer's VmHWM is its peak in the phase that ends, and is reset (clear_refs 5), so
# each phase's peak is its own; the writer's whole peak is the largest. The sampler also keeps, per
# phase, the largest sum of the writer's and the workers' RSS seen at one moment.
COLD = """
import json, threading, time, resource
from pathlib import Path
from recollect import history
from recollect.config import load_config
peaks, pss = {}, {}
phase = {"name": "start", "at": time.process_time(), "whole_kb": 0}
phases = []
def status(pid="self"):
    found = {}
    for l in Path(f"/proc/{pid}/status").read_text().splitlines():
        if l.startswith(("VmHWM:", "VmRSS:")):
            found[l.split(":")[0]] = int(l.split()[1])
    return found
def end_phase(name):
    now = status()
    phases.append({"phase": phase["name"], "writer_peak_mb": round(now["VmHWM"] / 1024, 1),
                   "writer_rss_at_end_mb": round(now["VmRSS"] / 1024, 1),
                   "whole_rss_sampled_peak_mb": round(max(phase["whole_kb"], now["VmHWM"]) / 1024, 1),
                   "writer_cpu_s": round(time.process_time() - phase["at"], 2)})
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM starts again from the RSS of now
    phase.update(name=name, at=time.process_time(), whole_kb=0)
def progress(label, done, total):
    if label != phase["name"]:
        end_phase(label)
def rollup(pid):
    for l in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if l.startswith("Pss:"):
            return int(l.split()[1])
    return 0
def sample():
    tick = 0
    while True:
        rolls = tick % 8 == 0  # PSS every 2 s: a read of smaps_rollup costs ~14 ms of CPU for a 250 MB worker
        tick += 1
        whole = status().get("VmRSS", 0)
        for kids in Path("/proc/self/task").glob("*/children"):
            for pid in kids.read_text().split():
                try:
                    found = status(pid)
                    if rolls:
                        pss[pid] = max(pss.get(pid, 0), rollup(pid))
                except OSError:
                    continue
                whole += found.get("VmRSS", 0)
                if "VmHWM" in found:
                    peaks[pid] = max(peaks.get(pid, 0), found["VmHWM"])
        phase["whole_kb"] = max(phase["whole_kb"], whole)
        if rolls:
            pss["writer"] = max(pss.get("writer", 0), rollup("self"))
        time.sleep(0.25)
threading.Thread(target=sample, daemon=True).start()
t, c = time.perf_counter(), time.process_time()
report = history.index(load_config(), progress=progress)
end_phase(None)
wall, cpu = time.perf_counter() - t, time.process_time() - c
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
writer_peak = max(p["writer_peak_mb"] for p in phases)
print(json.dumps({"wall": wall, "cpu": cpu + kids.ru_utime + kids.ru_stime, "cpu_writer": cpu,
                  "writer_hwm_kb": int(writer_peak * 1024), "phases": phases,
                  "workers_maxrss_kb": kids.ru_maxrss, "workers_hwm_kb": sorted(peaks.values()),
                  "pss_kb": pss,
                  "sessions": report.sources[0].sessions}))
"""

READ_ONLY = """
import json, time
from pathlib import Path
from recollect.sources.opencode import OpenCodeSource
from recollect.sources.base import SourceSpec
import os
src = OpenCodeSource(SourceSpec(id="opencode", kind="opencode", path=Path(os.environ["OPENCODE_DB"])))
t, c = time.perf_counter(), time.process_time()
n = sum(1 for _ in src.read_sessions(list(src.scan().stamps)))
print(json.dumps({"wall": time.perf_counter() - t, "cpu": time.process_time() - c, "sessions": n}))
"""

# A rule that shaped sessions changed (index/derivations.py): every session of the cold index is tagged
# with an older version of the relay rule, as an index of an older recollect is, and the next
# `recollect index` re-derives them (the worst case: a real rule shapes a few); then one more, which
# re-derives nothing (the control). Vectors are keyed by content, so the same text is not embedded again.
REDERIVE = """
import json, time, resource
from recollect import history
from recollect.config import load_config
from recollect.index import store
config = load_config()
conn = store.connect(config.index_path)
conn.execute("UPDATE session SET derived = 'relays:0'")
conn.execute("UPDATE meta SET value = 'relays:0' WHERE key = 'derivations'")
conn.close()
out = {}
for name in ("rederive", "control"):
    t, c = time.perf_counter(), time.process_time()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = history.index(config)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - c + kids.ru_utime - before.ru_utime + kids.ru_stime - before.ru_stime
    out[name] = {"wall_s": round(time.perf_counter() - t, 2), "cpu_s": round(cpu, 2),
                 "rederived": report.rederived, "updated": report.sources[0].updated}
print(json.dumps(out))
"""


def _timed(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one child process."""
    t, before = time.perf_counter(), os.times()
    subprocess.run(args, env=env, capture_output=True, check=True, timeout=600)
    after = os.times()
    return time.perf_counter() - t, (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def one_shot(queries: list[str], env: dict[str, str], repeat: int = 1) -> dict[str, float]:
    """p50 of one-shot `recollect search --no-sync` processes against `import recollect.cli`."""
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}  # bytecode cached, as installed
    imp = [sys.executable, "-c", "import recollect.cli"]
    _timed(imp, env)
    cmd = [sys.executable, "-m", "recollect.cli", "search"]
    searches = [_timed([*cmd, q, "--no-sync"], env) for _ in range(repeat) for q in queries]
    imports = [_timed(imp, env) for _ in range(7)]
    sw, sc = statistics.median(x[0] for x in searches), statistics.median(x[1] for x in searches)
    iw, ic = statistics.median(x[0] for x in imports), statistics.median(x[1] for x in imports)
    return {
        "one_shot_n": len(searches),
        "one_shot_search_p50_ms": round(sw * 1000, 1),
        "one_shot_search_cpu_p50_ms": round(sc * 1000, 1),
        "cli_import_p50_ms": round(iw * 1000, 1),
        "cli_import_cpu_p50_ms": round(ic * 1000, 1),
        "one_shot_vs_import": round(sw / iw, 1),
        "one_shot_vs_import_cpu": round(sc / ic, 1),
    }


def queries_for(manifest: dict, rng: random.Random, n: int = 60) -> list[str]:
    sessions = list(manifest["sessions"].values())
    rng.shuffle(sessions)
    out: list[str] = []
    for s in sessions:
        for key in ("rare_identifier", "error_message", "cjk_phrase"):
            if s.get(key) and len(out) < n:
                out.append(s[key])
    generic = [
        "flaky test",
        "fix the build",
        "database migration failed",
        "timeout",
        "refactor the parser",
        "why does the test fail",
        "部署",
        "配置 错误",
        "rate limiter",
        "TypeError",
    ]
    return out + generic


def _store(size: int, workdir: Path) -> Path:
    store = workdir / f"store-{size}.db"
    if not store.exists():
        print(f"generating {size} sessions …", flush=True)
        generate_store(store, sessions=size, seed=7)
    return store


def compare(size: int, workdir: Path, before: Path, pairs: int) -> dict[str, object]:
    """The cold index of this checkout ("after") and of `before` (another checkout's src), in pairs
    of alternating order on one store, each in a fresh home; then whether both indexes hold the same."""
    store = _store(size, workdir)
    sides = {"before": before.resolve(), "after": REPO / "src"}
    runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    for i in range(pairs):
        for side in ("before", "after") if i % 2 == 0 else ("after", "before"):
            home = workdir / f"home-{size}-{side}"
            shutil.rmtree(home, ignore_errors=True)
            env = {
                **os.environ,
                "RECOLLECT_HOME": str(home),
                "OPENCODE_DB": str(store),
                "RECOLLECT_SOURCES": "opencode",
                "PYTHONPATH": str(sides[side]),
            }
            runs[side].append(_child(COLD, env))
            print(f"pair {i + 1} {side}: {runs[side][-1]['cpu']:.2f} s CPU", file=sys.stderr, flush=True)
    out: dict[str, object] = {"sessions": size, "pairs": pairs, "before_src": str(sides["before"])}
    for side, done in runs.items():
        out[side] = {
            "cpu_s_median": round(statistics.median(r["cpu"] for r in done), 2),
            "cpu_writer_s_median": round(statistics.median(r["cpu_writer"] for r in done), 2),
            "cpu_s": [round(r["cpu"], 2) for r in done],
            "sessions_per_s_median": round(size / statistics.median(r["wall"] for r in done), 1),
            "peak_rss_whole_index_mb_max": round(
                max(r["writer_hwm_kb"] + sum(r["workers_hwm_kb"]) for r in done) / 1024, 1
            ),
            "peak_rss_writer_mb_max": round(max(r["writer_hwm_kb"] for r in done) / 1024, 1),
            "phases_of_last_run": done[-1]["phases"],
        }
    ratios = [a["cpu"] / b["cpu"] for a, b in zip(runs["after"], runs["before"], strict=True)]
    out["cpu_after_over_before_pairs"] = [round(r, 3) for r in ratios]
    out["cpu_after_over_before_median"] = round(statistics.median(ratios), 3)
    indexes = [workdir / f"home-{size}-{side}" / "index.db" for side in ("before", "after")]
    diff = differences(*(digest(p) for p in indexes))
    gap = vector_gap(*indexes)
    if gap > VECTOR_GAP:
        diff.append(f"vector values: {gap:.1f} quantization steps apart")
    out["same_content"] = not diff
    out["content_differences"] = diff
    out["vector_gap_steps"] = round(gap, 2)
    # Exactly: every vector, its slot and its value, and what a few searches return. Two runs are equal
    # bit for bit only with RECOLLECT_INDEX_WORKERS=0: with workers, which texts the full encoder embeds
    # together depends on timing, and its vectors on that (hence VECTOR_GAP above).
    digests = [_vectors_sha256(p) for p in indexes]
    out["vectors_sha256"] = dict(zip(("before", "after"), digests, strict=True))
    out["same_vectors_exactly"] = digests[0] == digests[1]
    manifest = json.loads(Path(str(store) + ".manifest.json").read_text())
    found = [_searches(p, queries_for(manifest, random.Random(3))[:12]) for p in indexes]
    out["same_searches"] = found[0] == found[1]
    out["searches_compared"] = len(found[0])
    return {**out, **_load(load_at_start)}


def _vectors_sha256(index: Path) -> str:
    """A digest of the vector table (hash, model, dimension, slot) and of every vector's value."""
    import hashlib

    from recollect.index import vectors

    conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
    try:
        h = hashlib.sha256()
        for row in conn.execute("SELECT hash, model, dim, slot FROM vector ORDER BY hash, model"):
            h.update(repr(row).encode())
        for (text_hash, model), value in sorted(vectors.stored_vectors(conn).items()):
            h.update(text_hash + model.encode() + value.tobytes())
        return h.hexdigest()
    finally:
        conn.close()


def _searches(index: Path, queries: list[str]) -> list[list[tuple[object, ...]]]:
    """What each query finds in `index` (hybrid, with both models, at one fixed time)."""
    from recollect.config import load_config
    from recollect.embed import factory
    from recollect.index import store as index_store
    from recollect.search.rank import search

    config = load_config()
    embedder, cards = factory.embedder_for(config), factory.card_encoder_for(config)
    conn = index_store.connect(index, readonly=True)
    try:
        return [
            [
                (h.session_id, h.message_id, h.part_id, round(h.score, 9), h.why)
                for h in search(conn, q, embedder=embedder, card_encoder=cards, now_ms=1_800_000_000_000).hits
            ]
            for q in queries
        ]
    finally:
        conn.close()


def measure(size: int, workdir: Path, cold_only: bool = False, rederive: bool = False) -> dict[str, object]:
    store = _store(size, workdir)
    manifest = json.loads(Path(str(store) + ".manifest.json").read_text())
    home = workdir / f"home-{size}"
    if home.exists():
        for p in home.glob("*"):
            if p.is_file():
                p.unlink()
    env = {
        **os.environ,
        "RECOLLECT_HOME": str(home),
        "OPENCODE_DB": str(store),
        "RECOLLECT_SOURCES": "opencode",
        "PYTHONPATH": str(REPO / "src"),
    }
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    baseline = _child(READ_ONLY, env)
    cold = _child(COLD, env)
    if rederive:
        rederived = _child(REDERIVE, env)
        rederived.pop("maxrss_kb")
        return {"sessions": size, **_cold_figures(size, cold, baseline), **rederived, **_load(load_at_start)}
    if cold_only:
        return {"sessions": size, **_cold_figures(size, cold, baseline), **_load(load_at_start)}
    os.environ.update({k: env[k] for k in ("RECOLLECT_HOME", "OPENCODE_DB", "RECOLLECT_SOURCES")})
    from recollect import history
    from recollect.config import load_config
    from recollect.index import store as index_store
    from recollect.search.rank import search

    config = load_config()
    conn = index_store.connect(config.index_path)
    # As a search syncs: with the embedders, a bounded embedding pass, no pruning. The first call
    # of a process locates and loads the models (~0.2 s): measured apart, like a warm MCP server.
    t = time.perf_counter()
    history.refresh(conn, config, max_age=0)
    first_sync = time.perf_counter() - t
    t, c = time.perf_counter(), time.process_time()
    history.refresh(conn, config, max_age=0)
    unchanged, unchanged_cpu = time.perf_counter() - t, time.process_time() - c
    victim = next(iter(manifest["sessions"]))
    mutator = StoreMutator(store)
    mutator.append_turn(victim, "one more question about this")
    mutator.close()
    t = time.perf_counter()
    one = history.refresh(conn, config, max_age=0)
    one_changed = time.perf_counter() - t
    from recollect.embed import factory

    embedder = factory.embedder_for(config)  # None with RECOLLECT_EMBEDDINGS=off: lexical only
    cards = factory.card_encoder_for(config)
    queries = queries_for(manifest, random.Random(3))
    for q in queries[:5]:
        search(conn, q, embedder=embedder, card_encoder=cards)  # warm the page cache (and the vector matrix)
    latencies = []
    for q in queries:
        t = time.perf_counter()
        search(conn, q, embedder=embedder, card_encoder=cards)
        latencies.append((time.perf_counter() - t) * 1000)
    latencies.sort()
    chunks, embeddable, distinct = conn.execute(
        "SELECT count(*), count(hash), count(DISTINCT hash) FROM chunk"
    ).fetchone()
    vector_rows = conn.execute("SELECT count(*) FROM vector").fetchone()[0]
    conn.close()
    shots = one_shot([q for q in queries if q][:: max(1, len(queries) // 12)][:12], env)
    store_bytes = sum(p.stat().st_size for p in store.parent.glob(store.name + "*") if not p.name.endswith(".json"))
    # The database, its WAL and the vector matrices kept beside it (index.db.vectors/).
    index_bytes = sum(
        f.stat().st_size
        for p in config.index_path.parent.glob("index.db*")
        for f in ([p] if p.is_file() else p.rglob("*"))
        if f.is_file()
    )
    del history
    return {
        "sessions": size,
        "semantic": embedder is not None,
        "card_encoder": cards is not None,
        **_cold_figures(size, cold, baseline),
        "first_sync_of_process_s": round(first_sync, 3),
        "sync_unchanged_s": round(unchanged, 3),
        "sync_unchanged_cpu_s": round(unchanged_cpu, 3),
        "sync_one_changed_s": round(one_changed, 3),
        "one_changed_updated": one.sources[0].updated,
        "queries": len(latencies),
        "query_p50_ms": round(statistics.median(latencies), 1),
        "query_p95_ms": round(latencies[int(len(latencies) * 0.95) - 1], 1),
        "store_mb": round(store_bytes / 1e6, 1),
        "index_mb": round(index_bytes / 1e6, 1),
        "index_vs_store": round(index_bytes / store_bytes, 3),
        "chunks": chunks,
        "embeddable_chunks": embeddable,
        "distinct_embeddable_texts": distinct,
        "vector_rows": vector_rows,
        **shots,
        **_load(load_at_start),
        "maxrss_self_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def _cold_figures(size: int, cold: dict[str, Any], baseline: dict[str, Any]) -> dict[str, object]:
    return {
        "read_only_baseline_s": round(baseline["wall"], 2),
        "cold_index_s": round(cold["wall"], 2),
        "cold_index_cpu_s": round(cold["cpu"], 2),
        "cold_index_writer_cpu_s": round(cold["cpu_writer"], 2),
        "index_workers": os.environ.get("RECOLLECT_INDEX_WORKERS", "default (by cores and memory)"),
        "sessions_per_s": round(size / cold["wall"], 1),
        "sessions_per_cpu_s": round(size / cold["cpu"], 1),
        "cold_vs_read_only": round(cold["wall"] / baseline["wall"], 2),
        # The writer's VmHWM is reset at each phase (COLD), so its ru_maxrss is no peak any more: the largest phase's.
        "peak_rss_mb": round(cold["writer_hwm_kb"] / 1024, 1),
        "phases": cold["phases"],
        # The largest worker's peak; its model tables are memory-mapped files, shared with the others.
        "peak_rss_worker_mb": round(cold["workers_maxrss_kb"] / 1024, 1),
        "workers_seen": len(cold["workers_hwm_kb"]),
        # Writer and every worker at their peaks at once: an upper bound of the whole index's memory.
        "peak_rss_writer_mb": round(cold["writer_hwm_kb"] / 1024, 1),
        "peak_rss_workers_mb": [round(kb / 1024, 1) for kb in cold["workers_hwm_kb"]],
        "peak_rss_whole_index_mb": round((cold["writer_hwm_kb"] + sum(cold["workers_hwm_kb"])) / 1024, 1),
        # The same with each process's proportional share (PSS, sampled every 2 s): pages that several
        # processes map (libraries, the memory-mapped model tables) count once in all, not once in each.
        "peak_pss_writer_mb": round(cold["pss_kb"].get("writer", 0) / 1024, 1),
        "peak_pss_whole_index_mb": round(sum(cold["pss_kb"].values()) / 1024, 1),
    }


def _load(at_start: list[float]) -> dict[str, object]:
    return {
        "load_avg_at_start": at_start,
        "load_avg_at_end": [round(x, 2) for x in os.getloadavg()],
        "cpu_count": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, action="append", help="store size (repeatable)")
    parser.add_argument("--workdir", type=Path, default=WORKDIR)
    parser.add_argument("--cold-only", action="store_true", help="only the cold index (time, CPU, memory)")
    parser.add_argument(
        "--rederive",
        action="store_true",
        help="the cold index, then what a changed rule re-deriving every session costs (and a control)",
    )
    parser.add_argument(
        "--before",
        type=Path,
        help="another checkout's src directory: the cold index of both, in pairs, and whether they index the same",
    )
    parser.add_argument("--pairs", type=int, default=3, help="with --before: pairs of runs (default 3)")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    if args.before is not None and not (args.before / "recollect" / "__init__.py").is_file():
        parser.error(f"--before {args.before}: no recollect package there (give the checkout's src directory)")
    for size in args.sessions or [1000]:
        if args.before is not None:
            result = compare(size, args.workdir, args.before, max(1, args.pairs))
        else:
            result = measure(size, args.workdir, args.cold_only, args.rederive)
        print(json.dumps(result, indent=2), flush=True)


if __name__ == "__main__":
    main()
