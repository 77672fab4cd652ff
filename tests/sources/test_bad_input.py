"""Over the bad-input corpus (tests/sources/badinput.py): a bad record costs that record, or at most its
session; it is counted and named; every other session of the store is indexed; nothing raises."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from recollect.index import store
from recollect.index.sync import SourceReport, sync
from tests.conftest import SAMPLE_DB
from tests.sources import badinput
from tests.sources.badinput import Case

CASES = badinput.cases()


@pytest.fixture(autouse=True)
def deny_mode_zero(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Root reads a folder of mode 000 anyway; make it fail as it does for everyone else."""
    real = os.scandir

    def scandir(path: object = ".") -> object:
        if os.geteuid() == 0 and isinstance(path, str | os.PathLike) and os.stat(path).st_mode & 0o777 == 0:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    yield


def indexed(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT native_id FROM session")}


def counted(report: SourceReport) -> int:
    return report.malformed + len(report.bad) + len(report.problems)


def run_case(case: Case, tmp_path: Path) -> tuple[SourceReport, set[str], sqlite3.Connection]:
    spec = badinput.build_good(case.kind, tmp_path / "store")
    case.build(tmp_path / "store")
    conn = store.connect(tmp_path / "index.db")
    report = sync(conn, [spec])
    return report.sources[0], indexed(conn), conn


def test_the_corpus_has_at_least_40_kinds_over_all_four_sources() -> None:
    assert len(CASES) >= 40
    assert {c.kind for c in BIG_RECORDS} == {"claude-code", "codex", "gemini"}  # the transcript formats
    assert {c.kind for c in CASES} == {"opencode", "claude-code", "codex", "gemini"}


def test_good_stores_index_whole_and_clean(tmp_path: Path) -> None:
    """Positive control: without damage every good session is indexed and nothing is counted."""
    for kind in ("opencode", "claude-code", "codex", "gemini"):
        spec = badinput.build_good(kind, tmp_path / kind)
        conn = store.connect(tmp_path / f"{kind}.db")
        report = sync(conn, [spec]).sources[0]
        assert report.status == "ok" and indexed(conn) == badinput.good_ids(kind), kind
        assert counted(report) == 0, (kind, report)


@pytest.mark.parametrize("case", [c for c in CASES if not c.big], ids=lambda c: c.name)
def test_a_bad_record_costs_at_most_its_session(case: Case, tmp_path: Path) -> None:
    report, found, _ = run_case(case, tmp_path)
    assert report.status == "ok", report.message
    good = badinput.good_ids(case.kind)
    if case.victim == "*":  # a damaged page costs the sessions stored on it, named, and no others
        lost = good - found
        assert report.bad and {b.split(":")[0] for b in report.bad} == lost, report.bad
        assert len(lost) < len(good) // 2
    else:
        spared = good - {case.victim or ""}
        assert spared <= found, f"lost {spared - found}"
    if case.expect == "counted":
        assert counted(report) > 0, report
    elif case.expect == "repaired":  # mended where it stands: its session is indexed
        assert good <= found
    elif case.expect == "mended":  # mended where it stands, its session indexed, and counted
        assert good <= found
        assert report.malformed > 0, report


def texts_of(conn: sqlite3.Connection, native: str) -> str:
    rows = conn.execute("SELECT c.text FROM chunk c JOIN session s ON s.sid = c.sid WHERE s.native_id = ?", (native,))
    return "\n".join(r[0] for r in rows)


@pytest.mark.parametrize("case", [c for c in CASES if c.record], ids=lambda c: c.name)
def test_a_bad_record_costs_that_record_never_its_session(case: Case, tmp_path: Path) -> None:
    """The damage is one record of a session whose other records are good: the session is indexed with them."""
    report, found, conn = run_case(case, tmp_path)
    assert report.status == "ok" and badinput.good_ids(case.kind) <= found, report  # the other sessions
    bad = badinput._BAD_ID[case.kind]
    assert bad in found and not report.bad, report.bad
    said = texts_of(conn, bad)
    assert ("\ufffd" if "surrogate" in case.name else "hello there") in said, said  # its text, mended if it had to be
    if case.name.split(": ", 1)[1].startswith("message at time"):  # its own text is kept; only the time is not
        assert badinput.LATER in texts_of(conn, bad)


# Each 50 MB record is indexed once, in its own process, by test_a_50_mb_record_indexes_in_bounded_memory,
# which holds these assertions too.
BIG_RECORDS = [c for c in CASES if c.name.endswith(": 50 MB record")]


@pytest.mark.parametrize("case", [c for c in CASES if c.big and c not in BIG_RECORDS], ids=lambda c: c.name)
def test_big_records_and_zstd_bombs(case: Case, tmp_path: Path) -> None:
    report, found, _ = run_case(case, tmp_path)
    assert report.status == "ok", report.message
    assert badinput.good_ids(case.kind) <= found


def test_a_bad_session_is_named_skipped_and_retried_when_it_changes(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "opencode: one damaged page")
    report, found, conn = run_case(case, tmp_path)
    lost = {b.split(":")[0] for b in report.bad}
    assert lost and not lost & found
    spec = badinput.build_good("opencode", tmp_path / "again")  # only to get a spec; the store stays damaged
    spec.path = tmp_path / "store" / "opencode.db"
    again = sync(conn, [spec]).sources[0]
    assert again.bad == report.bad and again.added == 0  # unchanged: not read again, still named
    # The store is repaired and the lost sessions change (OpenCode bumps their event sequence).
    shutil.copy(SAMPLE_DB, spec.path)
    with sqlite3.connect(spec.path) as store_conn:
        store_conn.executemany("UPDATE event_sequence SET seq = seq + 1 WHERE aggregate_id = ?", [(i,) for i in lost])
    fixed = sync(conn, [spec]).sources[0]
    assert fixed.added == len(lost) and not fixed.bad and lost <= indexed(conn)


def test_index_and_doctor_name_the_bad_session_without_a_traceback(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "opencode: one damaged page")
    spec = badinput.build_good("opencode", tmp_path / "store")
    case.build(tmp_path / "store")
    env = {**os.environ, "OPENCODE_DB": str(spec.path), "RECOLLECT_SOURCES": "opencode"}
    index = subprocess.run([sys.executable, "-m", "recollect.cli", "index"], env=env, capture_output=True, text=True)
    assert index.returncode == 0, index.stderr
    # The count ends the clause, so no verb has to agree with it ("1 session ... were skipped").
    said = re.compile(r"skipped as unreadable until changed: \d+ sessions? \(first: ")
    assert said.search(index.stdout) and "Traceback" not in index.stderr, index.stdout
    assert "refused by the index" not in index.stdout  # a page of the store is damaged: its records are unreadable
    doctor = subprocess.run([sys.executable, "-m", "recollect.cli", "doctor"], env=env, capture_output=True, text=True)
    assert said.search(doctor.stdout), doctor.stdout
    assert "refused by the index" not in doctor.stdout
    assert "Traceback" not in doctor.stderr


def test_index_and_doctor_count_text_that_is_not_utf8(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 in opencode.db are mended to U+FFFD and counted, in `index` and `doctor`."""
    spec = badinput.build_good("opencode", tmp_path / "store")
    env = {**os.environ, "OPENCODE_DB": str(spec.path), "RECOLLECT_SOURCES": "opencode"}

    def run(command: str) -> str:
        done = subprocess.run([sys.executable, "-m", "recollect.cli", command], env=env, capture_output=True, text=True)
        assert "Traceback" not in done.stderr, done.stderr
        return done.stdout

    assert "malformed" not in run("index") + run("doctor")  # positive control: a clean store counts nothing
    case = next(c for c in CASES if c.name == "opencode: title that is not valid UTF-8")
    case.build(tmp_path / "store")
    with sqlite3.connect(spec.path) as store_conn:  # the title changed: OpenCode would bump its sequence
        store_conn.execute("UPDATE event_sequence SET seq = seq + 1")
    victim = badinput.oc_victim()
    assert f"1 malformed record skipped or mended (in {victim})" in run("index")  # counted, and where it is
    assert f"1 malformed record skipped or mended (in {victim})" in run("doctor")
    conn = store.connect(tmp_path / "index.db")
    sync(conn, [spec])
    assert conn.execute("SELECT count(*) FROM session WHERE title LIKE ?", ("caf\ufffd \ufffd\ufffd%",)).fetchone()[0]


MEASURE = """
import sys
from pathlib import Path
from recollect.index import store
from recollect.index.sync import sync
from recollect.sources.base import SourceSpec
conn = store.connect(Path(sys.argv[1]) / "index.db")
report = sync(conn, [SourceSpec(id="cc", kind=sys.argv[2], path=Path(sys.argv[1]) / "store")])
assert report.sources[0].status == "ok", report.summary()
# VmHWM is this process's own peak; ru_maxrss would count the forking parent's memory too.
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(report.sources[0].sessions, peak // 1024, *sorted(r[0] for r in conn.execute("SELECT native_id FROM session")))
"""


@pytest.mark.parametrize("kind", [c.kind for c in BIG_RECORDS])
def test_a_50_mb_record_indexes_in_bounded_memory(kind: str, tmp_path: Path) -> None:
    case = next(c for c in BIG_RECORDS if c.kind == kind)
    badinput.build_good(kind, tmp_path / "store")
    case.build(tmp_path / "store")
    run = subprocess.run([sys.executable, "-c", MEASURE, str(tmp_path), kind], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr  # its status is "ok" (asserted in the process)
    sessions, peak_mb, *found = run.stdout.split()
    assert int(sessions) == 3
    assert badinput.good_ids(kind) <= set(found)
    assert int(peak_mb) < 300, f"peak {peak_mb} MB"


def test_a_stored_reason_never_quotes_a_secret() -> None:
    from recollect.sources.guard import describe

    token = "ghp_" + "Q7" * 18
    assert describe(ValueError("bad value: 42")) == "ValueError: bad value: 42"  # positive control
    reason = describe(ValueError(f"invalid literal for int(): {token!r}"))
    assert reason.startswith("ValueError: invalid literal") and token not in reason


GARBAGE = b"\x89PNG\r\n\x1a\n\xff\xfe not a transcript at all\n" * 300


@pytest.mark.parametrize("kind", ["claude-code", "codex", "gemini"])
def test_a_store_of_nothing_but_garbage_is_never_a_silently_empty_index(kind: str, tmp_path: Path) -> None:
    root = tmp_path / "store"
    spec = badinput.build_good(kind, root)
    for sid in badinput.good_ids(kind):
        badinput._PATHS[kind](root, sid).unlink()
    conn = store.connect(tmp_path / "index.db")
    empty = sync(conn, [spec]).sources[0]
    # Positive control: a store folder with no transcript in it is empty, and there is nothing to say.
    assert (empty.status, empty.sessions, counted(empty), empty.not_sessions) == ("ok", 0, 0, []), empty
    badinput.with_file(kind, GARBAGE)(root)  # one transcript, named as the agent names them, all garbage
    report = sync(conn, [spec]).sources[0]
    assert report.status == "ok" and counted(report) + len(report.not_sessions) > 0, report  # said, not silent
    if not report.sessions:  # nothing indexed: the file is named
        said = " ".join([*report.bad, *report.problems, *report.not_sessions])
        assert badinput._PATHS[kind](root, badinput._BAD_ID[kind]).name in said, report


def test_the_summary_says_where_the_malformed_records_are() -> None:
    from recollect.index.sync import SyncReport

    clean = SourceReport(id="cl", kind="claude-code", location="/x", sessions=2)
    assert "malformed" not in SyncReport(sources=[clean]).summary()  # positive control: nothing to say
    one = SourceReport(id="cl", kind="claude-code", location="/x", sessions=2, malformed=2, malformed_most="s1: 2")
    spread = SourceReport(id="co", kind="codex", location="/y", sessions=3, malformed=3, malformed_most="s2: 2")
    said = SyncReport(sources=[one, spread]).summary()
    assert "2 malformed records skipped or mended (in s1)" in said
    assert "3 malformed records skipped or mended (most in s2: 2)" in said
