"""bench/bench_recall.py tells a cue that fired without its answer from one that stayed silent."""

from __future__ import annotations

from bench.bench_recall import outcome


def test_a_cue_block_without_the_answer_is_not_reported_as_a_silence() -> None:
    assert outcome("cue", True, 2) == "rank 2"  # control: the answer is in the block
    assert outcome("cue", True, 0) == "wrong"
    assert outcome("cue", False, 0) == "silent"
    assert outcome("ordinary", True, 0) == "FIRED"
    assert outcome("unknown", False, 0) == "silent"
