"""Benchmark: recall, injection and a write over N curated memories (default 10,000).

Generates the memory files in a temporary RECOLLECT_HOME (global root) and a temporary git work
tree (project root), then times, with the real library functions:

- the first recall with no cache at all (every file read, parsed and tokenized),
- the first recall of a new process whose parse cache sidecar is warm,
- steady-state recall in one process (what an MCP server sees): p50 / p95,
- the injection block for a message: p50 / p95,
- one `remember` (dedupe against all, write, recompile the root) and one `compile`.

    .venv/bin/python bench/bench_memory.py [--count 10000] [--queries 300] [--seed 7]

Nothing outside the temporary directory is touched. Results are recorded in docs/memory.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

LATIN = (
    "deploy pnpm npm lockfile docker compose kubernetes helm staging release migration schema index sqlite "
    "postgres redis cache queue worker retry timeout backoff token auth session cookie cors proxy nginx "
    "webpack vite eslint ruff pytest fixture mock coverage benchmark latency memory leak goroutine thread "
    "async await promise stream buffer encoding unicode tokenizer parser lexer grammar config toml yaml json "
    "logging metrics tracing alert pager oncall rollback canary feature flag branch rebase merge squash "
    "review commit hook ci pipeline artifact registry mirror offline vendor patch upgrade pin version"
).split()
CJK = "部署 脚本 配置 依赖 接口 数据 缓存 测试 日志 索引 迁移 回滚 分支 合并 版本 发布 监控 告警 性能 内存".split()


# Words follow Zipf's law, as in real text: a few very common ones (the tech words above first),
# then a long tail of rarer ones, so a query term's document frequency looks like the real thing.
TAIL = [f"{a}{b}" for a in ("ka", "lo", "mi", "nu", "pe", "ro", "si", "tu", "va", "ze") for b in range(300)]
VOCAB = LATIN + CJK + TAIL
WEIGHTS = [1.0 / (rank + 1) for rank in range(len(VOCAB))]


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choices(VOCAB, weights=WEIGHTS, k=n))


def generate(project_root: Path, global_root: Path, count: int, rng: random.Random) -> None:
    from recollect.memory.files import Memory, MemoryRoot, ensure_root, render_memory, write_text_atomic
    from recollect.memory.settings import DEFAULT_CATEGORIES

    now = datetime.now(UTC).replace(microsecond=0)
    roots = [MemoryRoot(project_root, "project"), MemoryRoot(global_root, "global")]
    for root in roots:
        ensure_root(root)
    for i in range(count):
        root = roots[0] if i % 5 else roots[1]  # 80% project, 20% global
        category = DEFAULT_CATEGORIES[1 + i % 4]  # no rules: those are injected whole, always
        memory = Memory(
            id=f"{category}/m{i:05d}",
            scope=root.scope,
            path=root.path / category / f"m{i:05d}.md",
            summary=sentence(rng, 8),
            body="\n".join(sentence(rng, 14) for _ in range(rng.randint(2, 6))),
            created=now - timedelta(days=rng.randint(0, 400)),
            updated=now - timedelta(days=rng.randint(0, 200)),
            load_when=[rng.choice(LATIN), rng.choice(CJK)],
            pinned=rng.random() < 0.02,
        )
        write_text_atomic(memory.path, render_memory(memory))


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000.0


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):7.1f} ms   p95 {p95:7.1f} ms   (n={len(ordered)})"


def calibration_ms() -> float:
    """A fixed pure-Python loop, so numbers from a busy or slow machine can be scaled: it takes
    roughly 100 ms on one idle core of a 2020s laptop."""
    start = time.perf_counter()
    total = 0
    for i in range(3_000_000):
        total += i
    return (time.perf_counter() - start) * 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[attr-defined]
    rng = random.Random(args.seed)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"calibration loop: {calibration_ms():.0f} ms (about 100 ms on an idle core); load average {load:.1f}")
    with tempfile.TemporaryDirectory(prefix="recollect-bench-") as tmp:
        home, project = Path(tmp) / "home", Path(tmp) / "project"
        os.environ["RECOLLECT_HOME"] = str(home)
        subprocess.run(["git", "init", "-q", str(project)], check=True)

        from recollect.memory import catalog, compile_memory, injection_block, open_memory, recall, remember

        space = open_memory(project)
        start = time.perf_counter()
        generate(space.project_root.path, space.global_root.path, args.count, rng)  # type: ignore[union-attr]
        print(f"generated {args.count} memory files in {time.perf_counter() - start:.1f} s")
        queries = [sentence(rng, rng.randint(1, 3)) for _ in range(args.queries)]

        # A new process with no sidecar: every file read, parsed and tokenized (the seed's "full scan").
        catalog.drop_all_indexes()
        full_scan = timed(lambda: recall(space, queries[0], record_hits=False))
        print(f"first recall, no cache (full scan):       {full_scan:8.1f} ms")
        catalog.save_sidecars()
        # A new process whose sidecar is warm: parses come from it, each file is only stat'ed.
        catalog.drop_all_indexes()
        from_sidecar = timed(lambda: recall(space, queries[0], record_hits=False))
        print(f"first recall, sidecar warm (new process): {from_sidecar:8.1f} ms")
        compile_ms = timed(lambda: compile_memory(space))
        print(f"compile (index.md + ROOT.md, warm):       {compile_ms:8.1f} ms")

        warm = [timed(lambda q=q: recall(space, q)) for q in queries]
        print(f"recall, steady state:  {percentiles(warm)}")
        warm_nohits = [timed(lambda q=q: recall(space, q, record_hits=False)) for q in queries]
        print(f"recall, no hit count:  {percentiles(warm_nohits)}")
        inject = [timed(lambda q=q: injection_block(space, q)) for q in queries[:100]]
        print(f"injection block:       {percentiles(inject)}")
        bodies = [sentence(rng, 30) + f" unique{i}" for i in range(10)]
        writes = [
            timed(lambda b=b, i=i: remember(space, b, category="facts", summary=f"w{i}")) for i, b in enumerate(bodies)
        ]
        print(f"remember (one write):  {percentiles(writes)}")

        env = {**os.environ, "RECOLLECT_HOME": str(home)}
        cli = [sys.executable, "-m", "recollect.cli", "memory", "recall", "deploy 部署", "--json", "--no-count"]
        wall = []
        for _ in range(5):
            start = time.perf_counter()
            subprocess.run(cli, cwd=project, env=env, check=True, capture_output=True)
            wall.append((time.perf_counter() - start) * 1000.0)
        print(f"CLI recall process (wall, incl. interpreter start): {percentiles(wall)}")


if __name__ == "__main__":
    main()
