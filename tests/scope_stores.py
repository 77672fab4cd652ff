"""A real OpenCode store (the 1.18.33 schema) with two git projects on disk, for the scope-ceiling tests.

alpha (a git work tree, with a subdirectory) and beta (another one) each hold sessions with words
found nowhere else. One alpha session also ran recollect's own `history_search` over every
project: its stored answer names beta's word, which is what a later project-scoped read of that
alpha session must never show (seed 000's self-tool redaction).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from recollect import history
from recollect.config import load_config
from tests.extract.store import T0, Store, assistant, tool, user

ALPHA_WORD = "zebrakeyalpha"
SUB_WORD = "subdirwordalpha"
BETA_WORD = "betasecretword"
BASH_WORD = "alphabashoutput"


@dataclass
class TwoProjects:
    store: Path
    alpha: Path
    alpha_sub: Path
    beta: Path
    alpha_session: str  # ALPHA_WORD, and a bash call whose output holds BASH_WORD
    alpha_echo: str  # ran recollect_history_search; its answer names BETA_WORD
    sub_session: str  # SUB_WORD, in alpha/sub
    beta_session: str  # BETA_WORD

    def cursor(self, session: str) -> str:
        return f"opencode::{session}"


def our_search_part(output: str) -> dict[str, object]:
    """A completed `recollect_history_search` call, as OpenCode stores an MCP tool's answer."""
    return {
        "type": "tool",
        "tool": "recollect_history_search",
        "callID": "call_ours",
        "state": {
            "status": "completed",
            "input": {"query": BETA_WORD, "scope": "all"},
            "output": output,
            "time": {"start": T0},
        },
    }


def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TwoProjects:
    projects = tmp_path / "projects"
    alpha, beta = projects / "alpha", projects / "beta"
    for root in (alpha, beta):
        (root / ".git").mkdir(parents=True)
    alpha_sub = alpha / "sub"
    alpha_sub.mkdir()
    store = Store(tmp_path / "store" / "opencode.db")
    alpha_session = store.session(
        alpha,
        [
            user(f"how do we rotate the {ALPHA_WORD}?"),
            assistant(f"Run rotate.sh; the {ALPHA_WORD} lives in vault.", tool("bash", f"done: {BASH_WORD}")),
        ],
        title="Rotate the key",
    )
    alpha_echo = store.session(
        alpha,
        [
            user("search every project for the beta deploy word"),
            assistant(
                "Searching all projects.",
                our_search_part(f"1 hit for {BETA_WORD!r}:\n1. Deploy beta — {beta} · {BETA_WORD} is the token"),
            ),
            assistant("Found it in another project."),
        ],
        title="Whole-history search",
    )
    # A reply that answers (auto-recall names only sessions that answered): "hi" would tell nothing.
    sub_session = store.session(
        alpha_sub, [user(f"hello from {SUB_WORD}"), assistant("hi, welcome aboard the subfolder")], title="Sub"
    )
    beta_session = store.session(
        beta, [user(f"deploy beta with the {BETA_WORD}"), assistant(f"{BETA_WORD} noted")], title="Deploy beta"
    )
    monkeypatch.setenv("OPENCODE_DB", str(store.path))
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index(load_config())
    return TwoProjects(store.path, alpha, alpha_sub, beta, alpha_session, alpha_echo, sub_session, beta_session)


def write_config(home: Path, text: str) -> Path:
    """recollect's config.toml under the isolated RECOLLECT_HOME."""
    home.mkdir(parents=True, exist_ok=True)
    path = home / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def message_ids(project: TwoProjects, session: str) -> list[str]:
    import sqlite3

    conn = sqlite3.connect(project.store)
    try:
        return [r[0] for r in conn.execute("SELECT id FROM message WHERE session_id = ? ORDER BY id", (session,))]
    finally:
        conn.close()


def dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)
