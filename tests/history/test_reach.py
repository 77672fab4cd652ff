"""`history.search` and `history.sessions` share their `Reach` keywords (config, app, sync_first): each
is checked like an ordinary keyword, so a misspelt one is refused, not silently dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from recollect import history
from recollect.app import Recollect
from recollect.config import load_config


@pytest.fixture
def indexed(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())
    return sample_db


def test_the_reach_keywords_are_taken(indexed: Path) -> None:
    config = load_config()
    assert history.search("readme", config=config, sync_first=False).hits
    assert history.sessions(config=config, sync_first=False)
    with Recollect(config) as app:
        assert history.search("readme", app=app).hits
        assert history.sessions(limit=1, app=app, sync_first=True)


def test_a_misspelt_reach_keyword_is_refused(indexed: Path) -> None:
    assert history.search("readme", sync_first=False).hits  # positive control: the spelt keyword works
    with pytest.raises(TypeError, match="sync_frist"):
        history.search("readme", sync_frist=False)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="conifg"):
        history.sessions(conifg=load_config())  # type: ignore[call-arg]
