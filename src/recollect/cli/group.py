"""The click group every `recollect` command group is made of."""

from __future__ import annotations

import click


class Group(click.Group):
    """A group named alone (`recollect`, `recollect memory`) prints its help on stdout and succeeds: the
    person asked what it can do. Click 8.2 made that a usage error (the help on stderr, exit 2)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            click.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(0)
        return super().parse_args(ctx, args)
