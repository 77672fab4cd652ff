"""Per-record isolation: the one place every source goes through (`open_source` wraps each adapter).

What this module owns: the promise that one bad record never costs more than its session, and
never a whole store. A record an adapter cannot parse is skipped and counted by the adapter's own
shared helpers (`jsonl.parse_line`, `opencode_records.loads`); whatever still escapes an adapter — a
RecursionError from JSON nested very deep, a TypeError from a time that is not a number, an
OSError from a symlink loop — is caught here:

- `scan` turns an unexpected failure into a `SourceError` (the index keeps the store's sessions,
  the message names the exception: never a traceback);
- `read_sessions` reads a batch; when the batch fails it reads the batch's sessions one at a time,
  and a session that still fails is recorded in `bad` with why, so the sync skips it, reports it,
  and retries it when its watermark changes;
- every session read is made safe to store: lone surrogates become U+FFFD, times that are not
  integers are coerced (or zeroed and counted), and tool inputs nested deeper than `MAX_DEPTH` are
  cut, so nothing later (chunking, JSON encoding, SQLite) can fail on them;
- problems the adapters' file walks meet (unreadable folders, symlink loops) are collected with
  `note` and returned with the scan, so they are counted and named instead of silently empty; a
  folder or file that could not be read at all is noted with `hidden`, which also marks the scan
  partial, so what the index holds of the sessions it may hide is kept, never taken for deleted.

Never writes a source.
"""

from __future__ import annotations

import contextvars
import logging
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from recollect.model import Message, Part, ScanResult, Session, SourceError
from recollect.redact import redact

log = logging.getLogger(__name__)

_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_DEPTH = 32  # tool inputs deeper than this are cut: no agent writes arguments nested deeper
_NOTES: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("recollect_source_notes", default=None)
_HIDDEN: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("recollect_source_hidden", default=None)


def note(problem: str) -> None:
    """Record a problem met while walking a store (shown by `index` and `doctor`); never raises."""
    notes = _NOTES.get()
    if notes is not None and problem not in notes:
        notes.append(problem)
    log.debug("source problem: %s", problem)


def hidden(problem: str) -> None:
    """Note a folder or file a listing could not read: the sessions in it may still be there, so the
    listing is partial (see `hiding`). Never raises."""
    found = _HIDDEN.get()
    if found is not None:
        found.append(problem)
    note(problem)


@contextmanager
def hiding() -> Iterator[list[str]]:
    """Collect what `hidden` is told inside the block: empty when the listing saw everything."""
    found: list[str] = []
    token = _HIDDEN.set(found)
    try:
        yield found
    finally:
        _HIDDEN.reset(token)


def describe(exc: BaseException) -> str:
    """One line naming an exception, without a traceback. It is stored (a skipped session's reason, a
    source's message) and a parse error can quote the record, so it is redacted whole before the cut."""
    text = " ".join(redact(str(exc)).split())[:160]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Guarded:
    """A source adapter behind per-record isolation. Implements the `Source` protocol."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.id: str = inner.id
        self.kind: str = inner.kind
        self.location: Path = inner.location
        # Sessions that could not be read or stored, with why: the sync skips them until they change.
        self.bad: dict[str, str] = {}
        # The adapter's own record of sessions it found but could not open (the same dict, shared).
        found = getattr(inner, "unreadable", None)
        if not isinstance(found, dict):
            found = {}
            inner.unreadable = found
        self.unreadable: dict[str, str] = found

    def __getattr__(self, name: str) -> Any:  # adapter-specific helpers stay reachable
        return getattr(self.inner, name)

    def scan(self) -> ScanResult:
        notes: list[str] = []
        token = _NOTES.set(notes)
        try:
            with hiding() as unlisted:
                result: ScanResult = self.inner.scan()
            result.partial = result.partial or bool(unlisted)
        except SourceError:
            raise
        except Exception as exc:  # the one backstop: a store is never lost to a traceback
            log.warning("%s: scan failed: %s", self.id, describe(exc), exc_info=True)
            raise SourceError(
                f"{self.kind} store {self.location} could not be listed ({describe(exc)}); its indexed sessions "
                "were kept. Run 'recollect doctor' and report this if it persists.",
                reason="unreadable",
            ) from exc
        finally:
            _NOTES.reset(token)
        result.problems.extend(n for n in notes if n not in result.problems)
        return result

    def read_sessions(self, ids: Iterable[str]) -> Iterator[Session]:
        wanted = list(dict.fromkeys(ids))
        done: set[str] = set()
        try:
            for session in self._read(wanted):
                done.add(session.id)
                yield session
            return
        except SourceError as exc:
            if exc.reason != "corrupt" or len(wanted) <= 1:
                raise
            failure: BaseException = exc
        except Exception as exc:  # isolated below, one session at a time
            failure = exc
        log.info("%s: a batch of %d sessions failed (%s); reading them one by one", self.id, len(wanted), failure)
        for sid in wanted:
            if sid in done:
                continue
            try:
                sessions = list(self._read([sid]))
            except SourceError as exc:
                if exc.reason != "corrupt":
                    raise
                self.bad[sid] = describe(exc)
                continue
            except Exception as exc:  # this session costs itself, nothing more
                log.warning("%s: session %s cannot be read: %s", self.id, sid, describe(exc))
                self.bad[sid] = describe(exc)
                continue
            for session in sessions:
                done.add(session.id)
                yield session

    def _read(self, ids: list[str]) -> Iterator[Session]:
        for session in self.inner.read_sessions(ids):
            yield clean_session(session)


# -- making a session safe to store ------------------------------------------------------------


def clean_text(value: Any) -> str:
    """`value` as a string SQLite and JSON accept: lone surrogates become U+FFFD."""
    if not isinstance(value, str):
        value = "" if value is None else str(value)
    if value.isascii():  # O(1) in CPython, and no ASCII text holds a surrogate: most tool output
        return value
    if _SURROGATE.search(value):
        # A valid pair written as two escapes ("\ud83d\ude00") is joined; a lone half is replaced.
        value = value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return value


def as_ms(value: Any) -> int | None:
    """An integer time from what a store holds: numbers, numeric strings; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if -(2**62) < value < 2**62 else None
    if isinstance(value, float):
        return int(value) if value == value and abs(value) < 2**62 else None  # NaN != NaN
    if isinstance(value, str):
        try:
            return as_ms(float(value.strip()))
        except ValueError:
            return None
    return None


