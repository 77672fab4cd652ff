"""The helper process over its real stdin/stdout: hello first, one answer per request, never dies."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import IO, Any


def start() -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "recollect.integrations.hookd"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def ask(proc: subprocess.Popen[str], request: dict[str, Any] | str) -> dict[str, Any] | None:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write((request if isinstance(request, str) else json.dumps(request)) + "\n")
    proc.stdin.flush()
    if isinstance(request, str):
        return None
    return json.loads(readline(proc.stdout))


def readline(stream: IO[str]) -> str:
    line = stream.readline()
    assert line, "the helper closed its stdout"
    return line


def test_protocol(tmp_path: Path, isolated_home: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    proc = start()
    try:
        assert proc.stdout is not None
        hello = json.loads(readline(proc.stdout))["hello"]
        assert hello["protocol"] == 1 and hello["timeout_ms"] > 0
        assert hello["log"].startswith(str(isolated_home))

        pong = ask(proc, {"id": 1, "op": "ping"})
        assert pong is not None and pong["id"] == 1 and pong["ok"] is True and pong["ms"] >= 0
    finally:
        proc.kill()
        proc.wait()


def test_answers_errors_and_survives(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    proc = start()
    try:
        assert proc.stdout is not None
        readline(proc.stdout)  # hello
        ask(proc, "this is not json")  # logged and skipped: no answer
        ask(proc, "[1, 2]")
        bad = ask(proc, {"id": 2, "op": "nope"})
        assert bad is not None and bad["ok"] is False and "unknown op" in bad["error"]
        answer = ask(proc, {"id": 3, "op": "message", "session": "s", "directory": str(project), "text": "hello"})
        assert answer is not None and answer["id"] == 3 and answer["ok"] is True
        assert answer["inject"] == "" and answer["recall"] == "" and answer["cue"] is None  # no memory yet
        cue = ask(proc, {"id": 4, "op": "message", "session": "s", "directory": str(project), "text": "like before"})
        assert cue is not None and cue["cue"] == "like before" and cue["recall"] == ""
        compact = ask(proc, {"id": 5, "op": "compact", "session": "s", "directory": str(project)})
        assert compact is not None and compact["ok"] is True and compact["context"] == []
        assert proc.poll() is None
        assert proc.stdin is not None
        proc.stdin.close()  # OpenCode went away
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
