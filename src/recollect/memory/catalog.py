"""Loading every memory file of a root, fast enough for 10,000 of them.

Owns the parse-and-tokenize cache: a file whose mtime and size are unchanged is not read again,
within a process (a dict) or across processes (a JSON sidecar under the cache dir, which is
disposable: delete it and the next load rebuilds it). The files stay the truth; this module
never writes a memory file and never decides what surfaces.

Callers get shared `Memory` objects: copy them (`dataclasses.replace`) before changing one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from recollect.memory.files import (
    INDEX_FILE,
    InvalidMemory,
    Memory,
    MemoryRoot,
    memory_from_text,
    split_id,
    write_text_atomic,
)
from recollect.text.tokenize import tokenize

SIDECAR_VERSION = 1
_TIME_FIELDS = ("created", "updated", "valid_from", "valid_to", "reviewed_at")


@dataclass
class Loaded:
    memory: Memory
    terms: dict[str, int]  # token -> occurrences in memory.search_text()


@dataclass
class RootContents:
    root: MemoryRoot
    entries: list[Loaded] = field(default_factory=list)  # sorted by id
    bad_names: list[Path] = field(default_factory=list)  # *.md files whose name is not a valid id

    @cached_property
    def by_id(self) -> dict[str, Loaded]:
        return {entry.memory.id: entry for entry in self.entries}


# root path -> relative id -> (mtime_ns, size, Loaded)
_Cached = tuple[int, int, Loaded]
_MEMO: dict[str, dict[str, _Cached]] = {}


def forget_cached(root: MemoryRoot, memory_id: str | None = None) -> None:
    """Drop cached parses after our own writes, so a same-size rewrite in one mtime tick is not missed."""
    cached = _MEMO.get(str(root.path))
    if cached is None:
        return
    if memory_id is None:
        cached.clear()
    else:
        cached.pop(memory_id, None)


def load_memory_file(path: Path, memory_id: str, root: MemoryRoot) -> Loaded:
    text = path.read_text(encoding="utf-8", errors="replace")
    memory = memory_from_text(text, memory_id=memory_id, scope=root.scope, path=path)
    return Loaded(memory, dict(Counter(tokenize(memory.search_text()))))


def load_root(root: MemoryRoot, cache_dir: Path | None = None) -> RootContents:
    """Every memory file of `root`; a missing root reads as empty (it is created on first write)."""
    contents = RootContents(root)
    if not root.path.is_dir():
        return contents
    key = str(root.path)
    cached = _MEMO.get(key)
    sidecar = _sidecar_path(root, cache_dir) if cache_dir else None
    if cached is None:
        cached = _read_sidecar(sidecar, root) if sidecar else {}
        _MEMO[key] = cached
    seen: set[str] = set()
    changed = False
    for category_entry in _scandir(root.path):
        if not category_entry.is_dir() or category_entry.name.startswith("."):
            continue
        for entry in _scandir(category_entry.path):
            name = entry.name
            if not name.endswith(".md") or name == INDEX_FILE or name.startswith(".") or not entry.is_file():
                continue
            memory_id = f"{category_entry.name}/{name[:-3]}"
            try:
                split_id(memory_id)
            except InvalidMemory:
                contents.bad_names.append(Path(entry.path))
                continue
            stat = entry.stat()
            seen.add(memory_id)
            hit = cached.get(memory_id)
            if hit is not None and hit[0] == stat.st_mtime_ns and hit[1] == stat.st_size:
                contents.entries.append(hit[2])
                continue
            loaded = load_memory_file(Path(entry.path), memory_id, root)
            cached[memory_id] = (stat.st_mtime_ns, stat.st_size, loaded)
            contents.entries.append(loaded)
            changed = True
    for vanished in set(cached) - seen:
        del cached[vanished]
        changed = True
    contents.entries.sort(key=lambda e: e.memory.id)
    if changed and sidecar:
        _write_sidecar(sidecar, root, cached)
    return contents


def _scandir(path: str | Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(path) as it:
            return list(it)
    except (FileNotFoundError, NotADirectoryError):
        return []


# --- sidecar -----------------------------------------------------------------------------------


def _sidecar_path(root: MemoryRoot, cache_dir: Path) -> Path:
    digest = hashlib.sha256(str(root.path.resolve()).encode()).hexdigest()[:16]
    return cache_dir / "memory" / f"{root.scope}-{digest}.json"


def _pack(loaded: Loaded) -> dict[str, Any]:
    memory = loaded.memory
    data: dict[str, Any] = {}
    for f in fields(Memory):
        if f.name in ("scope", "path"):
            continue
        value = getattr(memory, f.name)
        data[f.name] = value.timestamp() if isinstance(value, datetime) else value
    data["terms"] = loaded.terms
    return data


def _unpack(data: dict[str, Any], root: MemoryRoot) -> Loaded:
    terms = data.pop("terms")
    for name in _TIME_FIELDS:
        if data.get(name) is not None:
            data[name] = datetime.fromtimestamp(data[name], UTC)
    category, slug = data["id"].split("/", 1)
    memory = Memory(scope=root.scope, path=root.path / category / f"{slug}.md", **data)
    return Loaded(memory, terms)


def _read_sidecar(path: Path, root: MemoryRoot) -> dict[str, _Cached]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if raw.get("version") != SIDECAR_VERSION or raw.get("root") != str(root.path):
            return {}
        return {mid: (mtime, size, _unpack(data, root)) for mid, (mtime, size, data) in raw["files"].items()}
    except (OSError, ValueError, KeyError, TypeError):
        return {}  # the sidecar is disposable: anything wrong with it means "rebuild"


def _write_sidecar(path: Path, root: MemoryRoot, cached: dict[str, _Cached]) -> None:
    payload = {
        "version": SIDECAR_VERSION,
        "root": str(root.path),
        "files": {mid: [mtime, size, _pack(loaded)] for mid, (mtime, size, loaded) in cached.items()},
    }
    with contextlib.suppress(OSError):  # a read-only cache dir costs speed, never correctness
        write_text_atomic(path, json.dumps(payload, ensure_ascii=False, separators=(",", ":")))
