"""Benchmark the MCP server the way a host sees it (not a timed test: it prints figures).

    .venv/bin/python bench/bench_mcp.py --sessions 5000 [--seed 7] [--starts 5] [--calls 60] [--paced 10]
                                        [--workdir DIR] [--store OPENCODE_DB --home DIR] [--first-after S]
                                        [--json OUT.json]

It generates (or reuses) an OpenCode store with bench/storegen.py (or takes `--store`, a store of
storegen's with its manifest, and `--home`, a RECOLLECT_HOME indexing it: a copy of bench_oneshot's,
since the calls sync it), indexes it once in a fresh process, then drives `python -m recollect.cli mcp`
with the handshake OpenCode 1.18.33 uses (`initialize`, protocol 2025-11-25) and measures:

- start-up: spawn -> `initialize` answered -> `tools/list` answered, over `--starts` fresh servers,
  through the MCP SDK's stdio client (wall time) and over raw pipes with OpenCode's exact messages
  (wall time, and the server process's own CPU time read from /proc), next to what a bare
  interpreter, the SDK import and the CLI import cost on the same machine;
- warm `history_search` round trips on one server through the SDK client: back to back (the index
  was synced less than 2 s before, so most calls run no sync: the query path), and paced 2.1 s apart
  the way an agent calls (each call first reconciles the index with the store); the server's own
  wall and CPU time per call come from its log; the first call, `--first-after` seconds after the tool
  list (a host's model answers before it calls a tool), on its own, with the background warm-up the
  server logged (its steps, wall and CPU);
- the same queries in process (`history.search`, no MCP), wall and CPU.

CPU times are reported because a shared machine's load inflates wall times; on an idle machine a
single-threaded server's wall time is close to its CPU time. Everything lives under the work
directory; the store is never written after generation.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "src"))

from bench.report import emit  # noqa: E402
from bench.storegen import generate_store  # noqa: E402

PACE_SECONDS = 2.1  # just over history.FRESH_SECONDS: every paced call syncs first, as an agent's would


def queries_for(manifest: dict[str, Any], n: int, seed: int) -> list[str]:
    """A mix an agent would send: rare identifiers, error messages, file paths, topic words, Chinese."""
    sessions = [s for s in manifest["sessions"].values() if not s.get("parent_id")]
    random.Random(seed).shuffle(sessions)
    out: list[str] = []
    for i, s in enumerate(sessions):
        if len(out) >= n:
            break
        pick = i % 5
        if pick == 0 and s.get("rare_identifier"):
            out.append(s["rare_identifier"])
        elif pick == 1 and s.get("error_message"):
            out.append(s["error_message"])
        elif pick == 2 and s.get("files"):
            out.append(s["files"][0])
        elif pick == 3 and s.get("cjk_phrase"):
            out.append(s["cjk_phrase"])
        else:
            out.append(" ".join(s["title"].split()[:4]))
    return out


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]

    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p95_ms": round(pct(0.95) * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


def child_seconds(code: str, env: dict[str, str], runs: int = 3) -> dict[str, float]:
    """Median wall and CPU time of a fresh interpreter running `code` (baselines for start-up)."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {"wall_ms": round(statistics.median(walls) * 1000, 1), "cpu_ms": round(statistics.median(cpus) * 1000, 1)}


