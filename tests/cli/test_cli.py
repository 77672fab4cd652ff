"""The CLI as people and scripts use it: real processes, real store, JSON contract, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main

REPO = Path(__file__).resolve().parents[2]


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "recollect.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def test_index_then_search_json_contract(sample_db: Path) -> None:
    indexed = run("index")
    assert indexed.returncode == 0, indexed.stderr
    assert "opencode: 12 sessions" in indexed.stdout and len(indexed.stdout.strip().splitlines()) == 1
    out = run("search", "missing-file.txt", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) >= {"query", "hits", "coverage"}
    hit = data["hits"][0]
    for key in (
        "session_id",
        "message_id",
        "part_id",
        "cursor",
        "score",
        "title",
        "directory",
        "time",
        "role",
        "class",
        "snippet",
        "source",
        "agent_kind",
        "author",
        "why",
    ):
        assert key in hit, key
    for key in (
        "sessions_indexed",
        "sessions_in_scope",
        "sessions_matched",
        "limited_by",
        "skipped_by_reason",
        "sources",
        "hint",
    ):
        assert key in data["coverage"], key
    read = run("read", hit["cursor"], "--format", "chatml")
    assert read.returncode == 0 and "<hist " in read.stdout


def test_search_syncs_first_when_no_index_exists(sample_db: Path) -> None:
    out = run("search", "readme", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["hits"]  # stdout stays pure JSON
    assert "first time" in out.stderr and "12 sessions" in out.stderr
    again = run("search", "readme", "--json")
    assert "first time" not in again.stderr  # only the first search builds the index


def test_missing_store_gives_clear_message_and_nonzero_exit(tmp_path: Path) -> None:
    env = {"OPENCODE_DB": str(tmp_path / "nowhere" / "opencode.db")}
    out = run("index", env=env)
    assert out.returncode != 0
    assert "not found" in out.stdout + out.stderr
    assert "Traceback" not in out.stderr
    doctor = run("doctor", env=env)
    assert doctor.returncode != 0 and "store not found" in doctor.stdout


def test_bad_arguments_are_explained_not_tracebacks(sample_db: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["search", "x", "--since", "someday"])
    assert result.exit_code != 0 and "7d" in result.output
    result = runner.invoke(main, ["read", "opencode::ses_nope::msg_nope"])
    assert result.exit_code != 0 and "no session" in result.output


def test_an_empty_query_is_a_usage_error_not_no_hits(sample_db: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["search", "readme"]).exit_code == 0  # positive control
    for query in ("", "   "):
        result = runner.invoke(main, ["search", query])
        # It said "No hits for '': no session contains these words" and exited 0, as if it had searched.
        assert result.exit_code == 2 and "give words to search for" in result.output, result.output
        assert "recollect sessions" in result.output and "No hits" not in result.output


def test_doctor_reports_sources_and_index(sample_db: Path) -> None:
    run("index")
    out = run("doctor", "--json")
    assert out.returncode == 0, out.stdout
    data = json.loads(out.stdout)
    assert data["index_sessions"] == 12
    assert data["sources"][0]["kind"] == "opencode" and data["sources"][0]["status"] == "ok"


def test_sessions_lists_newest_first(sample_db: Path) -> None:
    out = run("sessions", "--json", "--limit", "5")
    rows = json.loads(out.stdout)["sessions"]
    assert len(rows) == 5
    assert [r["time_updated"] for r in rows] == sorted((r["time_updated"] for r in rows), reverse=True)


def test_demo_runs_on_the_builtin_store() -> None:
    out = run("demo", "--builtin")
    assert out.returncode == 0, out.stderr
    assert "12 sessions" in out.stdout and "<hist" not in out.stdout and "missing-file.txt" in out.stdout


def test_every_command_is_documented() -> None:
    doc = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")

    def walk(group, prefix: str):  # type: ignore[no-untyped-def]
        for name, command in group.commands.items():
            full = f"{prefix} {name}".strip()
            yield full
            if hasattr(command, "commands"):
                yield from walk(command, full)

    missing = [c for c in walk(main, "") if f"recollect {c}" not in doc]
    assert not missing, f"commands missing from docs/cli.md: {missing}"


def test_doctor_says_whether_the_card_encoder_is_on(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    off = run("doctor")  # the suite runs with RECOLLECT_EMBEDDINGS=off
    assert "session-card encoder: off" in off.stdout, off.stdout
    monkeypatch.delenv("RECOLLECT_EMBEDDINGS")
    on = run("doctor")
    assert "session-card encoder: on (muse-v3:" in on.stdout, on.stdout


def test_a_hit_found_by_meaning_says_so(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RECOLLECT_EMBEDDINGS")
    assert run("index").returncode == 0
    words = run("search", "missing-file.txt")  # a name: matched by its words only
    assert "missing-file.txt" in words.stdout and "by meaning" not in words.stdout
    meaning = run("search", "列出项目里的文件")  # "list the files in the project": no word in common
    assert "by meaning, no shared word" in meaning.stdout, meaning.stdout


def test_exact_finds_nothing_by_meaning(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RECOLLECT_EMBEDDINGS")
    assert run("index").returncode == 0
    # positive control: ranked, a query no session holds is still answered by meaning
    ranked = run("search", "列出项目里的文件")
    assert "by meaning, no shared word" in ranked.stdout, ranked.stdout
    # --exact asks for the words as typed: a hit that holds none of them is not one
    exact = run("search", "列出项目里的文件", "--exact")
    assert exact.returncode == 0 and "by meaning" not in exact.stdout, exact.stdout
    assert "No hits" in exact.stdout, exact.stdout
    held = run("search", "missing-file.txt", "--exact")  # a word the store holds is still found
    assert "missing-file.txt" in held.stdout, held.stdout


def test_exact_loads_no_model(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recollect import history

    monkeypatch.delenv("RECOLLECT_EMBEDDINGS")
    assert run("index").returncode == 0
    loaded: list[str] = []
    monkeypatch.setattr(history, "load_ahead", lambda app, text, **kw: loaded.append(text))
    runner = CliRunner()
    assert runner.invoke(main, ["search", "readme"]).exit_code == 0
    assert loaded == ["readme"]  # positive control: a ranked search loads its models ahead
    assert runner.invoke(main, ["search", "readme", "--exact"]).exit_code == 0
    assert loaded == ["readme"]  # --exact searches by no model: nothing loads them for it


def test_search_says_when_sessions_wait_to_be_embedded(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from recollect.config import load_config

    monkeypatch.delenv("RECOLLECT_EMBEDDINGS")
    assert run("index").returncode == 0
    assert "not yet searchable" not in run("search", "readme", "--no-sync").stdout  # positive control
    index = sqlite3.connect(load_config().index_path)
    with index:
        index.execute("DELETE FROM vector WHERE hash = (SELECT card_hash FROM session LIMIT 1)")
        index.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vector_generation'")
    out = run("search", "readme", "--no-sync").stdout
    assert "1 session is not yet searchable by meaning; 'recollect index' embeds them" in out, out


def test_since_and_until_take_today_and_yesterday(sample_db: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["index"]).exit_code == 0
    found = runner.invoke(main, ["search", "readme", "--no-sync", "--until", "today"])
    assert found.exit_code == 0 and "1. " in found.output, found.output  # every session is from before today's end
    for flag in ("--since", "--until"):
        for word in ("today", "yesterday"):
            said = runner.invoke(main, ["sessions", flag, word, "--json"])
            assert said.exit_code == 0, (flag, word, said.output)
    refused = runner.invoke(main, ["search", "readme", "--no-sync", "--since", "tomorrow"])
    assert refused.exit_code != 0 and "use today, yesterday" in refused.output, refused.output
    assert "today, yesterday, a date" in runner.invoke(main, ["search", "--help"]).output  # the help says so
