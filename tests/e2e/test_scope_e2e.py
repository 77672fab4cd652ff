"""The scope ceiling inside the real OpenCode: `recollect install opencode --scope project`, then a
model that asks for every project.

1. a session in project beta holds a unique word; it is indexed;
2. `recollect install opencode --scope project` writes the ceiling into the MCP command;
3. in project alpha the fake model first searches inside the ceiling (positive control: the call
   works and finds nothing of beta), then with scope "all", then reads beta's session by id: both
   are refused, and the refusal names the setting; nothing of beta reaches the model;
4. `recollect read` of that alpha session shows our earlier tool calls as omitted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from .opencode import OpenCodeWorld
from .test_integration_e2e import QUIET_ENV, cli_env, run, tool_parts

pytestmark = pytest.mark.e2e

BETA_WORD = "quasarlinden"  # only in beta's session
NEW_WORD = "ceilingprobe"  # only in alpha's prompt


def outcome(part: dict[str, Any]) -> tuple[str, str]:
    state = part["state"]
    return state["status"], str(state.get("output") or state.get("error") or "")


def test_install_scope_project_is_a_ceiling_the_model_cannot_widen(
    opencode_world_factory: Callable[..., OpenCodeWorld],
) -> None:
    world = opencode_world_factory(extra_env=QUIET_ENV)
    alpha, beta = world.project("alpha"), world.project("beta")
    world.set_rules([{"match": [BETA_WORD], "text": "Noted."}])
    prior = world.create_session(beta)
    world.prompt(prior, f"Remember: beta deploys with the {BETA_WORD} token.")
    world.wait_settled()
    run(world, "index", cwd=beta)
    # Positive control: unbounded, this very search from alpha finds beta's session.
    wide = json.loads(run(world, "search", BETA_WORD, "--json", cwd=alpha))
    assert prior in {h["session_id"] for h in wide["hits"]}

    # The world writes its own opencode.json on every start; install edits the person's .jsonc beside it.
    (world.config_dir / "opencode.jsonc").write_text("{}\n")
    env = cli_env(world)
    env.update(npm_config_registry="http://127.0.0.1:9/", npm_config_fetch_retries="0")
    run(world, "install", "opencode", "--scope", "project", "--no-npm", cwd=world.home, env=env)
    config = (world.config_dir / "opencode.jsonc").read_text()
    assert '"--scope"' in config and '"project"' in config, config

    world.restart()
    world.set_rules(
        [
            {
                "match": [NEW_WORD],
                "tools": [
                    {"name": "recollect_history_search", "args": {"query": BETA_WORD}},
                    {"name": "recollect_history_search", "args": {"query": BETA_WORD, "scope": "all"}},
                    {"name": "recollect_history_read", "args": {"cursor": prior}},
                ],
                "text": "Done.",
            }
        ]
    )
    current = world.create_session(alpha)
    world.prompt(current, f"Find the beta deploy token ({NEW_WORD}).")
    world.wait_settled()

    searches = tool_parts(world, current, "recollect_history_search")
    assert len(searches) == 2, searches
    status, text = outcome(searches[0])
    assert status == "completed" and text.startswith("No hits"), text  # inside the ceiling: works
    for part in (searches[1], *tool_parts(world, current, "recollect_history_read")):
        status, text = outcome(part)
        assert "scope ceiling 'project'" in text and "'recollect mcp --scope project'" in text, (status, text)
        assert BETA_WORD not in text and prior not in text.split("ceiling", 1)[1], text

    # A later read of this alpha session does not replay what our tools answered in it.
    read = run(world, "read", current, "--mode", "head", "--after", "20", cwd=alpha)
    assert "recollect's own earlier tool call omitted" in read, read
    assert "scope ceiling" not in read and "No hits" not in read, read
