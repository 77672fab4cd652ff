"""`recollect mcp` as a command: the SDK stays off every other command's start-up path, and a
missing SDK is an install hint, not a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from recollect.cli import main


def test_other_commands_never_import_the_sdk() -> None:
    code = "import sys, recollect.cli; print(sorted(m for m in ('mcp', 'mcp_types', 'pydantic') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_missing_sdk_prints_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "recollect.mcp.server", raising=False)
    for name in [m for m in sys.modules if m == "mcp" or m.startswith("mcp.")] + ["mcp"]:
        monkeypatch.setitem(sys.modules, name, None)  # what an absent package looks like to `import`
    result = CliRunner().invoke(main, ["mcp"])
    assert result.exit_code == 1
    assert "pip install 'recollect[mcp]'" in result.output and "Traceback" not in result.output


def test_help_names_every_tool() -> None:
    out = CliRunner().invoke(main, ["mcp", "--help"]).output
    for name in ("history_search", "history_read", "history_sessions", "memory_recall", "memory_remember"):
        assert name in out
    assert "--budget" in out and "--scope" in out


def test_run_by_hand_it_says_it_waits_for_an_agent(sample_db: object) -> None:
    import os
    import pty
    import select

    leader, follower = pty.openpty()  # a terminal, as a person who types 'recollect mcp' has
    proc = subprocess.Popen(
        [sys.executable, "-m", "recollect.cli", "mcp"], stdin=follower, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    os.close(follower)
    try:
        assert proc.stderr is not None
        ready, _, _ = select.select([proc.stderr], [], [], 60)
        said = proc.stderr.readline().decode() if ready else ""
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        os.close(leader)
    assert said.startswith("recollect mcp: serving recollect's tools over MCP on stdin/stdout"), said
    assert "Ctrl-C stops it" in said
    # Started by an agent (a pipe on stdin) it says nothing: test_stdio's session checks stderr stays empty.