def clean_value(value: Any, cuts: list[int] | None = None, depth: int = 0) -> Any:
    """A JSON-like value with safe strings, cut at `MAX_DEPTH` (each cut is counted in `cuts[0]`)."""
    if isinstance(value, str):
        return clean_text(value)
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else None  # NaN, inf: not JSON
    if depth >= MAX_DEPTH:
        if cuts is not None:
            cuts[0] += 1
        return "[nested too deep]"
    if isinstance(value, dict):
        return {clean_text(k): clean_value(v, cuts, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean_value(v, cuts, depth + 1) for v in value]
    return clean_text(value)


class _Counter:
    """Counts what had to be mended: each mended value is one malformed record of the session."""

    def __init__(self) -> None:
        self.bad = 0

    def text(self, value: Any) -> str:
        cleaned = clean_text(value)
        if cleaned is not value and isinstance(value, str):
            self.bad += 1
        return cleaned

    def optional_text(self, value: Any) -> str | None:
        return None if value is None else self.text(value)

    def time(self, value: Any, default: int | None) -> int | None:
        if value is None:
            return default
        coerced = as_ms(value)
        if coerced is None:
            self.bad += 1
            return default
        return coerced


def clean_session(session: Session) -> Session:
    """The session with every field in the type the index stores; what had to be dropped is counted."""
    count = _Counter()
    for name in ("id", "source", "agent_kind", "title", "directory"):
        setattr(session, name, count.text(getattr(session, name)))
    for name in ("project_id", "project_root", "parent_id", "agent", "model"):
        setattr(session, name, count.optional_text(getattr(session, name)))
    session.time_created = count.time(session.time_created, 0) or 0
    session.time_updated = count.time(session.time_updated, session.time_created) or 0
    session.time_archived = count.time(session.time_archived, None)
    messages: list[Message] = []
    for message in session.messages if isinstance(session.messages, list) else []:
        if not isinstance(message, Message):
            count.bad += 1
            continue
        _clean_message(message, count)
        messages.append(message)
    session.messages = messages
    session.malformed = (as_ms(session.malformed) or 0) + count.bad
    return session


def _clean_message(message: Message, count: _Counter) -> None:
    message.id = count.text(message.id)
    message.role = count.text(message.role)
    message.time = count.time(message.time, 0) or 0
    for name in ("agent", "model", "error"):
        setattr(message, name, count.optional_text(getattr(message, name)))
    parts: list[Part] = []
    for part in message.parts if isinstance(message.parts, list) else []:
        if not isinstance(part, Part):
            count.bad += 1
            continue
        for name in ("id", "kind", "raw_type", "text"):
            setattr(part, name, count.text(getattr(part, name)))
        for name in ("tool", "tool_status", "tool_output", "tool_error", "child_session_id"):
            setattr(part, name, count.optional_text(getattr(part, name)))
        part.time = count.time(part.time, None)
        cuts = [0]
        part.tool_input = clean_value(part.tool_input, cuts)
        count.bad += min(cuts[0], 1)
        part.files = [clean_text(f) for f in part.files if isinstance(f, str)] if isinstance(part.files, list) else []
        parts.append(part)
    message.parts = parts
