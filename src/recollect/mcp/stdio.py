"""Each line the MCP server reads is screened here first, so every malformed request gets an answer.

The MCP SDK's stdio reader hands each line to pydantic and, when the line fails, passes the
exception to the server, which logs it and answers nothing: a request holding a lone surrogate
(`"\\ud800"`, which pydantic rejects), a line that is not JSON, or an object that is not a JSON-RPC
request would wait for its answer forever. `screen` decides what a line is, for both of the
server's paths (the handshake wire in `mcp/wire.py`, and the SDK's server through `Screened`):

- bytes that are not UTF-8 become U+FFFD (as the SDK's reader does), and so do lone surrogates in
  any string of the message: the request is then well formed and is answered as usual;
- a line that is not JSON gets a parse error (-32700) and JSON that is not a JSON-RPC message an
  invalid-request error (-32600), each saying what to fix, with the request's id when it can be
  found and `null` otherwise (JSON-RPC 2.0, section 5.1). A malformed *response* is never answered.

Importing this module imports no SDK (the handshake wire runs without it).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterable, AsyncIterator
from typing import Any

log = logging.getLogger("recollect.mcp")

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
_SURROGATE = re.compile("[\ud800-\udfff]")
# The id of a line that is not JSON, when it can still be read: `"id": 7` or `"id": "abc"`.
_ID = re.compile(r'"id"\s*:\s*(-?\d{1,18}\b|"(?:[^"\\\r\n]|\\.){0,200}")')
_SHAPE = (
    'Send one JSON-RPC 2.0 message per line, encoded as UTF-8, e.g. {"jsonrpc": "2.0", "id": 1, '
    '"method": "tools/call", "params": {"name": "history_search", "arguments": {"query": "..."}}}.'
)

Message = dict[str, Any]


def screen(line: bytes | str) -> tuple[Message | None, Message | None]:
    """What one line read from the client is: (the message, None); (None, the error reply to send);
    or (None, None) for a blank line or a broken response, which nothing answers."""
    text = (line.decode("utf-8", "replace") if isinstance(line, bytes) else line).removeprefix("\ufeff")
    if not text.strip():
        return None, None
    try:
        value = _mend(json.loads(text))
    except RecursionError:
        return None, error_reply(_id_in(text), PARSE_ERROR, "the request is nested too deep to read.")
    except ValueError as exc:
        where = f" (line {exc.lineno} column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        return None, error_reply(_id_in(text), PARSE_ERROR, f"the request is not valid JSON{where}.")
    wrong = _what_is_wrong(value)
    if wrong is None:
        return value, None
    if wrong == "":
        log.info("a malformed response was dropped (%d characters)", len(text))
        return None, None  # JSON-RPC never answers a response
    return None, error_reply(_request_id(value), INVALID_REQUEST, wrong)


def _mend(value: Any) -> Any:
    """`value` with each lone surrogate of its strings (keys too) made U+FFFD."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value) if _SURROGATE.search(value) else value
    if isinstance(value, dict):
        return {_mend(k): _mend(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_mend(v) for v in value]
    return value


def _what_is_wrong(value: Any) -> str | None:
    """None for a JSON-RPC 2.0 message; "" for a broken response (never answered); else what to fix."""
    if not isinstance(value, dict):
        return f"a JSON-RPC message must be a JSON object, not {_kind(value)}."
    if "method" not in value and ("result" in value or "error" in value):
        return None if value.get("jsonrpc") == "2.0" and _request_id(value) is not None else ""
    if value.get("jsonrpc") != "2.0":
        return 'the request must say "jsonrpc": "2.0".'
    if not isinstance(value.get("method"), str):
        return 'the request needs "method", a string such as "tools/call".'
    if "id" in value and _request_id(value) is None:
        return '"id" must be a string or an integer (or left out, for a notification).'
    return None


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _request_id(value: Any) -> int | str | None:
    rid = value.get("id") if isinstance(value, dict) else None
    if isinstance(rid, bool) or not isinstance(rid, int | str):
        return None
    return rid if isinstance(rid, str) or abs(rid) < 2**63 else None


def _id_in(text: str) -> int | str | None:
    found = _ID.search(text)
    if found is None:
        return None
    try:
        return _request_id({"id": _mend(json.loads(found.group(1)))})
    except ValueError:
        return None


def error_reply(rid: int | str | None, code: int, what: str) -> Message:
    """The JSON-RPC error answering a request that could not be read."""
    log.info("a malformed request was answered with error %d (id %s)", code, "null" if rid is None else "given")
    message = f"recollect could not read this request: {what} {_SHAPE}"
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}


class Screened:
    """The SDK server's stdin, screened: what `stdio_server` iterates. A line `screen` refuses (or
    the SDK's own validation would) is answered here, on the server's write stream (`attach`)."""

    def __init__(self, lines: AsyncIterable[str]) -> None:
        import anyio

        self.lines = lines
        self.replies: Any = None
        self.ready = anyio.Event()

    def attach(self, write_stream: Any) -> None:
        self.replies = write_stream
        self.ready.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._screened()

    async def _screened(self) -> AsyncIterator[str]:
        import mcp_types as types
        from mcp.shared.message import SessionMessage

        async for line in self.lines:
            message, reply = screen(line)
            text = None if message is None else json.dumps(message, ensure_ascii=False)
            if text is not None:
                try:
                    types.jsonrpc_message_adapter.validate_json(text, by_name=False)
                except ValueError:  # pydantic's ValidationError: a shape our screen lets through
                    if message is not None and "method" in message:  # a broken response goes unanswered
                        reply = error_reply(_request_id(message), INVALID_REQUEST, "it is not a valid MCP message.")
                    text = None
            if reply is not None:
                await self.ready.wait()
                await self.replies.send(SessionMessage(types.jsonrpc_message_adapter.validate_python(reply)))
            if text is not None:
                yield text
