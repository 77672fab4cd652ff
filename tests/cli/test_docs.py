"""docs/cli.md names every command and every option (as sqlite-utils' test_docs does), so the docs
cannot fall behind the CLI."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from recollect.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def walk(group: click.Group, prefix: str = "") -> Iterator[tuple[str, click.Command]]:
    """Every command under `group`, by full name; the lazy group is asked, not its (empty) dict."""
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        full = f"{prefix} {name}".strip()
        yield full, command
        if isinstance(command, click.Group):
            yield from walk(command, full)


COMMANDS = list(walk(main))


def test_the_walk_sees_every_command() -> None:
    names = {name for name, _ in COMMANDS}
    assert {"search", "read", "sessions", "hide", "unhide", "config init", "config show", "memory add"} <= names
    assert len(names) > 25


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[name for name, _ in COMMANDS])
def test_every_command_and_option_is_in_docs_cli_md(name: str, command: click.Command) -> None:
    doc = DOC.read_text(encoding="utf-8")
    assert f"recollect {name}" in doc, f"docs/cli.md does not mention 'recollect {name}'"
    flags = [max(p.opts, key=len) for p in command.params if isinstance(p, click.Option) and not p.hidden]
    # A flag counts as documented where it stands as a whole word ("--valid-from/--valid-to" names both).
    missing = [flag for flag in flags if not re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", doc)]
    assert not missing, f"'recollect {name}' options missing from docs/cli.md: {missing}"
