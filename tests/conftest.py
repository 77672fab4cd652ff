"""Shared fixtures: an isolated recollect home, and real OpenCode stores copied into temp dirs."""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SAMPLE_DB = REPO / "src" / "recollect" / "data" / "demo" / "opencode.db"
CHECKPOINTS = DATA / "opencode" / "checkpoints"

# The full encoder's loaded form (~85 MB, made in ~2 s from the package) is shared by every test of a
# run and kept between runs on one machine: resolved here, before any test points HOME at a temp dir.
MODEL_CACHE = Path(os.environ.get("RECOLLECT_TEST_MODEL_CACHE", Path.home() / ".cache" / "recollect-tests" / "models"))

_ISOLATING_ENV = ("OPENCODE_DB", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_DIR", "RECOLLECT_SOURCES")
# Set by recollect itself in its process (`recollect search` and `recollect mcp` ask OpenBLAS for one thread).
# A test running those in-process must not leave them to the tests after it: OpenBLAS started long before
# with its own thread count, and the full encoder, reading the variable, would skip its thread limit and
# give vectors that differ in the last bits from a fresh encoder's (test_muse compares them exactly).
_PROCESS_ENV = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own RECOLLECT_HOME and HOME, so no real store or index is ever touched."""
    home = tmp_path / "home"
    for sub in (".local/share", ".config", ".cache"):
        (home / sub).mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("RECOLLECT_HOME", str(tmp_path / "recollect"))
    for name in _ISOLATING_ENV:
        monkeypatch.delenv(name, raising=False)
    # Semantic search is tested on purpose (the `semantic` fixture), not as a side effect of every index.
    monkeypatch.setenv("RECOLLECT_EMBEDDINGS", "off")
    monkeypatch.setenv("RECOLLECT_MODEL_CACHE", str(MODEL_CACHE))
    saved = {name: os.environ.get(name) for name in _PROCESS_ENV}
    yield tmp_path / "recollect"
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture
def semantic(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn semantic search on (the static model ships; the card encoder's cache is MODEL_CACHE)."""
    monkeypatch.delenv("RECOLLECT_EMBEDDINGS", raising=False)


def checkpoint_path(n: int) -> Path:
    matches = sorted(CHECKPOINTS.glob(f"{n:02d}_*.db.gz"))
    assert matches, f"no checkpoint {n}"
    return matches[0]


def unpack_checkpoint(n: int, dest: Path) -> Path:
    dest.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(checkpoint_path(n), "rb") as src, open(dest, "wb") as out:
        shutil.copyfileobj(src, out)
    return dest


@pytest.fixture
def sample_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the real sample store, selected through OPENCODE_DB."""
    path = tmp_path / "store" / "opencode.db"
    path.parent.mkdir()
    shutil.copyfile(SAMPLE_DB, path)
    monkeypatch.setenv("OPENCODE_DB", str(path))
    return path


def file_hashes(*paths: Path) -> dict[str, str]:
    """sha256 of each existing file among `paths` and their -wal/-shm siblings."""
    out = {}
    for path in paths:
        for candidate in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            if candidate.exists():
                out[str(candidate)] = hashlib.sha256(candidate.read_bytes()).hexdigest()
    return out
