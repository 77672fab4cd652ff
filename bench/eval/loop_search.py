"""The live loop's topic searches, offline: does a topic's search put its answering session first?

`bench/bench_loop.py` plants a world (bench/loop_world.json) in real OpenCode and lets the model call
`recollect_history_search` for each topic; there the answering session came first 5 times of 12. The
competition is the sessions that only asked: `asked_only` (a later "what did we decide about X?" that
got no answer) and every cue or ordinary message of bench/loop_messages.json, each the first message
of a new session answered "Let me look at that.". This builds that history as an OpenCode store with
the schema the eval uses, indexes it (semantic search as configured), and runs each topic's `search`
in its project, as the MCP tool does: no model, a few seconds.

    python -m bench.eval.loop_search [--ablate]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.eval.build_corpus import ANCHOR_MS, DAY_MS, SCHEMA, _conv_id, finish_store
from bench.eval.evaluate import isolated_env
from recollect import history
from recollect.config import Config, Paths, SourceEntry
from recollect.search.scope import Filters
from recollect.search.stages import STAGES, disabled
from recollect.sources.base import DISCOVERERS

REPO = Path(__file__).resolve().parents[2]
WORLD = REPO / "bench" / "loop_world.json"
MESSAGES = REPO / "bench" / "loop_messages.json"
REPLY = "Let me look at that."  # bench_loop's fake model answers every measured message so

Session = tuple[str, str, list[tuple[str, str]], int]  # slug, project, (role, text) turns, days ago


def world_sessions(world: dict[str, Any], messages: dict[str, Any]) -> list[Session]:
    out: list[Session] = []
    for t in world["topics"]:
        turns = [x for turn in t["turns"] for x in (("user", turn["user"]), ("assistant", turn["assistant"]))]
        out.append((f"answer-{t['id']}", t["project"], turns, 30))
    for i, a in enumerate(world["asked_only"]):
        out.append((f"asked-{i}", a["project"], [("user", a["user"]), ("assistant", a["assistant"])], 10))
    for m in messages["cue"] + messages["ordinary"]:
        out.append((f"msg-{m['id']}", m["project"], [("user", m["text"]), ("assistant", REPLY)], 1))
    return out


def _directory(project: str) -> str:
    return f"/home/dev/work/{project}"


def write_store(
    path: Path, projects: list[str], sessions: list[Session], where: dict[str, tuple[str, str]] | None = None
) -> None:
    """`sessions` into the store at `path` (made with `projects` when they are given; else it exists).
    `where`: a loop project's (project id, directory) in the store, by default its own name and /home/dev/work/."""
    where = where or {}
    db = sqlite3.connect(path)
    if projects:
        db.executescript(SCHEMA.read_text(encoding="utf-8"))
    for p in projects:
        pid, worktree = where.get(p, (p, _directory(p)))
        db.execute(
            "INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?,?,?,?,?,?)",
            (pid, worktree, "git", ANCHOR_MS - 400 * DAY_MS, ANCHOR_MS, "[]"),
        )
    for slug, project, turns, days in sessions:
        project, directory = where.get(project, (project, _directory(project)))
        sid, start = _conv_id("ses", slug), ANCHOR_MS - days * DAY_MS
        t, asked = start, ""
        for n, (role, text) in enumerate(turns):
            mid = _conv_id("msg", slug, n)
            t += 60_000
            info: dict[str, Any] = {"role": role, "time": {"created": t}}
            if role == "user":
                info.update(agent="build", model={"providerID": "fake", "modelID": "fake-model"})
                asked = mid
            else:
                info.update(parentID=asked, mode="build", agent="build", modelID="fake-model", providerID="fake",
                            path={"cwd": directory, "root": directory}, finish="stop")  # fmt: skip
            db.execute("INSERT INTO message VALUES (?,?,?,?,?)", (mid, sid, t, t + 4_000, json.dumps(info)))
            part = json.dumps({"type": "text", "text": text}, ensure_ascii=False)
            db.execute(
                "INSERT INTO part VALUES (?,?,?,?,?,?)", (_conv_id("prt", slug, n), mid, sid, t, t + 4_000, part)
            )
        db.execute(
            "INSERT INTO session (id, project_id, slug, directory, title, version, agent, time_created, "
            "time_updated) VALUES (?,?,?,?,?,?,?,?,?)",
            (sid, project, slug, directory, turns[0][1][:60], "1.18.33", "build", start, t + 4_000),
        )
    db.commit()
    db.close()
    finish_store(path)


@contextmanager
def indexed_world() -> Iterator[tuple[Config, dict[str, Any]]]:
    """The loop world's history indexed in a temporary RECOLLECT_HOME: (config, world)."""
    world = json.loads(WORLD.read_text(encoding="utf-8"))
    messages = json.loads(MESSAGES.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="recollect-loop-search-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        with isolated_env(home):
            store = Path(tmp) / "opencode.db"
            write_store(store, list(world["projects"]), world_sessions(world, messages))
            paths = Paths(config_dir=home, data_dir=home, cache_dir=home / "cache")
            config = Config(
                paths=paths,
                index_path=paths.default_index,
                sources=[SourceEntry(id="loop", kind="opencode", path=store)],
                discover={kind: False for kind in {*DISCOVERERS, "opencode", "claude-code", "codex", "gemini"}},
            )
            history.index(config)
            yield config, world


def topic_ranks(config: Config, world: dict[str, Any]) -> dict[str, int | None]:
    """Per topic, the rank of its answering session among the sessions its search returns."""
    out: dict[str, int | None] = {}
    for t in world["topics"]:
        filters = Filters(scope="project", directory=_directory(t["project"]))
        filters.project_root = _directory(t["project"])
        result = history.search(t["search"], filters, limit=10, config=config, sync_first=False)
        order = list(dict.fromkeys(h.session_id for h in result.hits))
        gold = _conv_id("ses", f"answer-{t['id']}")
        out[t["id"]] = order.index(gold) + 1 if gold in order else None
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ablate", action="store_true", help="also with each ranking stage off in turn")
    args = parser.parse_args(argv)
    with indexed_world() as (config, world):
        runs = {"all on": topic_ranks(config, world)}
        if args.ablate:
            for stage in STAGES:
                with disabled(stage):
                    runs[f"-{stage}"] = topic_ranks(config, world)
    for name, ranks in runs.items():
        first = sum(1 for r in ranks.values() if r == 1)
        print(f"{name}: answering session first {first}/{len(ranks)}; ranks {list(ranks.values())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
