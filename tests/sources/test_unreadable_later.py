"""A transcript store the scan cannot wholly read this time (a folder or a file the user cannot read,
as a backup tool or a mistaken chmod leaves it) keeps what the index holds of it: the sessions it hides
are named and kept, never taken for deleted, and come back as they were once it can be read again."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from recollect.index import store
from recollect.index.sync import sync
from recollect.sources import open_source
from tests.sources import badinput

KINDS = ("claude-code", "codex", "gemini")


@pytest.fixture(autouse=True)
def deny_mode_zero(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Root reads anything; make a folder or file of mode 000 fail for it as it does for everyone else."""
    real_scandir, real_access, real_open = os.scandir, os.access, Path.open

    def denied(path: object) -> bool:
        if os.geteuid() != 0 or not isinstance(path, str | os.PathLike):
            return False
        try:
            return os.stat(path).st_mode & 0o777 == 0
        except OSError:
            return False

    def scandir(path: object = ".") -> object:
        if denied(path):
            raise PermissionError(13, "Permission denied", os.fspath(path))  # type: ignore[arg-type]
        return real_scandir(path)  # type: ignore[arg-type]

    def access(path: object, mode: int, **kwargs: object) -> bool:
        return False if denied(path) else real_access(path, mode, **kwargs)  # type: ignore[arg-type]

    def open_(self: Path, *args: object, **kwargs: object) -> object:
        if denied(self):
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(Path, "open", open_)
    yield


def indexed(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT native_id FROM session")}


def folder_of(kind: str, root: Path) -> Path:
    """The folder both good sessions of the store are in."""
    a, b = sorted(badinput.good_ids(kind))
    path = badinput._PATHS[kind](root, a)
    assert path.parent == badinput._PATHS[kind](root, b).parent
    return path.parent


def file_of(kind: str, root: Path) -> Path:
    return badinput._PATHS[kind](root, sorted(badinput.good_ids(kind))[0])


@pytest.mark.parametrize("what", [folder_of, file_of], ids=["folder", "file"])
@pytest.mark.parametrize("kind", KINDS)
def test_what_the_scan_cannot_read_this_time_is_kept_and_named(
    kind: str, what: Callable[[str, Path], Path], tmp_path: Path
) -> None:
    spec = badinput.build_good(kind, tmp_path / "store")
    conn = store.connect(tmp_path / "index.db")
    first = sync(conn, [spec]).sources[0]
    good = badinput.good_ids(kind)
    assert first.status == "ok" and indexed(conn) == good, first
    hidden = what(kind, tmp_path / "store")
    # Positive control: a session whose transcript is really gone is removed.
    extra = badinput._BAD_ID[kind]
    badinput.jsonl(badinput._PATHS[kind](tmp_path / "store", extra), badinput._RECORDS[kind](extra))
    assert sync(conn, [spec]).sources[0].added == 1 and extra in indexed(conn)
    badinput._PATHS[kind](tmp_path / "store", extra).unlink()
    gone = sync(conn, [spec]).sources[0]
    assert gone.removed == 1 and indexed(conn) == good, gone
    hidden.chmod(0)
    try:
        report = sync(conn, [spec]).sources[0]
    finally:
        hidden.chmod(0o755 if hidden.is_dir() else 0o644)
    assert indexed(conn) == good, report  # nothing the index held was taken for deleted
    assert report.removed == 0 and any(str(hidden) in p for p in report.problems), report
    again = sync(conn, [spec]).sources[0]
    assert (again.status, again.added, again.updated, again.removed) == ("ok", 0, 0, 0), again
    assert indexed(conn) == good


@pytest.mark.parametrize("kind", KINDS)
def test_a_folder_that_cannot_be_read_between_scan_and_read_keeps_its_sessions(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scan lists a changed session; by the time it is read its folder cannot be: kept as it was, named."""
    spec = badinput.build_good(kind, tmp_path / "store")
    conn = store.connect(tmp_path / "index.db")
    assert sync(conn, [spec]).sources[0].status == "ok" and indexed(conn) == badinput.good_ids(kind)
    changed = file_of(kind, tmp_path / "store")
    sid = sorted(badinput.good_ids(kind))[0]
    badinput.jsonl(changed, badinput._RECORDS[kind](sid, "hello there, and more"))
    source_class = type(open_source(spec).inner)
    scan = source_class.scan

    def scan_then_deny(self: object) -> object:
        found = scan(self)  # type: ignore[arg-type]
        changed.parent.chmod(0)
        return found

    monkeypatch.setattr(source_class, "scan", scan_then_deny)
    try:
        report = sync(conn, [spec]).sources[0]
    finally:
        changed.parent.chmod(0o755)
    assert indexed(conn) == badinput.good_ids(kind), report
    assert report.removed == 0 and any("kept as indexed" in p for p in report.problems), report
    monkeypatch.setattr(source_class, "scan", scan)
    again = sync(conn, [spec]).sources[0]  # readable again: the change is read
    assert (again.status, again.added, again.updated, again.removed) == ("ok", 0, 1, 0), again
