"""The one held-out message set the benches keep closed: written before anything runs on it, opened by
the session's final measurement only (`--final`), never tuned on.

Held-out 1 to 8 were each run once that way and are tuning sets now. The next set is written as
bench/loop_messages_heldout9.json; when it has had its final run, move HELD_OUT on to the one after.
"""

from __future__ import annotations

from pathlib import Path

HELD_OUT = "heldout9"  # no file whose name holds this is opened, but by a final run
FINAL_RUNS = ("bench_loop", "bench_plugin")  # the benches that measure the held-out set at the end


def refuse_held_out(path: str | Path, tool: str, final: bool = False) -> None:
    """Stop before the held-out set is opened, unless this is its final measurement (`final`)."""
    name = Path(path).name
    if HELD_OUT in name.lower() and not final:
        how = "reads it only for the final run (--final)" if tool in FINAL_RUNS else "never reads it"
        raise SystemExit(f"{name} is a held-out set: {tool} {how}")
