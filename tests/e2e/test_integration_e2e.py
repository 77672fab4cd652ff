"""recollect inside the real OpenCode: `recollect install opencode`, then MCP tools, plugin hooks and
`recollect uninstall opencode`, all observed through OpenCode's own store and the fake LLM's log.

One world, in order:

1. a person's `opencode.jsonc` with comments, trailing commas and another MCP server exists;
2. a prior session (through OpenCode) holds a unique word; `recollect index` indexes it; a memory is
   added with `recollect memory add` in the project (a git repo);
3. `recollect install opencode` (twice: the second run changes nothing);
4. after a restart, one prompt with a history cue: the fake model calls
   `recollect_history_search` and `recollect_memory_recall`; their outputs, stored in OpenCode's
   `part.data`, hold the prior session and the memory. The requests the model received hold the
   plugin's memory block (in the system prompt) and its auto-recall block (on the message it answers, in the
   request only), neither ever in the transcript;
5. the plugin's idle sync indexes the new session by itself; what the plugin injected is not
   indexed back; a compaction carries our context block; the recall subagent is listed;
   `opencode run` (its own process, plugin and helper included) still exits when done;
6. `recollect uninstall opencode` gives back the person's `opencode.jsonc` byte for byte.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .fake_llm import content_text
from .opencode import MODEL_ID, PROVIDER_ID, OpenCodeWorld

pytestmark = pytest.mark.e2e

PRIOR_WORD = "zephyrquokka"  # only in the prior session (and what we fetch from it)
MEMORY_WORD = "plumbicorn"  # only in the memory
NEW_WORD = "vortexmint"  # only in the new session's prompt

# Semantic search is not what this test is about, and building its model in a throwaway home takes
# minutes: off for the CLI here and for everything OpenCode starts (MCP server, helper, idle sync).
QUIET_ENV = {"RECOLLECT_EMBEDDINGS": "off"}

USER_JSONC = """// My OpenCode config: hand-written, with comments that must survive.
{
  "$schema": "https://opencode.ai/config.json",
  /* servers I run myself */
  "mcp": {
    "other": {
      "type": "local",
      "command": ["true"],
      "enabled": false, // switched off for now
    },
  },
  "autoupdate": false, // trailing commas are fine in JSONC
}
"""


def recollect_cmd() -> list[str]:
    """The CLI under test: $RECOLLECT_E2E_CLI (e.g. an installed build), else this venv's."""
    override = os.environ.get("RECOLLECT_E2E_CLI")
    if override:
        return shlex.split(override)
    return [sys.executable, "-m", "recollect.cli"]


def cli_env(world: OpenCodeWorld) -> dict[str, str]:
    return {**world.env, **QUIET_ENV}


