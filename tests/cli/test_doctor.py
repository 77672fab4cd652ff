"""`recollect doctor` as a new user reads it: each problem once, and where recollect looked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main


def problems(runner: CliRunner) -> list[str]:
    out = runner.invoke(main, ["doctor", "--json"])
    assert out.exit_code in (0, 1), out.output
    return list(json.loads(out.stdout)["problems"])


def test_a_missing_store_is_one_problem_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gone = tmp_path / "nowhere" / "opencode.db"
    monkeypatch.setenv("OPENCODE_DB", str(gone))
    runner = CliRunner()
    before = problems(runner)
    assert before == [f"opencode: store not found at {gone}"]  # not indexed yet: doctor's own check
    indexed = runner.invoke(main, ["index"])
    assert indexed.exit_code == 1 and "not found" in indexed.output
    after = [p for p in problems(runner) if str(gone) in p]
    assert len(after) == 1, after  # the last sync's message, not that and doctor's own check again
    assert after[0].startswith("opencode: OpenCode store not found") and "OPENCODE_DB" in after[0]


def test_no_store_at_all_says_where_each_agent_was_looked_for(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    assert not [p for p in problems(runner) if "no session store" in p]  # positive control: a store is there
    monkeypatch.delenv("OPENCODE_DB")
    (found,) = [p for p in problems(runner) if p.startswith("no session store found")]
    for place in (
        "~/.local/share/opencode",
        "~/.claude/projects",
        "~/.codex/sessions",
        "~/.gemini/tmp",
        "OPENCODE_DB",
        "[[source]]",
    ):
        assert place in found, (place, found)


def test_index_with_no_store_points_at_doctor(sample_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    found = runner.invoke(main, ["index"])
    assert found.exit_code == 0 and "opencode: 12 sessions" in found.output  # positive control
    monkeypatch.delenv("OPENCODE_DB")
    nothing = runner.invoke(main, ["index"])
    assert "no session store found ('recollect doctor' says where it looked, and how to add one)" in nothing.output
    assert "no sources found" not in nothing.output.lower()
