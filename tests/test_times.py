"""times.parse_when: what a person types for --since / --until, and what it refuses."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from recollect.errors import FilterError
from recollect.times import parse_when


@pytest.fixture(params=["UTC", "Asia/Shanghai", "America/New_York"])
def zone(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield request.param
    monkeypatch.undo()
    time.tzset()


def _local_midnight(days_ago: int) -> int:
    """Midnight of the local day `days_ago` before today, in epoch ms, by the C library's calendar."""
    now = time.localtime()
    return int(time.mktime((now.tm_year, now.tm_mon, now.tm_mday - days_ago, 0, 0, 0, 0, 0, -1)) * 1000)


def test_today_and_yesterday_are_the_local_calendar_days(zone: str) -> None:
    assert parse_when("2026-10-01") == 1790812800000  # positive control: a bare date is that UTC day
    assert parse_when("today") == _local_midnight(0)
    assert parse_when("Yesterday ") == _local_midnight(1)
    # As an upper bound a day named whole includes all of it, as a bare date does.
    assert parse_when("today", end=True) == _local_midnight(-1) - 1
    assert parse_when("yesterday", end=True) == _local_midnight(0) - 1
    assert parse_when("yesterday") < parse_when("today") <= time.time() * 1000 < parse_when("today", end=True)


def test_a_time_it_cannot_read_names_the_forms_it_can() -> None:
    assert parse_when("2d") is not None  # positive control
    for value in ("tomorrow", "last tuesday", "todayish"):
        with pytest.raises(FilterError) as refused:
            parse_when(value)
        assert "use today, yesterday, a date like 2026-10-01" in str(refused.value), value
