"""A search that finds nothing says so once, and names the constraint to relax."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main


def test_no_hits_says_it_once_and_what_to_widen(
    sample_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    found = runner.invoke(main, ["search", "readme", "--no-sync"])
    assert found.exit_code == 0 and "1. " in found.output  # positive control: the words are in the store
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert os.getcwd() == str(elsewhere)
    none = runner.invoke(main, ["search", "readme", "--no-sync", "--scope", "directory"])
    assert none.exit_code == 0, none.output
    first = none.output.splitlines()[0]
    assert first == "No hits for 'readme': try to widen --scope directory to --scope all", first
    assert "no hits" not in none.output.lower().replace("no hits for", "", 1)


def test_the_summary_line_counts_in_the_right_number(sample_db: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    two = runner.invoke(main, ["search", "missing-file.txt", "--no-sync", "-n", "2"]).output
    assert "\n2 hits from 1 session; " in two  # positive control: a plural and a singular
    one = runner.invoke(main, ["search", "missing-file.txt", "--no-sync", "-n", "1"]).output
    assert "\n1 hit from 1 session; " in one and "1 hits" not in one and "1 sessions" not in one


def test_a_directory_that_does_not_exist_is_noted(sample_db: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    there = runner.invoke(main, ["search", "readme", "--no-sync", "-C", str(tmp_path), "--scope", "directory"])
    assert there.exit_code == 0 and "note:" not in there.stderr  # positive control: a real directory
    typo = tmp_path / "projcts" / "app"
    missing = runner.invoke(main, ["search", "readme", "--no-sync", "-C", str(typo), "--scope", "directory"])
    assert missing.exit_code == 0
    assert f"note: -C {typo} is no directory here; searching sessions recorded there" in missing.stderr


def test_no_sync_without_an_index_says_how_to_make_one_and_creates_nothing(
    sample_db: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    found = runner.invoke(main, ["search", "readme", "--no-sync"])
    assert found.exit_code == 0 and "1. " in found.output, found.output  # positive control: an index
    nowhere = tmp_path / "fresh" / "index.db"
    monkeypatch.setenv("RECOLLECT_INDEX", str(nowhere))
    missing = runner.invoke(main, ["search", "readme", "--no-sync"])
    assert missing.exit_code == 1, missing.output
    assert missing.stdout == "" and "Traceback" not in missing.stderr, missing.output
    assert missing.stderr.startswith("recollect: there is no index yet (") and "run 'recollect index'" in missing.stderr
    assert not nowhere.parent.exists()  # nothing created: no empty index, no folder


def test_a_query_that_starts_with_a_dash_is_named_whole_in_the_hint(sample_db: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    after = runner.invoke(main, ["search", "--no-sync", "--", "-Xmx512m"])
    assert after.exit_code == 0, after.output  # positive control: after '--' it is a query
    before = runner.invoke(main, ["search", "--no-sync", "-Xmx512m"])
    assert before.exit_code == 2 and "No such option '-X'" in before.stderr, before.stderr
    assert "put it after '--': recollect search -- -Xmx512m" in before.stderr, before.stderr


def test_a_misspelt_option_is_corrected_first_on_its_own(sample_db: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    right = runner.invoke(main, ["search", "--no-sync", "--limit", "5", "readme"])
    assert right.exit_code == 0, right.output  # positive control: the option spelt right
    typo = runner.invoke(main, ["search", "--no-sync", "--lmit", "5", "readme"])
    assert typo.exit_code == 2, typo.output
    error = typo.stderr.split("Error: ", 1)[1].splitlines()
    # The correction ends the error's first line; how to search for the text itself follows on its own line.
    assert error[0] == "No such option '--lmit'. Did you mean '--limit'?", typo.stderr
    assert error[1] == "(To search for the text '--lmit' itself: recollect search -- --lmit)", typo.stderr


def test_a_store_with_no_session_yet_is_said_to_hold_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude = tmp_path / "claude"
    (claude / "projects" / "-work-app").mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    monkeypatch.setenv("RECOLLECT_SOURCES", "claude-code")
    runner = CliRunner()
    home = tmp_path / "home-with-one"
    monkeypatch.setenv("RECOLLECT_HOME", str(home))
    transcript = (
        Path(__file__).resolve().parents[1] / "data" / "claude-code" / "1ff3b1f4-aca7-440e-8faf-06d54b235f74.jsonl"
    )
    one = claude / "projects" / "-work-app" / "s1.jsonl"
    one.write_bytes(transcript.read_bytes())
    found = runner.invoke(main, ["search", "login"])
    assert "1. " in found.output and "no session is indexed" not in found.output  # control: one session
    one.unlink()
    monkeypatch.setenv("RECOLLECT_HOME", str(tmp_path / "home-with-none"))
    empty = runner.invoke(main, ["search", "anything"])
    assert empty.exit_code == 0, empty.output
    assert "no session is indexed yet: your agents' stores hold none" in empty.output
    assert "run 'recollect index'" not in empty.output  # the search has just indexed


def test_a_store_that_cannot_be_read_is_named_not_said_to_hold_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RECOLLECT_SOURCES", "opencode")
    missing = tmp_path / "typo" / "opencode.db"
    monkeypatch.setenv("OPENCODE_DB", str(missing))
    out = CliRunner().invoke(main, ["search", "anything"])
    assert out.exit_code == 0, out.output
    # It said "your agents' stores hold none", as if the store were there and empty.
    assert f"no session is indexed: OpenCode store not found: {missing}" in out.output, out.output
    assert "hold none" not in out.output


def test_a_search_that_finds_nothing_even_literally_says_so_in_one_line(sample_db: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    # Positive control: a text no word matches, found by the literal retry, says that retry gave its hits.
    literal = runner.invoke(main, ["search", "issing-fi", "--no-sync", "--exact"]).output
    assert "so the hits are the newest text that holds 'issing-fi' as typed" in literal, literal
    for args in (["qqzzxx-nowhere"], ["qqzzxx-nowhere", "--exact"]):
        none = runner.invoke(main, ["search", *args, "--no-sync"])
        assert none.exit_code == 0, none.output
        lines = none.output.splitlines()
        # One line says nothing matched, and that the text as typed was scanned for too (it printed two).
        assert lines[0] == (
            "No hits for 'qqzzxx-nowhere': no session searched holds these words, nor the text as typed "
            "(a literal scan of the same sessions was tried too); try other words, an identifier, or an error message"
        ), lines
        assert sum("matched" in line or "No hits" in line or "as typed" in line for line in lines) == 1, lines
