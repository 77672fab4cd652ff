"""Malformed calls through the SDK's own client over stdio: every call is answered, none is an
internal error, and each error says how to fix the call. Calls the SDK's client cannot encode (a lone
surrogate) and lines no client library writes (not JSON, not UTF-8, not JSON-RPC) go over the raw
pipe, and must be answered too.

N calls (default 400, so the default lane stays quick); the issue's full run is N ≥ 2,000:
    RECOLLECT_FUZZ_CALLS=3000 pytest -s tests/mcp/test_fuzz.py
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters

from tests.mcp.test_stdio import Wire

CALLS = int(os.environ.get("RECOLLECT_FUZZ_CALLS", "400"))
PER_CALL_SECONDS = 30

HUGE = [10**30, -(10**30), 2**63, -(2**63) - 1, 1e308, -1e308, 99999999999999999999]
NUMBERS = [-1, 0, 1, 3, 49, 50, 51, 1000, 2**31, *HUGE, 0.5, -0.0]
STRANGE_TEXT = [
    "",
    " ",
    "\ud800",
    "a\udfffb",
    "\x00",
    "\u202e\u2066rtl",
    "👩‍👩‍👧‍👦" * 50,
    "x" * 5000,
    "../../../../etc/passwd",
    "/etc/shadow",
    "..\\..\\windows\\system32",
    "%00%2e%2e/",
    "opencode::../../x::y",
    "claude::" + "a" * 3000,
    "::::",
    "ses_nope::msg_nope",
    "\n\r\t",
    "'; DROP TABLE session; --",
    '{"json": "inside"}',
    "NaN",
    "-",
    "--",
    "*",
    'he said "hi"',
    "部署 ошибка خطأ",
]
WRONG_TYPES: list[Any] = [None, True, False, [], [1, "a"], {}, {"a": {"b": [None]}}, 3.14, "12", *STRANGE_TEXT[:6]]


def values_for(schema: dict[str, Any], rng: random.Random) -> Any:
    kind = schema.get("type")
    pool: list[Any] = list(WRONG_TYPES)
    if kind == "integer":
        pool += NUMBERS * 3
    elif kind == "string":
        pool += STRANGE_TEXT * 3
        pool += [c for c in schema.get("enum", [])]
    elif kind == "array":
        pool += [[s] for s in STRANGE_TEXT] + [STRANGE_TEXT, [None], [[]], ["x"] * 500]
    return rng.choice(pool)


def malformed(tools: dict[str, dict[str, Any]], rng: random.Random) -> tuple[str, Any]:
    name = rng.choice([*tools, *tools, "no_such_tool", "history_search "])
    schema = tools.get(name, {"properties": {}, "required": []})
    props: dict[str, Any] = schema.get("properties", {})
    args: dict[str, Any] = {}
    for key, prop in props.items():
        roll = rng.random()
        if roll < 0.35:
            args[key] = values_for(prop, rng)
        elif roll < 0.5 and key in schema.get("required", []):
            args[key] = STRANGE_TEXT[rng.randrange(len(STRANGE_TEXT))]
    shape = rng.random()
    if shape < 0.15:
        args[rng.choice(["extra", "__proto__", "constructor", "scope ", "LIMIT", "\ud800"])] = rng.choice(WRONG_TYPES)
    elif shape < 0.2:
        args = {}
    if rng.random() < 0.15 and "cursor" in props:
        args["cursor"] = rng.choice(
            ["opencode::ses_x::msg_y", "x" * 400, "::", "opencode::\ud800::m", "memory::../../etc", "c" * 5000]
        )
    return name, args


def sdk_can_send(name: str, args: Any) -> bool:
    """The SDK's client encodes UTF-8 strictly: a lone surrogate cannot leave it. Such calls go over
    the wire by hand, escaped as a JSON client would write them (`"\\ud800"`)."""
    try:
        json.dumps([name, args], ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check(i: int, name: str, args: Any, text: str, is_error: bool, problems: list[str]) -> None:
    if "failed inside recollect" in text or "internal error" in text.lower() or "Traceback" in text:
        problems.append(f"#{i} {name} {str(args)[:200]}: {text[:300]}")
    if is_error and len(text) < 20:
        problems.append(f"#{i} {name}: an error that does not say how to fix it: {text!r}")


# Lines no client library would send, each with an id: they must be answered with an error that says
# what to fix (the SDK's own stdio reader dropped every one of them, unanswered).
BROKEN_LINES: list[bytes] = [
    b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "history_search", "argu',
    b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "history_search"}} trailing',
    b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "history_search", '
    b'"arguments": {"query": "\xff\xfe raw bytes"}}}',
    b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "history_\\ud800search"}}',
    b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"\\udfff": 1}}',
    b'{"jsonrpc": "2.0", "id": %d, "method": 42}',
    b'{"jsonrpc": "2.0", "id": %d}',
    b'{"jsonrpc": "1.0", "id": %d, "method": "ping"}',
    b'{"id": %d, "method": "ping"}',
    b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": [1, 2]}',
    b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": "history_search"}',
    b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "history_search", '
    b'"arguments": ' + b"[" * 5000 + b"]" * 5000 + b"}}",
    b'\xef\xbb\xbf{"jsonrpc": "2.0", "id": %d, "method": "ping"}',  # a byte-order mark first
]
# Lines without a readable id: answered with id null (JSON-RPC 2.0, section 5.1).
NO_ID_LINES: list[bytes] = [b"not json at all", b"\xff\xfe\xfd", b"[1, 2, 3]", b'"just a string"', b"{}"]


def broken_lines(wire: Wire, problems: list[str]) -> int:
    """Send BROKEN_LINES and NO_ID_LINES raw; every one must be answered, the first kind by id."""
    assert wire.proc.stdin is not None
    answered = 0
    for n, template in enumerate(BROKEN_LINES):
        rid = 5000 + n
        wire.proc.stdin.write(template.replace(b"%d", str(rid).encode()) + b"\n")
        wire.proc.stdin.flush()
        try:
            reply = wire.reply_to(rid, timeout=PER_CALL_SECONDS)
        except AssertionError:
            problems.append(f"broken line {n}: never answered")
            continue
        answered += 1
        text = json.dumps(reply.get("error") or reply.get("result"), ensure_ascii=False)
        error = reply.get("error") or {}
        is_error = bool(error) or bool((reply.get("result") or {}).get("isError"))
        check(rid, f"broken line {n}", template[:80], text, is_error, problems)
        if error.get("code") == -32603:
            problems.append(f"broken line {n}: an internal error: {text[:300]}")
    for line in NO_ID_LINES:
        wire.proc.stdin.write(line + b"\n")
        wire.proc.stdin.flush()
    wire.send({"jsonrpc": "2.0", "id": 5999, "method": "ping"})
    wire.reply_to(5999)  # replies come in order: every null-id answer is in by now
    nulls = [m for m in wire.lines if m.get("id", "absent") is None]
    if len(nulls) != len(NO_ID_LINES) or not all(len(m["error"]["message"]) > 40 for m in nulls):
        problems.append(f"lines without an id: {len(NO_ID_LINES)} sent, answered {nulls}")
    return answered + len(nulls)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_malformed_calls_are_all_answered_with_a_fix(tmp_path: Path, sample_db: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    env = {**os.environ, "OPENCODE_DB": str(sample_db), "RECOLLECT_SOURCES": "opencode"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "recollect.cli", "mcp"], env=env, cwd=project)
    rng = random.Random(14)
    problems: list[str] = []
    answered = errors = 0
    by_hand: list[tuple[int, str, Any]] = []
    async with Client(params, mode="legacy", read_timeout_seconds=PER_CALL_SECONDS) as client:
        tools = {t.name: t.input_schema for t in (await client.list_tools()).tools}
        ok = await client.call_tool("history_search", {"query": "error"})
        assert not ok.is_error  # positive control: a well-formed call works
        for i in range(CALLS):
            name, args = malformed(tools, rng)
            if not sdk_can_send(name, args):
                by_hand.append((i, name, args))
                continue
            try:
                with anyio.fail_after(PER_CALL_SECONDS):
                    result = await client.call_tool(name, args)
            except TimeoutError:
                problems.append(f"#{i} {name} {str(args)[:200]}: never answered")
                continue
            answered += 1
            errors += result.is_error
            check(i, name, args, "\n".join(getattr(b, "text", "") for b in result.content), result.is_error, problems)
        again = await client.call_tool("history_search", {"query": "error"})
        assert not again.is_error  # the server is still up and well after all of it

    proc = subprocess.Popen(
        [sys.executable, "-m", "recollect.cli", "mcp"],
        cwd=project, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        bufsize=0,  # unbuffered: Wire selects on the pipe, and a buffered reader could hold a reply it never sees
    )  # fmt: skip
    try:
        wire = Wire(proc)
        init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}
        wire.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init})
        wire.reply_to(0)
        wire.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        unanswered = 0
        for i, name, args in by_hand:  # the SDK's stdio reader dropped these; recollect's own answers them
            call = {"name": name, "arguments": args}
            wire.send({"jsonrpc": "2.0", "id": 1000 + i, "method": "tools/call", "params": call})
            try:
                reply = wire.reply_to(1000 + i, timeout=PER_CALL_SECONDS)
            except AssertionError:
                problems.append(f"#{i} {name} {str(args)[:200]}: never answered")
                unanswered += 1
                continue
            answered += 1
            result = reply.get("result", {})
            text = (
                json.dumps(reply.get("error"))
                if "error" in reply
                else "\n".join(b.get("text", "") for b in result["content"])
            )
            errors += "error" in reply or bool(result.get("isError"))
            check(i, name, args, text, "error" in reply or bool(result.get("isError")), problems)
        broken = broken_lines(wire, problems)
        print(
            f"calls through the SDK client: {CALLS - len(by_hand)}, problems: {len(problems)}; holding a lone "
            f"surrogate, sent by hand: {len(by_hand)}, unanswered: {unanswered}; broken lines answered: {broken}"
        )
        wire.send(
            {
                "jsonrpc": "2.0",
                "id": 99999,
                "method": "tools/call",
                "params": {"name": "history_search", "arguments": {"query": "error"}},
            }
        )
        assert not wire.reply_to(99999)["result"]["isError"]  # still up after them
    finally:
        proc.kill()
        proc.wait(timeout=10)
    assert by_hand, "no call held a lone surrogate"
    assert answered == CALLS and unanswered == 0 and errors > CALLS // 2, (
        answered,
        errors,
    )
    assert not problems, "\n".join(problems[:30])
