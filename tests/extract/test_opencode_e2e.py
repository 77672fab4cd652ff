"""Extraction through the REAL OpenCode server (npm opencode-ai@1.18.33), pointed at the fake LLM.

One world, one conversation of four turns, two extraction runs:

1. the fake LLM answers the worker session with five scripted candidates — good, a rule filed as a
   preference, a duplicate, a secret, a forgotten memory — and each lands where it should;
2. `--redo` with a malformed answer is rejected whole.

Along the way: the cheapest suitable model is chosen from OpenCode's own provider listing (a cheaper
one with a 4k context is passed over, and so are free models of a provider nobody configured), the
worker session offers the model no tool, carries the worker marker, and is deleted afterwards; the
person's session is not touched; and the memory roots gain exactly the expected files.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from recollect.memory import MemorySettings, MemorySpace, forget, open_memory, remember
from recollect.text.markers import WORKER_TITLE_MARKER
from tests.e2e.opencode import OpenCodeWorld

from .conftest import listing, reply_rule

pytestmark = pytest.mark.e2e

SECRET = "ghp_" + "Qw3Er5Ty7U" * 4
TURNS = [
    "ALPHA: we deploy with pnpm, never npm; npm ignores pnpm-lock.yaml",
    "Never push directly to main, always open a pull request.",
    "CI runs on GitHub Actions with a nightly matrix build.",
    "Copying opencode.db without its -wal file loses recent rows.",
]
# Only the extraction prompt says this; the person's own turns never match these rules.
ASKS = "reply with the json object now"


def _candidate(summary: str, category: str, evidence: list[int], **extra: Any) -> dict[str, Any]:
    return {"category": category, "summary": summary, "evidence": evidence, **extra}


SCRIPTED = [
    _candidate(
        "Deploys use pnpm because the lockfile is pnpm's",
        "decisions",
        [1],
        highlight="pnpm, not npm",
        body="npm ignores pnpm-lock.yaml.",
        load_when=["deploy", "pnpm"],
    ),
    _candidate("Never push directly to main; open a pull request", "preferences", [3]),
    _candidate("CI runs on GitHub Actions with a nightly matrix build", "facts", [5]),
    _candidate("The deploy bot authenticates with a token", "facts", [1], body=f"token: {SECRET}"),
    _candidate("Copying opencode.db without its -wal file loses recent rows", "pitfalls", [7]),
]


def _recollect(world: OpenCodeWorld, home: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    override = os.environ.get("RECOLLECT_E2E_CLI")
    cmd = shlex.split(override) if override else [sys.executable, "-m", "recollect.cli"]
    env = world.env
    env.update(
        RECOLLECT_HOME=str(home),
        OPENCODE_DB=str(world.db_path),
        RECOLLECT_SOURCES="opencode",
        RECOLLECT_OPENCODE_URL=str(world.base_url),
    )
    return subprocess.run([*cmd, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=180)


def _space(project: Path, home: Path) -> MemorySpace:
    from recollect.config import Paths

    paths = Paths(config_dir=home, data_dir=home, cache_dir=home / "cache")
    return open_memory(project=project, paths=paths, settings=MemorySettings())


def test_extraction_through_the_real_opencode_server(opencode_world: OpenCodeWorld, tmp_path: Path) -> None:
    world = opencode_world
    started = time.monotonic()

    def model(name: str, context: int, price: float) -> dict[str, Any]:
        return {"name": name, "limit": {"context": context, "output": 1000}, "cost": {"input": price, "output": price}}

    world.update_config(
        {
            "provider": {
                "fake": {
                    "models": {
                        "fake-model": {"cost": {"input": 1, "output": 2}},  # the person's model
                        "tiny": model("Tiny", 4000, 0.01),  # cheapest, but its context is under 8k
                        "cheap": model("Cheap", 16000, 0.1),
                        "pricey": model("Pricey", 200000, 3),
                    }
                }
            }
        }
    )
    world.set_rules([reply_rule(["ALPHA", ASKS], SCRIPTED)])
    project = world.project("app")
    home = tmp_path / "recollect-home"
    space = _space(project, home)
    ci = remember(space, "CI runs on GitHub Actions with a nightly matrix build.", category="facts")
    wal = remember(space, "Copying opencode.db without its -wal file loses recent rows.", category="pitfalls")
    forget(space, wal.id, reason="obsolete")

    sid = world.create_session(project)
    # OpenCode boots an instance per directory once per server lifetime (seconds on a busy CI
    # machine); let the worker directory's boot overlap the person's turns instead of following them.
    worker_dir = home / "opencode-worker"
    worker_dir.mkdir(parents=True)
    warm = threading.Thread(target=world.api, args=("GET", "/config/providers"), kwargs={"directory": worker_dir})
    warm.start()
    for turn in TURNS:
        world.prompt(sid, turn)
    warm.join()
    world.wait_settled()
    before_messages = len(world.messages(sid))
    before_title = world.session(sid)["title"]
    before_memory, before_global = listing(project / ".memory"), listing(home / "memory")

    run = _recollect(world, home, project, "extract", "--session", sid, "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)

    # The model: the cheapest with a context of at least 8k, from a provider the person configured.
    assert report["model"]["id"] == "fake/cheap", report["model"]
    assert report["model"]["reason"].startswith("cheapest of")
    (session,) = report["sessions"]
    assert session["status"] == "extracted", session
    outcomes = [(c["outcome"], c["category"]) for c in session["candidates"]]
    assert outcomes == [
        ("written", "decisions"),
        ("proposed", "rules"),
        ("duplicate", "facts"),
        ("blocked", "facts"),
        ("forgotten", "pitfalls"),
    ]
    written, proposed, duplicate, _blocked, forgotten = session["candidates"]
    assert duplicate["similar_to"] == f"project:{ci.id}" and forgotten["similar_to"] == f"project:{wal.id}"

    # What reached the LLM for extraction: one request, the chosen model, no tool, our prompt only.
    (request,) = [r["request"] for r in world.llm_requests() if ASKS in json.dumps(r["request"]).lower()]
    assert request["model"] == "cheap"
    assert not request.get("tools")
    system = "\n".join(str(m["content"]) for m in request["messages"] if m["role"] == "system")
    assert "You extract durable memories" in system
    assert "L1 user: ALPHA: we deploy with pnpm" in json.dumps(request["messages"][-1])

    # The worker session carried the marker, lived in recollect's own directory, and is gone; the
    # person's session is exactly as it was.
    serve_log = "".join(p.read_text(errors="replace") for p in world.logs_dir.glob("serve-*.log"))
    created = re.findall(r"message=created id=(ses_\w+) .*directory=(\S+) .*title=\"([^\"]*)\"", serve_log)
    workers = [(wid, d) for wid, d, title in created if title == f"{WORKER_TITLE_MARKER} extract opencode::{sid}"]
    assert len(workers) == 1, created
    worker_id, logged_dir = workers[0]
    assert logged_dir == str(worker_dir)
    assert world.query("select count(*) from session where id = ?", (worker_id,)) == [(0,)]
    titles = [row[0] for row in world.query("select title from session")]
    assert not [t for t in titles if WORKER_TITLE_MARKER in t], titles
    assert len(world.messages(sid)) == before_messages and world.session(sid)["title"] == before_title

    # Exactly two memory files (and their category indexes) were added; nothing global.
    after = listing(project / ".memory")
    assert set(after) - set(before_memory) == {
        written["memory_id"].split(":", 1)[1] + ".md",
        proposed["memory_id"].split(":", 1)[1] + ".md",
        "decisions/index.md",
        "rules/index.md",
    }
    assert {k for k in before_memory if after.get(k) != before_memory[k]} <= {"ROOT.md", "audit.jsonl"}
    assert listing(home / "memory") == before_global
    text = (project / ".memory" / (written["memory_id"].split(":", 1)[1] + ".md")).read_text()
    assert f"source_session: opencode::{sid}" in text and "author: model:fake/cheap" in text
    assert "> L1 user: ALPHA: we deploy with pnpm" in text

    # Second run: the same turns again, a malformed answer: rejected whole, nothing written.
    world.set_rules([reply_rule(["ALPHA", ASKS], None, raw='{"memories": [{"category": "facts", "summ')])
    again = _recollect(world, home, project, "extract", "--session", sid, "--redo")
    assert again.returncode == 1 and again.stdout == ""
    assert "malformed" in again.stderr and "not JSON" in again.stderr
    assert listing(project / ".memory") == after
    log = [json.loads(line) for line in (home / "log" / "extract.jsonl").read_text().splitlines()]
    assert [r["event"] for r in log][-1] == "malformed" and "not JSON" in log[-1]["reason"]
    assert SECRET not in json.dumps(log)
    assert time.monotonic() - started < 120  # the brief: ~60 s; leave room for a loaded CI machine
