"""One-shot `recollect search` against an existing index, next to the CLI's own import, in one run.

    .venv/bin/python bench/bench_oneshot.py --home DIR --store OPENCODE_DB [--queries 12] [--repeat 2]
                                           [--before SRC_DIR [--before-home DIR]] [--json OUT.json]

`--home` is a RECOLLECT_HOME holding an index of `--store` (e.g. the work directory of
`bench/bench_index.py --sessions 5000`, or of bench_mcp.py); nothing is written to either (every
search runs with `--no-sync`; the index is only read). The queries come from the store's manifest
(bench/storegen.py) the way bench_mcp.py picks them: identifiers, error messages, paths, topic words
and Chinese phrases.

Each round runs, in fresh processes, `python -c "import recollect.cli"` and then one
`recollect search QUERY --no-sync` for each mode: hybrid (meaning on, as installed) and lexical
only (`RECOLLECT_EMBEDDINGS=off`). Rounds interleave the import and the searches, so a load that
drifts during the run weighs on both sides of the ratio alike. Printed: wall and CPU (user + system)
medians and p90 of each, the ratios to the import, and the load average. The issue's figure is the
hybrid wall p50 < 300 ms and <= 6x the import.

`--before SRC_DIR` (another checkout's `src/`, e.g. from `git archive`) adds a "before" side to
every round: the same import and searches with that code first on PYTHONPATH, interleaved with this
checkout's, so both sides see the same load. Each search's output (its hits, as printed) is
compared between the sides: `same_output` says whether every query printed the same on both.
`--before-home DIR` gives the before side its own copy of the index, made before this checkout
migrated `--home` (an older recollect refuses an index of a newer schema).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.bench_mcp import queries_for  # noqa: E402
from bench.report import emit  # noqa: E402


def timed(args: list[str], env: dict[str, str], outputs: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one child process; its output is kept in `outputs` under its last argument
    but one (the query)."""
    before = os.times()
    t = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, check=True, timeout=600, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = os.times()
    if outputs is not None:
        outputs[args[-2]] = done.stdout.decode("utf-8", "replace")
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def figures(samples: list[tuple[float, float]]) -> dict[str, float]:
    def pct(values: list[float], p: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]

    walls, cpus = [s[0] for s in samples], [s[1] for s in samples]
    return {
        "n": len(samples),
        "wall_p50_ms": round(statistics.median(walls) * 1000, 1),
        "wall_p90_ms": round(pct(walls, 0.9) * 1000, 1),
        "cpu_p50_ms": round(statistics.median(cpus) * 1000, 1),
        "cpu_p90_ms": round(pct(cpus, 0.9) * 1000, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--home", type=Path, required=True, help="RECOLLECT_HOME with an index of the store")
    parser.add_argument("--store", type=Path, required=True, help="the OpenCode store that index was built from")
    parser.add_argument("--queries", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=2, help="rounds over the queries")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--before", type=Path, help="another checkout's src/ to measure alongside, interleaved")
    parser.add_argument(
        "--before-home", type=Path, help="the before side's own copy of --home (an older schema it can open)"
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    manifest = json.loads(Path(str(args.store) + ".manifest.json").read_text(encoding="utf-8"))
    queries = queries_for(manifest, args.queries, args.seed)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # bytecode cached, as installed
    env.update(RECOLLECT_HOME=str(args.home), OPENCODE_DB=str(args.store), RECOLLECT_SOURCES="opencode")
    sides = {"": env}
    if args.before:
        sides["before_"] = {
            **env,
            "PYTHONPATH": os.pathsep.join([str(args.before.resolve()), env.get("PYTHONPATH", "")]),
            "RECOLLECT_HOME": str(args.before_home or args.home),
        }
    modes = {
        f"{side}{mode}": {**side_env, **extra}
        for side, side_env in sides.items()
        for mode, extra in (("hybrid", {}), ("lexical", {"RECOLLECT_EMBEDDINGS": "off"}))
    }
    importing = [sys.executable, "-c", "import recollect.cli"]
    search = [sys.executable, "-m", "recollect.cli", "search"]

    load_start = os.getloadavg()
    for mode_env in modes.values():  # warm the page cache and the user's model cache, unmeasured
        timed([*search, queries[0], "--no-sync"], mode_env)
    imports: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
    searches: dict[str, list[tuple[float, float]]] = {mode: [] for mode in modes}
    outputs: dict[str, dict[str, str]] = {mode: {} for mode in modes}
    for _ in range(args.repeat):
        for query in queries:
            for side, side_env in sides.items():
                imports[side].append(timed(importing, side_env))
            for mode, mode_env in modes.items():
                searches[mode].append(timed([*search, query, "--no-sync"], mode_env, outputs[mode]))

    results: dict[str, Any] = {
        "command": " ".join(["bench/bench_oneshot.py", *sys.argv[1:]]),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus, Python {platform.python_version()}",
        "index_mb": round(sum(f.stat().st_size for f in args.home.rglob("*") if f.is_file()) / 1e6, 1),
        "sessions": manifest["counts"]["sessions"],
        "load_average_at_start": [round(x, 2) for x in load_start],
    }
    for side in sides:
        results[f"{side}cli_import"] = figures(imports[side])
    for mode, samples in searches.items():
        base = results[("before_" if mode.startswith("before_") else "") + "cli_import"]
        shot = figures(samples)
        shot["wall_vs_import"] = round(shot["wall_p50_ms"] / base["wall_p50_ms"], 1)
        shot["cpu_vs_import"] = round(shot["cpu_p50_ms"] / base["cpu_p50_ms"], 1)
        results[f"search_{mode}"] = shot
    if args.before:
        differ = [q for m in ("hybrid", "lexical") for q in queries if outputs[m][q] != outputs[f"before_{m}"][q]]
        results["same_output"] = not differ
        results["queries_whose_output_differs"] = differ
    results["target"] = "hybrid wall p50 < 300 ms and <= 6x the CLI import"
    return emit(results, args.json)


if __name__ == "__main__":
    sys.exit(main())
