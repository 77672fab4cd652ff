"""History-cue detection alone (`integrations/cues.py`), offline and in-process: what fires on each
message set, on the real user messages of Claude Code transcripts, and the CPU a long pasted message costs.

    .venv/bin/python bench/bench_cues.py [--show] [--sets FILE ...] [--split dev|test|all]
        [--claude-code DIR] [--show-claude] [--repeat N]

Per set it prints how many cue messages fire (`detect_cue` is not None) and how many ordinary ones
do (they must not), per language. bench/cue_corpus*.json are split by id: odd ids the dev half
(tests and tuning read them), even ids the test half; `--split` picks one (default: both, apart).
`--claude-code DIR` reads every main (non-subagent) transcript under DIR with recollect's own Claude
Code reader and prints how many of the person's messages fire (nearly all are ordinary requests);
`--show-claude` prints each one that fires. `--show` prints the cue found in every set message. Then
it times `detect_cue` + `strip_cues` (what the plugin helper runs on every message, inside its
request loop) on long messages: a pasted log, and inputs that were quadratic once; CPU time
(`time.process_time`), the best of `--repeat` runs. Run it with `PYTHONPATH=<other checkout>/src` to
compare two versions of the grammar. The held-out sets kept for a session's final measurement
(bench/heldout.py; the cue corpus among them) are read only with `--final`; held-out 1 to 9 and
corpora 1 to 7 and 9 were run and read, and are tuning sets now.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from recollect.integrations.cues import detect_cue, strip_cues

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import heldout

BENCH = Path(__file__).resolve().parent
SETS = [
    "loop_messages.json",
    "loop_messages_heldout.json",
    "loop_messages_heldout2.json",
    "loop_messages_heldout3.json",
    "loop_messages_heldout4.json",
    "loop_messages_heldout5.json",
    "loop_messages_heldout6.json",
    "loop_messages_heldout7.json",
    "loop_messages_heldout8.json",
    "loop_messages_heldout9.json",
    "cue_ordinary_past.json",
    "cue_corpus.json",
    "cue_corpus2.json",
    "cue_corpus3.json",
    "cue_corpus4.json",
    "cue_corpus5.json",
    "cue_corpus6.json",
    "cue_corpus7.json",
    "cue_corpus9.json",
]
LOG = "".join(f"WARN worker {i} was never scheduled on node-{i % 7}\n" for i in range(2000))
LONG = {
    "pasted log, 2,000 lines (92 KB)": LOG,
    "'was ever ' x 4,000 (36 KB)": "was ever " * 4000,
    "'what ' x 4,000 + 'again'": "what " * 4000 + "again",
    "'we did ' x 4,000 + '?'": "we did " * 4000 + "?",
    "'之前我们' x 4,000 + '吗？'": "之前我们" * 4000 + "吗？",
    "'the way we did it. ' x 3,000 (57 KB)": "the way we did it. " * 3000,
    "'a,' x 50,000 (100 KB, 50,000 clauses)": "a," * 50000,
    "pasted log + a cue at the end": LOG + "what did we decide last time?",
}


def refuse_held_out(name: str | Path, final: bool = False) -> None:
    """Stop before a held-out set is opened: its figures are for the session's final measurement only."""
    heldout.refuse_held_out(name, "bench_cues", final)


def fires(messages: list[dict[str, Any]], show: bool, kind: str) -> int:
    n = 0
    for m in messages:
        cue = detect_cue(m["text"])
        n += cue is not None
        if show:
            print(f"  {m['id']:<6} {kind:<9} {cue!r:<28} {m['text'][:90]!r}")
    return n


def claude_messages(root: Path) -> tuple[int, list[str]]:
    """(transcripts read, the person's messages) of every main Claude Code transcript under `root`."""
    from recollect.sources.base import SourceSpec
    from recollect.sources.claude_code import ClaudeCodeSource

    source = ClaudeCodeSource(SourceSpec(id="claude", kind="claude-code", path=root))
    ids = [sid for sid in source.scan().stamps if not sid.startswith("agent-")]
    texts: list[str] = []
    for session in source.read_sessions(ids):
        for message in session.messages:
            if message.role != "user" or message.agent:
                continue  # a sub-agent's prompt is the parent agent's, not a person's
            # what the person typed: text and slash-command arguments, not shell input (`! ls`)
            text = "\n".join(
                p.text for p in message.parts if p.kind == "text" and not p.synthetic and p.raw_type != "bash-input"
            )
            if text.strip():
                texts.append(text)
    return len(ids), texts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--show", action="store_true", help="print the cue found in every set message")
    ap.add_argument("--sets", nargs="*", default=SETS, help="message files under bench/")
    ap.add_argument("--split", choices=("dev", "test", "all"), default=None, help="cue_corpus.json's half")
    ap.add_argument("--claude-code", type=Path, default=None, help="a folder of Claude Code transcripts")
    ap.add_argument("--show-claude", action="store_true", help="print every transcript message that fires")
    ap.add_argument("--repeat", type=int, default=3, help="time each long message this many times, keep the best")
    ap.add_argument("--final", action="store_true", help="the session's final run: a held-out corpus may be read")
    a = ap.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f}")
    for name in a.sets:
        refuse_held_out(name, a.final)
        data = json.loads((BENCH / name).read_text(encoding="utf-8"))
        halves: list[str | None] = [None]
        if any("split" in m for kind in ("cue", "ordinary") for m in data.get(kind, [])):
            halves = ["dev", "test"] if a.split is None else [None if a.split == "all" else a.split]
        for half in halves:
            row = []
            for kind in ("cue", "unknown", "ordinary"):
                for lang in ("en", "zh"):
                    msgs = [m for m in data.get(kind, []) if m["lang"] == lang and half in (None, m.get("split"))]
                    if msgs:
                        row.append(f"{kind} {lang} {fires(msgs, a.show, kind)}/{len(msgs)}")
            if not row:
                continue  # a half with no message (corpus 7 is all test)
            label = name if half is None else f"{name} ({half})"
            print(f"{label:<30} fired: " + ", ".join(row))
    if a.claude_code is not None:
        cpu = time.process_time()
        n, texts = claude_messages(a.claude_code)
        read = time.process_time() - cpu
        cpu = time.process_time()
        hits = [(cue, t) for t in texts if (cue := detect_cue(t)) is not None]
        took = time.process_time() - cpu
        print(
            f"Claude Code: {n} transcripts, {len(texts)} messages of the person, fired {len(hits)} "
            f"({100 * len(hits) / max(1, len(texts)):.1f}%); detect {took:.3f} s CPU (read {read:.1f} s)"
        )
        if a.show_claude:
            for cue, text in hits:
                print(f"  {cue!r:<24} {text[:160]!r}")
    for label, text in LONG.items():
        runs = []
        for _ in range(a.repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            cue = detect_cue(text)
            strip_cues(text)
            runs.append((time.process_time() - cpu, time.perf_counter() - wall))
        best_cpu, best_wall = min(runs)
        print(
            f"{label:<40} detect+strip: {best_cpu:6.3f} s CPU, {best_wall:6.3f} s wall "
            f"(best of {a.repeat}); cue={cue!r}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
