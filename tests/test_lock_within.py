"""config.lock_within: the exclusive lock the extraction run and the idle sync wait for, with a deadline."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from recollect.config import Paths, lock_within
from recollect.extract.state import Busy, extraction_lock


def test_a_free_lock_is_taken_and_a_held_one_is_not_within_the_wait(tmp_path: Path) -> None:
    path = tmp_path / "lock"
    holder = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    other = os.open(path, os.O_RDWR)
    try:
        assert lock_within(holder, 0.0)  # positive control: nobody holds it
        started = time.monotonic()
        assert not lock_within(other, 0.3)  # another open file holds it: refused once the wait is over
        assert time.monotonic() - started >= 0.3
        os.close(holder)  # closing releases it
        holder = -1
        assert lock_within(other, 0.0)
    finally:
        for fd in (holder, other):
            if fd >= 0:
                os.close(fd)


def test_a_second_extraction_run_is_busy(tmp_path: Path) -> None:
    paths = Paths(config_dir=tmp_path / "config", data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    with extraction_lock(paths, wait=0.0):
        pass  # positive control: a run alone takes the lock
    busy = pytest.raises(Busy, match="another 'recollect extract' is running")
    with extraction_lock(paths, wait=0.0), busy, extraction_lock(paths, wait=0.2):
        pass
