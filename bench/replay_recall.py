"""Replay auto-recall's decision by meaning on recorded steps, without the index or the card encoder.

`diagnose_recall.py --dump F` writes, for every message, the steps auto-recall took: the words'
candidates, whether meaning agreed, the nearest sessions by card and the crowd's spread, and, where
meaning was asked to decide, what `stands_out` was given (the cards' scores discounted for crowding,
what the sessions said, the floor of their cosines). This asks the current tree's
`recallmeaning.card_leads` and `stands_out_crowded` the same questions again, so that a change to the
decision rule (the margin, CROWD_LEAD, CROWDED_LEAD, MEANING_FLOOR, the rule itself) is measured on
every tuning set in both worlds in a second, before it is run for real:

    python bench/diagnose_recall.py --sessions 1000 --keep /tmp/w1000 --model-cache ~/.cache/recollect \
        --loop bench/loop_messages.json bench/loop_messages_heldout{,2,3,4,5,6,7,8}.json --dump steps1000.jsonl
    python bench/replay_recall.py steps1000.jsonl steps0.jsonl

What it cannot replay, it keeps as recorded and counts: the words' decisions (the candidates' coverage
is recorded, their texts are not), the floor asked of each session (as recorded: a change to GAP_FLOOR
needs a run), whether a session said something near the topic (`near_passage`: as recorded for the
session it was asked of; a session chosen now that was never asked is taken as near, uncounted),
and a message whose card lead falls short of the margin as recorded
but passes it now (what its sessions said was never embedded: it needs a real run). A name the session
meaning chose does not hold silenced it then and silences it now (`named` is not replayed).
Every figure is the recorded one when nothing changed: the replay of a dump made by the same tree
changes no decision (tests/bench/test_replay_recall.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def decide(row: dict[str, Any]) -> tuple[list[str], str]:
    """(the sessions the block names now, why: "kept", "replayed" or "needs a run") for one recorded
    message (`row`, a line of diagnose_recall's --dump)."""
    from recollect.integrations import recallmeaning as rm

    block = list(row["block"])
    if "tries" not in row or row.get("agrees") is True:
        return block, "kept"  # the words decided, or no card vectors: nothing of meaning to replay
    tries = [who for who, _ in row["tries"]][: rm.RESCUE_TRIES]
    near = dict((who, score) for who, score in row["tries"])
    margin = min(rm.MEANING_MARGIN, rm.CROWD_LEAD * row["spread"])
    by_card = {who: near[who] for who in tries}
    if "card" not in row:
        # stands_out was never asked: the card lead fell short as recorded
        return (asked_only(row), "replayed") if not rm.card_leads(by_card, margin) else (block, "needs a run")
    said = row["said"]
    # the floor is of cosines: floor = (cosine + said) / 2, so the cosines come back from it
    cosines = {who: 2 * row["floor"][who] - said.get(who, -1.0) for who in row["card"]}
    # the floor asked of each session as recorded (GAP_FLOOR is not replayed: the scripts are not recorded)
    floors = row.get("floors")
    leads = rm.card_leads(by_card, margin)
    best = rm.stands_out_crowded(by_card, cosines, said, margin, floors) if leads else None
    chosen = best[0] if best else None
    stood = (row.get("stands_out"), row.get("second_result"))
    if chosen is not None and row.get("proposed") == [] and chosen in stood:
        chosen = None  # it stood out then too, and a name the question gives kept it silent
    if chosen is not None and row.get("passage") == [chosen, False]:
        return [], "replayed"  # it said nothing near the topic then, nor now (`near_passage`)
    return ([chosen] if chosen else asked_only(row)), "replayed"


def asked_only(row: dict[str, Any]) -> list[str]:
    """What the block names when meaning is silent: the sessions that only asked and cover enough of the
    message's words, when no session that answered does (`autorecall.find`; none once the words' winner
    was doubted). As recorded when meaning was silent then too; else collapsing and names are not replayed."""
    from recollect.integrations import autorecall

    if row.get("agrees") is False:
        return []
    if row.get("proposed") == []:
        return list(row["block"])  # meaning was silent then too: what the block named then (names held)
    words = row.get("words", [])
    return [who for who, cov, answered, one in words if cov >= autorecall.MIN_COVERAGE and not answered and not one][
        : autorecall.RECALL_SESSIONS
    ]


def replay(paths: list[Path]) -> tuple[dict[str, dict[str, list[int]]], list[str], int]:
    """Per set and figure [now, recorded, of]; the messages whose decision changed; how many need a run."""
    counts: dict[str, dict[str, list[int]]] = {}
    changed: list[str] = []
    unknown = 0
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            now, how = decide(row)
            unknown += how == "needs a run"
            expect = row.get("expect")
            figures = counts.setdefault(row["set"], {})

            if row["kind"] == "cue":
                _count(figures, "cue: answer in block", expect in now, bool(row["ok"]))
                _count(figures, "cue: answer first", now[:1] == [expect], row["block"][:1] == [expect])
            else:
                name = "never-discussed silent" if row["kind"] == "unknown" else "ordinary silent"
                _count(figures, name, not now, bool(row["ok"]))
            if now[:1] != row["block"][:1]:
                changed.append(f"{row['set']} {row['id']} {row['kind']}: {row['block'][:1]} -> {now[:1]}")
    return counts, changed, unknown


def _count(figures: dict[str, list[int]], name: str, ok_now: bool, ok_then: bool) -> None:
    c = figures.setdefault(name, [0, 0, 0])
    c[0] += ok_now
    c[1] += ok_then
    c[2] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dumps", nargs="+", type=Path, help="diagnose_recall.py --dump files")
    args = parser.parse_args()
    from bench.heldout import refuse_held_out

    for path in args.dumps:
        for row in path.read_text(encoding="utf-8").splitlines()[:1]:
            refuse_held_out(Path(f"bench/{json.loads(row)['set']}.json"), "replay_recall")
        counts, changed, unknown = replay([path])
        print(f"== {path} (now / as recorded)")
        total: dict[str, list[int]] = {}
        for set_name, figures in counts.items():
            shown = "  ".join(f"{name.split(': ')[-1]} {c[0]}/{c[2]} ({c[1]})" for name, c in figures.items())
            print(f"  {set_name[14:] or 'first':9} {shown}")
            for name, c in figures.items():
                t = total.setdefault(name, [0, 0, 0])
                for i in range(3):
                    t[i] += c[i]
        for name, c in total.items():
            print(f"  {name:26}{c[0]}/{c[2]} (recorded {c[1]})")
        print(f"  decisions changed: {len(changed)}; messages that need a real run: {unknown}")
        for line in changed:
            print(f"    {line}")


if __name__ == "__main__":
    main()