def run(world: OpenCodeWorld, *args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    r = subprocess.run(
        [*recollect_cmd(), *args],
        env=env or cli_env(world),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert r.returncode == 0, f"recollect {' '.join(args)} exited {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r.stdout


def install_for_scripted_turns(world: OpenCodeWorld) -> None:
    """`recollect install opencode` into the world with npm offline, then OpenCode restarted to load it.
    The plugin's timeout is generous for a shared CI machine (bench/bench_plugin.py times it), and no
    idle sync or extraction runs behind the turns a test scripts."""
    config = world.home / ".config" / "recollect" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[opencode]\ntimeout_ms = 5000\nsync_on_idle = false\n\n[memory]\nauto_extract = false\n")
    env = cli_env(world)
    env.update(npm_config_registry="http://127.0.0.1:9/", npm_config_fetch_retries="0")
    run(world, "install", "opencode", "--opencode-version", "1.18.33", cwd=world.home, env=env)
    world.restart()


def search_sessions(world: OpenCodeWorld, cwd: Path, word: str, *extra: str) -> set[str]:
    out = json.loads(run(world, "search", word, "--json", "--limit", "20", *extra, cwd=cwd))
    return {h["session_id"] for h in out["hits"]}


def tool_parts(world: OpenCodeWorld, session_id: str, tool: str) -> list[dict[str, Any]]:
    rows = world.query(
        "select data from part where session_id = ? and json_extract(data, '$.tool') = ? order by id",
        (session_id, tool),
    )
    return [json.loads(r[0]) for r in rows]


def requests_of(world: OpenCodeWorld, kind: str, word: str) -> list[dict[str, Any]]:
    """Requests of `kind` whose user messages mention `word`."""
    found = []
    for entry in world.llm_requests(kind):
        messages = entry["request"].get("messages") or []
        users = " ".join(content_text(m.get("content")) for m in messages if m.get("role") == "user")
        if word in users:
            found.append(entry["request"])
    return found


def system_text(request: dict[str, Any]) -> str:
    return "\n".join(content_text(m.get("content")) for m in request["messages"] if m.get("role") == "system")


def last_user_text(request: dict[str, Any]) -> str:
    users = [content_text(m.get("content")) for m in request["messages"] if m.get("role") == "user"]
    return users[-1] if users else ""


def wait_for(check: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.5)


def test_install_tools_plugin_and_uninstall(opencode_world_factory: Callable[..., OpenCodeWorld]) -> None:
    started = time.monotonic()
    world = opencode_world_factory(extra_env=QUIET_ENV)
    project = world.project("alpha")
    user_config = world.config_dir / "opencode.jsonc"
    user_config.write_text(USER_JSONC)
    original = user_config.read_bytes()
    # Generous: this test is about what arrives, not how fast (bench/bench_plugin.py measures that),
    # and CI machines can be slow to start the helper.
    recollect_config = world.home / ".config" / "recollect" / "config.toml"
    recollect_config.parent.mkdir(parents=True, exist_ok=True)
    recollect_config.write_text("[opencode]\ntimeout_ms = 5000\n")

    # --- 1. a prior session, indexed, and a memory ------------------------------------------------
    world.set_rules([{"match": [PRIOR_WORD], "text": "Noted: flush it first."}])
    prior = world.create_session(project)
    world.prompt(prior, f"Remember: the {PRIOR_WORD} cache must be flushed before each deploy.")
    world.wait_settled()
    run(world, "index", cwd=project)
    assert search_sessions(world, project, PRIOR_WORD) == {prior}
    added = json.loads(
        run(
            world,
            "memory",
            "add",
            f"The {PRIOR_WORD} cache is flushed by the {MEMORY_WORD} job, never by hand.",
            "--category",
            "decisions",
            "--json",
            cwd=project,
        )
    )
    memory_id = added["id"]
    assert memory_id, added
    assert (project / ".memory").is_dir()

    # --- 2. install (offline npm: the pre-install fails fast and says what to do instead) -----------
    env = cli_env(world)
    env.update(npm_config_registry="http://127.0.0.1:9/", npm_config_fetch_retries="0")
    out = run(world, "install", "opencode", "--opencode-version", "1.18.33", cwd=world.home, env=env)
    assert "opencode.jsonc" in out and "mcp.recollect" in out, out
    assert "agent/recall.md" in out and "plugin/recollect.js" in out, out
    assert "npm_config_fetch_retries=0" in out, out  # the offline fallback is explained
    again = run(world, "install", "opencode", "--no-npm", cwd=world.home, env=env)
    assert "nothing to change" in again, again
    installed = user_config.read_text()
    assert "// switched off for now" in installed and "/* servers I run myself */" in installed
    assert (world.config_dir / "plugin" / "recollect.js").is_file()

    # --- 3. one prompt: MCP tools called by the model, plugin blocks in its requests -----------------
    world.restart()
    world.set_rules(
        [
            {
                "match": [NEW_WORD],
                "tools": [
                    {"name": "recollect_history_search", "args": {"query": PRIOR_WORD}},
                    {"name": "recollect_memory_recall", "args": {"query": MEMORY_WORD}},
                ],
                "text": "Done.",
            }
        ]
    )
    current = world.create_session(project)
    world.prompt(current, f"What did we decide last time about the {PRIOR_WORD} cache? ({NEW_WORD})")

    search_parts = tool_parts(world, current, "recollect_history_search")
    assert len(search_parts) == 1, search_parts
    state = search_parts[0]["state"]
    assert state["status"] == "completed", state
    assert prior in state["output"], state["output"]
    recall_parts = tool_parts(world, current, "recollect_memory_recall")
    assert len(recall_parts) == 1, recall_parts
    state = recall_parts[0]["state"]
    assert state["status"] == "completed", state
    assert memory_id in state["output"] and MEMORY_WORD in state["output"], state["output"]

    chats = requests_of(world, "chat", NEW_WORD)
    assert len(chats) == 3, [last_user_text(c)[:200] for c in chats]  # two tool turns and the answer
    for request in chats:
        system = system_text(request)
        assert "<recollect-memory>" in system, system[-2000:]
        assert memory_id in system and MEMORY_WORD in system, system[-2000:]
        # Auto-recall on "what did we decide": the prior session, never the current one, appended to
        # the message it answers in the request (so the system prompt stays the same bytes from turn
        # to turn), never in the system prompt, never stored (below).
        user = last_user_text(request)
        assert "<recollect-recall>" in user and prior in user.split("<recollect-recall>", 1)[1], user
        assert current not in user.split("<recollect-recall>", 1)[1], user
        assert "<recollect-recall>" not in system
    stored = world.query(
        "select data from part where session_id = ? and json_extract(data, '$.type') = 'text'", (current,)
    )
    assert stored and not any("<recollect-recall>" in r[0] for r in stored)  # nothing piles up in the transcript

    # --- 4. idle sync by the plugin; nothing we injected is indexed back ----------------------------
    world.wait_settled()
    plugin_log = world.home / ".local" / "share" / "recollect" / "log" / "opencode-plugin.log"
    # The helper starts its idle sync 2 s after the idle (at once when OpenCode exits).
    wait_for(lambda: "started index" in plugin_log.read_text(), 60, "the plugin's helper to start its idle sync")
    wait_for(
        lambda: current in search_sessions(world, project, NEW_WORD, "--no-sync"),
        60,
        "the plugin's idle sync to index the new session",
    )
    log = plugin_log.read_text()
    assert "started index" in log, log[-3000:]
    problems = [line for line in log.splitlines() if "timed out" in line or "error" in line.lower() or "failed" in line]
    assert not problems, log[-3000:]
    # "flushed" reached the new session only inside our blocks and our tools' outputs.
    assert search_sessions(world, project, "flushed") == {prior}

    # Compaction: this session's card and the memory go into the compaction prompt.
    world.api(
        "POST",
        f"/session/{current}/summarize",
        {"providerID": PROVIDER_ID, "modelID": MODEL_ID},
        directory=project,
    )
    compactions = [e["request"] for e in world.llm_requests("compaction")]
    assert compactions, "no compaction request reached the model"
    context = "\n".join(content_text(m.get("content")) for m in compactions[-1]["messages"])
    assert "<recollect-context>" in context, context[-3000:]
    assert NEW_WORD in context and memory_id in context, context[-3000:]

    agents = {a["name"]: a for a in world.api("GET", "/agent", directory=project)}
    assert agents["recall"]["mode"] == "subagent", agents.get("recall")

    # `opencode run` loads the plugin and its helper too, and must still exit when done.
    world.stop()
    started_run = time.monotonic()
    ran = world.run_cli(["run", f"{NEW_WORD} one more time, like before"], cwd=project, timeout=180)
    assert "Done." in ran.stdout, ran.stdout[-2000:]
    run_seconds = time.monotonic() - started_run
    assert run_seconds < 120, run_seconds

    # --- 5. uninstall restores the person's file byte for byte ---------------------------------------
    out = run(world, "uninstall", "opencode", cwd=world.home)
    assert "restore" in out, out
    assert user_config.read_bytes() == original
    assert not (world.config_dir / "plugin" / "recollect.js").exists()
    assert not (world.config_dir / "agent" / "recall.md").exists()
    print(f"\ne2e integration test body took {time.monotonic() - started:.1f} s (opencode run: {run_seconds:.1f} s)")
