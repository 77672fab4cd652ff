"""A session's listing statistics (index/stats.py): `turns` counts what a person typed, and nothing a
sub-agent was told, on real Claude Code transcripts, the real OpenCode sample store and the Codex and
Gemini test stores."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recollect import history
from recollect.index.stats import count_turns, session_stats
from recollect.model import Message, Part, Session
from recollect.sources.base import SourceSpec, open_source

DATA = Path(__file__).resolve().parent.parent / "data" / "claude-code"
PARENT = "abc757d1-3da3-42fb-bb7b-ffa293a4ba29"  # a Claude Code 2.0 session that ran a Task agent
AGENT = "agent-abc3cb6"  # that agent: its first user record is the Task prompt ("Explore this repository…")


def _text(value: str, **kw: object) -> Part:
    return Part(id=f"p{abs(hash(value)) % 10**6}", kind="text", text=value, **kw)  # type: ignore[arg-type]


def _session(*messages: Message, parent: str | None = None) -> Session:
    return Session(id="s", source="x", agent_kind="opencode", messages=list(messages), parent_id=parent)


def test_turns_count_only_what_a_person_typed() -> None:
    messages = [
        Message(id="m1", role="user", time=1, parts=[_text("one")]),
        Message(id="m2", role="user", time=2, parts=[_text("auto nudge", synthetic=True)]),
        Message(id="m3", role="user", time=3, parts=[_text("<recollect-recall>\nold sessions\n</recollect-recall>")]),
        Message(id="m4", role="user", time=4, parts=[_text("two")]),
        Message(id="m5", role="assistant", time=5, parts=[_text("answer")]),
    ]
    assert count_turns(_session(*messages)) == 2
    assert session_stats(_session(*messages)).turns == 2  # the listing's count is the same one
    # A sub-agent's session: the same messages, told by its parent agent, are no person's turns.
    assert count_turns(_session(*messages, parent="ses_parent")) == 0


def test_a_claude_code_task_agents_prompt_is_not_a_persons_turn(tmp_path: Path) -> None:
    project = tmp_path / "claude" / "projects" / "-Users-m"
    project.mkdir(parents=True)
    for name in (PARENT, AGENT):
        shutil.copy2(DATA / f"{name}.jsonl", project / f"{name}.jsonl")
    source = open_source(SourceSpec(id="claude", kind="claude-code", path=tmp_path / "claude"))
    sessions = {s.id: s for s in source.read_sessions(source.scan().stamps)}
    agent = sessions[AGENT]
    prompt = next(p for m in agent.messages if m.role == "user" for p in m.parts if p.kind == "text")
    # Positive control: the prompt is real text nobody marked as injected, and the parent has turns.
    assert prompt.text.startswith("Explore this repository") and not prompt.synthetic
    assert agent.parent_id == PARENT and count_turns(sessions[PARENT]) == 5
    assert count_turns(agent) == 0


def test_opencode_child_sessions_list_no_turns(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    history.index()
    rows = history.sessions(history.Filters(scope="all"), limit=50)
    children = [r for r in rows if r.parent_id]
    # The real sample's two subagent sessions, each told "SUBAGENT: …" by its parent's task tool.
    assert sorted(r.title for r in children) == [
        "Check files (@general subagent)",
        "Inspect project (@general subagent)",
    ]
    assert all(r.messages >= 3 for r in children)  # positive control: they hold the prompt and the answer
    assert [r.turns for r in children] == [0, 0]
    parents = {r.session_id: r.turns for r in rows if not r.parent_id}
    assert parents[children[0].parent_id] > 0


@pytest.mark.parametrize("kind", ["codex", "gemini"])
def test_codex_and_gemini_sub_agents_have_no_turns(kind: str) -> None:
    source = open_source(SourceSpec(id=kind, kind=kind, path=DATA.parent / kind))
    sessions = list(source.read_sessions(source.scan().stamps))
    (agent,) = [s for s in sessions if s.parent_id]
    prompts = [p for m in agent.messages if m.role == "user" for p in m.parts if p.kind == "text" and not p.synthetic]
    # Positive control: the sub-agent was told something no harness marked, and its parent has turns.
    assert prompts and prompts[0].text.strip()
    assert count_turns(next(s for s in sessions if s.id == agent.parent_id)) > 0
    assert count_turns(agent) == 0
