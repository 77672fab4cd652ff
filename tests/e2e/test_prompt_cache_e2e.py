"""The start of the prompt stays the same bytes from turn to turn, in the real OpenCode with the fake LLM.

A model provider's prompt cache reuses a prompt only up to its first changed byte. Over four turns
of one session (a plain message, a history cue that fires auto-recall, a message whose turn makes a
tool call, another plain one), every request the model receives has the same system prompt, and
everything before its newest user message is exactly what the previous request sent. What is only
for one message (the memory bodies, the recall block) rides on that message in the request, never
in the system prompt and never in what OpenCode stores.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest

from .fake_llm import content_text
from .opencode import OpenCodeWorld
from .test_integration_e2e import QUIET_ENV, install_for_scripted_turns, run

pytestmark = pytest.mark.e2e

ANSWER_WORD = "ruffalint"  # the tool the answering session chose
TURNS = [
    "list the files in src",
    "What did we decide last time about the lint tool for the repo?",
    "TOOLTURN now search the history for the release checklist",
    "thanks, that is all",
]


def newest_user(messages: list[dict[str, Any]]) -> int:
    return max(i for i, m in enumerate(messages) if m.get("role") == "user")


def test_system_prompt_and_prefix_stay_the_same_across_turns(
    opencode_world_factory: Callable[..., OpenCodeWorld],
) -> None:
    world = opencode_world_factory(extra_env=QUIET_ENV)
    project = world.project("steady")
    install_for_scripted_turns(world)

    # An earlier session that answered, and a memory whose body bears on the lint question.
    world.set_rules([{"match": ["lint tool"], "text": f"Decision: the repo lints with {ANSWER_WORD}, not flake8."}])
    answered = world.create_session(project)
    world.prompt(answered, "Which lint tool should the repo use?")
    world.wait_settled()
    run(world, "index", cwd=project)
    run(world, "memory", "add", "Lint runs before every commit; the lint tool config is in pyproject.", cwd=project)

    world.set_rules(
        [
            {
                "match": ["TOOLTURN"],
                "tools": [{"name": "recollect_history_search", "args": {"query": "release checklist"}}],
                "text": "Nothing about that yet.",
            },
            {"match": [], "text": "Noted."},
        ]
    )
    current = world.create_session(project)
    mark = world.llm.seq
    for text in TURNS:
        world.prompt(current, text)
    chats = [e["request"] for e in world.llm.since(mark, "chat")]
    assert len(chats) == len(TURNS) + 1, len(chats)  # the tool turn takes two requests

    # Positive controls: the standing memory block is in the system prompt, and the cue turn's
    # request carries one recall block naming the session that answered.
    systems = [[m for m in r["messages"] if m.get("role") == "system"] for r in chats]
    assert "<recollect-memory>" in json.dumps(systems[0], ensure_ascii=False)
    cue_request = json.dumps(chats[1]["messages"], ensure_ascii=False)
    assert cue_request.count("<recollect-recall>") == 1 and answered in cue_request, cue_request[-2000:]

    # The system prompt is the same on every request, cue turn included...
    for i, system in enumerate(systems):
        assert system == systems[0], (i, json.dumps(system, ensure_ascii=False)[-2000:])
    # ...because the recall block rides on the message it answers...
    cue = chats[1]["messages"]
    cue_text = content_text(cue[newest_user(cue)].get("content"))
    assert cue_text.count("<recollect-recall>") == 1 and answered in cue_text, cue_text[-2000:]
    # ...and each request opens with everything the previous one sent before its newest message.
    for i, (before, after) in enumerate(itertools.pairwise(chats)):
        n = newest_user(before["messages"])
        assert after["messages"][:n] == before["messages"][:n], i
    # Our per-message blocks ride on the newest message only, and never enter OpenCode's store.
    for r in chats:
        n = newest_user(r["messages"])
        assert not any(
            "<recollect-" in content_text(m.get("content")) for m in r["messages"][1:n] if m["role"] == "user"
        )
    stored = world.query("select data from part where session_id = ?", (current,))
    assert stored and not any("<recollect-" in row[0] for row in stored)
