"""No secret of the corpus reaches any byte recollect writes: the index and its WAL, vector files,
memory files, logs (mcp.log, the plugin log), caches — nor what it prints or answers.

The secrets (tests/text/secret_corpus.py, ≥ 40 kinds) are spread over a real Claude Code store's user
text, tool inputs, tool outputs and title; then offered as memory bodies and as MCP and helper
arguments. Every file under the test's home is then read as raw bytes and searched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.text import secret_corpus

pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters

CORPUS = secret_corpus.build(seed=2026)
KINDS = sorted(CORPUS)
SID = "5ec2e75e-0000-4000-8000-000000000001"
MARKER = "zebrafinchmarker"  # positive control: ordinary text around the secrets is stored


def texts(offset: int) -> list[str]:
    return [CORPUS[k][0] for k in KINDS[offset::4]]


def transcript() -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = [
        {"type": "custom-title", "customTitle": f"{MARKER} title " + " ".join(texts(3)), "sessionId": SID},
    ]
    for i, text in enumerate(texts(0)):
        records.append(
            {"type": "user", "uuid": f"u{i}", "sessionId": SID, "cwd": "/w/proj",
             "timestamp": f"2026-01-01T00:{i:02d}:00Z", "message": {"role": "user", "content": f"{MARKER} {text}"}}
        )  # fmt: skip
    for i, (command, output) in enumerate(zip(texts(1), texts(2), strict=False)):
        records += [
            {"type": "assistant", "uuid": f"a{i}", "sessionId": SID, "timestamp": f"2026-01-01T01:{i:02d}:00Z",
             "message": {"id": f"m{i}", "model": "x", "content": [
                 {"type": "tool_use", "id": f"t{i}", "name": "Bash", "input": {"command": command}}]}},
            {"type": "user", "uuid": f"r{i}", "sessionId": SID, "timestamp": f"2026-01-01T01:{i:02d}:30Z",
             "message": {"role": "user", "content": [
                 {"type": "tool_result", "tool_use_id": f"t{i}", "content": f"{MARKER} output\n{output}"}]}},
        ]  # fmt: skip
    return records


def leaked(blob: bytes) -> list[str]:
    found = []
    for kind, (_, secret) in CORPUS.items():
        forms = {secret, json.dumps(secret)[1:-1]}
        if any(form.encode() in blob for form in forms if len(form) >= 8):
            found.append(kind)
    return found


def run(env: dict[str, str], cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "recollect.cli", *args], env=env, cwd=cwd, capture_output=True, text=True, input=stdin
    )


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_no_secret_reaches_any_file_recollect_writes(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    try:
        request.getfixturevalue("semantic")  # vectors and card vectors are written too, when the model is here
        semantic = True
    except pytest.skip.Exception:
        semantic = False
    store = tmp_path / "claude"
    path = store / "projects" / "-w-proj" / f"{SID}.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in transcript()))
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(store), "RECOLLECT_SOURCES": "claude-code"}
    printed: list[str] = []

    index = run(env, project, "index")
    assert index.returncode == 0, index.stderr
    found = run(env, project, "search", MARKER, "--json")
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)["hits"]
    assert hits, found.stdout  # positive control: the session is indexed and found
    read = run(env, project, "read", hits[0]["cursor"], "--before", "50", "--after", "50")
    assert read.returncode == 0 and MARKER in read.stdout, read.stderr
    printed += [index.stdout, found.stdout, read.stdout, run(env, project, "sessions", "--json").stdout]

    # Memory: a body holding a secret is refused; a clean one is written (its file is searched too).
    for kind in KINDS[:6]:
        refused = run(env, project, "memory", "add", "--category", "pitfalls", "--summary", "s", CORPUS[kind][0])
        assert refused.returncode != 0, (kind, refused.stdout)
    kept = run(env, project, "memory", "add", "--category", "pitfalls", "--summary", "clean", f"{MARKER} is fine")
    assert kept.returncode == 0, kept.stderr

    # MCP: secrets as arguments (logged), as a memory body (refused), and in read windows and titles.
    params = StdioServerParameters(command=sys.executable, args=["-m", "recollect.cli", "mcp"], env=env, cwd=project)
    async with Client(params, mode="legacy", read_timeout_seconds=120) as client:
        for kind in KINDS:
            answer = await client.call_tool("history_search", {"query": f"{MARKER} {CORPUS[kind][0]}"})
            printed.append(json.dumps([b.text for b in answer.content]))
        answer = await client.call_tool(
            "history_search", {"query": MARKER, "nested": {"client_secret": CORPUS[KINDS[0]][1]}}
        )
        cursor = (await client.call_tool("history_search", {"query": MARKER})).structured_content["hits"][0]["cursor"]
        window = await client.call_tool("history_read", {"cursor": cursor, "before": 50, "after": 50})
        assert MARKER in window.content[0].text  # positive control
        printed.append(window.content[0].text)
        remember = await client.call_tool("memory_remember", {"body": CORPUS[KINDS[1]][0], "category": "pitfalls"})
        assert remember.is_error

    # The plugin helper: an unparseable request and a message that both hold secrets.
    helper = subprocess.Popen(
        [sys.executable, "-m", "recollect.integrations.hookd"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=project,
    )  # fmt: skip
    lines = [f"{{broken {CORPUS[k][0]}" for k in KINDS[:10]]
    lines.append(json.dumps({"id": 1, "op": "message", "session": "ses_x", "directory": str(project),
                             "text": " ".join(texts(0))}))  # fmt: skip
    out, _ = helper.communicate("\n".join(lines) + "\n", timeout=120)
    printed.append(out)

    written = [p for p in tmp_path.rglob("*") if p.is_file() and store not in p.parents]
    names = {p.name for p in written}
    assert {"index.db", "mcp.log", "opencode-plugin.log"} <= names, sorted(names)
    assert any(p.suffix == ".md" and ".memory" in p.parts for p in written)
    if semantic:
        assert any("vectors" in str(p) or p.suffix in (".npy", ".f16", ".bin") for p in written), sorted(names)
    assert any(MARKER.encode() in p.read_bytes() for p in written if p.name.startswith("index.db"))
    leaks = {str(p.relative_to(tmp_path)): k for p in written if (k := leaked(p.read_bytes()))}
    assert not leaks, leaks
    shown = {i: k for i, text in enumerate(printed) if (k := leaked(text.encode()))}
    assert not shown, shown
