"""`recollect mcp` over stdio without the MCP SDK: the `initialize` handshake era of the protocol.

Why: importing the SDK costs 1.2-1.9 s of CPU whatever piece of it is imported (its package imports
its client, and `mcp_types` builds the pydantic models of two protocol versions), and OpenCode
holds its first prompt until every MCP server has listed its tools. Every host that speaks the
handshake (OpenCode 1.18.33, and the SDK's own client in `mode="legacy"`) is served here, from
the same tool table and the same `server._call` as the SDK path, in a few tens of milliseconds.
A client that opens with the 2026 protocol (a first request carrying the
`io.modelcontextprotocol/protocolVersion` envelope, e.g. `server/discover`) is handed to the SDK's
server with everything read so far, so it is served exactly as before.

What is served, as the SDK's low-level server serves it (tests/mcp/test_wire.py compares the two
message by message): newline-delimited JSON-RPC 2.0; `initialize` (protocol negotiation: the
client's version when it is a handshake version, else the newest), `ping`, `tools/list`,
`tools/call` (progress notifications while a call runs, when the request carries a progress
token), `notifications/initialized` and `notifications/cancelled` (a cancelled call is never
answered; OpenCode cancels every call after its answer, which is ignored). Other methods are
"Method not found". Every line is screened first (`mcp/stdio.py`): a request that is not JSON or not
JSON-RPC is answered with an error that says what to fix (the SDK's reader drops it, unanswered),
and lone surrogates ("\\ud800") are mended, so such a request is answered as usual.

Calls run one at a time, in order, on a worker thread; `ping`, `tools/list` and cancellations are
answered by the reader meanwhile. While serving, fd 0 reads /dev/null and fd 1 goes to stderr, so
nothing a library prints can reach the wire. Importing this module imports no SDK.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, cast

from recollect import __version__
from recollect.mcp import registry
from recollect.mcp.base import ServerSettings
from recollect.mcp.stdio import screen

log = logging.getLogger("recollect.mcp")

# The SDK's mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS (a test holds them equal).
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
SERVER_NAME = "recollect"
SERVER_TITLE = "recollect"
SERVER_DESCRIPTION = "Search and read earlier coding-agent sessions; recall and keep curated memories."

INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
EXIT_GRACE_SECONDS = 5.0  # after stdin closes, how long a running call may still finish


def error(code: int, message: str, data: Any = None) -> dict[str, Any]:
    """The body of a JSON-RPC error reply (merged into the envelope with the request's id)."""
    body: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"error": body}


def invalid_params() -> dict[str, Any]:
    return error(INVALID_PARAMS, "Invalid request parameters", "")  # the SDK's exact shape


def tool_dicts() -> list[dict[str, Any]]:
    """`tools/list` as the SDK serializes `server.tool_list()` (unset and None fields left out)."""
    tools = []
    for tool in registry.TOOLS:
        entry: dict[str, Any] = {"name": tool.name}
        if tool.title:
            entry["title"] = tool.title
        entry["description"] = tool.description
        entry["inputSchema"] = tool.signature.schema()
        annotations: dict[str, Any] = {"title": tool.title} if tool.title else {}
        annotations.update(
            readOnlyHint=tool.read_only,
            destructiveHint=False if tool.read_only else tool.name == "memory_forget",
            idempotentHint=tool.read_only,
            openWorldHint=False,
        )
        entry["annotations"] = annotations
        tools.append(entry)
    return tools


def initialize_result(settings: ServerSettings, params: Any) -> dict[str, Any] | None:
    """The `initialize` result, or None when the params are not a valid request."""
    if not isinstance(params, dict):
        return None
    info = params.get("clientInfo")
    if (
        not isinstance(params.get("protocolVersion"), str)
        or not isinstance(params.get("capabilities"), dict)
        or not isinstance(info, dict)
        or not isinstance(info.get("name"), str)
        or not isinstance(info.get("version"), str)
    ):
        return None
    requested = params["protocolVersion"]
    return {
        "protocolVersion": requested if requested in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1],
        "capabilities": {"tools": {"listChanged": False}},
        "serverInfo": {
            "name": SERVER_NAME,
            "title": SERVER_TITLE,
            "version": __version__,
            "description": SERVER_DESCRIPTION,
        },
        "instructions": registry.instructions(settings),
    }


def opens_modern(message: dict[str, Any]) -> bool:
    """The SDK's rule: a first request other than `initialize` that carries the 2026 envelope."""
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return message.get("method") != "initialize" and isinstance(meta, dict) and MODERN_VERSION_KEY in meta


def parse(line: bytes) -> dict[str, Any] | None:
    """One JSON-RPC message, or None for a line that is not one (`stdio.screen` says what to answer)."""
    return screen(line)[0]


