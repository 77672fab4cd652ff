"""A session whose FTS rows SQLite refuses costs that session alone (index/batches.py), with a real
index and a real SQLite error: the index connection's length limit (SQLITE_LIMIT_LENGTH: bytes of a
string, a blob or a row) is set between the largest row the index writes and the FTS tokens of one
answer in Chinese, which are over twice its bytes (each character starts a two-character token). Its
session and chunk rows are accepted; its FTS row, written for the batch at once, fails with "string or
blob too big"."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.index import store
from recollect.index.fts import fts_body
from recollect.index.sync import sync
from recollect.sources import configured_specs

CHINESE = "部署脚本用的配置文件" * 40  # 400 characters, 1,200 bytes; its FTS tokens are ~2,800 bytes
LIMIT = 2_000  # bytes: above every row the index writes (the Chinese answer's chunk, ~1,300), below those tokens
NAMES = ("alpha", "bravo", "delta", "gamma")  # "delta" answers in Chinese


def line(session: str, n: int, role: str, text: str) -> str:
    record = {
        "type": role,
        "sessionId": session,
        "uuid": f"{session}-{n}",
        "timestamp": f"2026-01-0{n}T00:00:00Z",
        "cwd": "/home/dev/work/app",
        "message": {"role": role, "content": text if role == "user" else [{"type": "text", "text": text}]},
    }
    return json.dumps(record, ensure_ascii=False)


def write_store(root: Path, chinese: str) -> None:
    project = root / ".claude" / "projects" / "-home-dev-work-app"
    project.mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        lines = [line(name, 1, "user", f"how do I rotate the {name} deploy keys")]
        if name == "delta":  # in the middle: neither the card's first question nor its outcome holds it
            lines += [line(name, 2, "assistant", chinese), line(name, 3, "user", "and then?")]
        lines.append(line(name, 4, "assistant", f"rotate {name} keys with the script"))
        (project / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / ".claude"))
    monkeypatch.setenv("RECOLLECT_SOURCES", "claude-code")
    monkeypatch.setenv("RECOLLECT_EMBEDDINGS", "off")
    write_store(tmp_path, CHINESE)
    return tmp_path


def limited() -> sqlite3.Connection:
    conn = store.connect(load_config().index_path)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, LIMIT)
    return conn


def natives(conn: sqlite3.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT native_id FROM session")}


def test_the_chinese_session_is_indexed_without_the_limit(claude: Path) -> None:
    # Positive control: the store indexes whole, and the Chinese session is found by its words.
    assert len(CHINESE.encode()) < LIMIT < len(fts_body(CHINESE).encode())
    conn = store.connect(load_config().index_path)
    report = sync(conn, configured_specs(load_config()))
    assert report.sources[0].sessions == 4 and report.sources[0].bad == []
    assert natives(conn) == set(NAMES)
    found = history.search("部署脚本", history.Filters(scope="all")).hits
    assert [h.session_id for h in found] == ["delta"]


def test_a_session_whose_fts_rows_fail_costs_only_that_session(claude: Path) -> None:
    conn = limited()
    report = sync(conn, configured_specs(load_config()))  # before: sqlite3.DataError out of the sync
    source = report.sources[0]
    assert source.status == "ok" and source.added == 3 and source.sessions == 3
    assert len(source.bad) == 1 and source.bad[0].startswith("delta: refused by the index: DataError: string or blob")
    # Said as what happened: the index refused it; its record was read (never "unreadable").
    said = report.summary()
    assert "refused by the index, so skipped until changed: 1 session (first: delta: DataError: string or blob" in said
    assert "unreadable" not in said, said
    assert natives(conn) == {"alpha", "bravo", "gamma"}
    assert conn.execute("SELECT count(*) FROM chunk").fetchone()[0] == 6  # their questions and answers
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 1_000_000_000)
    # Every other session of the batch has all its FTS rows: found by its card and its chunks.
    assert conn.execute("SELECT count(*) FROM chunk_fts WHERE chunk_fts MATCH 'rotate'").fetchone()[0] == 6
    assert conn.execute("SELECT count(*) FROM card_fts WHERE card_fts MATCH 'deploy'").fetchone()[0] == 3
    for name in ("alpha", "bravo", "gamma"):
        hits = history.search(f"rotate {name} keys", history.Filters(scope="all")).hits
        assert hits and hits[0].session_id == name
    # `recollect doctor` names it too; the next sync leaves it while its file is unchanged.
    problems = " ".join(history.doctor().problems)
    assert "refused by the index, so skipped until changed: 1 session (first: delta: DataError" in problems
    assert "unreadable" not in problems, problems
    again = sync(conn, configured_specs(load_config()))
    assert again.sources[0].added == 0 and again.sources[0].bad == source.bad
    # Once its store changes it (and SQLite's own limit is back), it is indexed.
    write_store(claude, CHINESE + "。")
    fixed = sync(conn, configured_specs(load_config()))
    assert fixed.sources[0].added == 1 and fixed.sources[0].bad == [] and natives(conn) == set(NAMES)
