"""`recollect mcp` as a host runs it: a real subprocess over stdio, driven by the SDK's own client
(and once by hand, byte for byte the way OpenCode 1.18.33 talks to it)."""

from __future__ import annotations

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

from mcp import Client, StdioServerParameters

ALPHA = "/srv/oc/projects/alpha"
TOOL_NAMES = {
    "history_search",
    "history_read",
    "history_sessions",
    "history_save",
    "memory_recall",
    "memory_remember",
    "memory_forget",
    "memory_inspect",
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The project directory the host starts the server in (OpenCode: the instance's directory)."""
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    return root


@pytest.fixture
def server_env(sample_db: Path, isolated_home: Path) -> dict[str, str]:
    keys = ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "RECOLLECT_HOME", "OPENCODE_DB")
    env = {k: os.environ[k] for k in keys}
    env["RECOLLECT_SOURCES"] = "opencode"
    if os.environ.get("PYTHONPATH"):  # the server runs the same code as this test process
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def params(env: dict[str, str], cwd: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "recollect.cli", "mcp"], env=env, cwd=cwd)


def text_of(result: Any) -> str:
    return "\n\n".join(block.text for block in result.content)  # what OpenCode stores and shows the model


@pytest.mark.anyio
async def test_every_tool_through_the_sdk_client(server_env: dict[str, str], project: Path) -> None:
    home = Path(server_env["RECOLLECT_HOME"])
    # mode="legacy": the initialize handshake OpenCode 1.18.33 uses (protocol 2025-11-25).
    async with Client(params(server_env, project), mode="legacy", read_timeout_seconds=120) as client:
        assert "history_search" in (client.instructions or "")  # goes into OpenCode's system prompt
        listed = (await client.list_tools()).tools
        assert {t.name for t in listed} == TOOL_NAMES
        for tool in listed:
            assert tool.description and len(tool.description) > 200, tool.name
            assert tool.input_schema["type"] == "object" and tool.input_schema["additionalProperties"] is False
        schemas = {t.name: t.input_schema for t in listed}
        assert schemas["history_search"]["required"] == ["query"]
        assert schemas["history_search"]["properties"]["limit"] == {
            "description": schemas["history_search"]["properties"]["limit"]["description"],
            "type": "integer",
            "minimum": 1,
            "maximum": 50,
            "default": 10,
        }

        # history_search: the alpha session's missing file, with a cursor and one coverage line.
        found = await client.call_tool("history_search", {"query": "missing-file.txt"})
        assert not found.is_error, text_of(found)
        first = found.structured_content["hits"][0]
        assert first["directory"] == ALPHA and first["class"] in ("tool_error", "tool_input")
        assert f"cursor: {first['cursor']}" in text_of(found) and "\ncoverage: " in text_of(found)

        # history_read: a ChatML window around that hit.
        window = await client.call_tool("history_read", {"cursor": first["cursor"], "before": 1, "after": 1})
        assert not window.is_error and text_of(window).startswith("<hist ")
        assert "missing-file.txt" in text_of(window) and "<nav " in text_of(window)
        assert window.structured_content["directory"] == ALPHA

        # history_sessions: a page, and the next.
        page = await client.call_tool("history_sessions", {"limit": 5})
        assert text_of(page).count("cursor:") == 5 and page.structured_content["next_offset"] == 5

        # history_save: the whole session as ChatML under recall/ in the project; anywhere else is refused.
        kept = await client.call_tool("history_save", {"cursor": first["cursor"]})
        assert not kept.is_error, text_of(kept)
        assert (project / kept.structured_content["path"]).read_text().startswith("<hist ")
        refused = await client.call_tool("history_save", {"cursor": first["cursor"], "path": "../x.chatml"})
        assert refused.is_error and "refused" in text_of(refused) and not (project.parent / "x.chatml").exists()

        # memory: remember, recall (positive control), inspect, forget, recall again.
        body = "Flaky test_upload: run it with --runxfail off; the S3 mock needs a fresh bucket each time."
        saved = await client.call_tool("memory_remember", {"body": body, "category": "pitfalls"})
        assert not saved.is_error and text_of(saved).startswith("remembered project:pitfalls/"), text_of(saved)
        memory_id = saved.structured_content["qualified_id"]
        assert (project / ".memory" / f"{saved.structured_content['id']}.md").is_file()
        recalled = await client.call_tool("memory_recall", {"query": "flaky upload bucket"})
        assert memory_id in text_of(recalled) and "fresh bucket" in text_of(recalled)
        inspected = await client.call_tool("memory_inspect", {})
        assert f"{memory_id} [active]" in text_of(inspected)
        forgot = await client.call_tool("memory_forget", {"id": memory_id, "reason": "fixed upstream"})
        assert not forgot.is_error and text_of(forgot).startswith(f"forgot {memory_id}")
        recalled = await client.call_tool("memory_recall", {"query": "flaky upload bucket"})
        assert not recalled.is_error and memory_id not in text_of(recalled)

        # Bad arguments: advice, not a crash.
        bad = await client.call_tool("history_search", {"query": "x", "limit": "many"})
        assert bad.is_error and 'limit must be an integer between 1 and 50; got "many"' in text_of(bad)
        missing = await client.call_tool("history_read", {})
        assert missing.is_error and "cursor is required" in text_of(missing)
        typo = await client.call_tool("history_sessions", {"limt": 3})
        assert typo.is_error and 'no argument "limt"' in text_of(typo)

        # Library errors while serving: a gone cursor, a config file broken under it, a corrupt index.
        gone = await client.call_tool("history_read", {"cursor": "opencode::ses_gone::msg_gone"})
        assert gone.is_error and "no session for cursor" in text_of(gone)
        (home / "config.toml").write_text("[index\n", encoding="utf-8")
        broken = await client.call_tool("history_search", {"query": "readme"})
        assert broken.is_error and "config.toml: not valid TOML" in text_of(broken)
        (home / "config.toml").unlink()
        for suffix in ("", "-wal", "-shm"):
            index = home / f"index.db{suffix}"
            if index.exists():
                index.write_bytes(b"this is not a database" * 100)
        corrupt = await client.call_tool("history_search", {"query": "readme"})
        assert corrupt.is_error, text_of(corrupt)
        for suffix in ("", "-wal", "-shm"):
            (home / f"index.db{suffix}").unlink(missing_ok=True)  # the index is disposable
        rebuilt = await client.call_tool("history_search", {"query": "missing-file.txt"})
        assert not rebuilt.is_error and rebuilt.structured_content["hits"][0]["directory"] == ALPHA

    log = (home / "log" / "mcp.log").read_text(encoding="utf-8")
    assert "history_search ok" in log and "history_search error" in log


