"""A person can hide a session: out of every read path, kept across re-syncs and rebuilds, audited."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect import history
from recollect.cli import main
from recollect.config import load_config
from recollect.integrations.hooks import HookService
from recollect.mcp.base import ServerSettings
from recollect.mcp.registry import call_tool
from recollect.search.read import ReadError
from recollect.search.scope import Filters

BETA = "/srv/oc/projects/beta"
BETA_LIST = "ses_dd4b3abb8ffeALoeRHSIk5v0pJ"  # the sample store's one session in beta that lists files
QUALIFIED = f"opencode::{BETA_LIST}"


@pytest.fixture
def indexed(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index()
    return sample_db


def seen_everywhere() -> dict[str, bool]:
    """Whether BETA_LIST is visible on each read path."""
    settings = ServerSettings(cwd=BETA)
    hits = history.search("list files", limit=50, sync_first=False).hits
    listed = history.sessions(limit=100, sync_first=False)
    try:
        readable = bool(history.read(BETA_LIST).messages)
    except ReadError:
        readable = False
    recall, _ = HookService().recall_block("ses_other", BETA, "please list files like last time")
    compact = HookService().on_compact(BETA_LIST, BETA, "")["context"]
    mcp_read = call_tool("history_read", {"cursor": QUALIFIED}, settings)
    return {
        "search": any(h.session_id == BETA_LIST for h in hits),
        "deep": any(
            h.session_id == BETA_LIST
            for h in history.search("app.py", Filters(scope="session", sessions=[BETA_LIST]), deep=True).hits
        ),
        "sessions": any(r.session_id == BETA_LIST for r in listed),
        "read": readable,
        "auto-recall": BETA_LIST in recall,
        "compaction": any("list files" in c.lower() for c in compact),
        "mcp search": BETA_LIST in call_tool("history_search", {"query": "list files", "limit": 50}, settings).text,
        "mcp sessions": BETA_LIST in call_tool("history_sessions", {"limit": 100}, settings).text,
        "mcp read": not mcp_read.is_error and "<hist " in mcp_read.text,
    }


def test_a_hidden_session_leaves_every_read_path_and_comes_back_when_unhidden(indexed: Path) -> None:
    before = seen_everywhere()
    assert all(before.values()), before  # positive control: every path sees it

    entry = history.hide_session(BETA_LIST, why="the answer in it was wrong")
    assert entry.session == QUALIFIED
    hidden = seen_everywhere()
    assert not any(hidden.values()), hidden
    with pytest.raises(ReadError, match="hidden"):
        history.read(QUALIFIED)
    others = history.sessions(limit=100, sync_first=False)
    assert len(others) == 11  # only that one is gone

    history.unhide_session(QUALIFIED)
    assert seen_everywhere() == before


def test_the_hide_survives_a_resync_and_an_index_rebuild(indexed: Path) -> None:
    config = load_config()
    history.hide_session(QUALIFIED, why="sensitive")
    history.index(config)  # a re-sync
    assert not any(r.session_id == BETA_LIST for r in history.sessions(limit=100, sync_first=False))
    for path in config.index_path.parent.glob(config.index_path.name + "*"):
        path.unlink()  # the index is disposable: delete it all
    history.index(config)
    listed = history.sessions(limit=100, sync_first=False)
    assert len(listed) == 11 and not any(r.session_id == BETA_LIST for r in listed)
    assert not any(h.session_id == BETA_LIST for h in history.search("list files", limit=50).hits)


def test_the_tombstone_is_owner_only_outside_the_index_and_audited(indexed: Path) -> None:
    config = load_config()
    history.hide_session(BETA_LIST, why="embarrassing")
    tombstone = config.paths.data_dir / "hidden.jsonl"
    assert tombstone.is_file() and tombstone != config.index_path
    assert stat.S_IMODE(tombstone.stat().st_mode) == 0o600
    log = [json.loads(line) for line in (config.paths.global_memory / "audit.jsonl").read_text().splitlines()]
    assert log[-1]["op"] == "hide" and log[-1]["id"] == f"session:{QUALIFIED}" and log[-1]["note"] == "embarrassing"
    history.unhide_session(BETA_LIST)
    log = [json.loads(line) for line in (config.paths.global_memory / "audit.jsonl").read_text().splitlines()]
    assert [e["op"] for e in log[-2:]] == ["hide", "unhide"]


def test_cli_hide_sessions_hidden_and_unhide(indexed: Path) -> None:
    runner = CliRunner()
    listed = runner.invoke(main, ["sessions", "--json", "--limit", "100"])
    assert BETA_LIST in listed.output  # positive control
    hid = runner.invoke(main, ["hide", BETA_LIST, "--why", "wrong fix"])
    assert hid.exit_code == 0, hid.output
    assert BETA_LIST not in runner.invoke(main, ["sessions", "--json", "--limit", "100"]).output
    shown = json.loads(runner.invoke(main, ["sessions", "--hidden", "--json"]).output)["hidden"]
    assert [(h["session"], h["why"], h["directory"]) for h in shown] == [(QUALIFIED, "wrong fix", BETA)]
    assert runner.invoke(main, ["unhide", QUALIFIED]).exit_code == 0
    assert BETA_LIST in runner.invoke(main, ["sessions", "--json", "--limit", "100"]).output
    assert json.loads(runner.invoke(main, ["sessions", "--hidden", "--json"]).output)["hidden"] == []


def test_hide_refuses_without_a_reason_or_a_known_session(indexed: Path) -> None:
    history.hide_session(BETA_LIST, why="ok")  # positive control: a reason and a known session
    history.unhide_session(BETA_LIST)
    runner = CliRunner()
    for args, message in (
        (["hide", BETA_LIST, "--why", "  "], "say why"),
        (["hide", "ses_nope", "--why", "x"], "no indexed session"),
        (["hide", "nosuch::ses_nope", "--why", "x"], "no source"),
        (["unhide", BETA_LIST], "not hidden"),
    ):
        out = runner.invoke(main, args)
        assert out.exit_code == 1 and message in out.output and "Traceback" not in out.output, (args, out.output)
    assert runner.invoke(main, ["hide", BETA_LIST]).exit_code == 2  # --why is required
