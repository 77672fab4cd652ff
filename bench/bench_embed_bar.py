"""How `recollect index`'s "embedding texts" bar moves, and what the pass costs: first indexes of a generated
OpenCode store (bench/storegen.py) into fresh homes, each in a new process without index workers, every call
of the bar logged. Prints the texts each move advanced, the wall time between moves and the pass's CPU.

    python bench/bench_embed_bar.py [--sessions 300] [--runs 3] [--compare OTHER_SRC]

`--compare` alternates runs of this tree's src with another tree's (a `git archive` of main unpacked
somewhere: its `src`), so both are measured in the same run under the same load; see docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(store: str, home: str) -> None:
    """One first index in this process: print (texts per move, seconds between moves, pass CPU) as JSON."""
    os.environ.update(RECOLLECT_HOME=home, OPENCODE_DB=store, RECOLLECT_SOURCES="opencode", RECOLLECT_INDEX_WORKERS="0")
    from recollect import history

    calls: list[tuple[int, float, float]] = []

    def progress(label: str, done: int, total: int) -> None:
        if label == "embedding texts":
            calls.append((done, time.perf_counter(), time.process_time()))

    history.index(progress=progress)
    moves = [(b[0] - a[0], b[1] - a[1], b[2] - a[2]) for a, b in itertools.pairwise(calls) if b[0] > a[0]]
    print(json.dumps({"moved": [m[0] for m in moves], "walls": [m[1] for m in moves], "cpu": sum(m[2] for m in moves)}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--compare", metavar="OTHER_SRC", help="another tree's src/, run alternately with this one")
    ap.add_argument("--child", nargs=2, metavar=("STORE", "HOME"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    sys.path.insert(0, str(ROOT))
    from bench.storegen import generate_store

    trees = {"this": str(ROOT / "src"), **({"other": args.compare} if args.compare else {})}
    print(f"load {os.getloadavg()[0]:.1f}; trees: " + ", ".join(f"{k} = {v}" for k, v in trees.items()))
    with tempfile.TemporaryDirectory(prefix="bench-embed-bar-") as tmp:
        store = Path(tmp) / "opencode.db"
        generate_store(str(store), sessions=args.sessions, seed=7)
        for run, (name, src) in itertools.product(range(args.runs), trees.items()):
            home = Path(tmp) / f"home-{name}-{run}"
            env = {**os.environ, "PYTHONPATH": src}
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(store), str(home)],
                env=env, capture_output=True, text=True, check=True,
            ).stdout  # fmt: skip
            r = json.loads(out.strip().splitlines()[-1])
            if not r["moved"]:
                print("no embedding pass (is search by meaning off?)")
                return
            walls = sorted(r["walls"])
            print(
                f"{name} run {run + 1}: {sum(r['moved'])} texts in {len(r['moved'])} moves (at most "
                f"{max(r['moved'])} a move); between moves median {walls[len(walls) // 2] * 1000:.0f} ms, longest "
                f"{walls[-1] * 1000:.0f} ms; pass CPU {r['cpu']:.2f} s"
            )


if __name__ == "__main__":
    main()
