"""Slash-command sessions against later questions: do sessions whose only input was an OpenCode command
come up for messages they have nothing to do with? (docs/loop.md, "Slash-command sessions".)

    .venv/bin/python bench/bench_commands.py build DIR [--meaning CACHE]   # the real OpenCode 1.18.33 makes the world
    .venv/bin/python bench/bench_commands.py measure DIR [--meaning CACHE] [--reindex]

`build`: the loop world's history (bench/loop_world.json, as bench_loop.py plants it), then in each project
OpenCode's own `/init` and a custom `/commit` (a `command/commit.md` in the OpenCode config dir), run the
way the TUI runs them (`POST /session/:id/command`), and `recollect index`. `measure`: every message of
bench/loop_messages.json searched in its project (`history.search`, the top 3 sessions) and asked of the
plugin helper (`recall_block`): how often a command session is there, and above the answering session.
`--reindex` rebuilds the world's index with this tree first (copy the index aside to compare two trees).
Needs node, npm and git, as bench_loop.py; nothing outside DIR is touched.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import bench.bench_loop as loop  # noqa: E402

COMMIT_MD = (
    "---\ndescription: commit the staged work\n---\nLook at the staged changes with `git diff --cached`, write a "
    "conventional commit message that says why, and commit them. Do not push. $ARGUMENTS\n"
)


def build(d: Path, cache: Path | None) -> None:
    if cache is not None:
        loop.QUIET_ENV.clear()
        loop.QUIET_ENV["RECOLLECT_MODEL_CACHE"] = str(cache)
    data = json.loads((loop.DATA / "loop_world.json").read_text())
    with loop.OpenCodeWorld(d, binary=loop.ensure_opencode(), extra_env=loop.QUIET_ENV) as world:
        world.add_config_file("command/commit.md", COMMIT_MD)
        bench = loop.LoopBench(world, data)
        for name in data["projects"]:
            bench.project(name)
        bench.plant()
        bench.install()
        commands: dict[str, str] = {}
        for name in data["projects"]:
            readme = str(bench.projects[name] / "README.md")
            scripted: dict[str, list[Any]] = {
                "init": [{"tools": [{"name": "read", "args": {"filePath": readme}}], "text": INIT_REPLY}],
                "commit": [{"tools": [{"name": "bash", "args": STAGED}], "text": "Nothing is staged to commit."}],
            }
            for command, rules in scripted.items():
                world.set_rules(rules)
                sid = bench.new_session(name)
                body = {"command": command, "arguments": ""}
                world.api("POST", f"/session/{sid}/command", body, directory=str(bench.projects[name]), timeout=180)
                world.wait_idle(sid, timeout=180)
                commands[sid] = f"{name}/{command}"
        bench.index()
        (d / "commands.json").write_text(json.dumps({"commands": commands, "answering": bench.answering}, indent=1))


INIT_REPLY = "Created AGENTS.md with the project's layout and how to run its checks."
STAGED = {"command": "git diff --cached --stat", "description": "What is staged"}


def measure(d: Path, cache: Path | None, reindex: bool) -> None:
    sys.path.insert(0, str(REPO / "bench"))
    from bench_recall import point_at

    point_at(d / "world", cache)
    from recollect import history
    from recollect.config import load_config
    from recollect.integrations.hooks import HookService
    from recollect.search.scope import Filters

    meta = json.loads((d / "commands.json").read_text())
    commands: dict[str, str] = meta["commands"]
    if reindex:
        path = load_config().index_path
        for old in path.parent.glob(path.name + "*"):
            shutil.rmtree(old) if old.is_dir() else old.unlink()
        history.index(load_config())
    messages = json.loads((loop.DATA / "loop_messages.json").read_text())
    service = HookService()
    tally: dict[str, list[int]] = {}

    def count(name: str, yes: bool) -> None:
        c = tally.setdefault(name, [0, 0])
        c[0] += yes
        c[1] += 1

    for kind in ("cue", "ordinary"):
        for m in messages[kind]:
            directory = str(d / "world" / "projects" / m["project"])
            found = history.search(m["text"], Filters(scope="project", directory=directory), sync_first=False)
            ranked = list(dict.fromkeys(h.session_id for h in found.hits))
            count(f"search {kind} {m['lang']}: a command session in the top 3", any(s in commands for s in ranked[:3]))
            if kind == "cue":
                gold = meta["answering"].get(m["expect"])
                above = ranked[: ranked.index(gold)] if gold in ranked else ranked
                count("search cue: a command session above the answering one", any(s in commands for s in above))
            block = service.recall_block("ses_bench_commands", directory, m["text"])[0] or ""
            count(f"auto-recall {kind} {m['lang']}: a command session in the block", any(s in block for s in commands))
    for name, (n, total) in sorted(tally.items()):
        print(f"{name:62} {n}/{total}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=("build", "measure"))
    ap.add_argument("dir", type=Path)
    ap.add_argument("--meaning", type=Path, metavar="MODEL_CACHE", help="meaning on, e.g. ~/.cache/recollect")
    ap.add_argument("--reindex", action="store_true", help="measure: rebuild the world's index with this tree first")
    a = ap.parse_args(argv)
    cache = a.meaning.expanduser() if a.meaning else None
    if a.step == "build":
        build(a.dir, cache)
    else:
        measure(a.dir, cache, a.reindex)
    return 0


if __name__ == "__main__":
    sys.exit(main())
