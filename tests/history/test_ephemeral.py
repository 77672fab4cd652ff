"""`recollect search --ephemeral`: the stores read into an index in memory; nothing is written to disk."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import file_hashes


def every_file(root: Path) -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def search(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RECOLLECT_SOURCES": "opencode", "TMPDIR": str(tmp), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "recollect.cli", "search", *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_ephemeral_search_finds_hits_and_writes_no_file(sample_db: Path, tmp_path: Path, isolated_home: Path) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    before, store_before = every_file(tmp_path), file_hashes(sample_db)
    out = search("missing-file.txt", "--ephemeral", "--json", tmp=tmp)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["hits"] and data["hits"][0]["directory"] == "/srv/oc/projects/alpha"
    assert data["coverage"]["sessions_indexed"] == 12
    assert every_file(tmp_path) == before  # no index, no cache, no log, no temp file: nothing new or changed
    assert file_hashes(sample_db) == store_before
    assert not isolated_home.exists() or not any(isolated_home.iterdir())

    # The control: an ordinary search builds the index on disk, so the check above can see a write.
    ordinary = search("missing-file.txt", "--json", tmp=tmp)
    assert ordinary.returncode == 0 and json.loads(ordinary.stdout)["hits"]
    assert set(every_file(tmp_path)) - set(before)
