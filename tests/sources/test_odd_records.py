"""Records shaped unlike the documented formats are skipped and counted by every JSONL source, never fatal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recollect.index import store
from recollect.index.sync import sync
from recollect.sources.base import SourceSpec
from recollect.sources.claude_code import ClaudeCodeSource
from recollect.sources.codex import CodexSource
from recollect.sources.gemini import GeminiSource

ODD_VALUES = [None, 0, 1.5, True, "", [], [None], [1, "a"], {}, {"type": ["x"]}, {"text": 5}]
# Numbers Python's json reads that are no time and no count (1e400, -1e400, NaN), and integers past 64 bits.
ODD_VALUES += [float("inf"), float("-inf"), float("nan"), 10**30, -(10**30), 2**63, -1]


def odd_variants(record: dict) -> list[dict]:
    """The record with each key, and each key of its nested dicts, replaced by every odd value."""
    variants = []
    for key, value in record.items():
        for odd in ODD_VALUES:
            variants.append({**record, key: odd})
        if isinstance(value, dict):
            variants += [{**record, key: inner} for inner in odd_variants(value)]
        if isinstance(value, list) and value and isinstance(value[0], dict):
            variants += [{**record, key: [inner]} for inner in odd_variants(value[0])]
    return variants


def write(path: Path, records: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_claude_code(tmp_path: Path):
    sid = "33333333-2222-4333-8444-555555555555"
    good = [
        {"type": "user", "uuid": "u1", "sessionId": sid, "cwd": "/w", "timestamp": "2026-01-01T00:00:00Z",
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
        {"type": "assistant", "uuid": "a1", "sessionId": sid, "timestamp": "2026-01-01T00:00:01Z",
         "message": {"id": "m1", "model": "x", "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                                                            "input": {"command": "ls"}}]}},
        {"type": "system", "uuid": "s1", "subtype": "stop_hook_summary", "hookErrors": ["e"], "stopReason": "r"},
        {"type": "progress", "uuid": "p1", "parentToolUseID": "t1", "data": {"type": "agent_progress", "agentId": "a"}},
        {"type": "custom-title", "customTitle": "t"},
    ]  # fmt: skip
    records = [variant for record in good for variant in odd_variants(record)]
    write(tmp_path / "projects" / "p" / f"{sid}.jsonl", [*records, *good])
    source = ClaudeCodeSource(SourceSpec(id="c", kind="claude-code", path=tmp_path))
    (session,) = source.read_sessions(source.scan().stamps)
    assert session.messages  # the well-formed copies at the end still count


def test_codex(tmp_path: Path):
    sid = "019947aa-cd00-7a1b-2c3d-4e5f60718293"
    good = [
        {"timestamp": "2025-09-14T10:00:00Z", "type": "session_meta",
         "payload": {"id": sid, "cwd": "/w", "forked_from_id": sid, "source": {"subagent": {"thread_spawn": {}}}}},
        {"timestamp": "2025-09-14T10:00:01Z", "type": "event_msg", "payload": {"type": "task_started", "turn_id": "x"}},
        {"timestamp": "2025-09-14T10:00:02Z", "type": "response_item",
         "payload": {"type": "function_call", "name": "shell", "arguments": "{\"a\": 1}", "call_id": "c1"}},
        {"timestamp": "2025-09-14T10:00:03Z", "type": "response_item",
         "payload": {"type": "function_call_output", "call_id": "c1", "output": {"content": [{"text": "ok"}]}}},
        {"timestamp": "2025-09-14T10:00:04Z", "type": "response_item",
         "payload": {"type": "reasoning", "summary": [{"text": "r"}], "content": [{"text": "c"}]}},
        {"timestamp": "2025-09-14T10:00:05Z", "type": "event_msg",
         "payload": {"type": "thread_rolled_back", "num_turns": 1}},
        {"timestamp": "2025-09-14T10:00:06Z", "type": "compacted", "payload": {"message": "m"}},
        {"timestamp": "2025-09-14T10:00:07Z", "type": "response_item",
         "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}},
    ]  # fmt: skip
    records = [variant for record in good for variant in odd_variants(record)]
    write(tmp_path / "sessions" / "2025" / "09" / "14" / f"rollout-2025-09-14T10-00-00-{sid}.jsonl", [*good, *records])
    source = CodexSource(SourceSpec(id="x", kind="codex", path=tmp_path))
    (session,) = source.read_sessions(source.scan().stamps)
    assert session.id == sid


def test_gemini(tmp_path: Path):
    good = [
        {"sessionId": "s", "projectHash": "h", "startTime": "2025-10-02T14:05:12Z"},
        {"id": "u1", "type": "user", "content": [{"text": "hi"}, {"functionResponse": {"id": "c", "response": {}}}],
         "displayContent": [{"text": "hi"}]},
        {"id": "g1", "type": "gemini", "content": [{"text": "t", "thought": True}], "thoughts": [{"subject": "s"}],
         "toolCalls": [{"id": "c", "name": "n", "args": {"path": "p"}, "status": "success",
                        "result": [{"functionResponse": {"response": {"output": "o"}}}]}]},
        {"$set": {"summary": "x", "messages": [{"id": "u1", "type": "user", "content": "again"}]}},
        {"$rewindTo": "nothing-like-this"},
        {"id": "u2", "type": "user", "content": "after"},
    ]  # fmt: skip
    records = [variant for record in good for variant in odd_variants(record)]
    write(tmp_path / "tmp" / "proj" / "chats" / "session-2025-10-02T14-05-s.jsonl", [good[0], *records, *good[1:]])
    source = GeminiSource(SourceSpec(id="g", kind="gemini", path=tmp_path))
    (session,) = source.read_sessions(source.scan().stamps)
    assert [m.id for m in session.messages] == ["u2"]  # the rewind to an unknown id cleared the rest


@pytest.mark.parametrize("kind", ["claude-code", "codex", "gemini"])
def test_the_same_records_cost_themselves_in_the_index_too(kind: str, tmp_path: Path) -> None:
    """Through the index (the guard that mends what a source returns, then the store): the session with
    every odd record is stored, never skipped as bad."""
    {"claude-code": test_claude_code, "codex": test_codex, "gemini": test_gemini}[kind](tmp_path)
    conn = store.connect(tmp_path / "index.db")
    report = sync(conn, [SourceSpec(id="x", kind=kind, path=tmp_path)]).sources[0]
    assert (report.status, report.sessions, report.bad) == ("ok", 1, []), report
