"""Every command and every option of `--help` says what it does, for someone who has never seen recollect."""

from __future__ import annotations

import click
import pytest

from recollect.cli import main
from tests.cli.test_docs import walk


def test_every_command_and_option_has_help() -> None:
    commands = list(walk(main))
    options = [(name, p) for name, c in commands for p in c.params if isinstance(p, click.Option) and not p.hidden]
    described = [(name, p.opts) for name, p in options if p.help]
    assert len(commands) > 25 and len(described) > 100  # positive control: the walk sees them, with their help
    assert not [name for name, c in commands if not c.help], "a command without a docstring"
    bare = [(name, p.opts) for name, p in options if not p.help]
    assert not bare, f"options whose --help says nothing: {bare}"


def test_a_misspelt_command_gets_the_nearest_one() -> None:
    from click.testing import CliRunner

    runner = CliRunner()
    assert runner.invoke(main, ["search", "--help"]).exit_code == 0  # positive control
    typo = runner.invoke(main, ["searh", "deploy"])
    assert typo.exit_code == 2 and "No such command 'searh'. Did you mean 'search'?" in typo.output
    nothing = runner.invoke(main, ["zzzz"])
    assert (
        nothing.exit_code == 2 and "No such command 'zzzz'." in nothing.output and "Did you mean" not in nothing.output
    )


@pytest.mark.parametrize(
    ("group", "typed", "meant"),
    [
        (["memory"], ["remember", "use uv"], "add"),  # the MCP tool's word for `memory add`: no spelling is near
        (["memory"], ["rmember", "use uv"], "add"),  # and that word misspelt
        (["memory"], ["lst"], "list"),
        (["memory", "review"], ["approve", "x"], "accept"),
        (["install"], ["opencod"], "opencode"),
        ([], ["find", "deploy"], "search"),
    ],
)
def test_every_group_says_which_command_was_meant(group: list[str], typed: list[str], meant: str) -> None:
    from click.testing import CliRunner

    runner = CliRunner()
    assert runner.invoke(main, [*group, meant, "--help"]).exit_code == 0  # positive control: the command exists
    wrong = runner.invoke(main, [*group, *typed])
    assert wrong.exit_code == 2, wrong.output
    assert f"No such command '{typed[0]}'. Did you mean '{meant}'?" in wrong.output, wrong.output


def test_python_dash_m_recollect_is_the_same_command() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "recollect", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("recollect, version "), out
