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


def test_the_embedding_bar_moves_a_few_texts_at_a_time(
    semantic: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The static model's pass wrote (and told) 512 texts at a time; it still writes that many a transaction,
    but tells every PROGRESS_STEP texts embedded, and stores the vectors one batch of 512 would make."""
    import numpy as np

    from recollect.app import Recollect
    from recollect.config import resolve_paths
    from recollect.index import vectors
    from tests import many_matches

    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(many_matches.write(tmp_path / "claude", project)))
    monkeypatch.setenv("RECOLLECT_SOURCES", "claude-code")
    monkeypatch.setenv(prepare.WORKERS_ENV, "0")
    config_file = resolve_paths().config_file
    config_file.parent.mkdir(parents=True, exist_ok=True)
    config_file.write_text("[embeddings]\ncards = false\n", encoding="utf-8")  # the static model's pass alone
    seen: list[tuple[int, int]] = []
    history.index(
        progress=lambda label, done, total: seen.append((done, total)) if label == "embedding texts" else None
    )
    total = seen[-1][1]
    assert total > vectors.BATCH and seen[0] == (0, total) and seen[-1] == (total, total), seen  # from 0 to all
    steps = [b[0] - a[0] for a, b in itertools.pairwise(seen)]
    assert vectors.PROGRESS_STEP < vectors.BATCH
    assert all(step > 0 for step in steps) and max(steps) <= vectors.PROGRESS_STEP, seen

    app = Recollect()
    try:
        embedder = app.embedder
        with app.index(readonly=True) as conn:
            stored = vectors.stored_vectors(conn)
            texts = dict(conn.execute("SELECT hash, text FROM chunk WHERE hash NOTNULL").fetchall())
    finally:
        app.close()
    mine = {h: v for (h, m), v in stored.items() if m == embedder.model_id and h in texts}
    assert len(mine) > vectors.BATCH
    hashes = list(mine)
    whole = vectors.packed(embedder.embed([vectors.embed_text(texts[h]) for h in hashes]))  # one batch
    again = vectors.packed(np.stack([mine[h] for h in hashes]))
    assert whole.tobytes() == again.tobytes()
