"""Ctrl-C as a person presses it: one line saying what was kept, exit 130, and nothing lost."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from recollect.cli import main
from recollect.index import sync


def indexed_sessions(home: Path) -> int:
    with sqlite3.connect(f"file:{home / 'index.db'}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT count(*) FROM session").fetchone()[0])


def test_ctrl_c_during_index_says_what_was_kept_and_the_next_index_finishes(
    sample_db: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    monkeypatch.setattr(sync, "BATCH_SESSIONS", 4)  # the sample's 12 sessions in three parts
    whole = runner.invoke(main, ["index"])
    assert whole.exit_code == 0, whole.output  # positive control: the same index, not interrupted
    everything = indexed_sessions(isolated_home)
    assert everything == 12
    (isolated_home / "index.db").unlink()
    for extra in ("-wal", "-shm"):
        (isolated_home / f"index.db{extra}").unlink(missing_ok=True)

    store_batch = sync._store_batch
    calls = []

    def pressed_on_the_second_part(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt  # what Python's SIGINT handler raises in the main thread
        return store_batch(*args, **kwargs)

    monkeypatch.setattr(sync, "_store_batch", pressed_on_the_second_part)
    stopped = runner.invoke(main, ["index"])
    assert stopped.exit_code == 130, stopped.output
    assert stopped.stderr.strip().splitlines()[-1] == (
        "recollect: index interrupted (Ctrl-C): the sessions stored so far are kept; "
        "run 'recollect index' again to finish"
    )
    assert "Traceback" not in stopped.output and "Aborted!" not in stopped.output
    assert indexed_sessions(isolated_home) == 4  # the first part was stored whole
    doctor = runner.invoke(main, ["doctor"])
    assert doctor.exit_code == 1 and "[partly indexed, 4 sessions indexed]" in doctor.output
    assert "stopped before it finished (4 sessions stored); run 'recollect index' to finish it" in doctor.output

    monkeypatch.setattr(sync, "_store_batch", store_batch)
    resumed = runner.invoke(main, ["index"])
    assert resumed.exit_code == 0, resumed.output
    assert "+8 new" in resumed.output  # no lease left behind, and the stored part is not read again
    assert indexed_sessions(isolated_home) == everything
    doctor = runner.invoke(main, ["doctor"])
    assert doctor.exit_code == 0 and "partly" not in doctor.output and "[ok, 12 sessions indexed" in doctor.output


def test_ctrl_c_elsewhere_names_the_command_and_claims_nothing(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    listed = runner.invoke(main, ["sessions", "-n", "1"])
    assert listed.exit_code == 0, listed.output  # positive control

    from recollect import history

    def pressed(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(history, "sessions", pressed)
    stopped = runner.invoke(main, ["sessions", "-n", "1"])
    assert stopped.exit_code == 130, stopped.output
    assert stopped.stderr.strip() == "recollect: sessions interrupted (Ctrl-C)"
