"""`recollect install opencode` and `recollect uninstall opencode`: argument handling and printing;
`recollect.integrations.opencode` decides and does everything."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import click

from recollect.cli.group import Group
from recollect.cli.output import console, print_json
from recollect.config import SCOPE_CEILINGS
from recollect.history import counted
from recollect.integrations import opencode as oc


def _print(report: oc.Report, *, undo_hint: bool, config_dir: Path | None = None) -> None:
    verb = "would change" if report.dry_run else "changed"
    if report.conflicts:
        click.echo("Nothing was changed:", err=True)
        for conflict in report.conflicts:
            click.echo(f"  - {conflict}", err=True)
        return
    if report.changes:
        click.echo(f"OpenCode config dir {report.config_dir}: {verb}")
        width = max(len(c.path) for c in report.changes)
        acted = max(len(c.action) for c in report.changes if c.keys) if any(c.keys for c in report.changes) else 0
        for change in report.changes:
            # The action padded too, so the keys line up; a change without keys leaves no trailing blanks.
            action = f"{change.action.ljust(acted)}  [{', '.join(change.keys)}]" if change.keys else change.action
            click.echo(f"  {change.path.ljust(width)}  {action}")
    else:
        click.echo(f"OpenCode config dir {report.config_dir}: nothing to change")
    for note in report.notes:
        click.echo(f"  note: {note}")
    if report.dry_run:
        click.echo("Dry run: nothing was written.")
    elif undo_hint and report.changes:
        # The undo names the dir it was installed into: without it, uninstall looks in OpenCode's own.
        where = ""
        if config_dir is not None and config_dir.absolute() != oc.opencode_config_dir():
            where = f" --config-dir {shlex.quote(str(config_dir.absolute()))}"
        click.echo(f"Recorded in {report.manifest}; undo with: recollect uninstall opencode{where}")
        click.echo("Restart OpenCode to load it." if report.opencode_found else "OpenCode loads it when it starts.")


PIPED_EVERY = 15.0  # seconds between two "still running" lines when stderr is no terminal


def _npm_said(status: oc.NpmStatus) -> str:
    done = counted(status.requests, "registry request")
    last = status.last if len(status.last) <= 40 else status.last[:39] + "…"
    return f"{status.elapsed:.0f} s, {done}" + (f" (last: {last})" if last else "")


@contextmanager
def npm_progress(*, quiet: bool) -> Iterator[oc.NpmProgress | None]:
    """What the npm pre-install is doing, on stderr: a line when it starts, then on a terminal a spinner with
    the time and npm's registry requests so far; piped, a line like it every PIPED_EVERY seconds."""
    if quiet:
        yield None
        return
    live = sys.stderr.isatty()
    said: dict[str, float] = {}
    with ExitStack() as stack:
        spinner: list[Any] = []

        def tell(status: oc.NpmStatus) -> None:
            if not said:
                said["at"] = status.elapsed
                click.echo(
                    f"installing {status.package} with npm into {status.config_dir} (OpenCode loads plugins "
                    "with it; this can take a minute) …",
                    err=True,
                )
                if live:
                    spinner.append(stack.enter_context(console(stderr=True).status("npm: starting")))
            if spinner:
                spinner[0].update(f"npm: {_npm_said(status)}")
            if status.done:
                if spinner:
                    stack.close()
                    spinner.clear()
                click.echo(f"  npm ended after {_npm_said(status)}", err=True)
            elif not live and status.elapsed - said["at"] >= PIPED_EVERY:
                said["at"] = status.elapsed
                click.echo(f"  npm still running: {_npm_said(status)}", err=True)

        yield tell


@click.group("install", cls=Group)
def install() -> None:
    """Connect recollect to an agent (MCP server, subagent, plugin)."""


@click.group("uninstall", cls=Group)
def uninstall() -> None:
    """Take back what 'recollect install' did."""


_config_dir_option = click.option(
    "--config-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="OpenCode's config dir (default: $XDG_CONFIG_HOME/opencode, else ~/.config/opencode).",
)


@install.command("opencode")
@_config_dir_option
@click.option(
    "--config-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The opencode.json / opencode.jsonc to edit (default: the one in the config dir).",
)
@click.option("--force", is_flag=True, help="Replace a 'recollect' MCP entry, agent or plugin file that is not ours.")
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option("--no-npm", is_flag=True, help="Do not pre-install @opencode-ai/plugin with npm.")
@click.option(
    "--opencode-version",
    help="Version of @opencode-ai/plugin to pre-install "
    f"(default: `opencode --version`, else {oc.DEFAULT_OPENCODE_VERSION}).",
)
@click.option(
    "--scope",
    type=click.Choice(SCOPE_CEILINGS),
    default="all",
    show_default=True,
    help="The widest history scope the agent may see: every project, only the project OpenCode runs in, or only "
    "its directory. Written into the MCP server's command and the plugin; the model can narrow it, never widen "
    "it. The config's [scope] ceiling can narrow it further.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def install_opencode(
    config_dir: Path | None,
    config_file: Path | None,
    force: bool,
    dry_run: bool,
    no_npm: bool,
    opencode_version: str | None,
    scope: str,
    as_json: bool,
) -> None:
    """Add recollect to OpenCode: the MCP server, the recall subagent and the plugin. Idempotent."""
    if not dry_run:
        from recollect.cli.history import first_use_config

        first_use_config(quiet=as_json)
    with npm_progress(quiet=as_json) as progress:
        report = oc.install(
            config_dir=config_dir,
            config_file=config_file,
            force=force,
            dry_run=dry_run,
            npm=not no_npm,
            opencode_version=opencode_version,
            scope=scope,
            npm_progress=progress,
        )
    if as_json:
        print_json(report.to_dict())
    else:
        _print(report, undo_hint=True, config_dir=config_dir)
    if report.conflicts:
        raise SystemExit(1)


@uninstall.command("opencode")
@_config_dir_option
@click.option("--dry-run", is_flag=True, help="Show what would be taken back; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def uninstall_opencode(config_dir: Path | None, dry_run: bool, as_json: bool) -> None:
    """Remove what 'recollect install opencode' added; the rest of the config stays as it is."""
    report = oc.uninstall(config_dir=config_dir, dry_run=dry_run)
    if as_json:
        print_json(report.to_dict())
    else:
        _print(report, undo_hint=False)
