"""bench/bench_loop.py counts echo from OpenCode's store: a word our text carried into a later session."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bench.bench_loop import HOLDS

SCHEMA = Path(__file__).resolve().parents[2] / "bench" / "opencode_schema.sql"


def store(tmp_path: Path, parts: list[tuple[str, str, dict[str, object]]]) -> sqlite3.Connection:
    """An OpenCode store with one session whose messages are (message id, role, part data)."""
    conn = sqlite3.connect(tmp_path / "opencode.db")
    conn.executescript(SCHEMA.read_text())
    for n, (message, role, part) in enumerate(parts):
        conn.execute(
            "insert or ignore into message (id, session_id, time_created, time_updated, data) values (?, ?, ?, ?, ?)",
            (message, "ses_a", n, n, json.dumps({"role": role})),
        )
        conn.execute(
            "insert into part (id, message_id, session_id, time_created, time_updated, data) values (?, ?, ?, ?, ?, ?)",
            (f"prt_{n}", message, "ses_a", n, n, json.dumps(part, ensure_ascii=False)),
        )
    return conn


def test_the_persons_own_text_naming_the_answer_word_is_no_echo(tmp_path: Path) -> None:
    conn = store(
        tmp_path,
        [
            ("msg_u", "user", {"type": "text", "text": "配置文件格式上次讨论后改成了什么？YAML 还是 TOML？"}),
            ("msg_a", "assistant", {"type": "text", "text": "Let me look at that."}),
            ("msg_a", "assistant", {"type": "tool", "tool": "recollect_history_search", "state": {"output": "cliff"}}),
        ],
    )
    # control: a word the session holds through a tool's output (ours) counts, in either case
    assert conn.execute(HOLDS, ("ses_a", "cliff")).fetchall()
    assert conn.execute(HOLDS, ("ses_a", "let me")).fetchall()
    # the person typed TOML: that is not our text coming back
    assert not conn.execute(HOLDS, ("ses_a", "toml")).fetchall()
