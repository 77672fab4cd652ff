"""The CLI under the config's `[scope] ceiling`: search, read and sessions refuse what reaches beyond
it (one line naming the setting, exit 1), each after a positive control; `recollect read` omits our
own earlier tool calls with or without a ceiling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main
from recollect.text.markers import OWN_OUTPUT_OMITTED
from tests.scope_stores import ALPHA_WORD, BETA_WORD, TwoProjects, build, write_config


@pytest.fixture
def two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TwoProjects:
    project = build(tmp_path, monkeypatch)
    monkeypatch.chdir(project.alpha)  # the CLI's ceiling is anchored where it runs
    return project


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def refused(code: int, output: str, config: Path) -> None:
    assert code == 1, output
    assert "ceiling 'project'" in output and str(config) in output and "Traceback" not in output


def test_search_and_sessions(two: TwoProjects, isolated_home: Path) -> None:
    code, out = run("search", BETA_WORD, "--no-sync", "--json")  # positive control: no ceiling yet
    assert code == 0 and two.beta_session in out
    config = write_config(isolated_home, '[scope]\nceiling = "project"\n')

    code, out = run("search", ALPHA_WORD, "--no-sync", "--json")
    assert code == 0 and json.loads(out)["coverage"]["scope"] == "project" and two.alpha_session in out
    code, out = run("search", BETA_WORD, "--no-sync", "--json")
    assert code == 0 and json.loads(out)["hits"] == []  # the default follows the ceiling
    refused(*run("search", BETA_WORD, "--no-sync", "--scope", "all"), config)
    refused(*run("search", BETA_WORD, "--no-sync", "--directory", str(two.beta)), config)
    refused(*run("search", BETA_WORD, "--no-sync", "--session", two.beta_session), config)

    code, out = run("sessions", "--json")
    listed = {s["session_id"] for s in json.loads(out)["sessions"]}
    assert code == 0 and two.alpha_session in listed and two.beta_session not in listed
    refused(*run("sessions", "--scope", "all"), config)


def test_read(two: TwoProjects, isolated_home: Path) -> None:
    code, out = run("read", two.cursor(two.beta_session))
    assert code == 0 and BETA_WORD in out  # positive control: no ceiling yet
    config = write_config(isolated_home, '[scope]\nceiling = "project"\n')
    code, out = run("read", two.cursor(two.alpha_session))
    assert code == 0 and ALPHA_WORD in out
    refused(*run("read", two.cursor(two.beta_session)), config)
    refused(*run("read", two.beta_session, "--session", two.beta_session), config)
    refused(*run("read", two.cursor(two.alpha_session), "--scope", "all"), config)


@pytest.mark.parametrize("fmt", ["text", "chatml", "json"])
def test_read_omits_our_own_earlier_tool_calls(two: TwoProjects, fmt: str) -> None:
    code, out = run("read", two.cursor(two.alpha_echo), "--mode", "head", "--format", fmt)
    assert code == 0 and "Found it in another project." in out
    assert OWN_OUTPUT_OMITTED in out and BETA_WORD not in out and str(two.beta) not in out


def test_a_bad_ceiling_value_is_one_line(two: TwoProjects, isolated_home: Path) -> None:
    write_config(isolated_home, '[scope]\nceiling = "galaxy"\n')
    code, out = run("search", ALPHA_WORD, "--no-sync")
    assert code == 1 and "ceiling must be one of all, project, directory" in out and "Traceback" not in out


def test_save(two: TwoProjects, isolated_home: Path, tmp_path: Path) -> None:
    config = write_config(isolated_home, '[scope]\nceiling = "project"\n')
    code, out = run("read", two.cursor(two.alpha_session), "--save", str(tmp_path / "own.chatml"))
    assert code == 0, out
    assert ALPHA_WORD in (tmp_path / "own.chatml").read_text()
    refused(*run("read", two.cursor(two.beta_session), "--save", str(tmp_path / "foreign.chatml")), config)
    assert not (tmp_path / "foreign.chatml").exists()


def test_hidden_sessions_list_only_those_inside_the_ceiling(two: TwoProjects, isolated_home: Path) -> None:
    for session in (two.alpha_session, two.beta_session):
        assert run("hide", session, "--why", "test")[0] == 0
    code, out = run("sessions", "--hidden", "--json")  # positive control: no ceiling, both listed
    listed = {h["session"] for h in json.loads(out)["hidden"]}
    assert code == 0 and listed == {two.cursor(two.alpha_session), two.cursor(two.beta_session)}
    write_config(isolated_home, '[scope]\nceiling = "project"\n')
    code, out = run("sessions", "--hidden", "--json")
    assert code == 0 and {h["session"] for h in json.loads(out)["hidden"]} == {two.cursor(two.alpha_session)}
    assert str(two.beta) not in out