class Output:
    """The wire's write side: one JSON line per message, whole lines only."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.lock = threading.Lock()
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        try:
            line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate left somewhere: escape it rather than fail
            line = json.dumps(message, separators=(",", ":")).encode("ascii")
        with self.lock:
            if self.closed:
                return
            try:
                self.out.write(line + b"\n")
                self.out.flush()
            except (BrokenPipeError, ValueError, OSError):  # the host went away
                self.closed = True


class Call:
    def __init__(self, rid: int | str, params: dict[str, Any]) -> None:
        self.rid = rid
        self.name: str = params["name"]
        self.arguments: dict[str, Any] | None = params.get("arguments")
        meta = params.get("_meta")
        token = meta.get("progressToken") if isinstance(meta, dict) else None
        self.token = token if isinstance(token, (int, str)) and not isinstance(token, bool) else None
        self.received = time.perf_counter()
        self.cancelled = threading.Event()
        self.done = threading.Event()
        self.answering = threading.Lock()  # the reply and a progress beat never cross: no progress after it


# (tool name, arguments, settings, when the request arrived) -> the reply, logged (server.run_and_log)
CallRunner = Callable[[str, dict[str, Any] | None, ServerSettings, float], Any]


class WireServer:
    """One connection in the handshake era. `serve` returns the lines read when the client opened
    with the 2026 protocol instead (the caller hands them to the SDK), else None at EOF."""

    def __init__(
        self,
        settings: ServerSettings,
        out: BinaryIO,
        *,
        run_call: CallRunner,
        on_listed: Callable[[], None] = lambda: None,
        on_call_started: Callable[[], None] = lambda: None,
        on_call_ended: Callable[[str], None] = lambda name: None,
        heartbeat_seconds: Callable[[], float] = lambda: 2.0,
    ) -> None:
        self.settings = settings
        self.output = Output(out)
        self.run_call = run_call
        self.on_listed = on_listed
        self.on_call_started = on_call_started
        self.on_call_ended = on_call_ended
        self.heartbeat_seconds = heartbeat_seconds
        self.accepted = False  # `initialize` answered, or `notifications/initialized` seen
        self.calls: queue.Queue[Call | None] = queue.Queue()
        self.pending: dict[int | str, Call] = {}
        self.pending_lock = threading.Lock()
        self._tools: list[dict[str, Any]] | None = None
        self.worker = threading.Thread(target=self._work, name="recollect-mcp-calls", daemon=True)

    # ---- reading -----------------------------------------------------------------------------

    def serve(self, lines: Iterator[bytes]) -> list[bytes] | None:
        self.worker.start()
        seen: list[bytes] = []
        opened = False
        try:
            for line in lines:
                message, reply = screen(line)
                if reply is not None:  # a request that cannot be read: answered with what to fix
                    self.output.send(reply)
                    continue
                if not opened:
                    seen.append(line)
                    if message is not None and "method" in message and "id" in message:
                        opened = True
                        if opens_modern(message):
                            return seen
                if message is not None:
                    self.receive(message)
        finally:
            self.calls.put(None)
        self.worker.join(EXIT_GRACE_SECONDS)
        return None

    def receive(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method is None:
            return  # a response or an error from the client: we never send requests
        if "id" not in message:
            self.notify(method, message.get("params"))
            return
        rid = message["id"]
        body: dict[str, Any] | None
        if method != "initialize" and opens_modern(message):
            body = error(
                INVALID_REQUEST,
                "this connection serves the handshake protocol era; "
                "requests carrying the 2026-07-28 envelope are not accepted on it",
            )
        elif method == "tools/call":
            body = self.enqueue(rid, message.get("params"))
        else:
            body = self.answer(method, message.get("params"))
        if body is not None:
            self.output.send({"jsonrpc": "2.0", "id": rid, **body})
            if method == "tools/list" and "result" in body:
                self.on_listed()  # after the list is sent: nothing it starts delays it

    def answer(self, method: str, params: Any) -> dict[str, Any]:
        """`{"result": …}` or `{"error": …}` for a request answered on the reader thread."""
        if params is not None and not isinstance(params, dict):
            return invalid_params()
        if method == "initialize":
            result = initialize_result(self.settings, params)
            if result is None:
                return invalid_params()
            self.accepted = True
            return {"result": result}
        if method == "ping":
            return {"result": {}}
        if method != "tools/list":
            return error(METHOD_NOT_FOUND, "Method not found", method)
        if not self.accepted:
            return invalid_params()
        if self._tools is None:
            self._tools = tool_dicts()
        return {"result": {"tools": self._tools}}

    def notify(self, method: str, params: Any) -> None:
        if method == "notifications/initialized":
            self.accepted = True
        elif method == "notifications/cancelled" and isinstance(params, dict):
            rid = params.get("requestId")
            if isinstance(rid, bool) or not isinstance(rid, (int, str)):
                return  # not an id we could have been sent (a list would not even hash)
            with self.pending_lock:
                call = self.pending.get(rid)
            if call is not None:
                call.cancelled.set()

    # ---- calls -------------------------------------------------------------------------------

    def enqueue(self, rid: int | str, params: Any) -> dict[str, Any] | None:
        """Queue a call (answered by the worker), or the error that refuses it now."""
        if not self.accepted:
            return invalid_params()
        if (
            not isinstance(params, dict)
            or not isinstance(params.get("name"), str)
            or not isinstance(params.get("arguments", {}), (dict, type(None)))
        ):
            return invalid_params()
        call = Call(rid, params)
        with self.pending_lock:
            if rid in self.pending:  # its answer could not be told from the other's, nor cancelled apart
                return error(INVALID_REQUEST, f"a call with id {rid!r} is still running: give each request its own id")
            self.pending[rid] = call
        if call.token is not None:
            threading.Thread(target=self._beat, args=(call,), name="recollect-mcp-progress", daemon=True).start()
        self.calls.put(call)
        return None

    def _beat(self, call: Call) -> None:
        """Progress while the call waits and runs: OpenCode resets its call timeout on each one."""
        while not call.done.wait(self.heartbeat_seconds()):
            if call.cancelled.is_set():
                return
            elapsed = time.perf_counter() - call.received
            with call.answering:
                if call.done.is_set():
                    return
                self.output.send(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/progress",
                        "params": {
                            "progressToken": call.token,
                            "progress": round(elapsed, 1),
                            "message": f"still working ({elapsed:.0f} s)",
                        },
                    }
                )

    def _work(self) -> None:
        while (call := self.calls.get()) is not None:
            try:
                if not call.cancelled.is_set():
                    self._run(call)
            finally:
                call.done.set()
                self._forget(call)

    def _forget(self, call: Call) -> None:
        with self.pending_lock:
            if self.pending.get(call.rid) is call:  # never a later request that took the id after the answer
                del self.pending[call.rid]

    def _run(self, call: Call) -> None:
        self.on_call_started()
        reply = self.run_call(call.name, call.arguments, self.settings, call.received)
        self.on_call_ended(call.name)
        if call.cancelled.is_set():
            return  # the SDK never answers a request cancelled while it ran
        result: dict[str, Any] = {"content": [{"type": "text", "text": reply.text}], "isError": reply.is_error}
        structured = _json_safe(reply.structured)
        if structured is not None:
            result["structuredContent"] = structured
        with call.answering:
            call.done.set()
            self._forget(call)  # answered: the id is the client's to use again
            self.output.send({"jsonrpc": "2.0", "id": call.rid, "result": result})


def _json_safe(data: dict[str, Any] | None) -> dict[str, Any] | None:
    """`data` as JSON gives it back; NaN and infinities, which JSON cannot hold, become null (as on
    the SDK's path)."""
    return None if data is None else json.loads(json.dumps(_finite(data), ensure_ascii=False, default=str))


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


class Wire:
    """The process's stdin and stdout, claimed for the protocol (as the SDK's `stdio_server` claims
    them): the wire moves to private descriptors, fd 0 then reads /dev/null and fd 1 writes to
    stderr, so stray output misses the wire; `release` puts both back. Streams not backed by fds 0
    and 1 (a test runner's) are served in place."""

    def __init__(self) -> None:
        self._restore: list[tuple[int, int]] = []
        self.reader: BinaryIO = self._claim(0, sys.stdin, "rb")
        self.writer: BinaryIO = self._claim(1, sys.stdout, "wb")

    def _claim(self, fd: int, stream: Any, mode: str) -> BinaryIO:
        try:
            backed = stream.buffer.fileno() == fd
        except (AttributeError, OSError, ValueError):
            backed = False
        if not backed:
            return cast(BinaryIO, stream.buffer)
        private = os.dup(fd)  # not inherited by children (PEP 446); 0-2 are taken, so it is >= 3
        diversion = os.open(os.devnull, os.O_RDONLY) if fd == 0 else os.dup(2)
        os.dup2(diversion, fd)
        os.close(diversion)
        self._restore.append((fd, private))
        # closefd=False: a worker thread may still hold it after serving ends
        return cast(BinaryIO, os.fdopen(private, mode, closefd=False))

    def release(self) -> None:
        with contextlib.suppress(ValueError, OSError):
            self.writer.flush()
        for fd, private in self._restore:
            with contextlib.suppress(OSError):
                os.dup2(private, fd)
        self._restore = []
