"""The CPU recollect's own processes use in one `opencode run`, without OpenCode (not a timed test: it prints figures).

    python bench/bench_run_cpu.py [--pairs 5] [--before OTHER/src] [--workdir DIR]

`bench_opencode_run.py` measures the whole run, and OpenCode's own CPU moves by ~0.5 s from run to run,
more than what recollect adds; this bench runs only recollect's side of it, the way the plugin and
OpenCode start it, so a change in it shows. One run is:

- the plugin's helper (`python -m recollect.integrations.hookd`): its hello, the `system` and `message`
  requests of a one-prompt run, the session's `idle`, then its stdin closed (OpenCode exits), and
  what the helper starts then (the idle sync, the extraction's check), reaped here (this process is
  a child subreaper) and counted with it;
- the MCP server (`recollect mcp`): `initialize`, `tools/list`, then its warm-up (imports, models, a
  sync and a search), which a run of a few seconds leaves it time for, then its stdin closed.

The world is a copy of the demo store (one OpenCode store, indexed once per side before the runs),
in a home of its own per side; the run's session is one of its sessions of one typed turn. With
`--before OTHER/src` (another checkout's src, a `git archive` of another commit say) both sides run
in pairs, the order alternating from pair to pair; CPU is user + system of each process tree
(`RUSAGE_CHILDREN`).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "src" / "recollect" / "data" / "demo" / "opencode.db"
PROMPT = "benchmark prompt: say done"  # bench_opencode_run.py's, no history cue
PR_SET_CHILD_SUBREAPER = 36
WARM_UP_WAIT = 60.0  # the longest the MCP server's warm-up is waited for


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _reap() -> None:
    """Wait for every descendant that was re-parented here (the helper's idle work outlives it)."""
    while True:
        try:
            os.wait4(-1, 0)
        except ChildProcessError:
            return


def _line(stream: TextIO | None) -> dict[str, Any]:
    assert stream is not None
    text = stream.readline()
    if not text:
        raise SystemExit("a recollect process closed its output before answering (run it by hand to see why)")
    answer: dict[str, Any] = json.loads(text)
    return answer


class World:
    """One side's home: its own copy of the demo store and its own index, made by that side's code."""

    def __init__(self, root: Path, src: Path) -> None:
        self.home = root
        self.project = root / "project"
        self.project.mkdir(parents=True, exist_ok=True)
        store = root / "store" / "opencode.db"
        store.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(DEMO, store)
        self.env = {
            **os.environ,
            "HOME": str(root),
            "XDG_DATA_HOME": str(root / "share"),
            "XDG_CONFIG_HOME": str(root / "config"),
            "RECOLLECT_HOME": str(root / "recollect"),
            "OPENCODE_DB": str(store),
            "RECOLLECT_SOURCES": "opencode",
            "PYTHONPATH": str(src),
        }
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode cached, as installed
        subprocess.run([sys.executable, "-m", "recollect.cli", "index"], env=self.env, capture_output=True, check=True)
        # The run's session: one of one typed turn, indexed, as the idle sync finds a one-prompt run's
        # (so the extraction's check skips it, as there).
        index = sqlite3.connect(f"file:{root / 'recollect' / 'index.db'}?mode=ro", uri=True)
        try:
            self.session = index.execute("SELECT native_id FROM session WHERE turns = 1 ORDER BY native_id").fetchone()[
                0
            ]
        finally:
            index.close()

    def _start(self, *args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=self.env,
            cwd=self.project,
            text=True,
        )

    def helper(self) -> float:
        """CPU of the helper and what it started, for one run's requests."""
        before = _children_cpu()
        proc = self._start("-m", "recollect.integrations.hookd")
        assert proc.stdin is not None
        _line(proc.stdout)  # hello
        where = {"session": self.session, "directory": str(self.project)}
        for number, op in enumerate(("system", "message", "idle"), 1):
            request = {"id": number, "op": op, **where, **({"text": PROMPT} if op == "message" else {})}
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
            _line(proc.stdout)
        proc.stdin.close()
        proc.wait(timeout=600)
        _reap()
        return _children_cpu() - before

    def mcp(self) -> float:
        """CPU of the MCP server to its tool list and through its warm-up."""
        log = self.home / "recollect" / "log" / "mcp.log"
        logged = log.read_text().count("warm-up ") if log.exists() else 0
        before = _children_cpu()
        proc = self._start("-m", "recollect.cli", "mcp")
        assert proc.stdin is not None
        hello = {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
        for message in (
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        ):
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            if "id" in message:
                _line(proc.stdout)
        deadline = time.monotonic() + WARM_UP_WAIT
        while time.monotonic() < deadline and (not log.exists() or log.read_text().count("warm-up ") <= logged):
            time.sleep(0.05)
        proc.stdin.close()
        proc.wait(timeout=600)
        _reap()
        return _children_cpu() - before


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5, help="runs a side (default 5)")
    parser.add_argument("--before", type=Path, help="another checkout's src directory, measured in turn with this one")
    parser.add_argument("--workdir", type=Path, help="default: a new temporary directory")
    args = parser.parse_args()
    if args.before is not None and not (args.before / "recollect" / "__init__.py").is_file():
        parser.error(f"--before {args.before}: no recollect package there (give the checkout's src directory)")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        parser.error("this bench needs Linux (a child subreaper counts the helper's idle work)")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="recollect-bench-run-cpu-"))
    sources = {"after": REPO / "src", **({"before": args.before.resolve()} if args.before else {})}
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    worlds: dict[str, World] = {}
    for side, src in sources.items():
        shutil.rmtree(workdir / side, ignore_errors=True)
        worlds[side] = World(workdir / side, src)
        worlds[side].helper()  # first use: the models' caches, the helper's first idle work
        worlds[side].mcp()
    runs: dict[str, dict[str, list[float]]] = {side: {"helper": [], "mcp": []} for side in worlds}
    order = list(worlds)
    for i in range(max(1, args.pairs)):
        for side in order if i % 2 == 0 else order[::-1]:
            runs[side]["helper"].append(worlds[side].helper())
            runs[side]["mcp"].append(worlds[side].mcp())
            print(
                f"run {i + 1} {side}: helper {runs[side]['helper'][-1]:.3f} s, mcp {runs[side]['mcp'][-1]:.3f} s",
                file=sys.stderr,
                flush=True,
            )
    out: dict[str, Any] = {"command": " ".join(["bench/bench_run_cpu.py", *sys.argv[1:]])}
    for side, parts in runs.items():
        out[side] = {
            "src": str(sources[side]),
            **{f"{part}_cpu_s_median": round(statistics.median(v), 3) for part, v in parts.items()},
            **{f"{part}_cpu_s": [round(x, 3) for x in v] for part, v in parts.items()},
            "total_cpu_s_median": round(statistics.median(h + m for h, m in zip(*parts.values(), strict=True)), 3),
        }
    out["load_avg_at_start"] = load_at_start
    out["load_avg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
