"""The plugin's automatic extraction in a plain `opencode run` (no --port), in the real OpenCode 1.18.33.

OpenCode hands plugins serverUrl http://localhost:4096 and listens on no port, so the extraction (a
Python process) reaches OpenCode's model through the plugin's loopback bridge, which forwards to the
in-process server of the SDK client OpenCode gives plugins. Observed here:

1. positive: `opencode run`, no --port, nothing listening on 4096; its idle extraction reaches the fake
   model (its extraction prompt is in the fake LLM's log, the session is marked extracted, no failure),
   and `opencode run` still exits 0 once the extraction ended; before it, a one-turn session under the
   default min_turns makes OpenCode wait for nothing at exit;
2. negative: in a world serving over HTTP (so its bridge outlives the turn), the bridge the plugin
   logged answers 401 to a request without the secret or with a wrong one, and to one with the right
   Host header but no secret.
"""

from __future__ import annotations

import base64
import json
import re
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from .opencode import OpenCodeWorld
from .test_integration_e2e import cli_env, run, system_text, wait_for

pytestmark = pytest.mark.e2e

EXTRACT_SYSTEM = "You extract durable memories"  # extract/candidates.py SYSTEM_PROMPT
WORD = "quillfern"


def install_with_extraction(world: OpenCodeWorld) -> Path:
    """`recollect install opencode` with automatic extraction on for a one-turn session; the data dir."""
    config = world.home / ".config" / "recollect" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("[opencode]\ntimeout_ms = 5000\n\n[memory]\nauto_extract = true\n\n[extract]\nmin_turns = 1\n")
    env = cli_env(world)
    env.update(npm_config_registry="http://127.0.0.1:9/", npm_config_fetch_retries="0")
    run(world, "install", "opencode", "--opencode-version", "1.18.33", cwd=world.home, env=env)
    world.set_rules(
        [
            # The worker session's prompt (extract/candidates.user_prompt): "the common, correct answer".
            {"kind": "any", "match": ["Reply with the JSON object now"], "text": '{"memories": []}'},
        ]
    )
    return world.home / ".local" / "share" / "recollect"


def extraction_requests(world: OpenCodeWorld) -> list[dict]:
    return [e for e in world.llm_requests() if EXTRACT_SYSTEM in system_text(e["request"])]


def nothing_listens(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) != 0


def test_a_plain_opencode_run_extracts_through_the_plugins_bridge(opencode_world: OpenCodeWorld) -> None:
    world = opencode_world
    data = install_with_extraction(world)
    world.update_config({})  # writes opencode.json; no `opencode serve` is started in this test
    assert nothing_listens(4096)  # the serverUrl OpenCode hands the plugin answers nothing
    project = world.project("alpha", {"README.md": "alpha\n"})
    config = world.home / ".config" / "recollect" / "config.toml"
    plugin_log = data / "log" / "opencode-plugin.log"

    # A one-turn session under the default min_turns (4) is not extracted: OpenCode does not wait.
    config.write_text(config.read_text().replace("min_turns = 1", "min_turns = 4"))
    world.run_cli(["run", "a short question"], cwd=project, timeout=240)
    # Control: the helper had the session's idle, and ran its work once OpenCode was gone (as before).
    wait_for(lambda: "not started, 1 turns indexed" in plugin_log.read_text(), 120, "the short session's idle work")
    short = plugin_log.read_text()
    assert short.index("stdin closed: ending") < short.index("started index")
    assert "drain: OpenCode waited" not in short and not extraction_requests(world)

    config.write_text(config.read_text().replace("min_turns = 4", "min_turns = 1"))
    started = time.monotonic()
    ran = world.run_cli(["run", f"remember the {WORD} convention"], cwd=project, timeout=240)
    took = time.monotonic() - started
    assert "canned answer" in ran.stdout or WORD in ran.stdout  # control: the turn itself was answered

    (request,) = extraction_requests(world)  # the extraction reached the fake model, once
    log_text = plugin_log.read_text()
    assert re.search(r"extraction bridge on http://127\.0\.0\.1:\d+", log_text), log_text
    assert WORD in json.dumps(request["request"])  # with this session's transcript
    state = json.loads((data / "extract" / "state.json").read_text())
    (entry,) = [v for k, v in state["sessions"].items() if k.startswith("opencode::")]  # the second session
    assert entry["outcome"] == "extracted", entry
    log = data / "log" / "extract.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    assert not [r for r in records if r.get("event") == "failed"], records
    # The extraction ran while `opencode run` waited for it at exit (its dispose), not after it.
    waited = re.search(r"drain: OpenCode waited ([\d.]+) s for extraction, 0 still running", log_text)
    assert waited and float(waited.group(1)) < took, log_text


def _status(url: str, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, headers=headers)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def test_the_bridge_refuses_a_request_without_its_secret(opencode_world: OpenCodeWorld) -> None:
    world = opencode_world
    data = install_with_extraction(world)
    world.start()  # `opencode serve`: it lives on after the turn, and so does its plugin's bridge
    project = world.project("beta", {"README.md": "beta\n"})
    session = world.create_session(project)
    world.prompt(session, f"note the {WORD} rule")
    world.wait_idle(session)
    plugin_log = data / "log" / "opencode-plugin.log"
    found = wait_for(
        lambda: plugin_log.exists() and re.search(r"bridge on (http://127\.0\.0\.1:(\d+))", plugin_log.read_text()),
        30,
        "the bridge's address in the plugin log",
    )
    base, port = found.group(1), found.group(2)
    # Positive control: the extraction, which holds the secret, got through this bridge to the model.
    wait_for(lambda: extraction_requests(world), 90, "the extraction's request at the fake model")
    url = f"{base}/config/providers"
    assert _status(url, {}) == 401
    wrong = base64.b64encode(b"recollect:" + b"0" * 64).decode()
    assert _status(url, {"Authorization": f"Basic {wrong}"}) == 401
    assert _status(url, {"Host": f"evil.example:{port}"}) == 401  # a page whose name was rebound to loopback
