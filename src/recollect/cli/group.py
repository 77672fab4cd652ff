"""The click group every `recollect` command group is made of."""

from __future__ import annotations

import difflib
from typing import ClassVar

import click


class Group(click.Group):
    """A group named alone (`recollect`, `recollect memory`) prints its help on stdout and succeeds: the
    person asked what it can do. Click 8.2 made that a usage error (the help on stderr, exit 2).

    A command it does not have gets the one it most likely meant: the nearest spelling, or the command
    a word of `synonyms` names (`recollect memory remember` -> 'add', which no spelling is near)."""

    # Words people reach for that mean one of this group's commands under another name (the MCP tool
    # `memory_remember` is `recollect memory add`); a group's subclass sets its own.
    synonyms: ClassVar[dict[str, str]] = {}

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            click.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(0)
        return super().parse_args(ctx, args)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.NoSuchCommand as exc:
            meant = self.meant(ctx, exc.command_name)
            exc.possibilities = None  # click's own guess looks only at `self.commands`, empty in a lazy group
            if meant:
                exc.message += f" Did you mean '{meant}'?"
            raise

    def meant(self, ctx: click.Context, name: str) -> str | None:
        """The command of this group that `name` most likely meant, or None."""
        commands = self.list_commands(ctx)
        words = {**{w: c for w, c in self.synonyms.items() if c in commands}, **{c: c for c in commands}}
        close = difflib.get_close_matches(name.lower(), list(words), n=1)  # a misspelt synonym too: `rmember`
        return words[close[0]] if close else None
