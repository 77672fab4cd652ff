"""The index statistics auto-recall keeps between cue messages (integrations/recallstats.py): kept while
the index is unchanged, dropped by any commit. A real index; the helper keeps its connection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from recollect import history
from recollect.index import store
from recollect.index.sync import insert_session
from recollect.integrations import recallstats
from recollect.integrations.hooks import HookService
from tests.integrations.test_autorecall import CUE, PROJ, index, make

__all__ = ["index"]  # the fixture, used by name

FLUX = "What did we decide last time about the flux capacitor calibration?"
FLUX_SESSION = make(
    "ses_flux",
    PROJ,
    [("how should we calibrate the flux capacitor?", "Decided: calibrate the flux capacitor at 1.21 gigawatts.")],
)


def test_a_session_indexed_between_messages_counts_at_the_next(index: Path) -> None:
    service = HookService()
    assert "ses_answer" in service.recall_block("s", PROJ, CUE)[0]  # positive control
    assert service.recall_block("s", PROJ, FLUX) == ("", "what did we decide")  # no word of it is known yet
    conn = store.connect(index)  # another connection, as the idle sync's
    insert_session(conn, FLUX_SESSION, "w", None)
    conn.commit()
    conn.close()
    assert "ses_flux" in service.recall_block("s", PROJ, FLUX)[0]  # its words' counts were looked up again
    service.close()


def test_counts_are_looked_up_once_while_the_index_is_unchanged(index: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[list[str]] = []
    real = history.document_frequencies

    def counting(conn: Any, terms: list[str]) -> dict[str, int]:
        asked.append(list(terms))
        return real(conn, terms)

    monkeypatch.setattr(history, "document_frequencies", counting)
    service = HookService()
    first = service.recall_block("s", PROJ, CUE)
    assert "ses_answer" in first[0] and len(asked) == 1  # control: looked up
    assert service.recall_block("s2", PROJ, CUE) == first and len(asked) == 1  # kept: not again
    conn = store.connect(index)
    insert_session(conn, FLUX_SESSION, "w", None)
    conn.commit()
    conn.close()
    assert service.recall_block("s3", PROJ, CUE) == first and len(asked) == 2  # a commit: looked up again
    service.close()


def test_a_kept_count_answers_as_the_lookup_does(index: Path) -> None:
    conn = store.connect(index)
    try:
        terms = ["worker", "queue", "flux", "worker"]
        looked_up = history.document_frequencies(conn, terms)
        assert looked_up["worker"] > 0 and looked_up["flux"] == 0  # control
        assert recallstats.document_frequencies(conn, terms) == looked_up
        assert recallstats.document_frequencies(conn, ["queue", "rq"]) == history.document_frequencies(
            conn, ["queue", "rq"]
        )
        assert recallstats.chunk_count(conn) == history.chunk_count(conn)
    finally:
        conn.close()
