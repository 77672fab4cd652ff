"""Benchmark the web page (not a timed test: it prints figures).

    python bench/bench_ui.py --sessions 5000 [--workdir DIR] [--rounds 20]

Generates (or reuses, shared with bench_index.py) a store with bench/storegen.py, indexes it, then
starts `recollect ui` as a user would and measures: time from spawn to the first answered request,
and per page the server-side render time p50/p95 over `--rounds` requests through real HTTP on
127.0.0.1 (search pages over a mixed query set). The baseline in the same run is the same search
through `history.search` in process, without the page, so the page's own cost is a difference.
Targets (issue 18): every page < 300 ms p95 and a search page < 400 ms p95 at 5,000 sessions;
serving within 1 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from bench.storegen import WORKDIR, generate_store  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _get(netloc: str, path: str, cookie: str) -> tuple[int, float, str]:
    conn = http.client.HTTPConnection(netloc, timeout=60)
    t = time.perf_counter()
    conn.request("GET", path, headers={"Host": netloc, "Cookie": cookie})
    response = conn.getresponse()
    body = response.read().decode("utf-8", "replace")
    wall = (time.perf_counter() - t) * 1000
    conn.close()
    return response.status, wall, body


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=5000)
    parser.add_argument("--workdir", type=Path, default=WORKDIR)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    store = args.workdir / f"store-{args.sessions}.db"
    if not store.exists():
        print(f"generating {args.sessions} sessions …", flush=True)
        generate_store(store, sessions=args.sessions, seed=7)
    manifest = json.loads(Path(str(store) + ".manifest.json").read_text())
    home = args.workdir / f"ui-home-{args.sessions}"
    os.environ.update(
        RECOLLECT_HOME=str(home), OPENCODE_DB=str(store), RECOLLECT_SOURCES="opencode", PYTHONPATH=str(REPO / "src")
    )
    from recollect import history

    t = time.perf_counter()
    history.index()
    print(f"index ready in {time.perf_counter() - t:.1f} s", flush=True)

    rng = random.Random(11)
    sessions = list(manifest["sessions"].values())
    words = [w for s in sessions[:400] for w in str(s.get("title", "")).split() if len(w) > 4]
    queries = [" ".join(rng.sample(words, 2)) for _ in range(args.rounds)] if words else ["error"] * args.rounds

    baseline = []
    for q in queries:
        t = time.perf_counter()
        history.search(q, sync_first=False)
        baseline.append((time.perf_counter() - t) * 1000)

    spawn = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "recollect.cli", "ui"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        parts = urllib.parse.urlsplit(url)
        token = urllib.parse.parse_qs(parts.query)["token"][0]
        cookie = f"recollect_ui_{parts.port}={token}"
        status, _, _ = _get(parts.netloc, f"/health?token={token}", cookie)
        serving = time.perf_counter() - spawn
        assert status == 200, status
        hit_cursor = ""
        pages: dict[str, list[float]] = {}
        for q in queries:
            _, wall, body = _get(parts.netloc, "/search?" + urllib.parse.urlencode({"q": q}), cookie)
            pages.setdefault("search", []).append(wall)
            if not hit_cursor and "/session?cursor=" in body:
                hit_cursor = urllib.parse.unquote(body.split("/session?cursor=", 1)[1].split('"', 1)[0])
        project = next(iter(history.activity(limit=1))).project
        paths = {
            "session": "/session?" + urllib.parse.urlencode({"cursor": hit_cursor}),
            "projects": "/projects",
            "project": "/projects?" + urllib.parse.urlencode({"project": project}),
            "memories": "/memories",
            "review": "/review",
            "health": "/health",
        }
        for name, path in paths.items():
            for _ in range(args.rounds):
                status, wall, _ = _get(parts.netloc, path, cookie)
                assert status == 200, (name, status)
                pages.setdefault(name, []).append(wall)
    finally:
        proc.terminate()
        proc.wait(timeout=10)

    print(f"\n{args.sessions} sessions · {args.rounds} requests per page · wall time per request, real HTTP")
    print(f"serving (spawn -> first answer): {serving * 1000:.0f} ms   target < 1000 ms")
    print(
        f"baseline history.search in process: p50 {statistics.median(baseline):.0f} ms, "
        f"p95 {_pct(baseline, 0.95):.0f} ms"
    )
    print(f"{'page':10} {'p50 ms':>8} {'p95 ms':>8}  target p95")
    for name, values in pages.items():
        target = 400 if name == "search" else 300
        print(f"{name:10} {statistics.median(values):8.0f} {_pct(values, 0.95):8.0f}  < {target}")


if __name__ == "__main__":
    main()
