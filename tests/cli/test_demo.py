"""`recollect demo` shows the product: meaning, identifiers, a transcript, a memory, the next step."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cli.test_cli import run


def test_the_builtin_demo_shows_every_part_of_the_product(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RECOLLECT_EMBEDDINGS")  # as a user gets it: search by meaning on
    out = run("demo", "--builtin")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "opencode: 12 sessions" in text
    paraphrase, chinese, identifier = text.split("$ recollect search")[1:4]
    assert "Please edit the readme" in paraphrase.split("\n1. ")[1].split("\n")[0]  # the top hit
    assert "by meaning, no shared word" in paraphrase and "by meaning, no shared word" in chinese
    assert "list files" in chinese.split("\n1. ")[1]
    assert "missing-file.txt" in identifier and "by meaning" not in identifier  # found by its words
    assert "$ recollect read opencode::" in text and "▶ [" in text  # the transcript window
    assert "remembered global:pitfalls/" in text and "matched: missing" in text  # the memory, recalled
    assert "recollect install opencode" in text
    assert "with every option at its default" not in text + out.stderr  # no word of the demo's own, temporary config
    phases = re.search(r"Demo done in [0-9.]+ s \((.*)\)\.", text)
    assert phases is not None and "index " in phases.group(1) and "recall " in phases.group(1)


def test_the_demo_leaves_no_memory_behind(isolated_home: object) -> None:
    assert run("demo", "--builtin").returncode == 0  # positive control: the demo ran and wrote a memory
    recall = run("memory", "--global-only", "recall", "missing file")
    assert "the-read-tool-fails-on-a-missing-file" not in recall.stdout  # it was kept in the demo's own home


def test_a_store_with_no_session_yet_gets_the_builtin_demo(sample_db: object) -> None:
    real = run("demo")  # positive control: a store with sessions is shown as it is
    assert real.returncode == 0, real.stderr
    assert "opencode: 12 sessions" in real.stdout and "shipped with recollect" not in real.stdout

    empty = Path.home() / ".claude" / "projects"  # Claude Code installed, never run
    empty.mkdir(parents=True)
    out = run("demo", env={"RECOLLECT_SOURCES": "claude-code"})
    assert out.returncode == 0, out.stderr
    assert "claude: 0 sessions" in out.stdout
    assert "Your stores hold no session yet, so this demo indexes a real store shipped with recollect" in out.stdout
    assert "opencode: 12 sessions" in out.stdout and "$ recollect read opencode::" in out.stdout


def test_with_opencode_connected_the_demo_does_not_ask_to_connect_it(sample_db: object) -> None:
    before = run("demo")
    assert before.returncode == 0, before.stderr
    assert "Next: connect your agent with 'recollect install opencode'." in before.stdout  # positive control
    installed = run("install", "opencode", "--no-npm")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    after = run("demo")
    assert after.returncode == 0, after.stderr
    assert "recollect install opencode" not in after.stdout
    assert "OpenCode is connected to recollect" in after.stdout and "'recollect ui'" in after.stdout
