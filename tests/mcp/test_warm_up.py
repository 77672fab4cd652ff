"""`recollect mcp` loads the library in the background once the tool list is sent (mcp/server.py,
`start_warm_up`): the list is answered first, the warm-up logs the steps it did, and a call that comes
while it runs is answered as any call."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from recollect import history

INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "opencode"}},
}


def _send(proc: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()


def _answer(proc: subprocess.Popen[bytes], rid: int) -> dict[str, Any]:
    assert proc.stdout is not None
    while True:
        message = json.loads(proc.stdout.readline())
        if message.get("id") == rid:
            return message  # type: ignore[no-any-return]


@contextmanager
def _serving(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """`recollect mcp` started and past its tool list; stdin closed and the server waited for after."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "recollect.cli", "mcp"],
        cwd=tmp_path,
        env={**os.environ, "RECOLLECT_SOURCES": "opencode"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    _send(proc, INIT)
    _answer(proc, 0)
    _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    try:
        assert _answer(proc, 1)["result"]["tools"]
        yield proc
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=60)


def _warm_up_lines(log: Path) -> list[str]:
    return [line for line in log.read_text().splitlines() if " warm-up " in line] if log.exists() else []


def _await_warm_up(log: Path) -> None:
    """Until the server logs its warm-up's line (at most 120 s)."""
    deadline = time.monotonic() + 120
    while not _warm_up_lines(log) and time.monotonic() < deadline:
        time.sleep(0.1)


def _search_is_answered(proc: subprocess.Popen[bytes]) -> None:
    """A history_search call is answered, with hits."""
    _send(
        proc,
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "history_search", "arguments": {"query": "missing-file.txt"}},
        },
    )
    reply = _answer(proc, 2)
    assert reply["result"]["isError"] is False and reply["result"]["structuredContent"]["hits"], reply


@pytest.mark.usefixtures("semantic")
def test_the_warm_up_runs_after_the_tool_list_and_a_call_is_answered_after_it(
    sample_db: Path, isolated_home: Path, tmp_path: Path
) -> None:
    history.index()
    log = isolated_home / "log" / "mcp.log"
    with _serving(tmp_path) as proc:
        _await_warm_up(log)
        lines = _warm_up_lines(log)
        assert len(lines) == 1 and "warm-up imports, models, index:" in lines[0], lines
        if sys.platform.startswith("linux"):  # on the CPU the host leaves idle (mcp/server.py, WARM_UP_NICE)
            assert lines[0].endswith(f", nice {max(10, os.nice(0))}"), lines
        _search_is_answered(proc)


def test_the_warm_up_never_creates_an_index_the_first_call_does(
    sample_db: Path, isolated_home: Path, tmp_path: Path
) -> None:
    log = isolated_home / "log" / "mcp.log"
    with _serving(tmp_path) as proc:
        _await_warm_up(log)
        assert len(_warm_up_lines(log)) == 1
        assert not (isolated_home / "index.db").exists()  # nothing asked for one yet
        _search_is_answered(proc)
        assert (isolated_home / "index.db").exists()  # the call built it, as without a warm-up


@pytest.mark.usefixtures("semantic")
def test_a_call_sent_right_after_the_tool_list_is_answered_while_the_warm_up_runs(
    sample_db: Path, isolated_home: Path, tmp_path: Path
) -> None:
    history.index()
    log = isolated_home / "log" / "mcp.log"
    with _serving(tmp_path) as proc:
        _search_is_answered(proc)
        _await_warm_up(log)
        assert len(_warm_up_lines(log)) == 1  # it stopped at a step, or had finished: either way it ended
