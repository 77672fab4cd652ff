"""What recollect adds to one `opencode run`: the real OpenCode, the same fake LLM, two fresh HOMEs.

    .venv/bin/python bench/bench_opencode_run.py [--pairs 5] [--workdir DIR] [--embeddings on|off]
                                                [--npm] [--drop plugin|mcp] [--json OUT.json]

Two throwaway OpenCode worlds (tests/e2e/opencode.py: a HOME with its XDG dirs, a git project, the
fake OpenAI-compatible LLM on loopback, OpenCode kept offline). The fake LLM answers every prompt
with the same short text and no tool call. In one world `recollect install opencode --no-npm` adds
the MCP server, the recall agent and the plugin (with its Python helper), and `recollect index`
indexes that world's store; the other world has no recollect at all.

Both worlds first get two unmeasured runs (the first creates OpenCode's store; after the install,
the next one starts recollect's MCP server and helper once, with their first-use work). Then
`--pairs` pairs of `opencode run "<prompt>"` in the project, one run in each world, the order
alternating from pair to pair so a drifting load favours neither side. Each run is timed on the
wall clock, and its CPU (user + system) is that of the whole process tree: this process is a child
subreaper, so the MCP server, the helper and the background work they start are reaped here, and
counted, even when OpenCode does not wait for them (`orphans_cpu_s` says which used what).
To measure another checkout than this one, put its `src` first: `PYTHONPATH=/other/src`.
The figure the issue sets (≤ 1 s) is the median of the per-pair wall differences.

Each run also has a timeline (`timeline_s`, s from the start): when the main model request
arrived at the fake LLM (what comes before it is start-up, where recollect's MCP server and the
plugin's first message are waited for), when each recollect process was first seen (polled every
20 ms) and when `opencode run` exited. A process first seen after `exit` ran off the wall time.
`helper_ready_before_message_s` is how long the plugin's helper had been ready when the first
message came (from the helper's log): about 0 means that message waited for the helper's start.

OpenCode's own `npm install @opencode-ai/plugin` (it runs when any plugin is present, and the
plugin's loading waits for it) cannot reach a registry here; it fails fast with
npm_config_fetch_retries=0 and its cost is part of the "with" side, as it is for a user who
installed offline (`--no-npm`). `--npm` installs as `recollect install opencode` does by default,
the package pre-installed with npm, offline from this user's npm cache (fill it once with
`npm cache add @opencode-ai/plugin@1.18.33`), so OpenCode skips its own install. Nothing touches
the network but loopback.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.report import emit  # noqa: E402
from tests.e2e.opencode import DEFAULT_VERSION as OPENCODE_VERSION  # noqa: E402
from tests.e2e.opencode import OpenCodeWorld, ensure_opencode  # noqa: E402

PROMPT = "benchmark prompt: say done"
REPLY = "Done, nothing else to do."
PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Orphaned grandchildren (an MCP server OpenCode did not wait for) are re-parented to this
    process, so their CPU time is counted when they are reaped."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


class Orphans:
    """The descendants re-parented to this process (an MCP server or helper OpenCode did not wait
    for, a background `recollect index`): what each was, read from /proc while it runs, and the CPU
    each used, from `wait4` when it is reaped. The same watch notes when each recollect process of
    the run (any descendant) was first seen, for the run's timeline."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.seen: dict[int, tuple[str, float]] = {}  # descendant pid -> (name, time.time() first seen)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        me = os.getpid()
        while not self._stop.wait(0.02):
            parents: dict[int, int] = {}
            for entry in os.scandir("/proc"):
                if entry.name.isdigit():
                    try:
                        parents[int(entry.name)] = int(
                            Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()[1]
                        )
                    except (OSError, IndexError, ValueError):
                        continue
            now = time.time()
            for pid, parent in parents.items():
                if pid in self.seen and (parent != me or pid in self.names):
                    continue
                ancestor, hops = parent, 0
                while ancestor not in (me, 0, 1) and hops < 12:
                    ancestor, hops = parents.get(ancestor, 0), hops + 1
                if ancestor != me:
                    continue
                try:
                    argv = Path("/proc", str(pid), "cmdline").read_bytes().split(b"\0")
                except OSError:
                    continue
                name = name_of([a.decode(errors="replace") for a in argv if a])
                self.seen.setdefault(pid, (name, now))
                if parent == me:
                    self.names[pid] = name

    def spawned_since(self, started: float) -> dict[str, float]:
        """When each recollect process first appeared after `started` (time.time()), in s from it."""
        out: dict[str, float] = {}
        for name, when in sorted(self.seen.values(), key=lambda x: x[1]):
            if when >= started and name in RECOLLECT_PROCESSES and name not in out:
                out[name] = round(when - started, 2)
        return out

    def reap(self, wait_seconds: float) -> list[tuple[str, float]]:
        """Reap re-parented descendants (they exit once OpenCode closes their stdin): (name, CPU s)."""
        reaped: list[tuple[str, float]] = []
        deadline = time.monotonic() + wait_seconds
        while True:
            try:
                pid, _, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return reaped  # no child left
            if pid:
                reaped.append((self.names.get(pid, "?"), usage.ru_utime + usage.ru_stime))
                continue
            if time.monotonic() > deadline:
                return reaped
            time.sleep(0.05)

    def close(self) -> None:
        self._stop.set()


