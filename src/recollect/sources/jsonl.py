"""Reading append-only JSONL transcripts (Claude Code, Codex CLI, Gemini CLI), shared by their sources.

What this module owns: turning a transcript file — plain or zstd-compressed — into parsed records,
and the cheap file facts a scan needs (watermarks, heads). It never writes, renames or locks a
file: the agents keep appending while we read.

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
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import zstandard

from recollect.model import SourceError

log = logging.getLogger(__name__)

ZST_SUFFIX = ".zst"
# What a record of an unexpected shape raises in an adapter; such a record counts as malformed.
SHAPE_ERRORS = (TypeError, ValueError, AttributeError, KeyError, IndexError)
_CHUNK = 1 << 16


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
    try:
        with open_transcript(path) as stream:
            for line in stream:
                number += 1
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


def parse_line(line: bytes) -> dict[str, Any] | None:
    """One JSONL line as a dict, or None when it is blank or not a JSON object."""
    stripped = line.strip()
    if not stripped:
        return None
    try:
        value = json.loads(stripped)
    except (ValueError, UnicodeDecodeError):
        return None
    return value if isinstance(value, dict) else None


def read_head(path: Path, limit: int = 1 << 16) -> bytes:
    """Up to `limit` bytes from the start of the transcript (decompressed for `.zst`)."""
    try:
        with open_transcript(path) as stream:
            return stream.read(limit)
    except zstandard.ZstdError:
        return b""


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


def store_root(spec_path: Path, *, discovered: bool, what: str, hint: str) -> Path | None:
    """The store directory, None for an absent discovered store, SourceError for an absent configured one."""
    if spec_path.is_dir():
        if not os.access(spec_path, os.R_OK | os.X_OK):
            raise SourceError(f"{what} at {spec_path} cannot be read (permission denied); {hint}", reason="unreadable")
        return spec_path
    if discovered:
        return None
    raise SourceError(f"{what} not found at {spec_path}; {hint}", reason="missing")


def list_dir(path: Path) -> list[os.DirEntry[str]]:
    """Directory entries, or [] when the directory vanished meanwhile (the agent may be deleting)."""
    try:
        with os.scandir(path) as it:
            return list(it)
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        return []


_ISO_FRACTION = re.compile(r"(\.\d+)")


def parse_time(value: Any) -> int | None:
    """Epoch milliseconds from an ISO-8601 string or a number of seconds / milliseconds."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        # Seconds until the year 5138; anything larger is already milliseconds.
        return int(value * 1000) if value < 1e11 else int(value)
    if not isinstance(value, str) or not value:
        return None
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    # Python 3.11 accepts at most 6 fractional digits; agents sometimes write 9.
    text = _ISO_FRACTION.sub(lambda m: m.group(1)[:7], text, count=1)
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        return None
    if stamp.tzinfo is None:
        # Agents write UTC; a naive stamp is read as UTC rather than the reader's zone.
        stamp = stamp.replace(tzinfo=UTC)
    return int(stamp.timestamp() * 1000)


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
