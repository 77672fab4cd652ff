"""What loading the redactor costs a process, for two source trees side by side (e.g. before and after a change).

    git archive REV src | tar -x -C OLD;  git archive REV2 src | tar -x -C NEW
    python bench/bench_redact_load.py OLD/src NEW/src [--rounds 20] [--starts 10]

Alternating the trees in every round, it prints medians of:
- the CPU of `import recollect.redact` and of its first two redactions (the first reads the pattern
  table and compiles what the text needs), in a fresh interpreter each;
- with `--starts N`: wall and CPU (user+sys) of the plugin helper's start (`python -m
  recollect.integrations.hookd`, one ping, stdin closed: it logs a redacted line) and of a one-shot
  `recollect search error --no-sync`, on an index of the bundled demo store in a temporary home.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROBE = """
import time, tomllib, dataclasses, functools, re
import recollect
c0 = time.process_time()
import recollect.redact as r
c1 = time.process_time()
r.redact('token: sk-ant-' + 'a' * 30); r.redact('hello world')
c2 = time.process_time()
print((c1 - c0) * 1e3, (c2 - c1) * 1e3)
"""


def timed(command: list[str], env: dict[str, str], stdin: str = "") -> tuple[float, float]:
    """Wall seconds and the child's CPU seconds (user+sys) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, env=env, input=stdin, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--starts", type=int, default=0)
    args = parser.parse_args()
    trees = {"old": args.old, "new": args.new}
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    probe: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, src in trees.items():
            tree = {**base, "PYTHONPATH": src}
            out = subprocess.run([sys.executable, "-c", PROBE], env=tree, capture_output=True, text=True, check=True)
            figures = out.stdout.split()
            probe[name].append((float(figures[0]), float(figures[1])))
    for name, runs in probe.items():
        imported = statistics.median(i for i, _ in runs)
        used = statistics.median(u for _, u in runs)
        print(f"{name}: import CPU {imported:.2f} ms, first use CPU {used:.2f} ms (median of {args.rounds})")
    if not args.starts:
        return
    with tempfile.TemporaryDirectory(prefix="bench-redact-") as tmp:
        demo = Path(args.new) / "recollect" / "data" / "demo" / "opencode.db"
        env = {**base, "HOME": tmp, "RECOLLECT_HOME": f"{tmp}/r", "OPENCODE_DB": str(demo)}
        env["RECOLLECT_SOURCES"] = "opencode"
        index = [sys.executable, "-m", "recollect.cli", "index"]
        subprocess.run(index, env={**env, "PYTHONPATH": args.new}, capture_output=True, check=True)
        runs: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(args.starts):
            for name, src in trees.items():
                tree = {**env, "PYTHONPATH": src}
                helper = [sys.executable, "-m", "recollect.integrations.hookd"]
                runs.setdefault(("helper start", name), []).append(timed(helper, tree, '{"id":1,"op":"ping"}\n'))
                search = [sys.executable, "-m", "recollect.cli", "search", "error", "--no-sync"]
                runs.setdefault(("one-shot search", name), []).append(timed(search, tree))
    for (what, name), values in sorted(runs.items()):
        wall = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        print(f"{what}, {name}: wall {wall:.3f} s, CPU {cpu:.3f} s (median of {args.starts})")


if __name__ == "__main__":
    main()
