"""Reading append-only JSONL transcripts (Claude Code, Codex CLI, Gemini CLI), shared by their sources.

What this module owns: turning a transcript file — plain or zstd-compressed — into parsed records,
the cheap file facts a scan needs (watermarks, heads), and `JsonlSource`, the part of the three
adapters that does not depend on the store's format: the store checks, the scan loop and the read
loop. It never writes, renames or locks a file: the agents keep appending while we read.

Rules every JSONL source relies on:
- A last line without a trailing newline is still being written: it is neither parsed nor counted
  as malformed (the next scan sees the file grow and re-reads it).
- A line that is not a JSON object is skipped and counted, never fatal.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Generic, Protocol, TypeVar

import zstandard

from recollect.model import ScanResult, Session, SessionStamp, SourceError
from recollect.sources.base import SourceSpec
from recollect.sources.guard import hidden, hiding, note

log = logging.getLogger(__name__)

ZST_SUFFIX = ".zst"
# What a record of an unexpected shape raises in an adapter; such a record counts as malformed.
SHAPE_ERRORS = (TypeError, ValueError, AttributeError, KeyError, IndexError)
_CHUNK = 1 << 16
# One record larger than this is skipped and counted (no agent writes one; a damaged file or a
# decompression bomb can). Records below it are read whole: 50 MB tool outputs do occur.
MAX_RECORD_BYTES = 64 << 20
# A compressed rollout stops being read past this many decompressed bytes (a zstd bomb expands a few
# kilobytes into gigabytes); what was read before is kept and the rest counts as one malformed record.
# Transcripts compress 5-15 times; a ratio past MAX_RATIO (beyond the floor) is not a transcript.
MAX_DECOMPRESSED_BYTES = 512 << 20
MIN_DECOMPRESSED_CAP = 32 << 20
MAX_RATIO = 100
_SESSION_ID_RE = re.compile(rb'"sessionId"\s*:\s*"([^"]+)"')


@dataclass
class JsonlRead:
    """The parsed records of one file, with their 1-based line numbers."""

    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    malformed: int = 0
    pending_tail: bool = False  # the last line had no newline yet and was left for the next read


@contextmanager
def open_transcript(path: Path) -> Iterator[IO[bytes]]:
    """A binary stream of the transcript's text; `.zst` files are decompressed on the fly."""
    with path.open("rb") as raw:
        if path.name.endswith(ZST_SUFFIX):
            # Codex may write several frames over time; read them all.
            reader = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
            with io.BufferedReader(reader, buffer_size=_CHUNK) as stream:  # type: ignore[arg-type]
                yield stream
        else:
            yield raw


def read_jsonl(path: Path) -> JsonlRead:
    """All complete records of `path`. Raises OSError if the file cannot be opened."""
    result = JsonlRead()
    number = 0
    compressed = path.name.endswith(ZST_SUFFIX)
    total = 0
    cap = MAX_DECOMPRESSED_BYTES
    if compressed:
        cap = min(cap, max(MIN_DECOMPRESSED_CAP, MAX_RATIO * path.stat().st_size))
    try:
        with open_transcript(path) as stream:
            for line, oversized in _lines(stream):
                number += 1
                total += len(line)
                if compressed and total > cap:
                    note(f"{path} expands past {cap >> 20} MB (a damaged or hostile archive); the rest was not read")
                    result.malformed += 1
                    break
                if oversized:
                    note(f"{path}:{number}: a record over {MAX_RECORD_BYTES >> 20} MB was skipped")
                    result.malformed += 1
                    continue
                if not line.endswith(b"\n") and not compressed:
                    # Still being written: not ours to judge until the agent finishes the line.
                    result.pending_tail = bool(line.strip())
                    break
                # A compressed rollout is finished; a tail without newline is judged like any line.
                record = parse_line(line)
                if record is None:
                    if line.strip():
                        result.malformed += 1
                    continue
                result.records.append((number, record))
    except zstandard.ZstdError as exc:
        # A damaged archive keeps what decoded cleanly; the damage itself counts once.
        log.warning("%s: compressed transcript is damaged after line %d (%s)", path, number, exc)
        result.malformed += 1
    return result


def _lines(stream: IO[bytes]) -> Iterator[tuple[bytes, bool]]:
    """Lines of at most MAX_RECORD_BYTES, each with whether it was longer (then only its head is kept)."""
    while True:
        line = stream.readline(MAX_RECORD_BYTES)
        if not line:
            return
        if len(line) < MAX_RECORD_BYTES or line.endswith(b"\n"):
            yield line, False
            continue
        # Skip the rest of the oversized line without holding it.
        while True:
            rest = stream.readline(_CHUNK)
            if not rest or rest.endswith(b"\n"):
                break
        yield b"", True


