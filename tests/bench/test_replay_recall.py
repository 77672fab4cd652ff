"""bench/replay_recall.py asks the current decision rule by meaning the questions a diagnose_recall --dump
recorded: on a dump of the same rule no decision changes; a stricter rule changes the one it should."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import replay_recall
from recollect.integrations import recallmeaning

# Recorded at 1,000 generated sessions (held-out 7's h7en24 and held-out 1's hen08, main at 5d6248d): the
# first stood out only with what it said discounted for crowding, its card 0.079 ahead; the second lost
# on what was said; the third the words decided.
STOOD = {
    "set": "loop_messages_heldout7", "id": "h7en24", "kind": "cue", "expect": "cobalt.queue", "ok": True,
    "block": ["cobalt.queue"], "words": [["gen764", 0.2101, True, False]],
    "tries": [["cobalt.queue", 0.2025], ["gen438", 0.1236], ["gen173", 0.1204], ["gen321", 0.0772]],
    "spread": 0.02512, "card": {"cobalt.queue": 0.2025, "gen438": 0.1236, "gen173": 0.1204},
    "said": {"cobalt.queue": 0.3028, "gen438": 0.2987, "gen173": 0.2977},
    "floor": {"cobalt.queue": 0.2965, "gen438": 0.3011, "gen173": 0.2961},
    "stands_out": None, "second_result": "cobalt.queue", "proposed": ["cobalt.queue"],
}  # fmt: skip
SILENT = {
    "set": "loop_messages_heldout", "id": "hen08", "kind": "cue", "expect": "atlas.errors", "ok": False,
    "block": [], "words": [["gen5", 0.1213, True, False]],
    "tries": [["atlas.errors", 0.2597], ["gen424", 0.1234], ["gen801", 0.1077]],
    "spread": 0.02502, "card": {"atlas.errors": 0.2597, "gen424": 0.1234, "gen801": 0.1077},
    "said": {"atlas.errors": 0.2527, "gen424": 0.3198, "gen801": 0.2924},
    "floor": {"atlas.errors": 0.3121, "gen424": 0.3217, "gen801": 0.2994},
    "stands_out": None, "second_result": None, "proposed": [],
}  # fmt: skip
WORDS = {
    "set": "loop_messages", "id": "en01", "kind": "cue", "expect": "atlas.queue", "ok": True,
    "block": ["atlas.queue"], "words": [["atlas.queue", 1.0, True, False]], "agrees": True,
    "tries": [["atlas.queue", 0.1862], ["gen547", 0.0007]], "spread": 0.02293,
}  # fmt: skip


def dump(tmp_path: Path) -> Path:
    path = tmp_path / "steps.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in (STOOD, SILENT, WORDS)))
    return path


def test_the_same_rule_changes_nothing_and_a_stricter_one_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    counts, changed, unknown = replay_recall.replay([dump(tmp_path)])
    # control: the rule that made the dump gives what it recorded
    assert changed == [] and unknown == 0
    assert counts["loop_messages_heldout7"]["cue: answer in block"] == [1, 1, 1]
    assert counts["loop_messages_heldout"]["cue: answer in block"] == [0, 0, 1]
    # the card must now lead by twice the margin when only what was said discounted shows it: h7en24's
    # 0.079 is short of 0.10; hen08, silent on what was said, and en01, the words', do not move
    monkeypatch.setattr(recallmeaning, "CROWDED_LEAD", 2.0)
    counts, changed, unknown = replay_recall.replay([dump(tmp_path)])
    assert changed == ["loop_messages_heldout7 h7en24 cue: ['cobalt.queue'] -> []"]
    assert counts["loop_messages_heldout7"]["cue: answer in block"] == [0, 1, 1]
    assert counts["loop_messages"]["cue: answer in block"] == [1, 1, 1]


def test_a_card_lead_that_passes_now_but_was_never_embedded_needs_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    short = {**SILENT, "tries": [["atlas.errors", 0.20], ["gen424", 0.19]], "block": [], "proposed": []}
    for key in ("card", "said", "floor", "stands_out", "second_result"):
        short.pop(key)
    path = tmp_path / "short.jsonl"
    path.write_text(json.dumps(short) + "\n")
    assert replay_recall.replay([path])[2] == 0  # control: 0.01 ahead is short of any margin here
    monkeypatch.setattr(recallmeaning, "MEANING_MARGIN", 0.005)
    _, changed, unknown = replay_recall.replay([path])
    assert unknown == 1 and changed == []  # kept as recorded, and counted


# Recorded alone (held-out 5's h5nv10, a topic never discussed): atlas.errors stood out by meaning, and it
# said nothing near the topic (`near_passage`), so the block stayed silent.
FAR = {
    "set": "loop_messages_heldout5", "id": "h5nv10", "kind": "unknown", "expect": None, "ok": True, "block": [],
    "words": [], "tries": [["atlas.errors", 0.1674], ["atlas.test_db", 0.0646], ["atlas.queue", 0.0641]],
    "spread": 0.05, "card": {"atlas.errors": 0.1674, "atlas.test_db": 0.0646, "atlas.queue": 0.0641},
    "said": {"atlas.errors": 0.185, "atlas.test_db": 0.1008, "atlas.queue": 0.1208},
    "floor": {"atlas.errors": 0.2112, "atlas.test_db": 0.1151, "atlas.queue": 0.1381},
    "stands_out": "atlas.errors", "proposed": ["atlas.errors"], "passage": ["atlas.errors", False],
}  # fmt: skip


def test_a_session_that_said_nothing_near_the_topic_stays_silent_in_the_replay(tmp_path: Path) -> None:
    path = tmp_path / "far.jsonl"
    path.write_text(json.dumps(FAR) + "\n")
    counts, changed, unknown = replay_recall.replay([path])
    assert changed == [] and unknown == 0
    assert counts["loop_messages_heldout5"]["never-discussed silent"] == [1, 1, 1]
    near = {**FAR, "passage": ["atlas.errors", True], "block": ["atlas.errors"], "ok": False}
    path.write_text(json.dumps(near) + "\n")
    assert replay_recall.replay([path])[1] == []  # control: near the topic, it fires as recorded
