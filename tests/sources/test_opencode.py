"""The OpenCode source against real stores written by OpenCode 1.18.33."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from recollect.model import SourceError
from recollect.sources.base import SourceSpec
from recollect.sources.opencode import OpenCodeSource, discover
from tests.conftest import file_hashes


def source_for(path: Path) -> OpenCodeSource:
    return OpenCodeSource(SourceSpec(id="opencode", kind="opencode", path=path))


def test_reads_every_session_message_and_part(sample_db: Path) -> None:
    src = source_for(sample_db)
    scan = src.scan()
    raw = sqlite3.connect(sample_db)
    assert set(scan.stamps) == {r[0] for r in raw.execute("SELECT id FROM session")}
    sessions = {s.id: s for s in src.read_sessions(scan.stamps)}
    messages = sum(len(s.messages) for s in sessions.values())
    v1 = raw.execute("SELECT count(*) FROM message").fetchone()[0]
    v2 = raw.execute("SELECT count(*) FROM session_message").fetchone()[0]
    assert messages == v1 + v2
    v1_ids = {r[0] for r in raw.execute("SELECT id FROM message")}
    parts = sum(len(m.parts) for s in sessions.values() for m in s.messages if m.id in v1_ids)
    assert parts == raw.execute("SELECT count(*) FROM part").fetchone()[0]
    assert all(s.malformed == 0 for s in sessions.values())
    # subagent children keep their parent, and the task part points at the child
    children = [s for s in sessions.values() if s.parent_id]
    assert len(children) == 2
    task_children = {
        p.child_session_id for s in sessions.values() for m in s.messages for p in m.parts if p.tool == "task"
    }
    assert {c.id for c in children} <= task_children
    # the v2 engine's session has its reasoning and tool call
    v2_session = next(s for s in sessions.values() if s.title.startswith("New session"))
    kinds = [p.kind for m in v2_session.messages for p in m.parts]
    assert "tool" in kinds and "reasoning" in kinds


def test_synthetic_text_is_marked(sample_db: Path) -> None:
    src = source_for(sample_db)
    texts = [p for s in src.read_sessions(src.scan().stamps) for m in s.messages for p in m.parts if p.kind == "text"]
    synthetic = [p.text for p in texts if p.synthetic]
    assert any(t.startswith("Called the Read tool") for t in synthetic)
    assert "look at this attached file" in [p.text for p in texts if not p.synthetic]


def test_watermark_is_event_seq_and_changes_when_time_updated_does_not(tmp_path: Path) -> None:
    from tests.conftest import unpack_checkpoint

    before = source_for(unpack_checkpoint(29, tmp_path / "29.db")).scan().stamps
    after = source_for(unpack_checkpoint(30, tmp_path / "30.db")).scan().stamps
    renamed = "ses_dd4b4cefbffeyxl9UhQgJ4OAnb"  # step 30 renames it without bumping time_updated
    assert before[renamed].watermark.startswith("seq:")
    assert before[renamed].watermark != after[renamed].watermark


def test_store_without_event_log_uses_row_fallback(sample_db: Path) -> None:
    conn = sqlite3.connect(sample_db)
    conn.execute("DROP TABLE event")
    conn.execute("DROP TABLE event_sequence")
    conn.commit()
    src = source_for(sample_db)
    first = src.scan().stamps
    assert all(s.watermark.startswith("rows:") for s in first.values())
    some = next(iter(first))
    conn.execute("DELETE FROM part WHERE id = (SELECT id FROM part WHERE session_id = ? LIMIT 1)", (some,))
    conn.commit()
    assert src.scan().stamps[some].watermark != first[some].watermark


def test_unknown_part_type_is_kept_and_bad_json_counted(sample_db: Path) -> None:
    conn = sqlite3.connect(sample_db)
    pid, sid = conn.execute('SELECT id, session_id FROM part WHERE data LIKE \'%"type":"text"%\' LIMIT 1').fetchone()
    conn.execute("UPDATE part SET data = ? WHERE id = ?", (json.dumps({"type": "hologram", "text": "shimmer"}), pid))
    pid2 = conn.execute("SELECT id FROM part WHERE session_id = ? AND id != ? LIMIT 1", (sid, pid)).fetchone()[0]
    conn.execute("UPDATE part SET data = '{not json' WHERE id = ?", (pid2,))
    conn.commit()
    session = next(source_for(sample_db).read_sessions([sid]))
    parts = {p.id: p for m in session.messages for p in m.parts}
    assert parts[pid].kind == "other" and parts[pid].raw_type == "hologram" and parts[pid].text == "shimmer"
    assert pid2 not in parts
    assert session.malformed == 1


def test_missing_truncated_and_foreign_files_raise_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceError) as missing:
        source_for(tmp_path / "nope.db").scan()
    assert missing.value.reason == "missing" and "OPENCODE_DB" in str(missing.value)

    truncated = tmp_path / "truncated.db"
    from tests.conftest import SAMPLE_DB

    truncated.write_bytes(SAMPLE_DB.read_bytes()[:5000])
    with pytest.raises(SourceError) as bad:
        source_for(truncated).read_sessions(list(source_for(truncated).scan().stamps)).__next__()
    assert bad.value.reason in ("corrupt", "unreadable")

    foreign = tmp_path / "other.db"
    sqlite3.connect(foreign).execute("CREATE TABLE x (y)").connection.commit()
    with pytest.raises(SourceError) as not_ours:
        source_for(foreign).scan()
    assert "not an OpenCode store" in str(not_ours.value)


def test_locked_store_is_reported(sample_db: Path) -> None:
    holder = sqlite3.connect(sample_db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(SourceError) as locked:
            source_for(sample_db).scan()
        assert locked.value.reason == "locked"
    finally:
        holder.execute("ROLLBACK")
    assert source_for(sample_db).scan().stamps  # positive control once the lock is gone


def test_reading_never_writes_the_store(sample_db: Path) -> None:
    before = file_hashes(sample_db)
    src = source_for(sample_db)
    list(src.read_sessions(src.scan().stamps))
    assert file_hashes(sample_db) == before


def test_legacy_json_tree_is_read_and_deduplicated(sample_db: Path) -> None:
    storage = sample_db.parent / "storage"
    db_session = "ses_dd4b4cefbffeyxl9UhQgJ4OAnb"
    for sid, title in (("ses_legacyonly000000000000001", "legacy only session"), (db_session, "stale JSON copy")):
        (storage / "session" / "proj1").mkdir(parents=True, exist_ok=True)
        (storage / "session" / "proj1" / f"{sid}.json").write_text(
            json.dumps(
                {
                    "id": sid,
                    "projectID": "proj1",
                    "directory": "/old/project",
                    "title": title,
                    "time": {"created": 1700000000000, "updated": 1700000001000},
                }
            )
        )
    msg_dir = storage / "message" / "ses_legacyonly000000000000001"
    msg_dir.mkdir(parents=True)
    (msg_dir / "msg_legacy01.json").write_text(
        json.dumps({"id": "msg_legacy01", "role": "user", "time": {"created": 1700000000500}})
    )
    part_dir = storage / "part" / "msg_legacy01"
    part_dir.mkdir(parents=True)
    (part_dir / "prt_legacy01.json").write_text(json.dumps({"type": "text", "text": "zanzibar legacy words"}))
    (part_dir / "prt_legacy02.json").write_text("{broken")

    src = source_for(sample_db)
    stamps = src.scan().stamps
    assert "ses_legacyonly000000000000001" in stamps
    assert stamps[db_session].watermark.startswith("seq:")  # the database wins
    sessions = {s.id: s for s in src.read_sessions(["ses_legacyonly000000000000001", db_session])}
    legacy = sessions["ses_legacyonly000000000000001"]
    assert legacy.messages[0].parts[0].text == "zanzibar legacy words"
    assert legacy.malformed == 1
    assert sessions[db_session].title != "stale JSON copy"


def test_discovery_follows_opencode_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "home" / ".local" / "share" / "opencode"
    data.mkdir(parents=True)
    (data / "opencode.db").write_bytes(b"")
    (data / "opencode-beta.db").write_bytes(b"")
    ids = sorted(s.id for s in discover())
    assert ids == ["opencode", "opencode-beta"]
    monkeypatch.setenv("OPENCODE_DB", "custom.db")  # relative: inside the data dir
    assert [s.path for s in discover()] == [data / "custom.db"]


def test_reading_legacy_sessions_does_not_walk_the_tree_per_batch(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session_dir = sample_db.parent / "storage" / "session" / "proj1"
    session_dir.mkdir(parents=True)
    ids = [f"ses_legacy{i:019d}" for i in range(30)]
    for sid in ids:
        meta = {"id": sid, "projectID": "proj1", "directory": "/old", "title": f"legacy {sid[-2:]}", "time": {}}
        (session_dir / f"{sid}.json").write_text(json.dumps(meta))
    unscanned = source_for(sample_db)
    assert sorted(s.id for s in unscanned.read_sessions(ids[:3])) == ids[:3]  # positive control: walks the tree
    src = source_for(sample_db)
    assert set(ids) <= set(src.scan().stamps)

    def walked() -> None:
        raise AssertionError("the whole legacy tree was read again for one batch")

    monkeypatch.setattr(src, "_legacy_session_files", walked)
    for start in range(0, 30, 10):  # batches, as a sync reads them
        batch = ids[start : start + 10]
        assert sorted(s.id for s in src.read_sessions(batch)) == batch
