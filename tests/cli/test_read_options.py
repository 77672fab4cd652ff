"""`recollect read` offers only the options it honours: a window is whole messages, never filtered by role."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from recollect.cli import main


def test_read_refuses_the_message_level_filters_it_would_ignore(sample_db: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    searched = runner.invoke(main, ["search", "missing-file.txt", "--role", "assistant", "--no-sync", "-n", "1"])
    assert searched.exit_code == 0 and "read: recollect read " in searched.output  # search honours --role
    cursor = searched.output.split("read: recollect read ")[1].split()[0]
    plain = runner.invoke(main, ["read", cursor])
    assert plain.exit_code == 0 and "missing-file.txt" in plain.output  # positive control
    scoped = runner.invoke(main, ["read", cursor, "--agent", "opencode", "--since", "3650d"])
    assert scoped.exit_code == 0 and scoped.output == plain.output  # the session-level filters stay
    for flag, value in (("--role", "user"), ("--class", "user_text"), ("--tool", "bash"), ("--author", "person")):
        refused = runner.invoke(main, ["read", cursor, flag, value])
        assert refused.exit_code == 2, (flag, refused.output)
        assert f"No such option '{flag}'" in refused.output


def test_read_help_speaks_of_reading_not_of_searching() -> None:
    runner = CliRunner()
    search = runner.invoke(main, ["search", "--help"])
    assert search.exit_code == 0 and "Which sessions to search" in search.output  # control: search's own words
    assert "--include-recall" in search.output
    read = runner.invoke(main, ["read", "--help"])
    assert read.exit_code == 0, read.output
    assert "Which sessions it may open" in read.output, read.output
    options = read.output.split("Options:", 1)[1]
    assert "search" not in options.lower(), options  # no option's help copied from search
    # A cursor names its session, a recall subagent's run too: --include-recall would change nothing.
    assert "--include-recall" not in options, options
