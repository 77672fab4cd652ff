"""bench/storegen.py: generated stores have the real schema, a consistent event log, and mutate like OpenCode."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from bench.storegen import (
    SESSION_COLUMNS,
    GeneratedStore,
    StoreMutator,
    decode_id_time,
    generate_store,
)

REPO = Path(__file__).resolve().parents[2]
REAL_SAMPLE = REPO / "src" / "recollect" / "data" / "demo" / "opencode.db"
ID_RE = re.compile(r"^(ses|msg|prt|evt)_[0-9a-f]{12}[0-9A-Za-z]{14}$")


def connect(path: Path | str) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> GeneratedStore:
    return generate_store(tmp_path_factory.mktemp("gen") / "opencode.db", sessions=60, seed=11, projects=4)


@pytest.fixture(scope="module")
def db(store: GeneratedStore) -> sqlite3.Connection:
    con = connect(store.path)
    yield con
    con.close()


def replay(con: sqlite3.Connection) -> dict[str, dict]:
    """Project the event log back into message/part state (the REPORT §7 recipe)."""
    strip = ("id", "sessionID", "messageID")
    state: dict[str, dict] = {}
    for (sid,) in con.execute("SELECT aggregate_id FROM event_sequence"):
        s = state.setdefault(sid, {"title": None, "messages": {}, "parts": {}})
        for etype, data in con.execute("SELECT type, data FROM event WHERE aggregate_id=? ORDER BY seq", (sid,)):
            d = json.loads(data)
            name = etype.rsplit(".", 1)[0]
            if name in ("session.created", "session.updated"):
                s["title"] = d["info"]["title"]
            elif name == "message.updated":
                s["messages"][d["info"]["id"]] = {k: v for k, v in d["info"].items() if k not in strip}
            elif name == "message.removed":
                s["messages"].pop(d["messageID"], None)
                s["parts"] = {k: v for k, v in s["parts"].items() if v[0] != d["messageID"]}
            elif name == "message.part.updated":
                p = d["part"]
                s["parts"][p["id"]] = (p["messageID"], {k: v for k, v in p.items() if k not in strip})
            elif name == "message.part.removed":
                s["parts"].pop(d["partID"], None)
    return state


def rows(con: sqlite3.Connection) -> dict[str, dict]:
    state: dict[str, dict] = {}
    for sid, title in con.execute("SELECT id, title FROM session"):
        state[sid] = {"title": title, "messages": {}, "parts": {}}
    for mid, sid, data in con.execute("SELECT id, session_id, data FROM message"):
        state[sid]["messages"][mid] = json.loads(data)
    for pid, mid, sid, data in con.execute("SELECT id, message_id, session_id, data FROM part"):
        state[sid]["parts"][pid] = (mid, json.loads(data))
    return state


def table_digest(path: str) -> str:
    con = connect(path)
    h = hashlib.sha256()
    for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"):
        for row in con.execute(f'SELECT * FROM "{table}" ORDER BY 1, 2'):
            h.update(repr(row).encode())
    con.close()
    return h.hexdigest()


# schema ---------------------------------------------------------------------------------------------


def test_schema_is_the_real_one(db: sqlite3.Connection) -> None:
    assert REAL_SAMPLE.exists(), "the real sample store ships in src/recollect/data/demo"
    real = connect(REAL_SAMPLE)
    query = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
    assert db.execute(query).fetchall() == real.execute(query).fetchall()
    assert [r[0] for r in db.execute("SELECT id FROM migration ORDER BY id")] == [
        r[0] for r in real.execute("SELECT id FROM migration ORDER BY id")
    ]
    real.close()


def test_store_is_in_wal_mode(db: sqlite3.Connection) -> None:
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# rows -----------------------------------------------------------------------------------------------


def test_counts_and_session_columns(store: GeneratedStore, db: sqlite3.Connection) -> None:
    assert db.execute("SELECT count(*) FROM session").fetchone()[0] == 60 == len(store.sessions)
    children = db.execute("SELECT id, parent_id, title, agent, permission FROM session WHERE parent_id IS NOT NULL")
    children = children.fetchall()
    assert len(children) == 6  # CHILD_SHARE of the sessions are subagent children
    for _, parent, title, agent, permission in children:
        assert title.endswith(" (@general subagent)")
        assert agent == "general"
        assert json.loads(permission) == [{"permission": "task", "pattern": "*", "action": "deny"}]
        assert db.execute("SELECT 1 FROM session WHERE id=?", (parent,)).fetchone()
    for row in db.execute(f"SELECT {','.join(SESSION_COLUMNS)} FROM session"):
        c = dict(zip(SESSION_COLUMNS, row, strict=True))
        assert c["version"] == "1.18.33"
        assert re.fullmatch(r"[a-z]+-[a-z]+", c["slug"])
        assert json.loads(c["model"])["providerID"]
        assert c["time_created"] <= c["time_updated"]
        project = db.execute("SELECT worktree FROM project WHERE id=?", (c["project_id"],)).fetchone()
        assert project, c["project_id"]
        if c["project_id"] == "global":
            assert c["path"] == c["directory"].lstrip("/")
        else:
            assert re.fullmatch(r"[0-9a-f]{40}", c["project_id"])
            assert c["directory"] == project[0] + ("/" + c["path"] if c["path"] else "")
    assert db.execute("SELECT count(*) FROM session WHERE time_archived IS NOT NULL").fetchone()[0] >= 1
    assert db.execute("SELECT count(*) FROM session WHERE path != ''").fetchone()[0] >= 1


def test_message_and_part_payloads(db: sqlite3.Connection) -> None:
    roles = Counter()
    for (data,) in db.execute("SELECT data FROM message"):
        m = json.loads(data)
        roles[m["role"]] += 1
        if m["role"] == "assistant":
            assert m["parentID"].startswith("msg_")
            assert "completed" in m["time"]
            assert set(m["tokens"]) >= {"input", "output", "reasoning", "cache"}
            assert "finish" in m or "error" in m or m["tokens"]["input"] == 0  # /shell: no finish, no tokens
    assert roles["assistant"] > roles["user"] > 0
    types = Counter()
    tools = Counter()
    statuses = Counter()
    synthetic = 0
    for (data,) in db.execute("SELECT data FROM part"):
        p = json.loads(data)
        types[p["type"]] += 1
        synthetic += bool(p.get("synthetic"))
        if p["type"] == "tool":
            tools[p["tool"]] += 1
            st = p["state"]
            statuses[st["status"]] += 1
            assert st["status"] in ("completed", "error")
            assert st["time"]["start"] <= st["time"]["end"]
            if st["status"] == "completed":
                assert isinstance(st["output"], str) and "title" in st and "metadata" in st
            else:
                assert st["error"]
    assert {"step-start", "step-finish", "text", "reasoning", "tool", "patch"} <= set(types)
    assert {"bash", "read", "edit", "grep", "glob", "task"} <= set(tools)
    assert statuses["error"] >= 1
    assert types["tool"] > types["text"], "sessions are tool-heavy"
    assert synthetic >= 1
    summaries = db.execute("SELECT count(*) FROM message WHERE json_extract(data, '$.summary') = 1").fetchone()[0]
    compactions = db.execute("SELECT count(*) FROM part WHERE json_extract(data, '$.type')='compaction'").fetchone()[0]
    assert summaries == compactions >= 1
    cjk = db.execute(
        "SELECT count(*) FROM part WHERE json_extract(data, '$.type')='text' AND data GLOB '*[一-龥]*'"
    ).fetchone()[0]
    assert cjk >= 1


def test_ids_follow_the_real_format(db: sqlite3.Connection) -> None:
    for sid, created in db.execute("SELECT id, time_created FROM session"):
        assert ID_RE.match(sid)
        assert decode_id_time(sid) >> 12 == created % (1 << 36)
    for table in ("message", "part"):
        for (ident,) in db.execute(f"SELECT id FROM {table}"):
            assert ID_RE.match(ident)
    for (ident,) in db.execute("SELECT id FROM event LIMIT 5000"):
        assert ID_RE.match(ident)
    for (sid,) in db.execute("SELECT id FROM session"):
        by_time = [
            r[0] for r in db.execute("SELECT id FROM message WHERE session_id=? ORDER BY time_created, id", (sid,))
        ]
        assert by_time == sorted(by_time)
        evts = [r[0] for r in db.execute("SELECT id FROM event WHERE aggregate_id=? ORDER BY seq", (sid,))]
        assert evts == sorted(evts)


# event log ------------------------------------------------------------------------------------------


def test_event_sequence_is_the_last_seq(db: sqlite3.Connection) -> None:
    seqs = dict(db.execute("SELECT aggregate_id, seq FROM event_sequence"))
    stats = {
        r[0]: r[1:]
        for r in db.execute("SELECT aggregate_id, max(seq), count(*), min(seq) FROM event GROUP BY aggregate_id")
    }
    sessions = {r[0] for r in db.execute("SELECT id FROM session")}
    assert set(seqs) == set(stats) == sessions
    for sid, seq in seqs.items():
        assert stats[sid] == (seq, seq + 1, 0), "seq starts at 0 and has no gaps"
    first = db.execute("SELECT DISTINCT type FROM event WHERE seq=0").fetchall()
    assert first == [("session.created.1",)]


def test_event_log_reproduces_rows(db: sqlite3.Connection) -> None:
    assert replay(db) == rows(db)


def test_event_data_is_several_times_the_part_data(store: GeneratedStore) -> None:
    c = store.counts
    assert c["event_chars"] > 3 * c["part_chars"]


# varied text ---------------------------------------------------------------------------------------

# edit and write answer with OpenCode's fixed acknowledgement ("Edit applied successfully."); what varies
# in those calls is the input (oldString/newString, content), so that is what is compared for them
ACKNOWLEDGED = ("edit", "write")


def tool_texts(con: sqlite3.Connection) -> list[tuple[str, str]]:
    """(tool, what the call produced) for every finished tool part."""
    out = []
    for (data,) in con.execute("SELECT data FROM part"):
        d = json.loads(data)
        if d.get("type") != "tool" or d["state"].get("status") not in ("completed", "error"):
            continue
        state = d["state"]
        text = json.dumps(state["input"]) if d["tool"] in ACKNOWLEDGED else state.get("output", state.get("error"))
        out.append((d["tool"], text))
    return out


def repeated_share(texts: list[str]) -> float:
    """Share of ``texts`` that are identical to another one."""
    counts = Counter(texts)
    return sum(n for n in counts.values() if n > 1) / max(1, len(texts))


def test_tool_outputs_are_rarely_exact_repeats(db: sqlite3.Connection) -> None:
    assert repeated_share(["a", "b", "a", "c"]) == 0.5  # the measure sees repeats
    calls = tool_texts(db)
    assert len(calls) > 300
    acknowledgements = [d for (d,) in db.execute('SELECT data FROM part WHERE data LIKE \'%"tool":"edit"%\'')]
    acks = [json.loads(d)["state"].get("output") for d in acknowledgements if '"status":"completed"' in d]
    assert repeated_share(acks) > 0.5  # positive control on real rows: OpenCode's fixed edit answer repeats
    share = repeated_share([text for _, text in calls])
    assert share < 0.05, f"{share:.1%} of tool outputs are identical to another"
    for tool in ("read", "bash", "grep"):
        texts = [text for t, text in calls if t == tool]
        assert len(texts) > 20 and repeated_share(texts) < 0.05, tool


def test_bash_outputs_hold_long_diffs_traces_and_logs(db: sqlite3.Connection) -> None:
    bash = [json.loads(d)["state"] for (d,) in db.execute('SELECT data FROM part WHERE data LIKE \'%"tool":"bash"%\'')]
    outputs = [s.get("output", "") for s in bash]
    diffs = [o for o in outputs if o.startswith("diff --git")]
    assert diffs and max(o.count("\n@@ ") for o in diffs) >= 3 and max(len(o) for o in diffs) > 3000
    assert max(o.count("diff --git") for o in diffs) >= 2
    traces = [o for o in outputs if "Traceback (most recent call last)" in o or "goroutine " in o or "    at " in o]
    assert traces
    logs = [s["output"] for s in bash if s["input"]["command"].startswith(("tail", "kubectl", "docker", "journalctl"))]
    stamps = [re.findall(r"^\d{4}-\d\d-\d\dT[\d:.]+Z", o, re.M) for o in logs]
    assert logs and all(len(set(x)) > 0.9 * len(x) for x in stamps if x)  # timestamps move on
    lines = [line for o in outputs for line in o.split("\n") if len(line) > 40]
    assert repeated_share(lines) < 0.05  # a long output is not a few lines over and over


# determinism and manifest ---------------------------------------------------------------------------


def test_deterministic_for_a_seed(tmp_path: Path) -> None:
    a = generate_store(tmp_path / "a.db", sessions=12, seed=5, projects=2)
    b = generate_store(tmp_path / "b.db", sessions=12, seed=5, projects=2)
    c = generate_store(tmp_path / "c.db", sessions=12, seed=6, projects=2)
    assert table_digest(a.path) == table_digest(b.path) != table_digest(c.path)
    assert list(a.sessions) == list(b.sessions)


def test_manifest_round_trips_and_facts_are_distinctive(store: GeneratedStore, db: sqlite3.Connection) -> None:
    loaded = GeneratedStore.load(store.path + ".manifest.json")
    assert loaded.sessions == store.sessions
    assert sum(len(v) for v in loaded.by_project().values()) == len(store.sessions)
    assert set(loaded.by_directory()) >= {p.worktree for p in loaded.projects if p.id != "global"}
    cjk_sessions = 0
    facts = list(store.sessions.values())
    for f in facts[::4] + [f for f in facts if f.cjk_phrase]:  # every instr() is a full scan: sample
        hits = {
            r[0]
            for r in db.execute("SELECT DISTINCT session_id FROM part WHERE instr(data, ?) > 0", (f.rare_identifier,))
        }
        assert hits == {f.id}, f.rare_identifier
        if f.error_message:
            parts = db.execute(
                "SELECT session_id, json_extract(data, '$.tool') FROM part WHERE instr(data, ?) > 0", (f.error_message,)
            ).fetchall()
            assert parts == [(f.id, "bash")], f.error_message
        if f.cjk_phrase:
            cjk_sessions += 1
            hits = {
                r[0]
                for r in db.execute("SELECT DISTINCT session_id FROM part WHERE instr(data, ?) > 0", (f.cjk_phrase,))
            }
            assert hits == {f.id}
    assert cjk_sessions >= 1


# mutations ------------------------------------------------------------------------------------------


@pytest.fixture
def small(tmp_path: Path) -> GeneratedStore:
    return generate_store(tmp_path / "opencode.db", sessions=20, seed=3, projects=2)


def seq_of(path: str, sid: str) -> int | None:
    con = connect(path)
    row = con.execute("SELECT seq FROM event_sequence WHERE aggregate_id=?", (sid,)).fetchone()
    con.close()
    return row[0] if row else None


def updated_of(path: str, sid: str) -> int:
    con = connect(path)
    value = con.execute("SELECT time_updated FROM session WHERE id=?", (sid,)).fetchone()[0]
    con.close()
    return value


def test_append_turn_adds_rows_and_events(small: GeneratedStore) -> None:
    sid = next(iter(small.sessions))
    before, updated = seq_of(small.path, sid), updated_of(small.path, sid)
    with StoreMutator(small.path, seed=1) as m:
        turn = m.append_turn(sid, "please also cover the empty batch", steps=2)
    assert turn.seq_before == before and turn.seq_after > before
    assert seq_of(small.path, sid) == turn.seq_after
    assert updated_of(small.path, sid) > updated
    assert turn.text == "please also cover the empty batch"
    assert len(turn.message_ids) == 4  # user + 2 tool steps + final answer
    con = connect(small.path)
    marks = ",".join("?" * len(turn.message_ids))
    assert con.execute(f"SELECT count(*) FROM message WHERE id IN ({marks})", turn.message_ids).fetchone()[0] == 4
    new = [
        r[0] for r in con.execute("SELECT type FROM event WHERE aggregate_id=? AND seq>? ORDER BY seq", (sid, before))
    ]
    assert set(new) == {"message.updated.1", "message.part.updated.1", "session.updated.1"}
    assert replay(con) == rows(con)
    con.close()


def test_add_session(small: GeneratedStore) -> None:
    with StoreMutator(small.path, seed=2) as m:
        added = m.add_session()
    con = connect(small.path)
    assert (
        con.execute("SELECT seq FROM event_sequence WHERE aggregate_id=?", (added.session_id,)).fetchone()[0]
        == added.seq
    )
    hits = {
        r[0]
        for r in con.execute("SELECT DISTINCT session_id FROM part WHERE instr(data, ?) > 0", (added.rare_identifier,))
    }
    assert hits == {added.session_id}
    assert replay(con) == rows(con)
    con.close()


def test_delete_message_part_and_edit_leave_events_without_bumping_time(small: GeneratedStore) -> None:
    sid = next(iter(small.sessions))
    con = connect(small.path)
    mid = con.execute(
        "SELECT id FROM message WHERE session_id=? AND json_extract(data,'$.role')='assistant' ORDER BY id LIMIT 1",
        (sid,),
    ).fetchone()[0]
    text_part = con.execute(
        "SELECT id FROM part WHERE session_id=? AND message_id != ? AND json_extract(data,'$.type')='text' LIMIT 1",
        (sid, mid),
    ).fetchone()[0]
    tool_part = con.execute(
        "SELECT id FROM part WHERE session_id=? AND message_id != ? AND json_extract(data,'$.type')='tool' LIMIT 1",
        (sid, mid),
    ).fetchone()[0]
    con.close()
    updated, seq = updated_of(small.path, sid), seq_of(small.path, sid)
    with StoreMutator(small.path) as m:
        assert m.delete_message(mid) == seq + 1
        assert m.edit_part(text_part, "edited by hand") == seq + 2
        assert m.delete_part(tool_part) == seq + 3
        assert m.rename_session(sid, "Renamed by the user") == seq + 4
        assert m.archive_session(sid) == seq + 5
    assert updated_of(small.path, sid) == updated
    con = connect(small.path)
    assert con.execute("SELECT count(*) FROM message WHERE id=?", (mid,)).fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM part WHERE message_id=?", (mid,)).fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM part WHERE id=?", (tool_part,)).fetchone()[0] == 0
    last = con.execute(
        "SELECT type, data FROM event WHERE aggregate_id=? AND seq>? ORDER BY seq", (sid, seq)
    ).fetchall()
    assert [t for t, _ in last] == [
        "message.removed.1",
        "message.part.updated.1",
        "message.part.removed.1",
        "session.updated.1",
        "session.updated.1",
    ]
    assert json.loads(last[0][1]) == {"sessionID": sid, "messageID": mid}
    assert json.loads(last[1][1])["part"]["text"] == "edited by hand"
    assert json.loads(last[-1][1])["info"]["time"]["archived"] > 0
    title, archived = con.execute("SELECT title, time_archived FROM session WHERE id=?", (sid,)).fetchone()
    assert title == "Renamed by the user" and archived
    assert replay(con) == rows(con)
    con.close()


def test_delete_session_removes_children_events_and_sequence(small: GeneratedStore) -> None:
    parent = next(f for f in small.sessions.values() if f.children)
    with StoreMutator(small.path) as m:
        deleted = m.delete_session(parent.id)
    assert set(deleted) == {parent.id, *parent.children}
    con = connect(small.path)
    for sid in deleted:
        for sql in (
            "SELECT count(*) FROM session WHERE id=?",
            "SELECT count(*) FROM message WHERE session_id=?",
            "SELECT count(*) FROM part WHERE session_id=?",
            "SELECT count(*) FROM event WHERE aggregate_id=?",
            "SELECT count(*) FROM event_sequence WHERE aggregate_id=?",
        ):
            assert con.execute(sql, (sid,)).fetchone()[0] == 0, sql
    assert con.execute("SELECT count(*) FROM session").fetchone()[0] == len(small.sessions) - len(deleted)
    assert replay(con) == rows(con)
    con.close()
