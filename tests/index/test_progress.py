"""`recollect index`'s bar moves a session at a time (index/sync.py `_Bar`), with or without the worker
processes: it used to move once per batch of 50, so its time left was a guess. Over 62 real Claude Code
transcripts (tests/data/claude-code)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from recollect import history
from recollect.index import prepare

DATA = Path(__file__).resolve().parent.parent / "data" / "claude-code"


@pytest.mark.parametrize("workers", ["0", "1"])
def test_the_bar_moves_a_few_sessions_at_a_time(workers: str, monkeypatch: pytest.MonkeyPatch) -> None:
    project = Path.home() / ".claude" / "projects" / "-Users-m-projects"
    project.mkdir(parents=True)
    for path in DATA.glob("*.jsonl"):
        (project / path.name).write_bytes(path.read_bytes())
    monkeypatch.setenv("RECOLLECT_SOURCES", "claude-code")
    monkeypatch.setenv(prepare.WORKERS_ENV, workers)
    seen: list[tuple[int, int]] = []
    report = history.index(
        progress=lambda source, done, total: seen.append((done, total)) if source == "claude" else None
    )
    total = 62
    assert report.sources[0].sessions == total - 1  # one file holds only a title: no session
    assert seen[0] == (0, total) and seen[-1] == (total, total), seen  # positive control: from 0 to all
    steps = [b[0] - a[0] for a, b in itertools.pairwise(seen)]
    assert all(step > 0 for step in steps), seen  # never backwards, never the same twice
    # One session at a time in the writer; a job of the workers (JOB_SESSIONS) at a time with them.
    assert max(steps) <= (1 if workers == "0" else prepare.JOB_SESSIONS), seen
