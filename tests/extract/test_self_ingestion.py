"""Worker sessions close their loop: neither the extractor nor the history index reads them back.

The extractor side is held by test_run.py (a worker-titled session is skipped without a model
call). This file holds the index side, which the index owner implements: a session whose title
carries WORKER_TITLE_MARKER must not be searchable. Our workers are deleted after each call, so
this only matters for one whose deletion failed, or one synced in the seconds it exists.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from recollect import history
from recollect.text.markers import WORKER_TITLE_MARKER

from .store import Store, assistant, user


def test_worker_sessions_stay_out_of_the_index(project: Path, store: Store, configure: Callable[..., Path]) -> None:
    store.session(project, [user("plumbusword in a person's session"), assistant("ok")], title="real work")
    store.session(
        project,
        [user("Transcript: L1 user: flurbleword"), assistant('{"memories": []}')],
        title=f"{WORKER_TITLE_MARKER} extract opencode::ses_x",
    )
    history.index()
    # Positive control: the person's session is found.
    assert [h.title for h in history.search("plumbusword", sync_first=False).hits] == ["real work"]
    assert history.search("flurbleword", sync_first=False).hits == []
