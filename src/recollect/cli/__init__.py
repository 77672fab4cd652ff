"""The command line for people. Thin: it parses arguments and prints what the library computed.

Commands are imported only when used, so `recollect extract` or `recollect index` spawned by a
plugin does not pay for importing every other command's dependencies.
"""

from __future__ import annotations

import importlib

import click

# name -> "module:attribute" of the click command
_COMMANDS = {
    "index": "recollect.cli.history:index_cmd",
    "search": "recollect.cli.history:search_cmd",
    "read": "recollect.cli.history:read_cmd",
    "sessions": "recollect.cli.history:sessions_cmd",
    "doctor": "recollect.cli.history:doctor_cmd",
    "hide": "recollect.cli.history:hide_cmd",
    "unhide": "recollect.cli.history:unhide_cmd",
    "demo": "recollect.cli.history:demo_cmd",
    "memory": "recollect.cli.memory:memory",
    "extract": "recollect.cli.extract:extract_cmd",
    "summarize": "recollect.cli.extract:summarize_cmd",
    "mcp": "recollect.cli.mcp:mcp_cmd",
    "install": "recollect.cli.install:install",
    "uninstall": "recollect.cli.install:uninstall",
    "eval": "recollect.cli.eval:eval_cmd",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attribute = target.split(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup)
@click.version_option(package_name="recollect")
def main() -> None:
    """recollect: search your coding agents' past sessions, and keep curated memories.

    Start with 'recollect doctor' (what it found), 'recollect index', then 'recollect search WORDS'.
    """
