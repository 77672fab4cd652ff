"""`recollect demo`: the product in a few seconds, on a real OpenCode store shipped with recollect.

Each step runs the real command in this process and prints it first, as a person would type it, and
how long it took: index, a search by meaning (a paraphrase, and a Chinese question about an English
session), an exact identifier, the transcript around a hit, a curated memory recalled, and the next
step. With a real OpenCode store found (and no --builtin) it indexes that one instead.
"""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import click

from recollect.cli.app import current_app
from recollect.cli.history import progress_bar

if TYPE_CHECKING:
    from recollect.app import Recollect

# (what the step shows, the command's arguments). The searches are chosen against the shipped store:
# the paraphrase and the Chinese question share no word with the session they find.
SEARCHES = (
    ("By meaning: a paraphrase that shares no word with the session", ["search", "modify the docs"]),
    ("By meaning, across languages: a Chinese question about an English session", ["search", "列出项目里的文件"]),
    ("An exact identifier, as it was written", ["search", "missing-file.txt"]),
)
MEMORY = (
    "--category",
    "pitfalls",
    "--summary",
    "The read tool fails on a missing file",
    "Check that a file exists before asking the agent to read it: the read tool reports an error otherwise.",
)


def _step(title: str, args: list[str], run: Callable[[list[str]], None]) -> float:
    click.secho(f"\n# {title}", fg="green")
    click.secho("$ recollect " + " ".join(shlex.quote(a) for a in args), bold=True)
    t0 = time.perf_counter()
    run(args)
    spent = time.perf_counter() - t0
    click.secho(f"({spent:.2f} s)", dim=True)
    return spent


def _run_cli(args: list[str]) -> None:
    from recollect.cli import main

    try:
        main.main(args, prog_name="recollect", standalone_mode=False)
    except SystemExit as exc:  # a command that exits non-zero (doctor with a problem) must not end the demo
        if exc.code not in (0, None):
            click.echo(f"(exit {exc.code})")


def _first_cursor(query: str) -> str | None:
    from recollect import history

    hits = history.search(query, limit=1, sync_first=False).hits
    return hits[0].cursor if hits else None


def _demo_builtin(why: str) -> None:
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="recollect-demo-") as tmp:
        store = Path(tmp) / "opencode.db"
        with resources.as_file(resources.files("recollect") / "data" / "demo" / "opencode.db") as shipped:
            shutil.copyfile(shipped, store)  # a copy, so the shipped file stays pristine
        os.environ["RECOLLECT_HOME"] = str(Path(tmp) / "home")  # index, config and memories: thrown away after
        os.environ["OPENCODE_DB"] = str(store)
        os.environ["RECOLLECT_SOURCES"] = "opencode"
        from recollect import configfile

        configfile.write_config(only_if_missing=True)  # in the demo's home: its index step has no file to announce
        click.echo(
            f"{why}, so this demo indexes a real store shipped with recollect\n"
            "(12 sessions written by OpenCode 1.18.33 against a scripted model), in a temporary home."
        )
        times: dict[str, float] = {}
        times["index"] = _step("Index the store (read-only)", ["index"], _run_cli)
        for i, (title, args) in enumerate(SEARCHES):
            times[f"search {i + 1}"] = _step(title, [*args, "--limit", "2", "--no-sync"], _run_cli)
        cursor = _first_cursor(SEARCHES[2][1][1])
        if cursor:
            times["read"] = _step(
                "The transcript around a hit", ["read", cursor, "--before", "1", "--after", "1"], _run_cli
            )
        times["memory add"] = _step("Keep a curated memory", ["memory", "--global-only", "add", *MEMORY], _run_cli)
        times["recall"] = _step("Recall it later", ["memory", "--global-only", "recall", "missing file"], _run_cli)
    total = time.perf_counter() - t_start
    phases = ", ".join(f"{name} {spent:.2f} s" for name, spent in times.items())
    click.echo(f"\nDemo done in {total:.1f} s ({phases}).")
    click.echo(
        "Next: connect your agent with 'recollect install opencode' (MCP server, recall subagent and plugin,\n"
        "in one step), then search your own history: 'recollect index' and 'recollect search …'."
    )


@click.command("demo")
@click.option("--builtin", is_flag=True, help="Use the built-in demo store even if a real OpenCode store exists.")
def demo_cmd(builtin: bool) -> None:
    """Show recollect at work in seconds: your own session stores if they hold sessions, else a built-in demo."""
    app = current_app()
    real = [s for s in app.specs if s.path.exists()]
    if builtin or not real:
        _demo_builtin("As asked (--builtin)" if builtin else "No session store found here")
        return
    from recollect import history

    click.echo(f"Indexing your session stores ({', '.join(str(s.path) for s in real)}) — read-only.")
    t0 = time.perf_counter()
    with progress_bar() as progress:
        report = history.index(progress=progress, app=app)
    click.echo(f"{report.summary()} ({time.perf_counter() - t0:.1f} s)")
    recent = history.sessions(limit=5, app=app, sync_first=False)
    if not recent:  # a store directory with nothing in it yet (an agent installed, never run): show the product
        click.echo()
        _demo_builtin("Your stores hold no session yet")
        return
    for row in recent:
        click.echo(f"  {history.iso(row.time_updated)[:10]}  {row.title or '(untitled)'}  [{row.directory}]")
    click.echo("\nTry: recollect search 'an error message you remember'   ·   recollect sessions")
    click.echo(_next_step(app))


def _next_step(app: Recollect) -> str:
    """What to do next with real stores: connect OpenCode, unless it is (doctor's check, which reads two files)."""
    from recollect.integrations.opencode import checkup

    connected = checkup(app.config.paths)
    if not connected:
        return "Next: connect your agent with 'recollect install opencode'."
    if any(c.problems for c in connected):
        return "Next: 'recollect doctor' says what is wrong with recollect's connection to OpenCode."
    return "OpenCode is connected to recollect: ask it about earlier work. To browse: 'recollect ui'."
