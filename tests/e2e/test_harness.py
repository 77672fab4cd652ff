"""Self-tests of the e2e harness: the fake LLM on its own, then a real OpenCode world end to end."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .fake_llm import FakeLLM
from .opencode import OpenCodeWorld


def _post(url: str, body: dict[str, Any]) -> tuple[int, bytes]:
    req = urllib.request.Request(
        url + "/chat/completions",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def _stream(url: str, messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """Assemble an SSE reply the way an OpenAI client does."""
    status, raw = _post(url, {"model": "fake-model", "stream": True, "messages": messages, **extra})
    assert status == 200, raw
    out: dict[str, Any] = {"reasoning": "", "text": "", "calls": {}, "finish": None, "usage": None, "done": False}
    for line in raw.decode().splitlines():
        if not line.startswith("data: "):
            continue
        data = line[len("data: ") :]
        if data == "[DONE]":
            out["done"] = True
            continue
        chunk = json.loads(data)
        if chunk.get("usage"):
            out["usage"] = chunk["usage"]
        for choice in chunk["choices"]:
            delta = choice["delta"]
            out["reasoning"] += delta.get("reasoning_content") or ""
            out["text"] += delta.get("content") or ""
            for tc in delta.get("tool_calls") or []:
                call = out["calls"].setdefault(tc["index"], {"id": None, "name": None, "args": ""})
                call["id"] = tc.get("id") or call["id"]
                call["name"] = (tc.get("function") or {}).get("name") or call["name"]
                call["args"] += (tc.get("function") or {}).get("arguments") or ""
            out["finish"] = choice.get("finish_reason") or out["finish"]
    return out


TOOLS = [{"type": "function", "function": {"name": "bash", "parameters": {"type": "object"}}}]


def test_fake_llm_scripted_replies(tmp_path: Path) -> None:
    rules = [
        {
            "match": ["parallel"],
            "reasoning": "Two lookups at once.",
            "tools": [
                [
                    {"name": "recollect_history_search", "args": {"query": "deploy {user}", "limit": 2}},
                    {"name": "bash", "args": {"command": "echo hi"}},
                ]
            ],
            "text": "Results: {last_tool_output}",
        },
        {"match": ["flaky"], "error_status": 503, "error_times": 1, "text": "recovered"},
    ]
    rules_path, log_path = tmp_path / "rules.json", tmp_path / "log.jsonl"
    with FakeLLM(rules, rules_path=rules_path, log_path=log_path) as llm:
        user = {"role": "user", "content": "parallel please"}
        first = _stream(llm.url, [user], tools=TOOLS, stream_options={"include_usage": True})
        assert first["reasoning"] == "Two lookups at once."
        assert first["finish"] == "tool_calls" and first["done"]
        assert first["usage"] and first["usage"]["prompt_tokens"] > 0
        calls = [first["calls"][i] for i in sorted(first["calls"])]
        # A tool the request did not offer is still called: rules may target any (MCP) tool name.
        assert [c["name"] for c in calls] == ["recollect_history_search", "bash"]
        assert json.loads(calls[0]["args"]) == {"query": "deploy parallel please", "limit": 2}

        history = [
            user,
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["args"]}}
                    for c in calls
                ],
            },
            {"role": "tool", "tool_call_id": calls[0]["id"], "content": "one hit"},
            {"role": "tool", "tool_call_id": calls[1]["id"], "content": "hi"},
        ]
        second = _stream(llm.url, history, tools=TOOLS)
        assert second["text"] == "Results: hi" and second["finish"] == "stop"
        assert second["usage"] is None  # usage only when stream_options.include_usage asks for it

        flaky = {"model": "m", "messages": [{"role": "user", "content": "flaky one"}], "tools": TOOLS}
        assert _post(llm.url, flaky)[0] == 503
        status, raw = _post(llm.url, flaky)
        assert status == 200 and json.loads(raw)["choices"][0]["message"]["content"] == "recovered"

        # Rules are re-read from the file while the server runs.
        llm.set_rules([{"match": ["parallel"], "text": "changed"}])
        assert _stream(llm.url, [user], tools=TOOLS)["text"] == "changed"

        title = _stream(
            llm.url,
            [
                {"role": "system", "content": "You are a title generator. Output a title."},
                {"role": "user", "content": "fix the flux capacitor tests"},
            ],
        )
        assert title["text"] == "Fix the flux capacitor tests"
        summary = _stream(
            llm.url,
            [
                {"role": "system", "content": "You are a context summarization agent."},
                {"role": "user", "content": "Here is the conversation so far"},
            ],
        )
        assert summary["text"].startswith("## Summary")

        kinds = [(e["kind"], e["rule"]) for e in llm.requests()]
        assert kinds == [
            ("chat", 0),
            ("chat", 0),
            ("chat", 1),
            ("chat", 1),
            ("chat", 0),
            ("title", None),
            ("compaction", None),
        ]
        assert llm.requests("chat")[0]["request"]["messages"] == [user]


@pytest.mark.e2e
def test_world_prompt_lands_in_real_store(opencode_world: OpenCodeWorld) -> None:
    world = opencode_world
    alpha = world.project("alpha")
    beta = world.project("beta")
    assert world.project_id(alpha) != world.project_id(beta)
    world.set_rules(
        [
            {
                "match": ["harnessprobe"],
                "reasoning": "I will run a command.",
                "tools": [{"name": "bash", "args": {"command": "echo probe-output-$((6*7))", "description": "Probe"}}],
                "text": "The command printed {last_tool_output}",
            },
        ]
    )
    sid = world.create_session(alpha)
    reply = world.prompt(sid, "run the harnessprobe please")
    assert reply is not None and reply["info"]["role"] == "assistant"

    # Change the script while the server runs: the next prompt calls a tool OpenCode does not offer.
    world.set_rules(
        [{"match": ["harnessprobe"], "tools": [{"name": "no_such_tool", "args": {"x": 1}}], "text": "second answer"}]
    )
    world.prompt(sid, "harnessprobe again")

    # The real store, opened read-only in place (the WAL holds the newest rows).
    assert world.db_path.exists()
    con = world.connect_ro()
    try:
        directory, project_id = con.execute("select directory, project_id from session where id = ?", (sid,)).fetchone()
        tools = con.execute(
            "select json_extract(data, '$.tool'), json_extract(data, '$.state.status'),"
            " json_extract(data, '$.state.output') from part"
            " where session_id = ? and json_extract(data, '$.type') = 'tool' order by id",
            (sid,),
        ).fetchall()
        texts = [
            r[0]
            for r in con.execute(
                "select json_extract(data, '$.text') from part where session_id = ?"
                " and json_extract(data, '$.type') = 'text' order by id",
                (sid,),
            )
        ]
        n_messages = con.execute("select count(*) from message where session_id = ?", (sid,)).fetchone()[0]
    finally:
        con.close()
    assert os.path.realpath(directory) == os.path.realpath(alpha)
    assert project_id == world.project_id(alpha)
    assert tools[0][:2] == ("bash", "completed") and "probe-output-42" in tools[0][2]
    # OpenCode rewrites a call to an unknown tool into its own "invalid" tool part.
    assert tools[1][0] == "invalid" and "unavailable tool 'no_such_tool'" in tools[1][2]
    assert "run the harnessprobe please" in texts and "The command printed probe-output-42" in texts
    assert "second answer" in texts
    assert n_messages == 6  # per prompt: user, assistant (tool call), assistant (final text)

    chat = world.llm_requests("chat")
    assert {t["function"]["name"] for t in chat[0]["request"]["tools"]} >= {"bash", "read", "write"}
    assert any(e["kind"] == "title" for e in world.llm_requests())

    # Deleting through OpenCode removes the rows; stop() leaves no process behind.
    other = world.create_session(beta)
    world.delete_session(other)
    assert world.query("select count(*) from session where id = ?", (other,)) == [(0,)]
    serve = world._serve
    assert serve is not None
    world.stop()
    assert serve.poll() is not None
    with pytest.raises(ProcessLookupError):
        os.killpg(serve.pid, 0)


@pytest.mark.e2e
def test_world_cli_and_extra_config(opencode_world_factory: Any) -> None:
    world: OpenCodeWorld = opencode_world_factory(config={"agent": {"build": {"prompt": "EXTRA-CONFIG-MARKER-5521"}}})
    world.add_config_file(
        "agent/recall.md",
        "---\ndescription: Recall agent for the harness test\nmode: subagent\n---\nYou recall things.\n",
    )
    alpha = world.project("alpha")
    out = world.run_cli(["agent", "list"], cwd=alpha)
    assert "recall (subagent)" in out.stdout + out.stderr
    sid = world.create_session(alpha)
    world.prompt(sid, "hello there")
    system = [m["content"] for m in world.llm_requests("chat")[-1]["request"]["messages"] if m["role"] == "system"]
    assert any("EXTRA-CONFIG-MARKER-5521" in json.dumps(s) for s in system)
