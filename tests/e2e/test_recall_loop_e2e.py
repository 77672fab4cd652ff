"""Auto-recall and the recall subagent inside the real OpenCode, observed through the fake LLM's log
and OpenCode's own store:

1. two earlier sessions asked the same question, one of them got the answer;
2. a recall-subagent run (the model delegates with OpenCode's `task` tool to `recall`, which calls
   `recollect_history_search`) repeats that answer, and the parent model relays it word for word
   before a word of its own;
3. a later ordinary search finds the answering session (positive control) but neither the subagent's
   session nor its parent's copy of the answer; `--include-recall` finds the subagent's session, the
   parent's own words find the parent, and a read of the parent shows markers, not the answer;
4. a session that ran OpenCode's `/init` is titled `/init` and found by what it did, never by the words
   of the command's template (stored as the user's text);
5. in a new session, cue messages: the message being answered holds exactly one auto-recall block,
   naming the session that answered; no block ever enters the transcript, so after four cue turns
   each request still carries one block, and the prompt grew only by the turns themselves.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from .opencode import OpenCodeWorld
from .test_integration_e2e import (
    QUIET_ENV,
    install_for_scripted_turns,
    last_user_text,
    run,
    search_sessions,
    system_text,
)

pytestmark = pytest.mark.e2e

ANSWER_WORD = "quokkaqueue"  # the library the answering session chose
QUESTION = "Which job queue library should the billing worker use?"
RECALL_PROMPT = "recall-child: which queue library does the billing worker use"
PARENT_WORD = "retrycapfive"  # the parent's own word
INIT_WORD = "zebrawidget"  # what the /init session found, in its reply
CUES = [
    "What did we decide last time about the job queue library for the billing worker?",
    "Same as before: which queue library does the billing worker use?",
    "上次 billing worker 的 job queue library 是哪个?",
    "Remind me, like last time, the billing worker job queue library?",
]


def requests_with(world: OpenCodeWorld, text: str) -> list[dict[str, object]]:
    """Chat requests whose last user message contains `text`."""
    from .fake_llm import content_text

    found = []
    for entry in world.llm_requests("chat"):
        messages = entry["request"].get("messages") or []
        users = [content_text(m.get("content")) for m in messages if m.get("role") == "user"]
        if users and text in users[-1]:
            found.append(entry["request"])
    return found


def test_auto_recall_and_the_recall_subagent_in_opencode(opencode_world_factory: Callable[..., OpenCodeWorld]) -> None:
    world = opencode_world_factory(extra_env=QUIET_ENV)
    project = world.project("billing")
    install_for_scripted_turns(world)

    # --- 1. one session answered the question, another only asked it ----------------------------------
    world.set_rules(
        [
            {
                "match": ["billing worker"],
                "text": f"Decision: the billing worker uses {ANSWER_WORD} rather than celery, since we run no broker.",
            }
        ]
    )
    answered = world.create_session(project)
    world.prompt(answered, QUESTION)
    world.set_rules([{"match": ["billing worker"], "text": "I am not sure yet; let me look at the options."}])
    asked = world.create_session(project)
    world.prompt(asked, QUESTION)

    # /init, OpenCode's own command: the session holds its whole template as the user's text, unmarked.
    world.set_rules([{"match": ["AGENTS.md"], "text": f"Wrote AGENTS.md; {INIT_WORD} is the entry point."}])
    init = world.create_session(project)
    world.api("POST", f"/session/{init}/command", {"command": "init", "arguments": ""}, directory=str(project))
    world.wait_idle(init)

    # --- 2. a recall-subagent run that repeats the answer -----------------------------------------------
    world.set_rules(
        [
            {
                "match": ["recall-child"],
                "tools": [{"name": "recollect_history_search", "args": {"query": "billing worker queue library"}}],
                "text": f"You use {ANSWER_WORD} for the billing worker (from an earlier session).",
            },
            {
                "match": ["ask recall"],
                "tools": [
                    {
                        "name": "task",
                        "args": {"description": "queue library", "prompt": RECALL_PROMPT, "subagent_type": "recall"},
                    }
                ],
                # As a model often does: the subagent's answer quoted whole, then words of its own (too few
                # to answer anything: relayed, the answer would make the parent a session that answered).
                "text": f"Recall says:\n{{last_tool_output}}\nNoted {PARENT_WORD}.",
            },
        ]
    )
    parent = world.create_session(project)
    world.prompt(parent, "ask recall about the billing worker queue")
    world.wait_settled()
    children = [r[0] for r in world.query("select id from session where parent_id = ?", (parent,))]
    assert len(children) == 1, children
    child = children[0]
    agents = {
        json.loads(r[0]).get("agent") for r in world.query("select data from message where session_id = ?", (child,))
    }
    assert "recall" in agents, agents
    run(world, "index", cwd=project)

    # --- 3. a later ordinary search: the answer, never the echo ---------------------------------------
    assert search_sessions(world, project, ANSWER_WORD, "--include-recall") >= {answered, child}  # control
    relayed = world.query("select data from part where session_id = ? and data like ?", (parent, f"%{PARENT_WORD}%"))
    assert relayed and ANSWER_WORD in relayed[0][0]  # the store holds the relayed answer in the parent's text
    assert parent in search_sessions(world, project, PARENT_WORD)  # and the parent's own words find it
    found = search_sessions(world, project, ANSWER_WORD)
    assert answered in found
    assert child not in found and parent not in found, found
    # The /init session is found by what it did, never by its template's words (OpenCode's, not the user's).
    stored = world.query("select data from part where session_id = ? and data like '%lockfiles%'", (init,))
    assert stored  # positive control: the template is in the store, as the user message's text
    hits = json.loads(run(world, "search", INIT_WORD, "--json", cwd=project))["hits"]
    assert [h["title"] for h in hits if h["session_id"] == init][:1] == ["/init"], hits
    assert init not in search_sessions(world, project, "lockfiles manifests")
    shown = run(world, "read", parent, cwd=project)
    assert PARENT_WORD in shown and "recall agent's answer" in shown and ANSWER_WORD not in shown, shown

    # --- 4. cue turns in a new session --------------------------------------------------------------
    world.set_rules([{"match": [], "text": "Noted."}])
    current = world.create_session(project)
    for cue in CUES:
        world.prompt(current, cue)
    sizes = []
    for cue in CUES:
        requests = requests_with(world, cue)
        assert requests, cue
        request = requests[-1]
        system = system_text(request)
        user = last_user_text(request)  # the block rides on the message it answers, in the request only
        assert user.count("<recollect-recall>") == 1 and "<recollect-recall>" not in system, user[-3000:]
        block = user.split("<recollect-recall>", 1)[1].split("</recollect-recall>", 1)[0]
        assert answered in block and ANSWER_WORD in block, block
        for absent in (asked, child, parent, current):
            assert absent not in block, (absent, block)
        assert "verify before relying" in block
        everything = json.dumps(request["messages"], ensure_ascii=False)
        assert everything.count("<recollect-recall>") == 1  # the transcript carries none
        sizes.append(len(user) - len(cue))
    # The request holds one block whatever the number of cue turns before it.
    assert max(sizes) - min(sizes) <= 1_200, sizes
    stored = world.query("select data from part where session_id = ?", (current,))
    assert stored and not any("<recollect-recall>" in r[0] for r in stored)
    log_path = world.home / ".local" / "share" / "recollect" / "log" / "opencode-plugin.log"
    log = log_path.read_text() if log_path.exists() else ""  # nothing logged: nothing went wrong
    assert "timed out" not in log and "failed" not in log, log[-3000:]
