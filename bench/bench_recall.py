"""Auto-recall offline, on a live-loop world kept by bench/bench_loop.py: seconds instead of minutes.

    .venv/bin/python bench/bench_loop.py --no-baseline --keep DIR --json RUN.json [--messages FILE]
    .venv/bin/python bench/bench_recall.py DIR RUN.json [--show] [--model-cache DIR]

For every live message of that run it asks the plugin helper (``HookService.recall_block``, the
same call the plugin makes) for the message's block again, inside the kept world's final index,
from the message's own session and project, with every session the run made after that message
left out (as the live run saw the index then, give or take the idle sync's timing). It is a
development aid: the figures to report are the live ones (docs/loop.md). Per message it
prints the answering session's rank in the block, or "wrong" (a block without it) or "silent" (no
block), and the time the call took (wall and CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SESSION_PREFIX = "opencode::"


def point_at(world: Path, model_cache: Path | None = None) -> None:
    """This process's recollect paths: the kept world's HOME and XDG dirs. Search by meaning is off,
    unless `model_cache` holds the full encoder's loaded form (then the card encoder is used)."""
    home = world / "home"
    os.environ.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
    )
    if model_cache is None:
        os.environ["RECOLLECT_EMBEDDINGS"] = "off"
    else:
        os.environ.pop("RECOLLECT_EMBEDDINGS", None)
        os.environ["RECOLLECT_MODEL_CACHE"] = str(model_cache)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("keep", type=Path, help="the --keep directory of a bench_loop run")
    ap.add_argument("run", type=Path, help="that run's --json output")
    ap.add_argument("--show", action="store_true", help="print every message, not only the misses")
    ap.add_argument(
        "--model-cache",
        type=Path,
        help="search by meaning on, the full encoder loaded from this cache (e.g. ~/.cache/recollect); the "
        "world's index must hold card vectors: run `recollect index` in it with meaning on first",
    )
    a = ap.parse_args(argv)
    world = a.keep / "world"
    point_at(world, a.model_cache)
    from recollect.integrations import autorecall
    from recollect.integrations.hooks import HookService

    service = HookService()
    every: list[dict[str, Any]] = json.loads(a.run.read_text())["turns"]
    turns = [t for t in every if t["phase"] == "live"]
    first_live = next(i for i, t in enumerate(every) if t["phase"] == "live")
    later: list[str] = []  # sessions made after the message being asked
    real_family = autorecall.family
    monkey = lambda conn, refs: real_family(conn, refs) + later  # noqa: E731
    autorecall.family = monkey  # type: ignore[assignment]
    counts: dict[str, list[int]] = {}
    walls: list[float] = []
    cpus: list[float] = []

    def count(name: str, ok: bool) -> None:
        c = counts.setdefault(name, [0, 0])
        c[0] += ok
        c[1] += 1

    for t in turns:
        at = every.index(t)
        later[:] = list(dict.fromkeys(SESSION_PREFIX + u["session"] for u in every[at + 1 :] if u["session"]))
        later.extend(SESSION_PREFIX + u["session"] for u in every[first_live:] if u["phase"] not in ("live",))
        directory = str(world / "projects" / t["project"])
        w0, c0 = time.perf_counter(), time.process_time()
        block, cue = service.recall_block(t["session"], directory, t["text"])
        walls.append((time.perf_counter() - w0) * 1000)
        cpus.append((time.process_time() - c0) * 1000)
        hits = [h.removeprefix(SESSION_PREFIX) for h in _hits(block)]
        rank = hits.index(t["expect"]) + 1 if t["expect"] in hits else 0
        lang = t["lang"]
        if t["kind"] == "cue":
            count(f"cue fired {lang}", bool(block))
            count("answer in block", rank > 0)
            count("answer first", rank == 1)
            ok = rank == 1
        else:
            count(f"{t['kind']} silent {lang}", not block)
            ok = not block
        if a.show or not ok:
            shown = outcome(t["kind"], bool(block), rank)
            print(f"{t['key']:6} {t['kind']:8} {shown:8} cue={cue!r:18} {t['text'][:90]}")
    print()
    for name, (n, d) in counts.items():
        print(f"{name:22} {n}/{d} ({100 * n / max(d, 1):.0f}%)")
    walls.sort()
    cpus.sort()
    p95 = max(0, round(0.95 * (len(walls) - 1)))
    print(
        f"recall_block per message p50 / p95: wall {walls[len(walls) // 2]:.1f} / {walls[p95]:.1f} ms, "
        f"cpu {cpus[len(cpus) // 2]:.1f} / {cpus[p95]:.1f} ms; load {os.getloadavg()[0]:.1f}"
    )
    return 0


def outcome(kind: str, fired: bool, rank: int) -> str:
    """What one message got: for a cue, the answer's rank in the block, or whether the block fired
    without it ("wrong") or did not fire ("silent"); for any other message, whether it fired."""
    if kind != "cue":
        return "FIRED" if fired else "silent"
    if rank:
        return f"rank {rank}"
    return "wrong" if fired else "silent"


def _hits(block: str) -> list[str]:
    sys.path.insert(0, str(REPO))
    from bench.bench_loop import hit_sessions

    return hit_sessions(block) if block else []


if __name__ == "__main__":
    sys.exit(main())
