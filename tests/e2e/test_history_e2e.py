"""The spine, end to end: real OpenCode sessions -> `recollect index` -> `recollect search` / `read`.

Two git projects each get a session with unique words in the user prompt and, separately, in a bash
tool's output (the command only holds the word's rot13, so the word can only be found through the
stored tool output). The test checks hits and their directories, directory scoping, that indexing
leaves OpenCode's store byte-identical, and that a session deleted through OpenCode disappears from
the results after the next index.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .opencode import OpenCodeWorld

pytestmark = pytest.mark.e2e

# Nonsense words: no stemming, no stopword, no chance of occurring in OpenCode's own prompts.
ALPHA_USER, ALPHA_TOOL = "zorblattix", "quasmodrift"
BETA_USER, BETA_TOOL = "vexillomark", "glimmerwolf"


def _failing_command(word: str) -> str:
    # The output says `word`; the command text only holds its rot13.
    hidden = codecs.encode(word, "rot13")
    return f"printf 'fatal: %s checksum mismatch\\n' \"$(echo {hidden} | tr a-z n-za-m)\"; exit 3"


RULES = [
    {
        "match": [user_word],
        "tools": [{"name": "bash", "args": {"command": _failing_command(tool_word), "description": "Reproduce"}}],
        "text": "The command failed with a checksum mismatch.",  # the tool word stays out of the answer
    }
    for user_word, tool_word in ((ALPHA_USER, ALPHA_TOOL), (BETA_USER, BETA_TOOL))
]


def recollect_cmd() -> list[str]:
    """The CLI under test: $RECOLLECT_E2E_CLI (e.g. an installed build), else this venv's script."""
    override = os.environ.get("RECOLLECT_E2E_CLI")
    if override:
        return shlex.split(override)
    script = Path(sys.executable).parent / "recollect"
    return [str(script)] if script.exists() else [sys.executable, "-m", "recollect.cli"]


class Recollect:
    """Runs the recollect CLI against one OpenCode world, with its own RECOLLECT_HOME."""

    def __init__(self, world: OpenCodeWorld, home: Path) -> None:
        self.env = world.env
        self.env.update(RECOLLECT_HOME=str(home), OPENCODE_DB=str(world.db_path))

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        r = subprocess.run([*recollect_cmd(), *args], env=self.env, capture_output=True, text=True, timeout=180)
        assert r.returncode == 0, f"recollect {' '.join(args)} exited {r.returncode}\n{r.stdout}\n{r.stderr}"
        return r

    def search(self, query: str, *args: str) -> dict[str, Any]:
        r = self.run("search", query, "--json", "--limit", "20", *args)
        try:
            result = json.loads(r.stdout)
        except ValueError as e:
            raise AssertionError(f"recollect search printed no JSON object:\n{r.stdout}\n{r.stderr}") from e
        assert result["query"] == query
        assert isinstance(result["hits"], list)
        return result

    def sessions(self, query: str, *args: str) -> dict[str, set[str]]:
        """session_id -> directories of its hits."""
        found: dict[str, set[str]] = {}
        for hit in self.search(query, *args)["hits"]:
            found.setdefault(hit["session_id"], set()).add(os.path.realpath(hit["directory"]))
        return found


def store_digest(world: OpenCodeWorld) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in world.store_files()}


def test_index_search_scope_and_delete(opencode_world: OpenCodeWorld, tmp_path: Path) -> None:
    world = opencode_world
    world.set_rules(RULES)
    alpha, beta = world.project("alpha"), world.project("beta")
    alpha_dir, beta_dir = os.path.realpath(alpha), os.path.realpath(beta)

    sa = world.create_session(alpha)
    world.prompt(sa, f"please investigate the {ALPHA_USER} deployment failure")
    sb = world.create_session(beta)
    world.prompt(sb, f"why does the {BETA_USER} migration break")
    world.wait_settled()  # titles are written about a second after the reply

    # OpenCode must be quiet while we compare its files: a serving instance may still write (titles,
    # session diffs, its startup checkpoint), which would make a byte comparison flaky or, worse,
    # blame recollect for OpenCode's writes. Stopping the server is the only way to be sure; SIGTERM
    # does not checkpoint, so the newest rows stay in the -wal that recollect must read in place.
    world.stop()
    outputs = [
        r[0]
        for r in world.query(
            "select json_extract(data, '$.state.output') from part where json_extract(data, '$.tool') = 'bash'"
        )
    ]
    assert any(ALPHA_TOOL in o for o in outputs) and any(BETA_TOOL in o for o in outputs), outputs
    assert (world.db_path.parent / "opencode.db-wal").exists()

    rc = Recollect(world, tmp_path / "recollect-home")
    before = store_digest(world)
    r = rc.run("index")
    assert len(r.stdout.strip().splitlines()) == 1, r.stdout
    assert store_digest(world) == before, "recollect index changed OpenCode's store"

    # Each word finds its own session, with its directory; user text and tool output are both indexed.
    for word, sid, directory in (
        (ALPHA_USER, sa, alpha_dir),
        (ALPHA_TOOL, sa, alpha_dir),
        (BETA_USER, sb, beta_dir),
        (BETA_TOOL, sb, beta_dir),
    ):
        found = rc.sessions(word)
        assert set(found) == {sid}, f"{word}: {found}"
        assert found[sid] == {directory}, f"{word}: {found}"

    # Scope: the positive control first, so an empty result below means "filtered", not "broken".
    assert set(rc.sessions(ALPHA_USER, "--scope", "directory", "--directory", alpha_dir)) == {sa}
    assert sa not in rc.sessions(ALPHA_USER, "--scope", "directory", "--directory", beta_dir)

    hit = next(h for h in rc.search(ALPHA_TOOL)["hits"] if h["session_id"] == sa)
    window = rc.run("read", hit["cursor"]).stdout
    assert ALPHA_TOOL in window, window  # the window is around the hit: the tool output itself

    # Delete beta's session the way a user does; OpenCode removes its rows and events, no tombstone.
    world.run_cli(["session", "delete", sb], cwd=beta)
    assert world.query("select count(*) from session where id = ?", (sb,)) == [(0,)]
    rc.run("index")
    assert rc.search(BETA_USER)["hits"] == []
    assert rc.search(BETA_TOOL)["hits"] == []
    assert set(rc.sessions(ALPHA_USER)) == {sa}