RECOLLECT_PROCESSES = ("mcp", "hookd", "index", "extract")


def name_of(argv: list[str]) -> str:
    """`mcp`, `hookd`, `index`, `extract` … for recollect processes; the program name otherwise."""
    if "recollect.integrations.hookd" in argv:
        return "hookd"
    if "recollect.integrations.idlework" in argv:
        return "index"  # the idle sync (`recollect index` under idlework's lock)
    if "recollect.cli" in argv:
        i = argv.index("recollect.cli")
        return argv[i + 1] if i + 1 < len(argv) else "recollect"
    return Path(argv[0]).name if argv else "?"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def recollect(world: OpenCodeWorld, *args: str, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "recollect.cli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode != 0:
        raise SystemExit(f"recollect {' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def one_run(world: OpenCodeWorld, project: Path, orphans: Orphans) -> dict[str, Any]:
    cpu = children_cpu()
    load = os.getloadavg()[0]
    requests = len(world.llm_requests())
    plugin_log = world.home / ".local" / "share" / "recollect" / "log" / "opencode-plugin.log"
    logged = plugin_log.stat().st_size if plugin_log.exists() else 0
    clock = time.time()
    started = time.perf_counter()
    ran = world.run_cli(["run", PROMPT], cwd=project, timeout=300)
    wall = time.perf_counter() - started
    reaped = orphans.reap(5.0)
    if REPLY not in ran.stdout:
        raise SystemExit(f"`opencode run` did not print the fake reply:\n{ran.stdout[-2000:]}\n{ran.stderr[-2000:]}")
    helpers: dict[str, float] = {}
    for name, seconds in reaped:
        helpers[name] = round(helpers.get(name, 0.0) + seconds, 3)
    cpu = round(children_cpu() - cpu, 3)
    # The timeline, in s from the start: the main model request (what came before it is start-up),
    # each recollect process's spawn, and the exit (what came after the request is the reply and exit).
    main = [r for r in world.llm_requests()[requests:] if r.get("kind") != "title"]
    timeline = {"llm_request": round(main[0]["t"] - clock, 2) if main else None, **orphans.spawned_since(clock)}
    timeline["exit"] = round(wall, 2)
    # How long the helper had been ready when the first message came (about 0: the message waited).
    with contextlib.suppress(OSError):
        with open(plugin_log, "rb") as f:
            f.seek(logged)
            ready = re.search(rb"first request \(\w+\) (\d+) ms after hello", f.read())
        if ready:
            timeline["helper_ready_before_message_s"] = round(int(ready.group(1)) / 1000, 2)
    return {"wall_s": round(wall, 3), "cpu_s": cpu, "load1": load, "orphans_cpu_s": helpers, "timeline_s": timeline}


def median(values: list[float]) -> float:
    return round(statistics.median(values), 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--workdir", type=Path, help="default: a new temporary directory")
    parser.add_argument("--embeddings", choices=("on", "off"), default="on", help="recollect's search by meaning")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--drop",
        choices=("plugin", "mcp"),
        help="after the install, remove the plugin (or the MCP server) again: what the other part costs alone",
    )
    parser.add_argument(
        "--npm",
        action="store_true",
        help="install as `recollect install opencode` does by default, @opencode-ai/plugin pre-installed with npm"
        " (from npm's cache: the registry stays unreachable), so OpenCode does not wait for its own failing install",
    )
    args = parser.parse_args()

    npm_cache = os.environ.get("npm_config_cache") or str(Path.home() / ".npm")  # noqa: SIM112 - npm's own name
    subreaper = become_subreaper()
    orphans = Orphans()
    binary = ensure_opencode()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="recollect-bench-opencode-run-"))
    workdir.mkdir(parents=True, exist_ok=True)
    extra_env = {} if args.embeddings == "on" else {"RECOLLECT_EMBEDDINGS": "off"}
    rules: list[Any] = [{"match": ["benchmark"], "text": REPLY}]
    worlds = {
        "without": OpenCodeWorld(workdir, name="without", binary=binary, rules=rules, extra_env=extra_env),
        "with": OpenCodeWorld(workdir, name="with", binary=binary, rules=rules, extra_env=extra_env),
    }
    results: dict[str, Any] = {
        "command": " ".join(["bench/bench_opencode_run.py", *sys.argv[1:]]),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus, Python {platform.python_version()}",
        "opencode": str(binary.name),
        "embeddings": args.embeddings,
        "dropped": args.drop,
        "npm": args.npm,
        "cpu_includes_orphans": subreaper,
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }
    try:
        for world in worlds.values():
            world.__enter__()
            world.update_config({})  # writes opencode.json (no `opencode serve` here to write it)
        projects = {side: world.project("alpha") for side, world in worlds.items()}
        for side, world in worlds.items():
            results[f"{side}_first_run"] = one_run(world, projects[side], orphans)  # creates OpenCode's store

        world = worlds["with"]
        env = {**world.env, **extra_env}
        user_config = world.config_dir / "opencode.jsonc"  # read after the world's opencode.json: it wins
        user_config.write_text('{\n  "$schema": "https://opencode.ai/config.json"\n}\n')
        t = time.perf_counter()
        if args.npm:  # npm offline: from this user's npm cache only
            install = ["--opencode-version", OPENCODE_VERSION]
            npm_env = {"npm_config_cache": npm_cache, "npm_config_offline": "true"}
        else:
            install, npm_env = ["--no-npm"], {}
        recollect(world, "install", "opencode", *install, cwd=world.home, env={**env, **npm_env})
        results["npm_preinstalled"] = (world.config_dir / "node_modules" / "@opencode-ai" / "plugin").is_dir()
        if args.npm and not results["npm_preinstalled"]:
            raise SystemExit(
                f"--npm: @opencode-ai/plugin@{OPENCODE_VERSION} is not in npm's cache ({npm_cache}); "
                f"fill it once with: npm cache add @opencode-ai/plugin@{OPENCODE_VERSION}"
            )
        recollect(world, "index", cwd=projects["with"], env=env)
        if args.drop == "plugin":
            (world.config_dir / "plugin" / "recollect.js").unlink()
        elif args.drop == "mcp":
            config = json.loads(user_config.read_text())
            del config["mcp"]["recollect"]
            user_config.write_text(json.dumps(config, indent=2) + "\n")
        results["install_and_index_s"] = round(time.perf_counter() - t, 2)
        for side, world in worlds.items():
            results[f"{side}_second_run"] = one_run(world, projects[side], orphans)  # first use after install

        runs: dict[str, list[dict[str, Any]]] = {"without": [], "with": []}
        for i in range(args.pairs):
            order = ("without", "with") if i % 2 == 0 else ("with", "without")
            for side in order:
                runs[side].append(one_run(worlds[side], projects[side], orphans))
                print(f"pair {i + 1} {side}: {runs[side][-1]}", file=sys.stderr, flush=True)
    finally:
        for world in worlds.values():
            world.close()
        orphans.reap(2.0)
        orphans.close()

    wall_diff = [w["wall_s"] - o["wall_s"] for w, o in zip(runs["with"], runs["without"], strict=True)]
    cpu_diff = [w["cpu_s"] - o["cpu_s"] for w, o in zip(runs["with"], runs["without"], strict=True)]
    for side in ("without", "with"):
        results[side] = {
            "wall_s_median": median([r["wall_s"] for r in runs[side]]),
            "cpu_s_median": median([r["cpu_s"] for r in runs[side]]),
            "timeline_s_median": {
                key: median([r["timeline_s"][key] for r in runs[side] if r["timeline_s"].get(key) is not None])
                for key in dict.fromkeys(k for r in runs[side] for k in r["timeline_s"])
            },
            "runs": runs[side],
        }
    helper_names = sorted({name for r in runs["with"] for name in r["orphans_cpu_s"]})
    results["with"]["orphans_cpu_s_median"] = {
        name: median([r["orphans_cpu_s"].get(name, 0.0) for r in runs["with"]]) for name in helper_names
    }
    results["added_by_recollect"] = {
        "wall_s_median_of_pair_differences": median(wall_diff),
        "cpu_s_median_of_pair_differences": median(cpu_diff),
        "wall_ratio_of_medians": round(results["with"]["wall_s_median"] / results["without"]["wall_s_median"], 2),
        "target": "wall difference <= 1 s",
    }
    return emit(results, args.json)


if __name__ == "__main__":
    sys.exit(main())
