"""The SDK-free front end (mcp/wire.py) against the MCP SDK's own server, message for message.

Both servers run in this process over real pipes with the same tool table; each scripted line is
followed by a `ping` marker, so everything a server sent in answer to that line is compared with
what the other sent. Where the SDK gives no answer at all (a lone surrogate, `tools/list` with
array params) the wire answers, and the test says so.
"""

from __future__ import annotations

import io
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from recollect.mcp import server as mcp_server
from recollect.mcp import wire
from recollect.mcp.base import Reply, ServerSettings

NO_REFRESH = mcp_server.Refresher(refresh=lambda: None)
INIT = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"roots": {}},
        "clientInfo": {"name": "opencode", "version": "1.18.33"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def rpc(rid: int | str, method: str, params: Any = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        message["params"] = params
    return message


class Pipes:
    """A server running on a thread of this process, fed and read through OS pipes."""

    def __init__(self) -> None:
        self.in_read, self.in_write = os.pipe()
        self.out_read, self.out_write = os.pipe()
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.thread: threading.Thread | None = None
        self.marks = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with os.fdopen(self.out_read, "rb") as reader:
            for line in reader:
                self.lines.put(line)

    def start(self, target: Any) -> None:
        self.thread = threading.Thread(target=target, daemon=True)
        self.thread.start()

    def send(self, line: bytes | dict[str, Any]) -> None:
        raw = line if isinstance(line, bytes) else json.dumps(line).encode()
        os.write(self.in_write, raw + b"\n")

    def answers(self, line: bytes | dict[str, Any], timeout: float = 60.0, wait: bool = True) -> list[dict[str, Any]]:
        """What the server sent after `line`, up to the answer to a `ping` sent right behind it (and,
        for a `tools/call`, unless `wait` is False, up to the call's own answer), in id order."""
        self.send(line)
        self.marks += 1
        mark = f"mark-{self.marks}"
        self.send(rpc(mark, "ping"))
        awaited = {mark}
        request = line if isinstance(line, dict) else wire.parse(line)
        if wait and request and request.get("method") == "tools/call" and "id" in request:
            awaited.add(request["id"])
        got: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        while awaited and time.monotonic() < deadline:
            try:
                message = json.loads(self.lines.get(timeout=0.5))
            except queue.Empty:
                continue
            awaited.discard(message.get("id"))
            if message.get("id") != mark:
                got.append(message)
        assert not awaited, f"no answer to {awaited} after {line!r}"
        return sorted(got, key=lambda m: (str(m.get("id")), json.dumps(m, sort_keys=True)))

    def close(self) -> None:
        os.close(self.in_write)
        if self.thread is not None:
            self.thread.join(30)


@pytest.fixture
def settings(tmp_path: Path) -> ServerSettings:
    return ServerSettings(cwd=str(tmp_path))


def sdk_server(settings: ServerSettings) -> Iterator[Pipes]:
    import anyio

    pipes = Pipes()
    stdin = anyio.wrap_file(io.TextIOWrapper(os.fdopen(pipes.in_read, "rb"), encoding="utf-8", errors="replace"))
    stdout = anyio.wrap_file(io.TextIOWrapper(os.fdopen(pipes.out_write, "wb"), encoding="utf-8"))

    def run() -> None:
        anyio.run(mcp_server._serve, mcp_server.build_server(settings, NO_REFRESH), stdin, stdout)
        stdout.wrapped.close()

    pipes.start(run)
    yield pipes
    pipes.close()


def wire_server(settings: ServerSettings) -> Iterator[Pipes]:
    pipes = Pipes()
    reader = os.fdopen(pipes.in_read, "rb")
    writer = os.fdopen(pipes.out_write, "wb")
    front = wire.WireServer(
        settings, writer, run_call=mcp_server.run_and_log, heartbeat_seconds=lambda: mcp_server.HEARTBEAT_SECONDS
    )

    def run() -> None:
        front.serve(iter(reader))
        writer.close()

    pipes.start(run)
    yield pipes
    pipes.close()


@pytest.fixture
def both(settings: ServerSettings) -> Iterator[tuple[Pipes, Pipes]]:
    sdk, ours = sdk_server(settings), wire_server(settings)
    yield next(sdk), next(ours)
    for gen in (sdk, ours):
        next(gen, None)


def timeless(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The answers without the one field that measures this run (a search's `took_ms`)."""
    for message in messages:
        structured = (message.get("result") or {}).get("structuredContent")
        if isinstance(structured, dict) and "took_ms" in structured:
            structured["took_ms"] = "<ms>"
    return messages


def same(both: tuple[Pipes, Pipes], line: bytes | dict[str, Any]) -> list[dict[str, Any]]:
    sdk, ours = both
    expected, got = timeless(sdk.answers(line)), timeless(ours.answers(line))
    assert got == expected, (line, expected, got)
    return got


HANDSHAKE_AND_CALLS: list[bytes | dict[str, Any]] = [
    # before initialize: served methods refuse, unknown ones are not found
    rpc(1, "tools/list"),
    rpc(2, "tools/call", {"name": "memory_inspect"}),
    rpc(3, "nosuch"),
    rpc(4, "ping"),
    # the handshake OpenCode 1.18.33 sends, then the methods it uses
    INIT,
    INITIALIZED,
    rpc(5, "tools/list"),
    rpc(6, "tools/list", {"cursor": "abc"}),
    rpc(7, "tools/call", {"name": "nosuch", "arguments": {"query": "x"}}),
    rpc(8, "tools/call", {"name": "history_search", "arguments": {"query": "x", "limit": "many"}}),
    rpc(9, "tools/call", {"name": "history_sessions", "arguments": {"limt": 3}}),
    rpc(10, "tools/call", {"name": "history_read", "arguments": None}),
    rpc("s", "tools/call", {"name": "nosuch", "_meta": {"progressToken": "p"}}),
    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "s", "reason": "AbortError"}},
    # malformed calls
    rpc(11, "tools/call", {}),
    rpc(12, "tools/call", {"name": 5}),
    rpc(13, "tools/call", {"name": "memory_inspect", "arguments": [1]}),
    rpc(14, "tools/call"),
    # what the server does not serve
    rpc(15, "resources/list"),
    rpc(16, "prompts/list"),
    rpc(17, "logging/setLevel", {"level": "info"}),
    rpc(18, "nosuch/method"),
    {"jsonrpc": "2.0", "method": "nosuch/notification"},
    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999}},
    {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
    {"jsonrpc": "2.0", "id": 19, "result": {}},
    {"jsonrpc": "2.0", "id": 20, "error": {"code": 1, "message": "x"}},
    rpc(21, "ping", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
    rpc(22, "ping", {"_meta": {"progressToken": 1}}),
    # lines that are not JSON-RPC requests: both answer each with the same error (mcp/stdio.py)
    b"not json",
    b"[]",
    b'[{"jsonrpc":"2.0","id":5,"method":"ping"}]',
    b'{"jsonrpc":"1.0","id":6,"method":"ping"}',
    b'{"id":7,"method":"ping"}',
    b'"str"',
    b'{"jsonrpc":"2.0","id":null,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
    b"",
    b"   ",
    b'{"jsonrpc":"2.0","id":24,"method":"tools/call","params":{"name":"nosuch\xff","arguments":{}}}',
    # initialize again, and with other versions
    rpc(25, "initialize", {**INIT["params"], "protocolVersion": "2024-11-05"}),
    rpc(26, "initialize", {**INIT["params"], "protocolVersion": "1999-01-01"}),
    rpc(27, "initialize", {**INIT["params"], "protocolVersion": 5}),
    rpc(28, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x"}}),
    rpc(29, "initialize"),
]


def test_the_wire_answers_every_message_as_the_sdk_server_does(
    both: tuple[Pipes, Pipes], sample_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    answered = []
    for line in HANDSHAKE_AND_CALLS:
        answered.append(same(both, line))
    by_id = {a["id"]: a for group in answered for a in group}
    # positive controls: the comparison saw real answers, not two silences
    assert by_id["init"]["result"]["protocolVersion"] == "2025-11-25"
    assert "history_search" in by_id["init"]["result"]["instructions"]
    assert {t["name"] for t in by_id[5]["result"]["tools"]} >= {"history_search", "memory_recall"}
    assert by_id[8]["result"]["isError"] is True and "limit must be an integer" in json.dumps(by_id[8])
    assert by_id[1]["error"]["code"] == wire.INVALID_PARAMS and by_id[3]["error"]["code"] == wire.METHOD_NOT_FOUND
    assert by_id[26]["result"]["protocolVersion"] == "2025-11-25"
    assert by_id[25]["result"]["protocolVersion"] == "2024-11-05"
    assert "s" in by_id  # a cancel after the answer changes nothing


def test_a_real_search_and_memory_calls_match(
    both: tuple[Pipes, Pipes], sample_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    from recollect import history
    from recollect.config import load_config

    history.index(load_config())
    same(both, INIT)
    same(both, INITIALIZED)
    found = same(both, rpc(1, "tools/call", {"name": "history_search", "arguments": {"query": "missing-file.txt"}}))
    assert found[0]["result"]["structuredContent"]["hits"], found
    same(both, rpc(2, "tools/call", {"name": "memory_inspect", "arguments": {}}))


def test_progress_notifications_have_the_sdk_shape(both: tuple[Pipes, Pipes], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mcp_server, "HEARTBEAT_SECONDS", 0.2)

    def slow_call(name: str, arguments: object, settings: ServerSettings) -> Reply:
        time.sleep(0.9)
        return Reply("done", {"ok": True})

    monkeypatch.setattr(mcp_server.registry, "call_tool", slow_call)
    sdk, ours = both
    seen = {}
    for name, pipes in (("sdk", sdk), ("wire", ours)):
        pipes.answers(INIT)
        pipes.answers(INITIALIZED)
        seen[name] = pipes.answers(rpc(7, "tools/call", {"name": "x", "arguments": {}, "_meta": {"progressToken": 3}}))
    for name, got in seen.items():
        progress = [m for m in got if m.get("method") == "notifications/progress"]
        assert len(progress) >= 2, (name, got)
        shapes = {(tuple(sorted(m["params"])), type(m["params"]["progress"])) for m in progress}
        assert shapes == {(("message", "progress", "progressToken"), float)}, (name, shapes)
        assert {m["params"]["progressToken"] for m in progress} == {3}
        assert "still working" in progress[0]["params"]["message"]
        answer = [m for m in got if m.get("id") == 7]
        assert answer[0]["result"] == {
            "content": [{"type": "text", "text": "done"}],
            "isError": False,
            "structuredContent": {"ok": True},
        }, (name, answer)


def test_what_the_sdk_leaves_unanswered_the_wire_answers(settings: ServerSettings) -> None:
    ours = wire_server(settings)
    pipes = next(ours)
    pipes.answers(INIT)
    pipes.answers(INITIALIZED)
    # positive control first: a well-formed call is answered
    ok = pipes.answers(rpc(1, "tools/call", {"name": "nosuch", "arguments": {"x": "y"}}))
    assert ok[0]["result"]["isError"] is True
    # a lone surrogate (valid JSON, not valid UTF-8): mended, answered
    lone = b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nosuch","arguments":{"x":"\\ud800"}}}'
    answer = pipes.answers(lone)
    assert answer[0]["id"] == 2 and answer[0]["result"]["isError"] is True
    # a cancel naming an id no request could have (a list does not even hash) must not stop the reader
    pipes.answers({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": [1]}})
    listed = pipes.answers(rpc(3, "tools/list", []))
    assert listed == [
        {"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "Invalid request parameters", "data": ""}}
    ]
    next(ours, None)


def hold_calls(monkeypatch: pytest.MonkeyPatch, structured: dict[str, Any] | None = None) -> threading.Event:
    """Every tool call waits until the returned event is set, then answers its own name."""
    release = threading.Event()

    def held_call(name: str, arguments: object, settings: ServerSettings) -> Reply:
        release.wait(30)
        return Reply(name, structured)

    monkeypatch.setattr(mcp_server.registry, "call_tool", held_call)
    return release


def test_a_call_cancelled_while_it_waits_is_never_answered(
    settings: ServerSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = hold_calls(monkeypatch)
    ours = wire_server(settings)
    pipes = next(ours)
    pipes.answers(INIT)
    pipes.answers(INITIALIZED)
    assert pipes.answers(rpc(1, "tools/call", {"name": "first"}), wait=False) == []  # running, held
    assert pipes.answers(rpc(2, "tools/call", {"name": "second"}), wait=False) == []  # queued behind it
    pipes.answers({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}})
    release.set()
    got = pipes.answers(rpc(3, "tools/call", {"name": "third"}))
    assert [m["id"] for m in got] == [1, 3], got  # the cancelled one was skipped
    next(ours, None)


def test_the_handshake_versions_are_the_sdks() -> None:
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    assert wire.HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS


def test_serving_the_handshake_never_imports_the_sdk(sample_db: Path, isolated_home: Path, tmp_path: Path) -> None:
    """`recollect mcp` as OpenCode runs it: the handshake, the tool list and a call, and at exit not
    one SDK module was imported (the modern-protocol test in test_stdio.py is the positive control:
    the same command serves it through the SDK)."""
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('loaded:', sorted(m for m in ('mcp', 'mcp_types', 'pydantic', 'anyio')"
        " if m in sys.modules), file=sys.stderr))\n"
        "sys.argv = ['recollect', 'mcp']\n"
        "from recollect.cli import main\n"
        "main()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={**os.environ, "RECOLLECT_SOURCES": "opencode"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    lines = [INIT, INITIALIZED, rpc(1, "tools/list"), rpc(2, "tools/call", {"name": "memory_inspect"})]
    out, err = proc.communicate(b"".join(json.dumps(m).encode() + b"\n" for m in lines), timeout=120)
    replies = {m["id"]: m for m in map(json.loads, out.splitlines())}
    assert replies[1]["result"]["tools"] and replies[2]["result"]["isError"] is False, replies
    assert "loaded: []" in err.decode(), err.decode()


def test_a_second_call_with_a_running_calls_id_is_refused_and_the_first_answered(
    settings: ServerSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = hold_calls(monkeypatch, {"score": float("nan"), "rows": [float("inf"), 1.5]})
    ours = wire_server(settings)
    pipes = next(ours)
    pipes.answers(INIT)
    pipes.answers(INITIALIZED)
    assert pipes.answers(rpc(1, "tools/call", {"name": "first"}), wait=False) == []  # running, held
    refused = pipes.answers(rpc(1, "tools/call", {"name": "again"}), wait=False)
    assert refused[0]["id"] == 1 and refused[0]["error"]["code"] == -32600
    assert "own id" in refused[0]["error"]["message"]
    release.set()
    # the first call is answered, as valid JSON (NaN and infinity are null, as on the SDK's path)
    got = pipes.answers(rpc(2, "tools/call", {"name": "third"}))
    first = next(m for m in got if m["id"] == 1)
    assert first["result"]["content"][0]["text"] == "first"
    assert first["result"]["structuredContent"] == {"score": None, "rows": [None, 1.5]}
    # once answered, the id is free again
    again = pipes.answers(rpc(1, "tools/call", {"name": "reused"}))
    assert [m["result"]["content"][0]["text"] for m in again if m["id"] == 1] == ["reused"]
    next(ours, None)