@pytest.mark.anyio
async def test_modern_protocol_client_also_works(server_env: dict[str, str], project: Path) -> None:
    async with Client(params(server_env, project), read_timeout_seconds=120) as client:
        assert {t.name for t in (await client.list_tools()).tools} == TOOL_NAMES
        found = await client.call_tool("history_search", {"query": "missing-file.txt", "limit": 1})
        assert not found.is_error and len(found.structured_content["hits"]) == 1


class Wire:
    """Newline-delimited JSON-RPC over a subprocess's pipes, with a deadline on every read. A thread
    reads stdout line by line (select on the pipe cannot see lines already in Python's buffer)."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.lines: list[dict[str, Any]] = []
        self._read: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._read.put(line)
        self._read.put(b"")

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def reply_to(self, request_id: int, timeout: float = 120.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self._read.get(timeout=1.0)
            except queue.Empty:
                continue
            assert line, "the server closed stdout"
            message = json.loads(line)  # everything on stdout is JSON-RPC
            self.lines.append(message)
            if message.get("id") == request_id:
                return message
        raise AssertionError(f"no reply to request {request_id} within {timeout}s")


@pytest.fixture
def raw_server(server_env: dict[str, str], project: Path) -> Iterator[Wire]:
    env = {**os.environ, **server_env, "OPENCODE": "1", "AGENT": "1", "PWD": "/stale/other/project"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "recollect.cli", "mcp"],
        cwd=project,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        yield Wire(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def test_opencode_style_session_with_cancel_after_every_call(raw_server: Wire) -> None:
    """The exact sequence OpenCode 1.18.33 sends (INTEGRATION.md §2.3), including the
    notifications/cancelled that follows every answered call, then EOF on stdin."""
    wire = raw_server
    wire.send(
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {"roots": {}},
                "clientInfo": {"name": "opencode", "version": "1.18.33"},
            },
        }
    )
    init = wire.reply_to(0)["result"]
    assert init["protocolVersion"] == "2025-11-25" and "history_search" in init["instructions"]
    wire.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    wire.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert {t["name"] for t in wire.reply_to(1)["result"]["tools"]} == TOOL_NAMES

    call = {"name": "history_search", "arguments": {"query": "missing-file.txt"}, "_meta": {"progressToken": 2}}
    wire.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
    result = wire.reply_to(2)["result"]
    assert result["isError"] is False and ALPHA in result["content"][0]["text"]
    assert result["structuredContent"]["hits"]
    wire.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 2, "reason": "AbortError: The operation was aborted."},
        }
    )
    # The server ignores the late cancel and keeps serving; no default filling by the host.
    wire.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "memory_inspect"}})
    result = wire.reply_to(3)["result"]
    assert result["isError"] is False and "project root:" in result["content"][0]["text"]
    # The project is the server's cwd, not the stale $PWD the host passes down.
    assert "/stale/other/project" not in result["content"][0]["text"]

    assert wire.proc.stdin is not None
    wire.proc.stdin.close()  # how OpenCode shuts its servers down
    assert wire.proc.wait(timeout=30) == 0
    assert wire.proc.stderr is not None
    assert wire.proc.stderr.read().decode().strip() == ""  # everything went to the log file