def process_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def raw_start(env: dict[str, str], cwd: Path) -> dict[str, float]:
    """One start over raw pipes with OpenCode's messages; wall and server CPU at each step."""
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "recollect.cli", "mcp"],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def ask(message: dict[str, Any]) -> None:
        proc.stdin.write((json.dumps(message) + "\n").encode())  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        while json.loads(proc.stdout.readline()).get("id") != message["id"]:  # type: ignore[union-attr]
            pass

    init = {"protocolVersion": "2025-11-25", "capabilities": {"roots": {}}, "clientInfo": {"name": "opencode"}}
    ask({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init})
    initialized, cpu_initialized = time.perf_counter() - t, process_cpu_seconds(proc.pid)
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    ask({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    listed, cpu_listed = time.perf_counter() - t, process_cpu_seconds(proc.pid)
    proc.stdin.close()
    proc.wait(timeout=60)
    return {
        "initialize": initialized,
        "cpu_initialize": cpu_initialized,
        "tools_listed": listed,
        "cpu_listed": cpu_listed,
    }


async def measure_starts(params: Any, starts: int, env: dict[str, str], cwd: Path) -> dict[str, Any]:
    from mcp import Client

    initialized, listed = [], []
    for _ in range(starts):
        t = time.perf_counter()
        async with Client(params, mode="legacy", read_timeout_seconds=120) as client:
            initialized.append(time.perf_counter() - t)
            await client.list_tools()
            listed.append(time.perf_counter() - t)
    raw = [raw_start(env, cwd) for _ in range(starts)]
    return {
        "sdk_client": {"initialize": summary(initialized), "tools_listed": summary(listed)},
        "raw_pipes": {key: summary([r[key] for r in raw]) for key in raw[0]},
    }


async def measure_round_trips(
    params: Any, queries: list[str], calls: int, paced: int, first_after: float = 0.0
) -> dict[str, Any]:
    import anyio
    from mcp import Client

    async with Client(params, mode="legacy", read_timeout_seconds=600) as client:
        await client.list_tools()
        await anyio.sleep(first_after)  # a host's model thinks before its first call; the warm-up runs meanwhile
        t = time.perf_counter()
        first = await client.call_tool("history_search", {"query": queries[0]})
        first_call = time.perf_counter() - t
        assert not first.is_error, first.content
        await anyio.sleep(1.0)  # the library import started by tools/list has finished by now

        back_to_back: list[float] = []
        hits = 0
        for i in range(calls):
            t = time.perf_counter()
            result = await client.call_tool("history_search", {"query": queries[i % len(queries)]})
            back_to_back.append(time.perf_counter() - t)
            hits += bool(result.structured_content and result.structured_content.get("hits"))
            assert not result.is_error, result.content

        paced_samples: list[float] = []
        for i in range(paced):
            await anyio.sleep(PACE_SECONDS)
            t = time.perf_counter()
            result = await client.call_tool("history_search", {"query": queries[(i * 7) % len(queries)]})
            paced_samples.append(time.perf_counter() - t)
            assert not result.is_error, result.content
    return {
        "first_call_after_s": first_after,
        "first_call_ms": round(first_call * 1000, 1),
        "back_to_back": summary(back_to_back),
        "queries_with_hits": f"{hits}/{calls}",
        "paced_2s_apart": summary(paced_samples) if paced_samples else None,
    }


def in_process(queries: list[str], calls: int) -> dict[str, Any]:
    from recollect import history

    history.search(queries[0])  # sync once, warm caches
    walls, cpus = [], []
    for i in range(calls):
        t, c = time.perf_counter(), time.process_time()
        history.search(queries[i % len(queries)], sync_first=False)
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return {"wall": summary(walls), "cpu": summary(cpus)}


LOG_LINE = re.compile(r" (\d+) INFO recollect\.mcp: history_search ok ([\d.]+) ms \(cpu ([\d.]+) ms\)")
WARM_UP_LINE = re.compile(r" (\d+) INFO recollect\.mcp: warm-up (.*): ([\d.]+) ms \(cpu ([\d.]+) ms\)")


def server_side(log: Path, calls: int, paced: int) -> dict[str, Any]:
    """The round-trip server's own per-call wall and CPU time, from its log (the last pid in it)."""
    rows = [(int(m[1]), float(m[2]) / 1000, float(m[3]) / 1000) for m in LOG_LINE.finditer(log.read_text())]
    pid = rows[-1][0]
    first, *mine = [r for r in rows if r[0] == pid]  # the first call loads the library: apart
    blocks = {"back_to_back": mine[:calls], "paced_2s_apart": mine[calls : calls + paced]}
    out: dict[str, Any] = {"first_call": {"wall_ms": round(first[1] * 1000, 1), "cpu_ms": round(first[2] * 1000, 1)}}
    warm = [m for m in WARM_UP_LINE.finditer(log.read_text()) if int(m[1]) == pid]
    if warm:  # the server's background load after the tool list (its own thread's CPU)
        out["warm_up"] = {"steps": warm[-1][2], "wall_ms": float(warm[-1][3]), "cpu_ms": float(warm[-1][4])}
    out.update(
        (name, {"wall": summary([r[1] for r in block]), "cpu": summary([r[2] for r in block])})
        for name, block in blocks.items()
        if block
    )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--starts", type=int, default=5, help="fresh servers to start")
    parser.add_argument("--calls", type=int, default=60, help="back-to-back history_search calls")
    parser.add_argument("--paced", type=int, default=10, help="history_search calls 2.1 s apart")
    parser.add_argument("--workdir", type=Path, help="default: <tmp>/recollect-bench-mcp-<sessions>-<seed>")
    parser.add_argument("--store", type=Path, help="an existing store of bench/storegen.py (with its manifest)")
    parser.add_argument("--home", type=Path, help="with --store: the RECOLLECT_HOME that indexes it (synced)")
    parser.add_argument(
        "--first-after", type=float, default=0.0, help="seconds between the tool list and the first call (default 0)"
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    import anyio
    from mcp import StdioServerParameters

    workdir = args.workdir or Path(tempfile.gettempdir()) / f"recollect-bench-mcp-{args.sessions}-{args.seed}"
    workdir.mkdir(parents=True, exist_ok=True)
    store = args.store or workdir / "opencode.db"
    home = args.home or workdir / "home"
    manifest_path = Path(str(store) + ".manifest.json")
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else None
    if args.store:
        if manifest is None or not args.home:
            parser.error("--store needs its manifest beside it (bench/storegen.py writes one) and --home")
    elif manifest is None or manifest["counts"]["sessions"] != args.sessions or manifest["seed"] != args.seed:
        print(f"generating {args.sessions} sessions (seed {args.seed}) in {store} …", flush=True)
        generate_store(store, sessions=args.sessions, seed=args.seed)
        manifest = json.loads(manifest_path.read_text())
    project = workdir / "project"  # the directory the host starts the server in
    (project / ".git").mkdir(parents=True, exist_ok=True)
    env = {
        "RECOLLECT_HOME": str(home),
        "OPENCODE_DB": str(store),
        "RECOLLECT_SOURCES": "opencode",
    }
    full_env = {**os.environ, **env}

    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "recollect.cli", "index"], env=full_env, check=True)
    index_seconds = time.perf_counter() - t
    os.environ.update(env)

    queries = queries_for(manifest, 40, args.seed)
    # The SDK's client passes the server only this env (plus a few safe variables): keep PYTHONPATH,
    # so a run from another checkout (PYTHONPATH=/other/src) measures that checkout's server here too.
    sdk_env = {**env, **({"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {})}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "recollect.cli", "mcp"], env=sdk_env, cwd=str(project)
    )
    results: dict[str, Any] = {
        "command": " ".join(["bench/bench_mcp.py", *sys.argv[1:]]),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus, Python {platform.python_version()}",
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "sessions": manifest["counts"]["sessions"],
        "store_bytes": manifest["counts"]["db_bytes"],
        "index_pass_seconds": round(index_seconds, 1),
        "baseline_python": child_seconds("pass", full_env),
        "baseline_sdk_import": child_seconds("import mcp.server.lowlevel, mcp.server.stdio", full_env),
        "baseline_cli_import": child_seconds("import recollect.cli", full_env),
    }
    results["start"] = anyio.run(measure_starts, params, args.starts, full_env, project)
    results["round_trip"] = anyio.run(measure_round_trips, params, queries, args.calls, args.paced, args.first_after)
    results["round_trip"]["server_side"] = server_side(home / "log" / "mcp.log", args.calls, args.paced)
    results["in_process_search"] = in_process(queries, args.calls)
    return emit(results, args.json)


if __name__ == "__main__":
    sys.exit(main())
