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


def test_without_opencode_on_path_it_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stand_in = bin_dir / "opencode"  # answers --version as the real one does
    stand_in.write_text("#!/bin/sh\necho 1.18.33\n")
    stand_in.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")
    runner = CliRunner()
    found = runner.invoke(main, ["install", "opencode", "--config-dir", str(tmp_path / "a"), "--no-npm"])
    assert found.exit_code == 0, found.output
    assert "Restart OpenCode to load it." in found.stdout and "no OpenCode on PATH" not in found.stdout  # control
    stand_in.unlink()
    missing = runner.invoke(main, ["install", "opencode", "--config-dir", str(tmp_path / "b"), "--no-npm"])
    assert missing.exit_code == 0, missing.output
    assert "note: no OpenCode on PATH answered 'opencode --version'" in missing.stdout
    assert "npm install -g opencode-ai@1.18.33" in missing.stdout and "Restart OpenCode" not in missing.stdout
