"""History-cue detection alone (`integrations/cues.py`), offline and in-process: what fires on each
message set, and the CPU a long pasted message costs.

    .venv/bin/python bench/bench_cues.py [--show] [--sets FILE ...]

Per set it prints how many cue messages fire (`detect_cue` is not None) and how many ordinary ones
do (they must not). `--show` prints the cue found in every message. Then it times `detect_cue` +
`strip_cues` (what the plugin helper runs on every message, inside its request loop) on long
messages: a pasted log, and the inputs review 5 found quadratic; CPU time (`time.process_time`).
Run it with `PYTHONPATH=<other checkout>/src` to compare two versions of the grammar. The held-out
set bench/loop_messages_heldout4.json is not read (it is kept for the final measurement; held-out 3 was
run once and is a tuning set now).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from recollect.integrations.cues import detect_cue, strip_cues

BENCH = Path(__file__).resolve().parent
SETS = [
    "loop_messages.json",
    "loop_messages_heldout.json",
    "loop_messages_heldout2.json",
    "loop_messages_heldout3.json",
    "cue_ordinary_past.json",
]
LOG = "".join(f"WARN worker {i} was never scheduled on node-{i % 7}\n" for i in range(2000))
LONG = {
    "pasted log, 2,000 lines (92 KB)": LOG,
    "'was ever ' x 4,000 (36 KB)": "was ever " * 4000,
    "'what ' x 4,000 + 'again'": "what " * 4000 + "again",
    "pasted log + a cue at the end": LOG + "what did we decide last time?",
}


def fires(messages: list[dict[str, Any]], show: bool, kind: str) -> int:
    n = 0
    for m in messages:
        cue = detect_cue(m["text"])
        n += cue is not None
        if show:
            print(f"  {m['id']:<6} {kind:<9} {cue!r:<28} {m['text'][:90]}")
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--show", action="store_true", help="print the cue found in every message")
    ap.add_argument("--sets", nargs="*", default=SETS, help="message files under bench/")
    a = ap.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f}")
    for name in a.sets:
        data = json.loads((BENCH / name).read_text(encoding="utf-8"))
        row = []
        for kind in ("cue", "unknown", "ordinary"):
            if kind in data:
                row.append(f"{kind} {fires(data[kind], a.show, kind)}/{len(data[kind])}")
        print(f"{name:<30} fired: " + ", ".join(row))
    for label, text in LONG.items():
        wall, cpu = time.perf_counter(), time.process_time()
        cue = detect_cue(text)
        strip_cues(text)
        print(
            f"{label:<34} detect+strip: {time.process_time() - cpu:6.3f} s CPU, "
            f"{time.perf_counter() - wall:6.3f} s wall; cue={cue!r}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
