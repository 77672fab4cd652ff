"""The JavaScript plugin under node, with hook inputs shaped like OpenCode 1.18.33's (INTEGRATION.md §3.3)
and a scripted stand-in for the Python helper, so every branch is reachable: answers, cache, timeout,
crash, off switch, and never keeping the host process alive.

In CI node is present (the e2e tests need it), so these run there; locally without node they skip.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from recollect.integrations import opencode as oc

pytestmark = pytest.mark.skipif(shutil.which("node") is None and not os.environ.get("CI"), reason="needs node")

FAKE_HELPER = r"""
import json, os, sys, time
mode = os.environ.get("FAKE_HELPER_MODE", "ok")
if "--log-stderr" in sys.argv:
    sys.exit(2)  # a redactor that cannot run (the stand-in has none)
log = open(os.environ["FAKE_HELPER_LOG"], "a")
if mode == "crash":
    sys.exit(3)
if mode == "stderr":
    sys.stderr.write("boom: " + os.environ["FAKE_SECRET"] + "\n"); sys.stderr.flush()
print(json.dumps({"hello": {"protocol": 1, "timeout_ms": int(os.environ.get("FAKE_TIMEOUT_MS", "1000")),
                            "log": os.environ["FAKE_PLUGIN_LOG"]}}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    log.write(line); log.flush()
    op = req["op"]
    if mode == "slow" and op == "message":
        time.sleep(3)
    if op == "message":
        out = {"inject": "<recollect-memory>\nSTANDING\n</recollect-memory>\n",
               "turn": "<recollect-memory for=\"this message\">\nBODIES for " + req["text"] + "\n</recollect-memory>\n",
               "recall": "<recollect-recall>\nRECALL\n</recollect-recall>" if "last time" in req["text"] else "",
               "cue": None}
    elif op == "system":
        out = {"inject": "<recollect-memory>\nSYSTEM ONLY\n</recollect-memory>\n"}
    elif op == "compact":
        out = {"context": ["<recollect-context>\nCARD " + req["text"] + "\n</recollect-context>"]}
    else:
        out = {"started": []}
    print(json.dumps({"id": req["id"], "ok": True, **out}), flush=True)
"""

# Drives the plugin like OpenCode does: init once, then hooks in the order of one prompt.
DRIVER = r"""
import { pathToFileURL } from "node:url"
const [pluginPath, scriptPath] = process.argv.slice(2)
const script = JSON.parse(await (await import("node:fs")).promises.readFile(scriptPath, "utf8"))
const mod = await import(pathToFileURL(pluginPath).href)
const hooks = await mod.RecollectPlugin({ directory: "/proj", worktree: "/proj" })
const results = []
for (const step of script) {
  const t0 = performance.now()
  if (step.hook === "keys") { results.push(Object.keys(hooks)); continue }
  if (step.hook === "wait") { await new Promise((r) => setTimeout(r, step.ms)); continue }
  const out = structuredClone(step.out ?? {})
  await hooks[step.hook](step.input, out)
  results.push({ hook: step.hook, out, ms: performance.now() - t0 })
}
console.log(JSON.stringify(results))
"""


def chat(session: str, text: str, message: str = "msg_1") -> dict[str, Any]:
    return {
        "hook": "chat.message",
        "input": {"sessionID": session, "agent": "build", "messageID": message},
        "out": {
            "message": {"id": message, "role": "user", "sessionID": session},
            "parts": [{"type": "text", "text": text, "id": "prt_0", "messageID": message, "sessionID": session}],
        },
    }


def user(session: str, message: str, text: str) -> dict[str, Any]:
    return {
        "info": {"id": message, "role": "user", "sessionID": session},
        "parts": [{"type": "text", "text": text, "id": f"prt_{message}", "messageID": message, "sessionID": session}],
    }


def messages(session: str, *history: tuple[str, str]) -> dict[str, Any]:
    """experimental.chat.messages.transform over (message id, text) user messages, each followed by
    an assistant reply (the newest without one, as in the request that answers it)."""
    msgs: list[dict[str, Any]] = []
    for i, (message, text) in enumerate(history):
        msgs.append(user(session, message, text))
        if i < len(history) - 1:
            msgs.append({"info": {"id": f"ast_{message}", "role": "assistant", "sessionID": session}, "parts": []})
    return {"hook": "experimental.chat.messages.transform", "input": {}, "out": {"messages": msgs}}


def system(session: str) -> dict[str, Any]:
    return {
        "hook": "experimental.chat.system.transform",
        "input": {"sessionID": session, "model": {}},
        "out": {"system": ["base"]},
    }


def run_plugin(
    tmp_path: Path, steps: list[dict[str, Any]], *, mode: str = "ok", timeout_ms: int = 1000, **env: str
) -> tuple[list[Any], list[dict[str, Any]], str, float]:
    """(hook results, requests the helper got, plugin log, seconds until node exited)."""
    plugin = tmp_path / "recollect.mjs"
    plugin.write_text(oc.plugin_text(sys.executable))
    helper_dir = tmp_path / "fakepkg" / "recollect" / "integrations"
    helper_dir.mkdir(parents=True, exist_ok=True)
    for init in (helper_dir.parent / "__init__.py", helper_dir / "__init__.py"):
        init.write_text("")
    (helper_dir / "hookd.py").write_text(FAKE_HELPER)
    (tmp_path / "driver.mjs").write_text(DRIVER)
    (tmp_path / "script.json").write_text(json.dumps(steps))
    requests_log, plugin_log = tmp_path / "requests.jsonl", tmp_path / "plugin.log"
    full_env = {
        **os.environ,
        "PYTHONPATH": str(tmp_path / "fakepkg"),  # `-m recollect.integrations.hookd` finds the stand-in
        "FAKE_HELPER_MODE": mode,
        "FAKE_HELPER_LOG": str(requests_log),
        "FAKE_PLUGIN_LOG": str(plugin_log),
        "FAKE_TIMEOUT_MS": str(timeout_ms),
        **env,
    }
    started = time.monotonic()
    r = subprocess.run(
        ["node", str(tmp_path / "driver.mjs"), str(plugin), str(tmp_path / "script.json")],
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    elapsed = time.monotonic() - started
    assert r.returncode == 0, r.stderr
    requests = [json.loads(line) for line in requests_log.read_text().splitlines()] if requests_log.exists() else []
    # Before the helper's hello the plugin logs under the RECOLLECT_HOME pinned at install time.
    early_log = Path(os.environ["RECOLLECT_HOME"]) / "log" / "opencode-plugin.log"
    logs = "\n".join(p.read_text() for p in (plugin_log, early_log) if p.exists())
    return json.loads(r.stdout), requests, logs, elapsed


def test_one_turn(tmp_path: Path) -> None:
    steps = [
        {"hook": "event", "input": {"event": {"type": "session.created", "properties": {"sessionID": "ses_a"}}}},
        chat("ses_a", "how did we deploy last time?"),
        system("ses_a"),  # step 1
        system("ses_a"),  # step 2, then the title call: all from the cache
        system("ses_a"),
        system("ses_b"),  # a session this process saw no message for
        messages("ses_a", ("msg_1", "how did we deploy last time?")),
        {
            "hook": "experimental.session.compacting",
            "input": {"sessionID": "ses_a"},
            "out": {"context": []},
        },
        {"hook": "event", "input": {"event": {"type": "session.idle", "properties": {"sessionID": "ses_a"}}}},
    ]
    results, requests, log, _ = run_plugin(tmp_path, steps)
    ops = [(r["op"], r.get("session")) for r in requests]
    assert ops == [("message", "ses_a"), ("system", "ses_b"), ("compact", "ses_a"), ("idle", "ses_a")], ops
    assert requests[0]["text"] == "how did we deploy last time?" and requests[0]["directory"] == "/proj"
    assert requests[0]["message"] == "msg_1"  # the message being answered, never a recall candidate

    # The system prompt gets the standing block only; the recall block and the bodies for this
    # message ride on the message in the request, never in the transcript (chat.message's parts).
    assert len(results[1]["out"]["parts"]) == 1
    for i in (2, 3, 4):
        assert results[i]["out"]["system"] == ["base", "<recollect-memory>\nSTANDING\n</recollect-memory>\n"]
    assert results[5]["out"]["system"][1].startswith("<recollect-memory>\nSYSTEM ONLY")
    assert len(results[5]["out"]["system"]) == 2
    parts = results[6]["out"]["messages"][0]["parts"]
    assert [p["text"] for p in parts] == [
        "how did we deploy last time?",
        '<recollect-memory for="this message">\nBODIES for how did we deploy last time?\n</recollect-memory>\n'
        "\n<recollect-recall>\nRECALL\n</recollect-recall>",
    ]
    assert parts[1]["synthetic"] is True and parts[1]["messageID"] == "msg_1"
    assert results[7]["out"]["context"] == [
        "<recollect-context>\nCARD how did we deploy last time?\n</recollect-context>"
    ]
    assert "error" not in log.lower(), log


def test_one_live_recall_block_per_session(tmp_path: Path) -> None:
    turns: list[dict[str, Any]] = []
    history: list[tuple[str, str]] = []
    for i in range(20):
        text = f"what about step {i:02d}, like last time?"
        history.append((f"msg_{i:02d}", text))
        turns += [chat("ses_a", text, f"msg_{i:02d}"), system("ses_a"), messages("ses_a", *history)]
    history.append(("msg_20", "now list the files"))
    turns += [chat("ses_a", "now list the files", "msg_20"), system("ses_a"), messages("ses_a", *history)]
    results, _, _, _ = run_plugin(tmp_path, turns)
    requests = [r["out"]["messages"] for r in results if r["hook"] == "experimental.chat.messages.transform"]
    texts = ["".join(p["text"] for m in msgs for p in m["parts"]) for msgs in requests]
    # Positive control: every cue turn carries its block...
    assert all(text.count("<recollect-recall>") == 1 for text in texts[:20])
    # ...on its newest message only: one per request, and gone after a plain message.
    assert all("<recollect" in "".join(p["text"] for p in msgs[-1]["parts"]) for msgs in requests)
    assert all("<recollect" not in p["text"] for msgs in requests for m in msgs[:-1] for p in m["parts"])
    assert "<recollect-recall>" not in texts[20]
    # What is injected is the same size after 20 cue turns as after one.
    injected = [sum(len(p["text"]) for p in msgs[-1]["parts"][1:]) for msgs in requests]
    assert injected[19] == injected[0]
    assert all(len(r["out"]["parts"]) == 1 for r in results if r["hook"] == "chat.message")


def test_the_system_prompt_is_the_same_on_every_turn(tmp_path: Path) -> None:
    # Positive control first: the standing block is there. Then, over plain and cue turns alike,
    # the system prompt never changes (the old plugin put the recall block in it on cue turns).
    turns: list[dict[str, Any]] = []
    for i, text in enumerate(["list the files", "how did we deploy last time?", "now run the tests"]):
        turns += [chat("ses_a", text, f"msg_{i}"), system("ses_a"), system("ses_a")]
    results, _, _, _ = run_plugin(tmp_path, turns)
    systems = [r["out"]["system"] for r in results if r["hook"] == "experimental.chat.system.transform"]
    assert systems[0] == ["base", "<recollect-memory>\nSTANDING\n</recollect-memory>\n"]
    assert all(s == systems[0] for s in systems), systems


def test_blocks_ride_only_on_the_message_they_were_made_for(tmp_path: Path) -> None:
    steps = [
        chat("ses_a", "how did we deploy last time?", "msg_1"),
        messages("ses_a", ("msg_1", "how did we deploy last time?")),  # positive control
        messages("ses_a", ("msg_0", "an older message"), ("msg_9", "a message chat.message never saw")),
        messages("ses_b", ("msg_1", "another session")),
    ]
    results, _, _, _ = run_plugin(tmp_path, steps)
    assert len(results[1]["out"]["messages"][0]["parts"]) == 2
    assert all(len(m["parts"]) == 1 for r in results[2:] for m in r["out"]["messages"] if m["info"]["role"] == "user")


def test_no_cue_adds_no_part(tmp_path: Path) -> None:
    results, _, _, _ = run_plugin(tmp_path, [chat("ses_a", "list the files")])
    assert len(results[0]["out"]["parts"]) == 1


def test_a_slow_helper_costs_one_timeout_and_is_logged(tmp_path: Path) -> None:
    results, _, log, elapsed = run_plugin(
        tmp_path, [chat("ses_a", "how did we deploy last time?"), system("ses_a")], mode="slow", timeout_ms=300
    )
    assert results[0]["ms"] < 1500 and len(results[0]["out"]["parts"]) == 1  # the turn went on without us
    assert "message timed out after 300 ms" in log, log
    assert elapsed < 20


def test_a_helper_that_cannot_start_is_logged_and_ignored(tmp_path: Path) -> None:
    results, _, log, _ = run_plugin(tmp_path, [chat("ses_a", "last time?"), system("ses_a")], mode="crash")
    assert len(results[0]["out"]["parts"]) == 1 and results[1]["out"]["system"] == ["base"]
    assert "helper exited (3)" in log, log


def test_a_missing_python_is_logged_and_ignored(tmp_path: Path) -> None:
    results, _, log, _ = run_plugin(
        tmp_path, [chat("ses_a", "last time?")], RECOLLECT_PYTHON=str(tmp_path / "no" / "python")
    )
    assert len(results[0]["out"]["parts"]) == 1
    assert "helper" in log and "ENOENT" in log, log


def test_off_switch(tmp_path: Path) -> None:
    results, requests, _, _ = run_plugin(tmp_path, [{"hook": "keys"}], RECOLLECT_OPENCODE_PLUGIN="0")
    assert results == [[]] and requests == []


def test_the_helper_never_keeps_the_host_alive(tmp_path: Path) -> None:
    # The helper is still running when the driver finishes; node must exit anyway (`opencode run`).
    _, requests, _, elapsed = run_plugin(tmp_path, [chat("ses_a", "hi")])
    assert len(requests) == 1 and elapsed < 15


# A secret built at run time (never a literal in the tree), in a shape the redactor knows.
SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def test_helper_stderr_reaches_the_log_redacted(tmp_path: Path) -> None:
    # The real helper, and a site hook that writes a secret to its stderr before recollect runs (as a
    # broken install's traceback would): the plugin must route it through the redactor.
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import os, sys\n"
        "flag = os.environ.get('STDERR_ONCE')\n"
        "if flag and not os.path.exists(flag):\n"
        "    open(flag, 'w').close()\n"
        "    sys.stderr.write('startup warning: token ' + os.environ['FAKE_SECRET'] + ' in a config line\\n')\n"
        "    sys.stderr.flush()\n"
    )
    plugin = tmp_path / "recollect.mjs"
    plugin.write_text(oc.plugin_text(sys.executable))
    (tmp_path / "driver.mjs").write_text(DRIVER)
    (tmp_path / "script.json").write_text(json.dumps([chat("ses_a", "hi"), {"hook": "wait", "ms": 6000}]))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])]),
        "STDERR_ONCE": str(tmp_path / "once"),
        "FAKE_SECRET": SECRET,
    }
    r = subprocess.run(
        ["node", str(tmp_path / "driver.mjs"), str(plugin), str(tmp_path / "script.json")],
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert r.returncode == 0, r.stderr
    log = (Path(os.environ["RECOLLECT_HOME"]) / "log" / "opencode-plugin.log").read_text()
    assert "helper stderr: startup warning: token [REDACTED:github token] in a config line" in log, log
    assert SECRET not in log


def test_helper_stderr_is_not_logged_when_it_cannot_be_redacted(tmp_path: Path) -> None:
    _, _, log, _ = run_plugin(
        tmp_path, [chat("ses_a", "hi"), {"hook": "wait", "ms": 4000}], mode="stderr", FAKE_SECRET=SECRET
    )
    assert "helper wrote" in log and "not shown: they could not be redacted" in log, log
    assert SECRET not in log and "boom" not in log
