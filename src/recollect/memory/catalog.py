"""Loading every memory file of a root, fast enough for 10,000 of them.

The seed scanned every file on every call and said that gets slow near ten thousand memories;
measured here, reading and tokenizing is ~0.4 ms a file, so a full scan of 10,000 takes seconds.
This module owns the cure, an index that is derived and disposable, never the truth:

- in a process, a `RootIndex` per root keeps each file's parse, its term counts, and postings
  (term -> ids), updated file by file;
- freshness: each call stats the category directories (a handful of stats); a directory whose
  mtime moved — every create, delete or rename, so every write of ours — is re-listed and its
  files' mtime+size compared. Edits made in place by hand, which leave the directory mtime alone,
  are caught by a full sweep at most `rescan_seconds` apart;
- across processes, a JSON sidecar under the cache dir holds the parses, validated by mtime+size
  on load and rewritten when the process exits (or at once after a large rebuild).

It never writes a memory file and never decides what surfaces. Callers get shared `Memory`
objects: copy them (`dataclasses.replace`) before changing one.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import json
import os
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from recollect.memory.compile import standing
from recollect.memory.files import (
    INDEX_FILE,
    InvalidMemory,
    Memory,
    MemoryRoot,
    memory_from_text,
    split_id,
    write_text_atomic,
)
from recollect.memory.settings import RULES_CATEGORY
from recollect.text import tokenize as tokenize_module
from recollect.text.tokenize import tokenize

SIDECAR_VERSION = 3
_TIME_FIELDS = ("created", "updated", "valid_from", "valid_to", "reviewed_at")
# A directory modified this recently may change again within the same mtime tick: don't trust it.
_RACY_NS = 1_000_000_000
# Rebuilding this many files is worth saving at once rather than at exit.
_EAGER_SIDECAR_FILES = 200


@dataclass
class Loaded:
    memory: Memory
    # token -> occurrences in memory.search_text(); computed on first use when the parse came from
    # the sidecar, which keeps postings rather than every file's terms (they were most of its bulk).
    _terms: dict[str, int] | None = None
    # Derived once per parse, because recall reads them for thousands of memories per query:
    standing: str = field(init=False)  # compile.standing(memory)
    when_ts: float | None = field(init=False)  # epoch seconds of updated (or created), for decay

    def __post_init__(self) -> None:
        self.standing = standing(self.memory)
        when = self.memory.updated or self.memory.created
        self.when_ts = when.timestamp() if when else None

    @property
    def terms(self) -> dict[str, int]:
        if self._terms is None:
            self._terms = dict(Counter(tokenize(self.memory.search_text())))
        return self._terms


@dataclass
class RootContents:
    """One consistent snapshot of a root. Also the columns recall scores with, built on first use
    and kept until the root changes, so a query costs a few vectorized passes, not a Python loop
    over every matching memory."""

    root: MemoryRoot
    files: dict[str, Loaded] = field(default_factory=dict)
    bad_names: list[Path] = field(default_factory=list)  # *.md files whose name is not a valid id
    postings: dict[str, set[str]] = field(default_factory=dict)  # term -> ids (live: read, never change)
    _rows: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @functools.cached_property
    def entries(self) -> list[Loaded]:
        return [self.files[k] for k in sorted(self.files)]

    @property
    def by_id(self) -> dict[str, Loaded]:
        return self.files

    @property
    def order(self) -> list[Loaded]:
        """Row i of every column is order[i]; rows are sorted by id, so stable sorts tie by id."""
        return self.entries

    @functools.cached_property
    def position(self) -> dict[str, int]:
        return {loaded.memory.id: i for i, loaded in enumerate(self.order)}

    @functools.cached_property
    def columns(self) -> Columns:
        order = self.order
        return Columns(
            when_ts=np.array([np.nan if e.when_ts is None else e.when_ts for e in order], dtype=np.float64),
            pinned=np.array([e.memory.pinned for e in order], dtype=bool),
            active=np.array([e.standing == "active" for e in order], dtype=bool),
            rule=np.array([e.memory.category == RULES_CATEGORY for e in order], dtype=bool),
            bounded=[i for i, e in enumerate(order) if e.memory.valid_from or e.memory.valid_to],
        )

    def term_rows(self, term: str) -> np.ndarray:
        """The rows of the memories holding `term`."""
        rows = self._rows.get(term)
        if rows is None:
            position = self.position
            found = (position.get(i) for i in self.postings.get(term, ()))
            rows = np.fromiter((r for r in found if r is not None), dtype=np.intp)
            self._rows[term] = rows
        return rows


@dataclass(frozen=True)
class Columns:
    when_ts: np.ndarray  # float64 epoch seconds of updated (or created); NaN when undated
    pinned: np.ndarray  # bool
    active: np.ndarray  # bool: standing == "active" (before the clock and tombstones)
    rule: np.ndarray  # bool: in the rules category
    bounded: list[int]  # rows with valid_from / valid_to, checked against the clock per query


_Cached = tuple[int, int, Loaded]  # (mtime_ns, size, parse)


class RootIndex:
    """Everything parsed from one root, kept current file by file."""

    def __init__(self, root: MemoryRoot, sidecar: Path | None) -> None:
        self.root = root
        self.sidecar = sidecar
        self.files: dict[str, _Cached] = {}
        self.by_category: dict[str, set[str]] = {}
        self.postings: dict[str, set[str]] = {}
        self.dir_mtimes: dict[str, int] = {}
        self.bad_names: dict[str, list[Path]] = {}
        self.swept_at: float | None = None  # time.monotonic() of the last full sweep
        self.version = 0
        self.sidecar_dirty = False
        self._snapshot: tuple[int, RootContents] | None = None
        if sidecar is not None:
            self._read_sidecar()

    # -- postings ------------------------------------------------------------------------------

    def _put(self, memory_id: str, cached: _Cached) -> None:
        self._drop(memory_id)
        self.files[memory_id] = cached
        self.by_category.setdefault(memory_id.split("/", 1)[0], set()).add(memory_id)
        for term in cached[2].terms:
            self.postings.setdefault(term, set()).add(memory_id)
        self.version += 1
        self.sidecar_dirty = True

    def _drop(self, memory_id: str) -> None:
        old = self.files.pop(memory_id, None)
        if old is None:
            return
        self.by_category.get(memory_id.split("/", 1)[0], set()).discard(memory_id)
        for term in old[2].terms:
            ids = self.postings.get(term)
            if ids is not None:
                ids.discard(memory_id)
                if not ids:
                    del self.postings[term]
        self.version += 1
        self.sidecar_dirty = True

    def invalidate(self, memory_id: str | None = None) -> None:
        """Our own write: re-check that file (or everything) on the next refresh."""
        if memory_id is None:
            self.dir_mtimes.clear()
            self.swept_at = None
            return
        self.dir_mtimes.pop(memory_id.split("/", 1)[0], None)
        cached = self.files.get(memory_id)
        if cached is not None:
            self.files[memory_id] = (-1, -1, cached[2])  # stale marker: forces a re-read

    # -- freshness -----------------------------------------------------------------------------

    def refresh(self, rescan_seconds: float) -> None:
        now_mono = time.monotonic()
        full = self.swept_at is None or now_mono - self.swept_at >= rescan_seconds
        now_ns = time.time_ns()
        present: set[str] = set()
        reread = 0
        for entry in _scandir(self.root.path):
            if entry.name.startswith(".") or not entry.is_dir():
                continue
            category = entry.name
            present.add(category)
            mtime = entry.stat().st_mtime_ns
            known = self.dir_mtimes.get(category)
            if full or known != mtime or now_ns - mtime < _RACY_NS:
                reread += self._sweep_dir(category, Path(entry.path))
                self.dir_mtimes[category] = mtime
        for category in set(self.dir_mtimes) - present:
            del self.dir_mtimes[category]
        for category in set(self.by_category) - present:
            for mid in list(self.by_category.pop(category)):
                self._drop(mid)
        for category in set(self.bad_names) - present:
            del self.bad_names[category]
        if full:
            self.swept_at = now_mono
        if self.sidecar is not None and self.sidecar_dirty and reread >= _EAGER_SIDECAR_FILES:
            self.write_sidecar()

    def _sweep_dir(self, category: str, directory: Path) -> int:
        seen: set[str] = set()
        bad: list[Path] = []
        reread = 0
        for entry in _scandir(directory):
            name = entry.name
            if not name.endswith(".md") or name == INDEX_FILE or name.startswith("."):
                continue
            memory_id = f"{category}/{name[:-3]}"
            cached = self.files.get(memory_id)
            if cached is None:  # a known id was validated when it was first read
                try:
                    split_id(memory_id)
                except InvalidMemory:
                    bad.append(Path(entry.path))
                    continue
            try:
                if not entry.is_file():
                    continue
                stat = entry.stat()
            except FileNotFoundError:
                continue  # deleted while we listed
            seen.add(memory_id)
            if cached is not None and cached[0] == stat.st_mtime_ns and cached[1] == stat.st_size:
                continue
            try:
                loaded = load_memory_file(Path(entry.path), memory_id, self.root)
            except FileNotFoundError:
                seen.discard(memory_id)
                continue
            self._put(memory_id, (stat.st_mtime_ns, stat.st_size, loaded))
            reread += 1
        for mid in self.by_category.get(category, set()) - seen:
            self._drop(mid)
        if bad:
            self.bad_names[category] = sorted(bad)
        else:
            self.bad_names.pop(category, None)
        return reread

    def snapshot(self) -> RootContents:
        if self._snapshot is None or self._snapshot[0] != self.version:
            contents = RootContents(
                self.root,
                files={mid: cached[2] for mid, cached in self.files.items()},
                bad_names=[p for c in sorted(self.bad_names) for p in self.bad_names[c]],
                postings=self.postings,
            )
            self._snapshot = (self.version, contents)
        return self._snapshot[1]

    # -- sidecar -------------------------------------------------------------------------------

    def _read_sidecar(self) -> None:
        assert self.sidecar is not None
        try:
            raw = json.loads(self.sidecar.read_text(encoding="utf-8"))
            if (raw.get("version"), raw.get("tokenizer"), raw.get("root")) != (
                SIDECAR_VERSION,
                _tokenizer_fingerprint(),
                str(self.root.path),
            ):
                return
            ids: list[str] = raw["ids"]
            dirs: dict[str, Path] = {}  # joining a name to a known dir parses far less than a full path
            for mid, (mtime, size, data) in zip(ids, raw["files"], strict=True):
                category, slug = mid.split("/", 1)
                directory = dirs.get(category) or dirs.setdefault(category, self.root.path / category)
                self.files[mid] = (mtime, size, _unpack(data, self.root, mid, directory / f"{slug}.md"))
                self.by_category.setdefault(mid.split("/", 1)[0], set()).add(mid)
            self.postings = {term: {ids[row] for row in rows} for term, rows in raw["postings"].items()}
            self.version += 1
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            # The sidecar is disposable: anything wrong with it means "rebuild from the files".
            self.files.clear()
            self.by_category.clear()
            self.postings = {}
        self.sidecar_dirty = False

    def write_sidecar(self) -> None:
        if self.sidecar is None:
            return
        ids = [mid for mid, (mtime, _, _) in self.files.items() if mtime >= 0]  # skip stale entries
        row = {mid: i for i, mid in enumerate(ids)}
        postings = {term: sorted(row[mid] for mid in members if mid in row) for term, members in self.postings.items()}
        payload = {
            "version": SIDECAR_VERSION,
            "tokenizer": _tokenizer_fingerprint(),
            "root": str(self.root.path),
            "ids": ids,
            "files": [[self.files[mid][0], self.files[mid][1], _pack(self.files[mid][2])] for mid in ids],
            "postings": postings,
        }
        with contextlib.suppress(OSError):  # a read-only cache dir costs speed, never correctness
            write_text_atomic(self.sidecar, json.dumps(payload, ensure_ascii=False, separators=(",", ":")))
            self.sidecar_dirty = False


_INDEXES: dict[tuple[str, str | None], RootIndex] = {}


def save_sidecars() -> None:
    """Write every changed sidecar now (also done when the process exits)."""
    for index in list(_INDEXES.values()):
        if index.sidecar_dirty:
            index.write_sidecar()


atexit.register(save_sidecars)


def root_index(root: MemoryRoot, cache_dir: Path | None = None) -> RootIndex:
    key = (str(root.path), str(cache_dir) if cache_dir else None)
    index = _INDEXES.get(key)
    if index is None:
        index = RootIndex(root, _sidecar_path(root, cache_dir) if cache_dir else None)
        _INDEXES[key] = index
    return index


def load_root(root: MemoryRoot, cache_dir: Path | None = None, *, rescan_seconds: float = 0.0) -> RootContents:
    """Every memory file of `root`, current; a missing root reads as empty (it is created on first write)."""
    index = root_index(root, cache_dir)
    index.refresh(rescan_seconds)
    return index.snapshot()


def forget_cached(root: MemoryRoot, memory_id: str | None = None) -> None:
    """After our own write: make the next load re-check it, even within one mtime tick."""
    for (path, _), index in _INDEXES.items():
        if path == str(root.path):
            index.invalidate(memory_id)


def drop_all_indexes() -> None:
    """Forget every in-process index (a fresh process, as benchmarks and tests need)."""
    _INDEXES.clear()


def load_memory_file(path: Path, memory_id: str, root: MemoryRoot) -> Loaded:
    text = path.read_text(encoding="utf-8", errors="replace")
    memory = memory_from_text(text, memory_id=memory_id, scope=root.scope, path=path)
    return Loaded(memory, dict(Counter(tokenize(memory.search_text()))))


def _scandir(path: str | Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(path) as it:
            return list(it)
    except (FileNotFoundError, NotADirectoryError):
        return []


def _sidecar_path(root: MemoryRoot, cache_dir: Path) -> Path:
    digest = hashlib.sha256(str(root.path.resolve()).encode()).hexdigest()[:16]
    return cache_dir / "memory" / f"{root.scope}-{digest}.json"


@functools.cache
def _tokenizer_fingerprint() -> str:
    """Postings made by another tokenizer would not match today's queries: they are rebuilt."""
    return hashlib.sha256(Path(tokenize_module.__file__).read_bytes()).hexdigest()[:16]


def _pack(loaded: Loaded) -> dict[str, Any]:
    memory = loaded.memory
    data: dict[str, Any] = {}
    for f in fields(Memory):
        if f.name in ("scope", "path", "id") or not f.init:
            continue
        value = getattr(memory, f.name)
        data[f.name] = value.timestamp() if isinstance(value, datetime) else value
    return data


def _unpack(data: dict[str, Any], root: MemoryRoot, memory_id: str, path: Path) -> Loaded:
    for name in _TIME_FIELDS:
        if data.get(name) is not None:
            data[name] = datetime.fromtimestamp(data[name], UTC)
    return Loaded(Memory(id=memory_id, scope=root.scope, path=path, **data))
