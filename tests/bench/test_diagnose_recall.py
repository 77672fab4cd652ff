"""bench/diagnose_recall.py says why auto-recall missed: a cue whose answer is another session's is printed
as a miss with the path that decided; a hit is not printed (without --all)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench import diagnose_recall
from recollect.integrations import autorecall, recallmeaning

ASK = "What did we decide last time about the background job queue?"


def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], expect: str) -> str:
    messages = tmp_path / "messages.json"
    cue = {"id": "t01", "project": "atlas", "expect": expect, "text": ASK}
    messages.write_text(json.dumps({"cue": [cue], "unknown": [], "ordinary": []}))
    for name in ("RECOLLECT_HOME", "OPENCODE_DB", "RECOLLECT_SOURCES"):
        monkeypatch.setenv(name, "")  # main sets them: restored after the test
    argv = ["diagnose_recall", "--sessions", "0", "--keep", str(tmp_path / "world"), "--loop", str(messages)]
    monkeypatch.setattr(sys, "argv", argv)
    diagnose_recall.main()
    return capsys.readouterr().out


def test_a_miss_says_which_path_decided(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = [getattr(autorecall, name) for name in diagnose_recall.WRAPPED] + [recallmeaning.stands_out]
    # Positive control: the queue session answers the queue question, found by its words; no miss line.
    out = run(tmp_path, monkeypatch, capsys, "atlas.queue")
    assert "cue: answer in block      1/1" in out and "MISS" not in out
    # What it wrapped to record the steps is put back: the rest of the process gets the real functions.
    after = [getattr(autorecall, name) for name in diagnose_recall.WRAPPED] + [recallmeaning.stands_out]
    assert all(a is b for a, b in zip(after, real, strict=True))
    # The same world, reused (not built again), and an answer the block does not name: a miss, and why.
    out = run(tmp_path, monkeypatch, capsys, "atlas.errors")
    assert "indexed in" not in out
    miss = [line for line in out.splitlines() if line.startswith("MISS")]
    assert len(miss) == 1 and "block=['atlas.queue']" in miss[0]
    assert "words: 1 answered >= 0.4 [atlas.queue" in out and "answer not among" in out


def test_the_held_out_set_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["diagnose_recall", "--keep", str(tmp_path), "--loop", "bench/loop_messages_heldout10.json"]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit, match="held-out set"):
        diagnose_recall.main()


def test_the_functions_are_put_back_when_the_run_fails() -> None:
    trace = diagnose_recall.Trace()
    real = autorecall.candidates
    with pytest.raises(RuntimeError), trace.installed():
        assert autorecall.candidates is not real  # control: wrapped while it runs
        raise RuntimeError("a message failed")
    assert autorecall.candidates is real