def parse_line(line: bytes) -> dict[str, Any] | None:
    """One JSONL line as a dict, or None when it is blank or not a JSON object (or nested too deep to parse)."""
    stripped = line.strip()
    if not stripped:
        return None
    return loads_object(stripped)


def loads_object(text: str | bytes) -> dict[str, Any] | None:
    """A JSON object, or None for anything else: invalid JSON, bad UTF-8, or nesting that would
    exhaust the stack (RecursionError), which is one bad record, never a failed read."""
    try:
        value = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def read_head(path: Path, limit: int = 1 << 16) -> bytes:
    """Up to `limit` bytes from the start of the transcript (decompressed for `.zst`)."""
    try:
        with open_transcript(path) as stream:
            return stream.read(limit)
    except zstandard.ZstdError:
        return b""


def head_session_id(path: Path, cache: dict[Path, str]) -> str | None:
    """The first `sessionId` in the head of `path`, or None while that record is incomplete.

    Kept in `cache`: the first record of a file never changes once written (the file only grows).
    Raises OSError when the file cannot be read."""
    cached = cache.get(path)
    if cached is None:
        match = _SESSION_ID_RE.search(read_head(path, 1 << 14))
        if match is None:
            return None
        cached = cache[path] = match.group(1).decode("utf-8", "replace")
    return cached


def first_records(path: Path, count: int, limit: int = 1 << 20) -> list[dict[str, Any]]:
    """The first `count` complete records within the first `limit` bytes; malformed lines are skipped."""
    records: list[dict[str, Any]] = []
    try:
        with open_transcript(path) as stream:
            read = 0
            for line in stream:
                read += len(line)
                if not line.endswith(b"\n") or read > limit:
                    break
                record = parse_line(line)
                if record is not None:
                    records.append(record)
                    if len(records) >= count:
                        break
    except zstandard.ZstdError:
        pass
    return records


def stat_mark(path: Path) -> str:
    """The cheap change signal of one file: size and modification time in nanoseconds."""
    st = path.stat()
    return f"{st.st_size}:{st.st_mtime_ns}"


