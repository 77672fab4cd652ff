"""First use and footprint on real transcripts (not a timed test: it prints figures).

    python bench/bench_real.py --claude DIR [--queries 7] [--workdir DIR] [--json OUT]
    python bench/bench_real.py --opencode-db PATH ...

DIR holds Claude Code transcripts (``*.jsonl``), e.g. the 62 real ones in shared/data/claude-code;
they are copied into a fresh Claude config dir (the originals are never touched). Each figure comes
from fresh processes with search by meaning on, as a user gets it, in a fresh RECOLLECT_HOME:

- cold ``recollect index``: wall and CPU seconds, sessions/s, peak RSS;
- a ``recollect index`` with nothing changed: wall and CPU;
- the sidecar (index, WAL, vector matrices) against the store's bytes;
- one-shot ``recollect search --no-sync`` over a mixed query set: wall and CPU p50, next to the CLI's
  own import time (``python -c "import recollect.cli"``) measured in the same run, and their ratio.

CPU times are printed because a shared machine's load inflates wall times. Bytecode caching is left
on (PYTHONDONTWRITEBYTECODE unset), as in an installed package.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

QUERIES = (
    "how did we fix the flaky test",  # prose
    "secret scanning redaction",  # topic words
    "gitleaks",  # an identifier
    "DNS resolution fails on the router",
    "为什么测试失败",  # Chinese: why did the test fail
    "TodoWrite",
    "what did we decide about the pre-commit hook",
)


def _run(args: list[str], env: dict[str, str]) -> dict[str, float]:
    """Wall and CPU seconds and peak RSS (MB) of one child process."""
    t0 = time.perf_counter()
    before = os.times()
    proc = subprocess.run(
        ["/usr/bin/time", "-f", "%M", *args], env=env, capture_output=True, text=True, check=False, timeout=3600
    )
    wall = time.perf_counter() - t0
    after = os.times()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr.strip()[-500:]}")
    rss_kb = int(proc.stderr.strip().splitlines()[-1])
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return {"wall_s": wall, "cpu_s": cpu, "peak_rss_mb": rss_kb / 1024, "stdout": proc.stdout}  # type: ignore[dict-item]


def _p50(values: list[float]) -> float:
    return round(statistics.median(values), 3)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--claude", type=Path, help="a directory of Claude Code *.jsonl transcripts")
    src.add_argument("--opencode-db", type=Path, help="an opencode.db (copied first)")
    ap.add_argument("--queries", type=int, default=len(QUERIES), help="how many of the built-in queries")
    ap.add_argument("--repeat", type=int, default=3, help="one-shot searches per query")
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    work = args.workdir or Path(tempfile.mkdtemp(prefix="recollect-real-"))
    home = work / "home"
    shutil.rmtree(home, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "RECOLLECT_EMBEDDINGS")}
    env.update(RECOLLECT_HOME=str(home))
    if args.claude:
        cfg = work / "claude"
        shutil.rmtree(cfg, ignore_errors=True)
        (cfg / "projects" / "bench").mkdir(parents=True)
        files = sorted(args.claude.glob("*.jsonl"))
        for f in files:
            shutil.copyfile(f, cfg / "projects" / "bench" / f.name)
        store_bytes = sum(f.stat().st_size for f in files)
        env.update(CLAUDE_CONFIG_DIR=str(cfg), RECOLLECT_SOURCES="claude-code")
        env.pop("OPENCODE_DB", None)
    else:
        db = work / "opencode.db"
        shutil.copyfile(args.opencode_db, db)
        store_bytes = db.stat().st_size
        env.update(OPENCODE_DB=str(db), RECOLLECT_SOURCES="opencode")
    cli = [sys.executable, "-m", "recollect.cli"]
    _run([sys.executable, "-c", "import recollect.cli"], env)  # bytecode written once, as after an install

    results: dict[str, Any] = {"store_bytes": store_bytes}
    cold = _run([*cli, "index"], env)
    summary = str(cold.pop("stdout")).strip()
    sessions = int(summary.split(":", 1)[1].split("sessions")[0].strip()) if ":" in summary else 0
    results["cold_index"] = {**{k: round(v, 2) for k, v in cold.items()}, "sessions": sessions}
    results["cold_index"]["sessions_per_s"] = round(sessions / cold["wall_s"], 1) if sessions else None
    results["cold_index"]["sessions_per_cpu_s"] = round(sessions / cold["cpu_s"], 1) if sessions else None
    noop = [_run([*cli, "index"], env) for _ in range(3)]
    results["no_change_index"] = {
        "wall_p50_s": _p50([r["wall_s"] for r in noop]),
        "cpu_p50_s": _p50([r["cpu_s"] for r in noop]),
    }
    sidecar = sum(
        f.stat().st_size for p in home.glob("index.db*") for f in ([p] if p.is_file() else p.rglob("*")) if f.is_file()
    )
    results["sidecar_bytes"] = sidecar
    results["sidecar_share_of_store"] = round(sidecar / store_bytes, 3)

    walls, cpus = [], []
    for q in QUERIES[: args.queries]:
        for _ in range(args.repeat):
            r = _run([*cli, "search", q, "--no-sync"], env)
            walls.append(r["wall_s"])
            cpus.append(r["cpu_s"])
    imports = [_run([sys.executable, "-c", "import recollect.cli"], env) for _ in range(5)]
    imp_wall, imp_cpu = _p50([r["wall_s"] for r in imports]), _p50([r["cpu_s"] for r in imports])
    results["one_shot_search"] = {
        "n": len(walls),
        "wall_p50_s": _p50(walls),
        "cpu_p50_s": _p50(cpus),
        "cli_import_wall_p50_s": imp_wall,
        "cli_import_cpu_p50_s": imp_cpu,
        "ratio_wall": round(_p50(walls) / imp_wall, 1),
        "ratio_cpu": round(_p50(cpus) / imp_cpu, 1),
    }
    results["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(results, indent=2))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
