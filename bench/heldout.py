"""The one held-out message set the benches keep closed: written before anything runs on it, opened by
the session's final measurement only (`--final`), never tuned on.

Held-out 1 to 9, cue corpora 1 to 7 and long-chat held-out 1 to 3 were each run once that way and are
tuning sets now. The twelfth session keeps three sets closed: the loop messages
bench/loop_messages_heldout10.json, the cue corpus bench/cue_corpus8.json and the long-chat haystacks
bench/eval/longchat_heldout4.py. When a set has had its final run, name the one after it here instead.
"""

from __future__ import annotations

from pathlib import Path

# no file whose name holds one of these is opened, but by a final run
HELD_OUT = ("heldout10", "cue_corpus8", "longchat_heldout4")
FINAL_RUNS = ("bench_loop", "bench_plugin", "bench_cues", "longchat")  # the benches that measure them at the end


def refuse_held_out(path: str | Path, tool: str, final: bool = False) -> None:
    """Stop before the held-out set is opened, unless this is its final measurement (`final`)."""
    name = Path(path).name
    if any(held in name.lower() for held in HELD_OUT) and not final:
        how = "reads it only for the final run (--final)" if tool in FINAL_RUNS else "never reads it"
        raise SystemExit(f"{name} is a held-out set: {tool} {how}")
