"""The parse cache: unchanged files are not re-read; a changed or removed file is; the sidecar is disposable."""

from __future__ import annotations

import os
from pathlib import Path

from recollect.memory import MemorySpace, catalog, recall, remember


def test_sidecar_is_used_and_invalidated(space: MemorySpace, project: Path, monkeypatch) -> None:
    remember(space, "pnpm for deploys", category="facts", summary="deploys")
    sidecars = list((space.cache_dir or Path()).glob("memory/project-*.json"))
    assert len(sidecars) == 1

    # A fresh process: nothing in memory, everything from the sidecar, no file read.
    catalog._MEMO.clear()
    reads: list[Path] = []
    original = catalog.load_memory_file
    monkeypatch.setattr(catalog, "load_memory_file", lambda p, i, r: reads.append(p) or original(p, i, r))
    assert [h.memory.id for h in recall(space, "pnpm")] == ["facts/deploys"]
    assert reads == []

    # A hand edit changes size or mtime: that file is read again.
    path = project / ".memory" / "facts" / "deploys.md"
    path.write_text(path.read_text().replace("pnpm for deploys", "yarn for deploys"))
    os.utime(path, ns=(path.stat().st_mtime_ns + 10**9, path.stat().st_mtime_ns + 10**9))
    assert recall(space, "pnpm") == []
    assert [h.memory.id for h in recall(space, "yarn")] == ["facts/deploys"]
    assert reads == [path]

    # A deleted file disappears from recall.
    path.unlink()
    assert recall(space, "yarn") == []


def test_corrupt_sidecar_is_rebuilt(space: MemorySpace) -> None:
    remember(space, "pnpm for deploys", category="facts", summary="deploys")
    for sidecar in (space.cache_dir or Path()).glob("memory/*.json"):
        sidecar.write_text("{not json")
    catalog._MEMO.clear()
    assert [h.memory.id for h in recall(space, "pnpm")] == ["facts/deploys"]