def newest_mtime(paths: Iterable[Path]) -> int:
    """The newest modification time among `paths`, in epoch ms (0 when none can be read): for ordering."""
    times = []
    for path in paths:
        with contextlib.suppress(OSError):
            times.append(path.stat().st_mtime_ns // 1_000_000)
    return max(times, default=0)


def watermark(paths: Iterable[Path]) -> str:
    """One opaque watermark for a session stored in one or more files."""
    return "|".join(stat_mark(p) for p in sorted(paths))


def readable(path: Path) -> bool:
    return os.access(path, os.R_OK)


def list_dir(path: Path) -> list[os.DirEntry[str]]:
    """Directory entries, or [] when the directory vanished meanwhile (the agent may be deleting).

    An entry whose type cannot be told (a symlink loop, a dangling link) is left out and noted; so
    is a folder that cannot be read. `is_file()` / `is_dir()` on what is returned never raise."""
    try:
        with os.scandir(path) as it:
            entries = list(it)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        hidden(f"{path} cannot be read ({exc.strerror or exc}); its sessions are kept as indexed until it can be")
        return []
    usable = []
    for entry in entries:
        try:
            entry.is_dir()  # follows the link; the result is cached for later is_file()/is_dir()
            entry.is_file()
        except OSError as exc:
            note(f"{entry.path} is left out ({exc.strerror or exc})")
            continue
        usable.append(entry)
    return usable


def walk(root: Path) -> Iterator[tuple[str, list[str], list[str]]]:
    """`os.walk` that notes the folders it cannot read instead of silently leaving them out."""

    def skipped(exc: OSError) -> None:
        if not isinstance(exc, FileNotFoundError):
            why = exc.strerror or exc
            hidden(f"{exc.filename} cannot be read ({why}); its sessions are kept as indexed until it can be")

    yield from os.walk(root, onerror=skipped)


_FILE_KEYS = ("file_path", "filePath", "path", "notebook_path", "absolute_path", "file", "filename")


def files_from_input(value: Any) -> list[str]:
    """File paths a tool call names in its input (Read/Edit/Write style arguments)."""
    if not isinstance(value, dict):
        return []
    found: list[str] = []
    for key in _FILE_KEYS:
        item = value.get(key)
        if isinstance(item, str) and item and "\n" not in item and len(item) < 4096:
            found.append(item)
    paths = value.get("paths") or value.get("file_paths")
    if isinstance(paths, list):
        found.extend(p for p in paths if isinstance(p, str) and p and "\n" not in p)
    return list(dict.fromkeys(found))


def as_list(value: Any) -> list[Any]:
    """`value` if it is a list, else []: fields an agent documents as arrays are not always arrays."""
    return value if isinstance(value, list) else []


def compact_json(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return str(value)


# -- the adapters' shared part -------------------------------------------------------------------


class Listed(Protocol):
    """One session a listing found: its id and the files it is stored in."""

    @property
    def id(self) -> str: ...

    @property
    def files(self) -> list[Path]: ...


@dataclass
class SessionFile:
    """A session stored in one file."""

    id: str
    path: Path

    @property
    def files(self) -> list[Path]:
        return [self.path]


Layout = TypeVar("Layout")
Item = TypeVar("Item", bound=Listed)


class JsonlSource(ABC, Generic[Layout, Item]):
    """A source whose sessions are files under a folder. Implements the `Source` protocol.

    What it does for every adapter: checks the store folder (`_store`, `_absent`), and runs the scan
    (a session with a file that cannot be read is named in the problems, one deleted since the
    listing is left out) and the read (a session that vanished is skipped, one that cannot be read
    is recorded in `unreadable`). What an adapter says: where its sessions are (`_layout`), which
    sessions are there (`_list`), each one's watermark and parent, and how one is read (`_reader`).
    """

    kind: str
    name: str  # the agent's name, as messages call its store ("Codex")
    hint: str  # how to point the source at the store: the end of every store error

    def __init__(self, spec: SourceSpec) -> None:
        self.id = spec.id
        self.unreadable: dict[str, str] = {}
        self.location = spec.path
        self._discovered = spec.discovered

    @abstractmethod
    def _layout(self) -> Layout | None:
        """Where the sessions are, from `_store()`; None when a discovered store is absent."""

    @abstractmethod
    def _list(self, layout: Layout, problems: list[str]) -> dict[str, Item]:
        """The sessions there, by id, found by listing folders. What a listing has to leave out
        without an id to name it by is added to `problems`."""

    @abstractmethod
    def _mark(self, item: Item, listing: dict[str, Item]) -> str:
        """The session's watermark. May raise FileNotFoundError (the file went since the listing)."""

    @abstractmethod
    def _parent(self, item: Item) -> str | None:
        """The session's parent, for a sub-agent's."""

    @abstractmethod
    def _reader(self, layout: Layout) -> Callable[[Item], Session]:
        """Reads one listed session; made once per `read_sessions` call (it may hold what the call
        shares, such as a title index)."""

    def _store(self) -> Path | None:
        """The store folder once it is there and readable; None when a discovered store is absent."""
        path = self.location
        if not path.exists():
            if self._discovered:
                return None
            raise SourceError(f"{self.name} store not found at {path}; {self.hint}", reason="missing")
        if not path.is_dir() or not os.access(path, os.R_OK | os.X_OK):
            raise SourceError(f"{self.name} store at {path} cannot be read; {self.hint}", reason="unreadable")
        return path

    def _absent(self, what: str) -> None:
        """The store folder lacks `what` its sessions live in: nothing to read when it was discovered,
        an error naming the path when it was configured (a typo never reads as an empty store)."""
        if not self._discovered:
            raise SourceError(f"{self.location} has no {what}; {self.hint}", reason="missing")

    def scan(self) -> ScanResult:
        layout = self._layout()
        if layout is None:
            return ScanResult(stamps={})
        problems: list[str] = []
        listing = self._list(layout, problems)
        stamps: dict[str, SessionStamp] = {}
        withheld: set[str] = set()
        for item in listing.values():
            try:
                denied = [f for f in item.files if not readable(f)]
                if denied:
                    problems.append(
                        f"{denied[0]} is not readable; session {item.id} is left out (kept as indexed, if it was) "
                        "until its permissions are fixed"
                    )
                    withheld.add(item.id)
                    continue
                mark = self._mark(item, listing)
            except FileNotFoundError:
                continue  # deleted since the listing
            stamps[item.id] = SessionStamp(
                id=item.id, watermark=mark, parent_id=self._parent(item), updated=newest_mtime(item.files)
            )
        return ScanResult(stamps=stamps, problems=problems, withheld=withheld)

    def read_sessions(self, ids: Iterable[str]) -> Iterator[Session]:
        layout = self._layout()
        if layout is None:
            return
        with hiding() as unlisted:
            listing = self._list(layout, [])
        read = self._reader(layout)
        for sid in ids:
            item = listing.get(sid)
            if item is None:
                if unlisted:  # maybe in a folder that could not be read this time: kept as indexed
                    self.unreadable[sid] = unlisted[0]
                continue
            try:
                session = read(item)
            except FileNotFoundError:
                continue
            except OSError as exc:
                logging.getLogger(type(self).__module__).warning("%s: cannot read session %s: %s", self.id, sid, exc)
                self.unreadable[sid] = str(exc)
                continue
            yield session
