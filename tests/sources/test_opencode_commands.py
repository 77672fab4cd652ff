"""An OpenCode slash command's template is not what the person typed (sources/opencode_commands.py):
over a store in OpenCode 1.18.33's shapes, the template is neither the person's text nor the card's,
nor searchable by its words or meaning, and a read names it; each "must not" after a positive control."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from recollect.search.read import render_text
from recollect.search.scope import Filters
from recollect.sources.opencode_commands import builtin
from tests.extract.store import Msg, Store, assistant, tool, user

COMMIT_MD = (
    "---\ndescription: commit the staged work\n---\nLook at the staged changes with `git diff --cached`, write a "
    "conventional commit message that says why, and commit them. Do not push. $ARGUMENTS\n"
)
ORDINARY = (
    "Please look at the staged changes and tell me whether the parser refactor is safe to merge; I think the "
    "tokenizer change broke the CSV header handling."
)


def init_text(worktree: Path) -> str:
    """What 1.18.33 stores for `/init` with no arguments: its template, the worktree filled in."""
    template = next(t.text for t in builtin() if t.name == "init")
    return template.replace("$ARGUMENTS", "").replace("$WORKTREE", str(worktree)).strip()


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    project = tmp_path / "atlas"
    (project / ".git").mkdir(parents=True)
    (project / ".opencode" / "command").mkdir(parents=True)
    (project / ".opencode" / "command" / "commit.md").write_text(COMMIT_MD, encoding="utf-8")
    store = Store(tmp_path / "store" / "opencode.db")
    init = store.session(
        project,
        [
            user(init_text(project)),
            assistant(
                tool("read", "# atlas\nInvoicing web API.", command="README.md"),
                "Wrote AGENTS.md: the invoice API lives in atlas/app.py.",
            ),
        ],
        title="AGENTS.md guide for repository",  # OpenCode titles it from the template
    )
    commit = store.session(
        project,
        [
            user(
                "Look at the staged changes with `git diff --cached`, write a conventional commit message that says "
                "why, and commit them. Do not push. only the parser"
            ),
            assistant(tool("bash", "1 file changed", command="git diff --cached --stat"), "Committed: fix(parser)."),
        ],
        title="Staged changes commit",
    )
    review = store.session(
        project,
        [
            Msg(
                "user",
                [
                    {
                        "type": "subtask",
                        "agent": "general",
                        "description": "review changes [commit|branch|pr], defaults to uncommitted",
                        "command": "review",
                        "prompt": next(t.text for t in builtin() if t.name == "review").replace("$ARGUMENTS", ""),
                    }
                ],
            ),
            assistant("No issues found in the uncommitted changes."),
        ],
        title="Review changes",
    )
    ordinary = store.session(project, [user(ORDINARY), assistant("It is safe: the header test passes.")])
    monkeypatch.setenv("OPENCODE_DB", str(store.path))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())
    return {"init": init, "commit": commit, "review": review, "ordinary": ordinary, "project": project}


def found(query: str) -> list[str]:
    return [h.session_id for h in history.search(query, Filters(), sync_first=False).hits]


def cards() -> dict[str, tuple[str, str, str]]:
    conn = sqlite3.connect(load_config().index_path)
    try:
        rows = conn.execute("SELECT native_id, title, first_human, card_text FROM session").fetchall()
    finally:
        conn.close()
    return {r[0]: (r[1], r[2], r[3] or "") for r in rows}


def test_what_the_person_typed_is_the_command(world: dict[str, object]) -> None:
    card = cards()
    # Positive control: a long request a person typed stays theirs, word for word.
    assert card[str(world["ordinary"])][1] == ORDINARY
    assert str(world["ordinary"]) in found("tokenizer CSV header")
    assert card[str(world["init"])][:2] == ("/init", "/init")  # titled by its command, as a Claude Code one is
    assert card[str(world["commit"])][1] == "/commit only the parser"
    assert card[str(world["review"])][1] == "/review"
    assert str(world["commit"]) in found("parser") and str(world["init"]) in found("invoice")  # their own work


def test_a_template_is_not_searchable_nor_on_the_card(world: dict[str, object]) -> None:
    commands = {str(world[k]) for k in ("init", "commit", "review")}
    # Words only the templates hold: before, each command session was the person's request for them.
    for words in ("highest-value lockfiles", "conventional", "actionable feedback"):
        assert not commands & set(found(words)), words
    conn = sqlite3.connect(load_config().index_path)
    try:
        held = conn.execute(
            "SELECT count(*) FROM chunk WHERE text LIKE '%highest-value%' OR text LIKE '%conventional commit%' "
            "OR text LIKE '%code reviewer%'"
        ).fetchone()[0]
    finally:
        conn.close()
    assert held == 0
    assert not any("AGENTS.md` for this repository" in c[2] for c in cards().values())


def test_a_read_names_the_template(world: dict[str, object]) -> None:
    shown = render_text(history.read(f"opencode::{world['init']}", mode="head"))
    assert "/init" in shown and "atlas/app.py" in shown  # positive control: the person's command, the work
    assert "[OpenCode's /init template, " in shown and "highest-value sources" not in shown


def test_a_chinese_question_finds_no_template_by_meaning(world: dict[str, object], semantic: None) -> None:
    history.index(load_config())  # the vectors, now that meaning is on
    hits = history.search("怎么运行单个测试和 lint 检查？", Filters(), sync_first=False).hits
    assert str(world["init"]) not in {h.session_id for h in hits}, [(h.session_id, h.why, h.snippet[:80]) for h in hits]


TIDY = "Reorder the imports of every module alphabetically. $1"
# OpenCode reads both as its config: the second has a comment between a trailing comma and its brace, and a
# BOM, which the regex that stripped comments for json.loads left unreadable (read by integrations' parser now).
CONFIGS = {
    "a comment after": json.dumps({"command": {"tidy": {"template": TIDY}}}) + "\n// a comment\n",
    "a comment before a trailing comma's brace": '\ufeff{\n  "command": {\n    "tidy": {"template": '
    + json.dumps(TIDY)
    + "}, // the one we use: see https://example.com/x\n  },\n}\n",
}


@pytest.mark.parametrize("written", CONFIGS.values(), ids=CONFIGS)
def test_a_command_of_the_global_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str) -> None:
    config = Path(str(tmp_path / "home" / ".config")) / "opencode"
    config.mkdir(parents=True, exist_ok=True)
    (config / "opencode.jsonc").write_text(written, encoding="utf-8")
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    store = Store(tmp_path / "store" / "opencode.db")
    sid = store.session(project, [user("Reorder the imports of every module alphabetically. src/"), assistant("Done.")])
    monkeypatch.setenv("OPENCODE_DB", str(store.path))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())
    assert cards()[sid][1] == "/tidy src/"


def test_an_index_of_schema_13_rereads_the_sessions_that_ran_a_command(
    world: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    from recollect.index import store
    from recollect.sources import opencode

    path = load_config().index_path
    with monkeypatch.context() as patch:  # what schema 13 stored: each template as the person's request
        patch.setattr(opencode, "mark_commands", lambda session: None)
        path.unlink()
        history.index(load_config())
    old = store.connect(path)
    old.execute("DELETE FROM migrations WHERE name = '014_command_templates'")
    old.execute("PRAGMA user_version=13")
    typed = "SELECT count(*) FROM session WHERE first_human IN ('/init', '/commit only the parser')"
    assert old.execute(typed).fetchone() == (0,)  # positive control: the old index took the templates as typed
    old.close()
    report = history.index(load_config())
    assert [(s.id, s.updated) for s in report.sources] == [("opencode", 3)]  # the three commands, not the other
    assert sorted(c[1] for c in cards().values()) == ["/commit only the parser", "/init", "/review", ORDINARY]
