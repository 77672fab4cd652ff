"""The tools in process (no SDK): real demo store, real memory files, every reply bounded."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.mcp.base import MAX_BYTES, MAX_LINES, ServerSettings, fit, for_model
from recollect.mcp.registry import call_tool

ALPHA = "/srv/oc/projects/alpha"


@pytest.fixture
def indexed(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())
    return sample_db


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    return root


def directories(text: str) -> set[str]:
    return set(re.findall(r" — (/\S+) · ", text))


def test_default_directory_is_the_servers_cwd_and_scope_is_enforced(indexed: Path) -> None:
    everywhere = call_tool("history_search", {"query": "readme", "limit": 50}, ServerSettings(cwd=ALPHA))
    assert any(not d.startswith(ALPHA) for d in directories(everywhere.text))  # positive control
    scoped = call_tool(
        "history_search", {"query": "readme", "scope": "project", "limit": 50}, ServerSettings(cwd=ALPHA)
    )
    assert scoped.text.count("cursor:") >= 1
    assert directories(scoped.text) and all(d.startswith(ALPHA) for d in directories(scoped.text)), scoped.text
    by_default = call_tool(
        "history_search", {"query": "readme", "limit": 50}, ServerSettings(cwd=ALPHA, default_scope="project")
    )
    assert directories(by_default.text) == directories(scoped.text)
    assert by_default.structured and by_default.structured["coverage"]["scope"] == "project"


def test_search_reply_lists_hits_with_cursor_and_one_coverage_line(indexed: Path) -> None:
    reply = call_tool("history_search", {"query": "missing-file.txt"}, ServerSettings(cwd="/"))
    assert not reply.is_error
    first = reply.text.splitlines()[1]
    assert first.startswith("1. ") and ALPHA in first and ("tool_error" in first or "tool_input" in first)
    assert len(re.findall(r"^coverage: ", reply.text, re.M)) == 1
    cursors = re.findall(r"cursor: (\S+)", reply.text)
    assert cursors and cursors[0] == reply.structured["hits"][0]["cursor"]


def test_read_returns_a_chatml_window_and_pages(indexed: Path) -> None:
    settings = ServerSettings(cwd="/")
    cursor = call_tool("history_search", {"query": "missing-file.txt"}, settings).structured["hits"][0]["cursor"]
    reply = call_tool("history_read", {"cursor": cursor, "before": 1, "after": 1}, settings)
    assert reply.text.startswith("<hist ") and "<|im_start|>" in reply.text and "missing-file.txt" in reply.text
    window = reply.structured
    assert len(window["messages"]) <= 3
    head = call_tool(
        "history_read", {"cursor": window["nav"]["head"], "mode": "head", "before": 0, "after": 1}, settings
    )
    assert head.structured["range"][0] == 0


def test_every_reply_stays_within_the_budget(indexed: Path) -> None:
    settings = ServerSettings(cwd="/", budget=2_000)
    search = call_tool("history_search", {"query": "file readme list the project", "limit": 50}, settings)
    assert len(search.text) <= 2_000 and "left out to stay within 2000 characters" in search.text
    assert search.text.splitlines()[-1].startswith("Read one:")  # the footer survives the cut
    cursor = search.structured["hits"][0]["cursor"]
    read = call_tool("history_read", {"cursor": cursor, "before": 50, "after": 50, "budget": 100_000}, settings)
    assert not read.is_error and len(read.text) <= 2_000
    sessions = call_tool("history_sessions", {"limit": 100}, settings)
    assert len(sessions.text) <= 2_000 and "offset=" in sessions.text


def test_deep_search_must_be_scoped(indexed: Path) -> None:
    settings = ServerSettings(cwd=ALPHA)
    refused = call_tool("history_search", {"query": "missing", "deep": True}, settings)
    assert refused.is_error and "must be scoped" in refused.text and 'scope="project"' in refused.text
    scoped = {"query": "missing", "deep": True, "scope": "project", "since": "3650d"}
    found = call_tool("history_search", scoped, settings)
    assert not found.is_error and found.structured["hits"], found.text
    assert all(h["directory"].startswith(ALPHA) for h in found.structured["hits"])


def test_fit_keeps_under_bytes_and_lines_whatever_the_character_budget() -> None:
    cjk = "部署流程先走预发环境。" * 5_000  # 3 bytes a character
    assert len(fit(cjk, 45_000).encode()) <= MAX_BYTES
    many = "\n".join("x" for _ in range(10_000))
    cut = fit(many, 45_000)
    assert len(cut.splitlines()) <= MAX_LINES and "more characters cut" in cut


def test_sessions_page_with_offset(indexed: Path) -> None:
    settings = ServerSettings(cwd="/")
    first = call_tool("history_sessions", {"limit": 5}, settings)
    assert first.text.count("cursor:") == 5 and "history_sessions(offset=5, limit=5)" in first.text
    last = call_tool("history_sessions", {"limit": 5, "offset": 10}, settings)
    assert last.text.count("cursor:") == 2 and "End of the list." in last.text
    assert last.structured["next_offset"] is None
    cursor = first.structured["sessions"][0]["cursor"]
    head = call_tool("history_read", {"cursor": cursor, "mode": "head", "before": 0, "after": 1}, settings)
    assert not head.is_error and head.structured["range"][0] == 0, head.text


def test_library_errors_become_advice_not_crashes(indexed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = ServerSettings(cwd="/")
    gone = call_tool("history_read", {"cursor": "opencode::ses_nope::msg_nope"}, settings)
    assert gone.is_error and "no session for cursor" in gone.text and "--" not in gone.text
    when = call_tool("history_search", {"query": "x", "since": "tomorrow"}, settings)
    assert when.is_error and "use today, yesterday, a date like 2026-10-01" in when.text
    assert call_tool("history_frobnicate", {}, settings).text.startswith("no tool 'history_frobnicate'")

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(history, "search", boom)
    crashed = call_tool("history_search", {"query": "x"}, settings)
    assert (
        crashed.is_error and "RuntimeError: disk on fire" in crashed.text and "other tools still work" in crashed.text
    )
    assert not call_tool("history_sessions", {}, settings).is_error  # and the next call works


def test_for_model_names_arguments_not_cli_flags() -> None:
    assert for_model("no hits; try to widen --scope project to --scope all; drop --role/--class") == (
        'no hits; try to widen scope="project" to scope="all"; drop role/class'
    )
    assert for_model("missing: a scope (--scope project, or --session ID) and --since, e.g. --since 14d") == (
        'missing: a scope (scope="project", or session=ID) and since, e.g. since="14d"'
    )
    assert (
        for_model("locked; retry, or run 'recollect index --wait'") == "locked; retry, or run 'recollect index --wait'"
    )


def test_memory_round_trip_with_the_trust_rules(project: Path) -> None:
    settings = ServerSettings(cwd=str(project))
    body = "Deploys use pnpm, not npm: the lockfile is pnpm's and npm rewrites it."
    written = call_tool("memory_remember", {"body": body, "category": "pitfalls"}, settings)
    assert not written.is_error and written.text.startswith("remembered project:pitfalls/"), written.text
    memory_id = written.structured["qualified_id"]
    assert (project / ".memory" / (written.structured["id"] + ".md")).is_file()

    recalled = call_tool("memory_recall", {"query": "deploy pnpm"}, settings)
    assert memory_id in recalled.text and "lockfile is pnpm's" in recalled.text  # positive control

    rule = call_tool(
        "memory_remember", {"body": "Always run the linter before committing.", "category": "rules"}, settings
    )
    assert rule.structured["outcome"] == "proposed" and "review" in rule.text  # models propose, people decide
    assert call_tool("memory_recall", {"query": "linter committing"}, settings).structured["memories"] == []

    again = call_tool("memory_remember", {"body": body, "category": "pitfalls"}, settings)
    assert again.structured["outcome"] == "duplicate" and memory_id in again.text

    listing = call_tool("memory_inspect", {}, settings)
    assert f"{memory_id} [active]" in listing.text and "[proposed]" in listing.text
    one = call_tool("memory_inspect", {"id": memory_id}, settings)
    assert "author: model" in one.text and body in one.text

    forgot = call_tool("memory_forget", {"id": memory_id, "reason": "moved to yarn"}, settings)
    assert not forgot.is_error and forgot.text.startswith("forgot " + memory_id)
    assert memory_id not in call_tool("memory_recall", {"query": "deploy pnpm"}, settings).text
    back = call_tool("memory_remember", {"body": body, "category": "pitfalls"}, settings)
    assert back.structured["outcome"] == "forgotten" and back.structured["memory"] is None  # stays forgotten
    # This tool has no force: the reply says who can re-add it, and names no argument it does not have.
    assert "only the user can re-add it ('recollect memory add --force')" in back.text, back.text
    assert "by model" in back.text and "the user forgot" not in back.text  # the model forgot it, above
    assert back.structured["forceable"] is None


def test_memory_refusals_are_error_replies(project: Path) -> None:
    from recollect.memory import open_memory, remember

    settings = ServerSettings(cwd=str(project))
    secret = call_tool("memory_remember", {"body": "The deploy key is AKIAABCDEFGHIJKLMNOP"}, settings)
    assert secret.is_error and "looks like a secret" in secret.text and "AKIA" not in secret.text
    assert not list((project / ".memory").glob("*/*.md"))
    bad = call_tool("memory_recall", {"query": "x", "category": "gossip"}, settings)
    assert bad.is_error and "category must be one of rules, preferences" in bad.text

    hard = remember(open_memory(project), "Never push to main.", category="rules", author="person")
    refused = call_tool("memory_forget", {"id": hard.id}, settings)
    assert refused.is_error and "only a person can forget it" in refused.text
    missing = call_tool("memory_forget", {"id": "pitfalls/nothing-here"}, settings)
    assert missing.is_error and "no memory pitfalls/nothing-here" in missing.text


def test_a_hit_found_by_meaning_tells_the_model(
    sample_db: Path, semantic: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())
    words = call_tool("history_search", {"query": "missing-file.txt"}, ServerSettings(cwd="/"))
    assert "cursor:" in words.text and "found by meaning" not in words.text  # a name: found by its words
    meaning = call_tool("history_search", {"query": "列出项目里的文件"}, ServerSettings(cwd="/"))
    assert "found by meaning, no shared word" in meaning.text, meaning.text
