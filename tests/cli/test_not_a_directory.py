"""A file where recollect needs a directory (RECOLLECT_HOME pointing at a file): the line names that file."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main


def test_a_file_in_the_way_is_named(sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    home = tmp_path / "home-dir"
    monkeypatch.setenv("RECOLLECT_HOME", str(home))
    assert runner.invoke(main, ["index"]).exit_code == 0  # positive control: a directory there
    in_the_way = tmp_path / "home-file"
    in_the_way.write_text("not a directory\n")
    monkeypatch.setenv("RECOLLECT_HOME", str(in_the_way))
    out = runner.invoke(main, ["search", "readme"])
    assert out.exit_code == 1 and "Traceback" not in out.output
    line = out.stderr.strip().splitlines()[-1]
    assert line.startswith(f"recollect: {in_the_way} is a file, where a directory is needed (for {in_the_way}/"), line
    assert line.endswith("move it, or choose another path")
    assert in_the_way.read_text() == "not a directory\n"  # and left as it was
