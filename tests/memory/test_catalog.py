"""The parse cache: unchanged files are not re-read; changed or removed ones are; the sidecar is disposable."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from recollect.memory import MemorySpace, catalog, recall, remember


@pytest.fixture
def counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    reads: list[Path] = []
    original = catalog.load_memory_file

    def counting(path: Path, memory_id: str, root):  # type: ignore[no-untyped-def]
        reads.append(path)
        return original(path, memory_id, root)

    monkeypatch.setattr(catalog, "load_memory_file", counting)
    return reads


PAST_NS = 1_700_000_000 * 10**9  # a fixed, long-gone mtime: the same value every time it is set


def age(path: Path) -> None:
    os.utime(path, ns=(PAST_NS, PAST_NS))


def test_sidecar_is_used_by_a_fresh_process_and_invalidated(
    space: MemorySpace, project: Path, counted_reads: list[Path]
) -> None:
    remember(space, "pnpm for deploys", category="facts", summary="deploys")
    catalog.save_sidecars()
    assert len(list((space.cache_dir or Path()).glob("memory/project-*.json"))) == 1

    # A fresh process: nothing in memory, everything from the sidecar, no memory file read.
    catalog.drop_all_indexes()
    counted_reads.clear()
    assert [h.memory.id for h in recall(space, "pnpm")] == ["facts/deploys"]
    assert counted_reads == []

    # A hand edit changes size or mtime: that file, and only that one, is read again.
    path = project / ".memory" / "facts" / "deploys.md"
    path.write_text(path.read_text().replace("pnpm for deploys", "yarn for deploys"))
    assert recall(space, "pnpm") == []
    assert [h.memory.id for h in recall(space, "yarn")] == ["facts/deploys"]
    assert counted_reads == [path]

    path.unlink()
    assert recall(space, "yarn") == []


def test_in_place_edits_are_seen_within_rescan_seconds(space: MemorySpace, project: Path) -> None:
    remember(space, "pnpm for deploys", category="facts", summary="deploys")
    path = project / ".memory" / "facts" / "deploys.md"
    age(path)
    age(path.parent)  # an old directory mtime: only a sweep would notice an in-place edit
    lazy = replace(space, settings=replace(space.settings, rescan_seconds=3600))
    assert [h.memory.id for h in recall(lazy, "pnpm")] == ["facts/deploys"]  # a sweep: the first look
    with open(path, "r+", encoding="utf-8") as handle:  # edit in place, as some editors do
        text = handle.read().replace("pnpm", "yarn")
        handle.seek(0)
        handle.write(text)
        handle.truncate()
    age(path.parent)
    assert [h.memory.id for h in recall(lazy, "pnpm")] == ["facts/deploys"]  # not swept yet
    eager = replace(space, settings=replace(space.settings, rescan_seconds=0))
    assert recall(eager, "pnpm") == []
    assert [h.memory.id for h in recall(eager, "yarn")] == ["facts/deploys"]


def test_a_new_file_is_seen_at_once_even_between_sweeps(space: MemorySpace, project: Path) -> None:
    remember(space, "pnpm for deploys", category="facts", summary="deploys")
    lazy = replace(space, settings=replace(space.settings, rescan_seconds=3600))
    recall(lazy, "pnpm")
    (project / ".memory" / "facts" / "other.md").write_text("---\nsummary: cargo builds\n---\ncargo\n")
    assert [h.memory.id for h in recall(lazy, "cargo")] == ["facts/other"]


def test_corrupt_sidecar_is_rebuilt(space: MemorySpace) -> None:
    remember(space, "pnpm for deploys", category="facts", summary="deploys")
    catalog.save_sidecars()
    for sidecar in (space.cache_dir or Path()).glob("memory/*.json"):
        sidecar.write_text("{not json")
    catalog.drop_all_indexes()
    assert [h.memory.id for h in recall(space, "pnpm")] == ["facts/deploys"]
