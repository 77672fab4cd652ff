"""Saving a transcript: the whole session as ChatML; the agent's tool writes only under recall/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect import history
from recollect.cli import main
from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool

SESSION = "ses_dd4b49e37ffeypNpHy09J5kHaD"  # "Please edit the readme": 20 messages in the sample store


@pytest.fixture
def indexed(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index()
    return sample_db


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    return root


def test_cli_saves_the_whole_session_as_chatml(indexed: Path, tmp_path: Path) -> None:
    target = tmp_path / "out" / "readme.chatml"
    out = CliRunner().invoke(main, ["read", SESSION, "--save", str(target), "--format", "json"])
    assert out.exit_code == 0, out.output
    saved = json.loads(out.output)
    text = target.read_text(encoding="utf-8")
    assert saved == {"path": str(target.resolve()), "bytes": len(text.encode()), "messages": 20}
    assert text.startswith("<hist ") and text.count("<|im_start|>") == 20 and text.rstrip().endswith("</hist>")
    assert oct(target.stat().st_mode & 0o777) == "0o600"


def test_cli_never_writes_over_a_store(indexed: Path, tmp_path: Path) -> None:
    before = indexed.read_bytes()
    ok = CliRunner().invoke(main, ["read", SESSION, "--save", str(tmp_path / "fine.chatml")])
    assert ok.exit_code == 0  # positive control
    out = CliRunner().invoke(main, ["read", SESSION, "--save", str(indexed)])
    assert out.exit_code == 1 and "session store" in out.output and indexed.read_bytes() == before


def test_history_save_writes_under_recall_in_the_project(indexed: Path, project: Path) -> None:
    settings = ServerSettings(cwd=str(project))
    reply = call_tool("history_save", {"cursor": SESSION}, settings)
    assert not reply.is_error, reply.text
    target = project / "recall" / f"{SESSION}.chatml"
    assert reply.structured == {"path": f"recall/{SESSION}.chatml", "bytes": target.stat().st_size, "messages": 20}
    named = call_tool("history_save", {"cursor": SESSION, "path": "recall/notes/readme.chatml"}, settings)
    assert not named.is_error and (project / "recall" / "notes" / "readme.chatml").is_file()


def test_history_save_refuses_any_other_path(indexed: Path, project: Path, tmp_path: Path) -> None:
    settings = ServerSettings(cwd=str(project))
    assert not call_tool("history_save", {"cursor": SESSION, "path": "recall/ok.chatml"}, settings).is_error
    outside = tmp_path / "outside"
    outside.mkdir()
    (project / "recall" / "escape").symlink_to(outside)
    for path in (
        "notes.chatml",
        "../outside/x.chatml",
        "recall/../x.chatml",
        str(outside / "x.chatml"),
        "recall",
        "recall/escape/x.chatml",
        str(indexed),
    ):
        reply = call_tool("history_save", {"cursor": SESSION, "path": path}, settings)
        assert reply.is_error and "refused" in reply.text, (path, reply.text)
    assert (
        list(outside.iterdir()) == []
        and not (project / "notes.chatml").exists()
        and not (project / "x.chatml").exists()
    )


def test_history_save_refuses_a_recall_dir_that_points_elsewhere(indexed: Path, project: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / "recall").symlink_to(elsewhere)
    reply = call_tool("history_save", {"cursor": SESSION}, ServerSettings(cwd=str(project)))
    assert reply.is_error and "refused" in reply.text and list(elsewhere.iterdir()) == []
