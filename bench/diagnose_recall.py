"""Why auto-recall missed, message by message, on the loop world (alone or planted in a generated store).

bench_plugin.py --loop counts; this says why. It builds the same world as `bench_plugin.py --loop`
(bench/loop_world.json's sessions, alone with `--sessions 0` or planted into the 3 busiest projects of
a generated store), indexes it once into `--keep DIR` and reuses it on later runs, as bench_plugin.py
--loop --keep does (the two share a kept world: the 1,000-session store costs minutes to build on a
shared machine, and the loop messages never enter it). Then each message
goes through the helper's own `recall_block` in process, with auto-recall's steps recorded as they run
(its functions wrapped, not re-implemented), and for every miss it prints one line of why:

- `no cue`: cue detection did not fire (cues.py);
- `words: …`: the words decided (a session that answered covered MIN_COVERAGE, meaning agreed or was not
  asked) and chose wrong; the answer's coverage and its rank among the words' candidates;
- `doubted: …`: the words' winner was the answer but meaning did not agree (`agrees`);
- `meaning: …`: meaning decided: the answer's rank by its card among the sessions that answered, the
  leads of the nearest over the next in both views against the margin, the mean against the floor;
- `name: …`: a name the message gives is not in the session meaning chose.

A never-discussed message that fires prints the same lines for the session it named.

    python bench/diagnose_recall.py --sessions 1000 --keep /tmp/world1000 --model-cache ~/.cache/recollect \
        --loop bench/loop_messages_heldout7.json [--all]

`--all` prints every cue message, hit or miss, with the same detail. The figures at the end are those of
bench_plugin.py --loop's recollect column (the same recall_block), without the BM25 baseline.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def world(keep: Path, sessions: int, seed: int) -> dict[str, str]:
    """The loop world in `keep`, built and indexed unless a finished one is there (bench_plugin.py --loop
    --keep's, the same for the same --sessions and --seed; another stops the run); its project directories."""
    from bench_plugin import kept_loop_world

    keep.mkdir(parents=True, exist_ok=True)
    return kept_loop_world(keep, sessions, seed, kept=True)


# `find`'s steps recorded (autorecall's functions), and recallmeaning.stands_out (called by
# stands_out_crowded, once or twice)
WRAPPED = ("candidates", "meaning_of", "agrees", "propose", "rescue", "said_meaning", "near_passage")


class Trace:
    """Auto-recall's steps for one message, recorded by wrapping the functions `find` calls."""

    def __init__(self) -> None:
        self.steps: dict[str, Any] = {}

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        """Auto-recall's functions wrapped to record their calls while the block runs, and put back after:
        a caller in the same process (a test, the next bench) gets the real ones."""
        from recollect.integrations import autorecall, recallmeaning

        wrapped = [(autorecall, name) for name in WRAPPED] + [(recallmeaning, "stands_out")]
        real = [(module, name, getattr(module, name)) for module, name in wrapped]

        def recording(name: str, function: Any) -> Any:
            def recorded(*args: Any, **kwargs: Any) -> Any:
                out = function(*args, **kwargs)
                self.steps.setdefault(name, []).append((args, kwargs, out))
                return out

            return recorded

        try:
            for module, name, function in real:
                setattr(module, name, recording(name, function))
            yield
        finally:
            for module, name, function in real:
                setattr(module, name, function)

    def first(self, name: str) -> tuple[Any, Any, Any] | None:
        calls = self.steps.get(name)
        return calls[0] if calls else None


def natives(conn: sqlite3.Connection) -> dict[int, str]:
    return {sid: native for sid, native in conn.execute("SELECT sid, native_id FROM session")}


def label(native: str, slugs: dict[str, str]) -> str:
    return slugs.get(native, "gen")


def record(trace: Trace, names: dict[int, str], slugs: dict[str, str]) -> dict[str, Any]:
    """The steps of one message as plain data (--dump): to try a decision rule on them without the index."""

    def who(sid: int) -> str:
        return slugs.get(names.get(sid, ""), f"gen{sid}")

    out: dict[str, Any] = {}
    found = trace.first("candidates")
    if found:
        out["words"] = [[who(e.sid), round(e.coverage, 4), e.answered, e.one_script] for e in found[2]]
    agree = trace.first("agrees")
    if agree:
        out["agrees"] = agree[2]
    meaning = trace.first("meaning_of")
    if meaning and meaning[2] is not None:
        m = meaning[2]
        out["tries"] = [[who(sid), round(m.near[sid], 4)] for sid in m.tries]
        out["spread"] = round(m.spread, 5)
    stood = trace.first("stands_out")
    if stood:
        (card, said, *rest), kwargs, result = stood
        out["card"] = {who(s): round(v, 4) for s, v in card.items()}
        out["said"] = {who(s): round(v, 4) for s, v in said.items()}
        out["margin"] = kwargs.get("margin", rest[0] if rest else None)
        floor = kwargs.get("floor", rest[1] if len(rest) > 1 else None)
        if len(trace.steps["stands_out"]) > 1:  # asked again with what it said discounted for crowding
            out["said_discounted"] = {who(s): round(v, 4) for s, v in trace.steps["stands_out"][1][0][1].items()}
            out["second_result"] = who(trace.steps["stands_out"][1][2][0]) if trace.steps["stands_out"][1][2] else None
        if floor:  # the mean of the two cosines themselves, when the views hold scores discounted for crowding
            out["floor"] = {who(s): round(v, 4) for s, v in floor.items()}
        if kwargs.get("floors"):  # the floor asked of each session (lower across the language gap)
            out["floors"] = {who(s): round(v, 4) for s, v in kwargs["floors"].items()}
        out["stands_out"] = who(result[0]) if result else None
    proposed = trace.first("propose")
    if proposed:
        out["proposed"] = None if proposed[2] is None else [who(e.sid) for e in proposed[2]]
    passage = trace.first("near_passage")
    if passage:  # whether the session the block would name first said something near the topic
        out["passage"] = [who(passage[0][3]), passage[2]]
    return out


def why(trace: Trace, gold: str | None, names: dict[int, str], slugs: dict[str, str], text: str) -> str:
    """One line: which path decided, and where the answer (`gold`, a native id; None for a message that
    should stay silent) stood on it."""
    from recollect.integrations import autorecall
    from recollect.integrations.recallmeaning import MEANING_FLOOR

    parts: list[str] = []
    found_call = trace.first("candidates")
    found = found_call[2] if found_call else []
    kept = [e for e in found if e.coverage >= autorecall.MIN_COVERAGE and not e.one_script]
    answered = [e for e in kept if e.answered]
    rank = next((i for i, e in enumerate(found) if e.session_id == gold), None)
    if gold is not None:
        gold_entry = found[rank] if rank is not None else None
        where = (
            f"answer #{rank + 1} of {len(found)} cov {gold_entry.coverage:.2f}"
            f"{'' if gold_entry.answered else ' (asked only)'}"
            if gold_entry is not None
            else f"answer not among {len(found)} word candidates"
        )
    else:
        where = f"{len(found)} word candidates"
    top = ", ".join(f"{label(e.session_id, slugs)} {e.coverage:.2f}" for e in answered[:3])
    parts.append(f"words: {len(answered)} answered >= {autorecall.MIN_COVERAGE} [{top}]; {where}")
    agree = trace.first("agrees")
    if agree:
        parts.append(f"agrees={agree[2]}")
    meaning_call = trace.first("meaning_of")
    meaning = meaning_call[2] if meaning_call else None
    if meaning is not None and meaning.tries:
        tries = meaning.tries
        by_card = {sid: meaning.near[sid] for sid in tries}
        gold_sid = next((sid for sid, n in names.items() if n == gold), None)
        card_rank = tries.index(gold_sid) + 1 if gold_sid in tries else None
        near_all = sorted(meaning.near, key=lambda s: -meaning.near[s])
        all_rank = near_all.index(gold_sid) + 1 if gold_sid in meaning.near else None
        nearest = ", ".join(f"{label(names[s], slugs)} {by_card[s]:.3f}" for s in tries[:4])
        parts.append(
            f"cards: answer #{card_rank} of {len(tries)} answered (#{all_rank} of all); spread {meaning.spread:.4f}; "
            f"[{nearest}]"
        )
    stood = trace.first("stands_out")
    if stood:
        (card, said, *rest), kwargs, out = stood
        margin = kwargs.get("margin", rest[0] if rest else None)
        if card:
            first = max(card, key=lambda s: card[s])
            second_card = max((v for s, v in card.items() if s != first), default=None)
            said_first = max(said, key=lambda s: said[s]) if said else None
            second_said = max((v for s, v in said.items() if s != first), default=None)
            lead_card = card[first] - second_card if second_card is not None else None
            lead_said = said[first] - second_said if said and first in said and second_said is not None else None
            mean = (card[first] + said.get(first, float("nan"))) / 2
            parts.append(
                f"stands_out: first {label(names[first], slugs)}; said first "
                f"{label(names[said_first], slugs) if said_first else '-'}; lead card "
                f"{_f(lead_card)} said {_f(lead_said)} vs margin {_f(margin)}; mean {mean:.3f} vs {MEANING_FLOOR} -> "
                f"{'fires' if out else 'silent'}"
            )
    proposed = trace.first("propose")
    if proposed and proposed[2] == [] and stood and stood[2] and meaning is not None:
        from recollect.integrations.recallwords import holds_term, named

        ev = meaning.evidence[stood[2][0]]
        held = "\n".join([*(a[0] for a in ev.answer), *(q[0] for q in ev.question), *ev.tools])
        missing = [name for name in named(text) if not holds_term(name, False, held)]
        parts.append(f"name: {missing} not in the session meaning chose")
    return " | ".join(parts)


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def diagnose(
    args: argparse.Namespace, directories: dict[str, str], trace: Trace, slugs: dict[str, str], dump: IO[str] | None
) -> dict[str, list[int]]:
    """Every message of `args.loop` through the helper's `recall_block`, the misses printed with why; the
    counts of bench_plugin's recollect column."""
    from bench.bench_loop import hit_sessions
    from bench.eval.build_corpus import _conv_id
    from recollect.integrations.hooks import HookService

    service = HookService()
    counts: dict[str, list[int]] = {}
    n = 0
    names: dict[int, str] = {}
    for path in args.loop:
        data = json.loads(path.read_text(encoding="utf-8"))
        for kind in ("cue", "unknown", "ordinary"):
            for m in data.get(kind, []):
                n += 1
                trace.steps.clear()
                block, cue = service.recall_block(f"ses_diag{n:05d}", directories[m["project"]], m["text"])
                called = trace.first("candidates")
                if not names and called:
                    names = natives(called[0][0])  # the helper's own connection
                hits = hit_sessions(block)
                gold = _conv_id("ses", f"answer-{m['expect']}") if kind == "cue" else None
                ok = gold in hits if gold else not hits
                c = counts.setdefault(f"{kind}: {'answer in block' if gold else 'silent'}", [0, 0])
                c[0] += ok
                c[1] += 1
                if gold:
                    f = counts.setdefault("cue: answer first", [0, 0])
                    f[0] += hits[:1] == [gold]
                    f[1] += 1
                if dump is not None:
                    row = {"set": path.stem, "id": m["id"], "kind": kind, "expect": m.get("expect"), "ok": ok}
                    row.update(cue=cue, block=[label(h, slugs) for h in hits], **record(trace, names, slugs))
                    dump.write(json.dumps(row, ensure_ascii=False) + "\n")
                if ok and not (args.all and gold):
                    continue
                shown = [label(h, slugs) for h in hits]
                mark = "ok  " if ok else "MISS"
                print(f"{mark} {path.stem[14:] or 'first':9} {m['id']:8} {kind:8} block={shown} {m['text'][:70]!r}")
                if cue is None:
                    print("       no cue")
                elif ok and not gold:
                    pass
                else:
                    print("       " + why(trace, gold, names, slugs, m["text"]))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path, required=True, help="The world's directory: built once, then reused.")
    parser.add_argument("--model-cache", type=Path, help="An already built embedding model (RECOLLECT_MODEL_CACHE).")
    parser.add_argument("--loop", nargs="+", type=Path, required=True, help="Message sets (bench/loop_messages*.json).")
    parser.add_argument("--all", action="store_true", help="Print every cue message, not only the misses.")
    parser.add_argument("--dump", type=Path, help="Write every message's steps here, as JSON lines.")
    args = parser.parse_args()
    from bench.heldout import refuse_held_out

    for path in args.loop:
        refuse_held_out(path, "diagnose_recall")  # run once, at the session's end, and never diagnosed
    keep = args.keep.expanduser().absolute()
    os.environ.update(
        RECOLLECT_HOME=str(keep / "home"), OPENCODE_DB=str(keep / "opencode.db"), RECOLLECT_SOURCES="opencode"
    )
    if args.model_cache:
        os.environ["RECOLLECT_MODEL_CACHE"] = str(args.model_cache.expanduser().absolute())
    directories = world(keep, args.sessions, args.seed)

    from bench.eval.build_corpus import _conv_id
    from bench.eval.loop_search import WORLD

    topics = json.loads(WORLD.read_text(encoding="utf-8"))["topics"]
    slugs = {_conv_id("ses", f"answer-{t['id']}"): t["id"] for t in topics}
    trace = Trace()
    dump = args.dump.open("w", encoding="utf-8") if args.dump else None
    try:
        with trace.installed():
            counts = diagnose(args, directories, trace, slugs, dump)
    finally:
        if dump is not None:
            dump.close()
    for name, (k, d) in counts.items():
        print(f"{name:26}{k}/{d} ({100 * k / max(d, 1):.0f}%)")


if __name__ == "__main__":
    main()
