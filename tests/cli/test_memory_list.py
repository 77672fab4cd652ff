"""`recollect memory list` marks a file with problems, and names a broken file by its text, not by '---'."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main


def test_a_hand_broken_memory_file_is_listed_with_its_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    monkeypatch.chdir(project)
    runner = CliRunner()
    added = runner.invoke(main, ["memory", "add", "-c", "facts", "-s", "staging db port", "Staging listens on 6543."])
    assert added.exit_code == 0, added.output
    listed = runner.invoke(main, ["memory", "list"]).output
    assert "staging db port" in listed and "problems" not in listed  # positive control: a sound file
    broken = project / ".memory" / "facts" / "broken.md"
    broken.write_text("---\nid: facts/broken\nsummary: [unclosed\n---\nThe CI cache key is the lockfile hash.\n")
    listed = runner.invoke(main, ["memory", "list"]).output
    (line,) = [ln for ln in listed.splitlines() if "facts/broken" in ln]
    assert "The CI cache key is the lockfile hash." in line and "---" not in line
    assert "file has problems: 'recollect memory inspect'" in line
    (sound,) = [ln for ln in listed.splitlines() if "staging db port" in ln]
    assert "problems" not in sound
