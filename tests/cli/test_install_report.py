"""`recollect install opencode`'s report on a terminal: one line per file, its columns lined up."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main


def test_the_report_lines_up_its_keys_after_actions_of_different_lengths(tmp_path: Path) -> None:
    config_dir = tmp_path / "xdg" / "opencode"
    config_dir.mkdir(parents=True)
    (config_dir / "opencode.json").write_text('{"theme": "dark"}\n')  # a person's config: our entry is an "add"
    done = CliRunner().invoke(main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm"])
    assert done.exit_code == 0, done.output
    rows = [line for line in done.stdout.splitlines() if line.startswith("  /") and line.endswith("]")]
    actions = {line.split("[")[0].split()[-1] for line in rows}
    assert len(rows) == 3 and {"add", "create"} <= actions, done.output  # control: actions of two lengths
    assert len({line.index("[") for line in rows}) == 1, done.stdout
    assert all(line == line.rstrip() for line in done.output.splitlines()), done.output


def test_the_undo_it_prints_names_the_config_dir_it_installed_into(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    elsewhere = tmp_path / "my opencode"  # a space: the command must still paste as one argument
    done = runner.invoke(main, ["install", "opencode", "--config-dir", str(elsewhere), "--no-npm"])
    assert done.exit_code == 0, done.output
    undo = done.stdout.split("undo with: ", 1)[1].splitlines()[0]
    assert undo == f"recollect uninstall opencode --config-dir '{elsewhere}'", done.stdout
    # The undo it names is the undo: pasted as printed, it takes the install back.
    assert runner.invoke(main, shlex.split(undo)[1:]).exit_code == 0
    assert not (elsewhere / "plugin" / "recollect.js").exists()
    # OpenCode's own config dir needs no --config-dir, given or not, and a relative one is made absolute.
    default = Path(os.environ["XDG_CONFIG_HOME"]) / "opencode"
    done = runner.invoke(main, ["install", "opencode", "--no-npm"])
    assert done.stdout.split("undo with: ", 1)[1].splitlines()[0] == "recollect uninstall opencode", done.stdout
    monkeypatch.chdir(tmp_path)
    done = runner.invoke(main, ["install", "opencode", "--config-dir", "rel", "--no-npm"])
    assert f"--config-dir {tmp_path / 'rel'}" in done.stdout and default.is_dir(), done.stdout
