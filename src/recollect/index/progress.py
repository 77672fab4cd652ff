"""How a sync tells its progress: a callback (source id, done, total) that a terminal shows as bars."""

from __future__ import annotations

from collections.abc import Callable

# (source id, done, total); the embedding passes tell theirs under a label with a space, which no source id has
Progress = Callable[[str, int, int], None]


class Bar:
    """One source's progress, in sessions: told each session done, so the bar (and the time left it shows)
    moves as the work does, not one batch of 50 at a time."""

    def __init__(self, source_id: str, total: int, progress: Progress | None) -> None:
        self.source_id, self.total, self.done, self.progress = source_id, total, 0, progress
        if progress:
            progress(source_id, 0, total)

    def add(self, n: int = 1) -> None:
        self.reach(self.done + n)

    def reach(self, done: int) -> None:
        done = min(done, self.total)
        if done > self.done:
            self.done = done
            if self.progress:
                self.progress(self.source_id, done, self.total)
