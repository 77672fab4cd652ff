"""`recollect install opencode`'s report on a terminal: one line per file, its columns lined up."""

from __future__ import annotations

from pathlib import Path

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
