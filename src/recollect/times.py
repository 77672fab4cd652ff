"""Times, each kind of input under its own name, and one way to print an instant.

- `parse_when`: what a person or an agent types for a filter ("today", "yesterday", "7d", "12h",
  "2026-10-01") -> epoch ms, or a `FilterError` that says what to type. `WHEN_FORMS` says them in words.
- `parse_stamp`: a timestamp as an agent's store writes it (ISO-8601, perhaps with nanoseconds, or
  seconds / milliseconds since the epoch) -> epoch ms, or None: a store's odd value is skipped, not fatal.
- `parse_datetime`: a time in a memory file's frontmatter -> an aware datetime, or ValueError.
- `iso`: an instant (epoch ms or a datetime) as `2026-10-01T12:00:00Z`.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, date, datetime, timedelta
from typing import Any

from recollect.errors import FilterError

ISO_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
_RELATIVE = re.compile(r"^(\d+)\s*([mhdwy])$")
_ISO_FRACTION = re.compile(r"(\.\d+)")
# Days a person names by a word: how many days before today. They are calendar days of this machine's
# clock (what "today" means to the person at it), where a bare date is a UTC day like the stores' times.
_DAY_WORDS = {"today": 0, "yesterday": 1}
# The forms `parse_when` reads, in the words of the CLI's help and the MCP tools' descriptions.
WHEN_FORMS = "today, yesterday, a date (2026-10-01), a UTC time (2026-10-01T12:00), or an age (30m, 12h, 7d, 2w, 1y)"


def parse_when(value: str | None, *, end: bool = False) -> int | None:
    """'today', 'yesterday', '2026-10-01', '2026-10-01T12:00', '7d', '12h', '2w' (ago) -> epoch ms (UTC).
    With `end` (an upper bound), a day named whole (a date, today, yesterday) includes all of that day."""
    if value is None or value == "":
        return None
    try:
        return _parse_when(value, end=end)
    except (OverflowError, OSError):  # an age or a date past what a calendar can hold
        raise FilterError(
            f"the time {value[:40]!r} is out of range; use a date between 1970 and 9999, or an age like 7d / 2w / 5y"
        ) from None


def _parse_when(value: str, *, end: bool) -> int | None:
    value = value.strip()
    if value.lower() in _DAY_WORDS:
        day = date.today() - timedelta(days=_DAY_WORDS[value.lower()])
        start = datetime(day.year, day.month, day.day).astimezone()  # local midnight, daylight saving included
        if not end:
            return int(start.timestamp() * 1000)
        after = day + timedelta(days=1)
        return int(datetime(after.year, after.month, after.day).astimezone().timestamp() * 1000) - 1
    match = _RELATIVE.match(value)
    if match:
        amount, unit = int(match.group(1)), match.group(2)
        delta = {
            "m": timedelta(minutes=amount),
            "h": timedelta(hours=amount),
            "d": timedelta(days=amount),
            "w": timedelta(weeks=amount),
            "y": timedelta(days=365 * amount),
        }[unit]
        return int((datetime.now(UTC) - delta).timestamp() * 1000)
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise FilterError(
            f"cannot read the time {value[:40]!r}; use today, yesterday, a date like 2026-10-01, a timestamp like "
            "2026-10-01T12:00, or an age like 7d / 12h / 2w"
        ) from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    if end and len(value) == 10:  # a bare date as an upper bound means the end of that day
        if parsed.date() == datetime.max.date():
            return int(datetime.max.replace(tzinfo=UTC).timestamp() * 1000)  # the last day there is
        parsed += timedelta(days=1)
        return int(parsed.timestamp() * 1000) - 1
    return int(parsed.timestamp() * 1000)


def parse_stamp(value: Any) -> int | None:
    """Epoch milliseconds from an ISO-8601 string or a number of seconds / milliseconds."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        if not -(2**62) < value < 2**62:  # also infinity and NaN (1e400 in JSON): no time, not a failed read
            return None
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


def parse_datetime(value: Any) -> datetime:
    """An ISO date or datetime (naive means UTC), or epoch milliseconds as the seed's format wrote."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a time")
    if isinstance(value, int):
        return datetime.fromtimestamp(value / 1000, UTC)
    text = str(value).strip()
    if re.fullmatch(r"\d{12,}", text):
        return datetime.fromtimestamp(int(text) / 1000, UTC)
    parsed = datetime.fromisoformat(text)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def iso(value: int | datetime | None) -> str:
    """`2026-10-01T12:00:00Z`, from epoch milliseconds (0 or None: "") or a datetime."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime(ISO_FORMAT)
    return time.strftime(ISO_FORMAT, time.gmtime(value / 1000)) if value else ""
