"""The config file as a person edits it: a relative path means the file's own directory, a wrong type is
one line, and a misspelt key is named by doctor instead of silently doing nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main
from recollect.config import load_config


def config_file(home: Path, text: str) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    path = home / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_relative_index_path_is_taken_from_the_config_files_directory(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    absolute = tmp_path / "elsewhere" / "index.db"
    config_file(isolated_home, f'[index]\npath = "{absolute}"\n')
    assert load_config().index_path == absolute  # positive control: an absolute path is kept as written
    config_file(isolated_home, '[index]\npath = "idx/index.db"\n')
    for cwd in (tmp_path, tmp_path / "elsewhere"):
        cwd.mkdir(exist_ok=True)
        monkeypatch.chdir(cwd)
        assert load_config().index_path == isolated_home / "idx" / "index.db"  # never the cwd's idx/
    shown = CliRunner().invoke(main, ["config", "show"]).output
    assert f'index.path = "{isolated_home / "idx" / "index.db"}"' in " ".join(shown.split())


def test_a_path_that_is_not_a_string_is_one_line(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config_file(isolated_home, f'[index]\npath = "{tmp_path / "index.db"}"\n')
    assert CliRunner().invoke(main, ["config", "show"]).exit_code == 0  # positive control
    config_file(isolated_home, "[index]\npath = 3\n")
    out = CliRunner().invoke(main, ["search", "anything"])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert out.stderr.strip() == (
        f"recollect: {isolated_home / 'config.toml'}: [index] path must be a path in quotes, not 3; fix it in the file"
    )
    assert not (Path.cwd() / "3").exists()


def test_doctor_names_a_misspelt_key_or_section(isolated_home: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["config", "init"]).exit_code == 0  # every option, commented at its default
    clean = json.loads(runner.invoke(main, ["doctor", "--json"]).output)["problems"]
    assert not [p for p in clean if "no option" in p]  # positive control: the file recollect writes
    path = config_file(
        isolated_home, '[index]\npathh = "x.db"\n[embedings]\nenabled = false\n[embeddings]\ntimeout = 5\n'
    )
    problems = json.loads(runner.invoke(main, ["doctor", "--json"]).output)["problems"]
    named = [p for p in problems if p.startswith(f"{path}: ")]
    assert len(named) == 2, named  # [embeddings] timeout is read by the provider: not misspelt
    assert any("[index] pathh is no option recollect reads" in p for p in named)
    assert any("[embedings] is no option recollect reads" in p for p in named)
    assert all("'recollect config show' lists every option" in p for p in named)


@pytest.mark.parametrize(("written", "shown"), [("0", "0"), ("false", "False"), ('""', "''"), ('"  "', "'  '")])
def test_an_empty_or_false_index_path_is_named_not_taken_for_the_default(
    isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str, shown: str
) -> None:
    monkeypatch.chdir(tmp_path)
    config_file(isolated_home, f'[index]\npath = "{tmp_path / "index.db"}"\n')
    assert CliRunner().invoke(main, ["config", "show"]).exit_code == 0  # positive control
    config_file(isolated_home, f"[index]\npath = {written}\n")
    out = CliRunner().invoke(main, ["config", "show"])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert f"[index] path must be a path in quotes, not {shown}" in out.stderr
