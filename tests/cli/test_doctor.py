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


def test_doctor_checks_what_install_opencode_wrote(
    tmp_path: Path, sample_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess
    import sys

    # The Python doctor checks runs with our environment: a PYTHONPATH to a checkout's src (a worktree's
    # test run) would give the bare virtualenv below a recollect of its own.
    monkeypatch.delenv("PYTHONPATH", raising=False)

    config_dir = tmp_path / "xdg" / "opencode-elsewhere"
    runner = CliRunner()
    out = runner.invoke(main, ["doctor"])
    assert "opencode: not connected to recollect ('recollect install opencode'" in out.output, out.output
    assert runner.invoke(main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm"]).exit_code == 0
    fine = runner.invoke(main, ["doctor", "--json"])
    report = json.loads(fine.stdout)
    assert [c["config_dir"] for c in report["opencode"]] == [str(config_dir)], report["opencode"]
    assert report["opencode"][0]["problems"] == [] and len(report["opencode"][0]["fine"]) == 4  # positive control
    assert not [p for p in report["problems"] if p.startswith("OpenCode")]
    assert f"opencode: {config_dir} [ok]" in runner.invoke(main, ["doctor"]).output

    fix = f"run 'recollect install opencode --config-dir {config_dir}'"
    # A Python that exists but has no recollect: a bare virtualenv, as after a reinstall elsewhere.
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True, timeout=120)
    config = config_dir / "opencode.json"
    config.write_text(config.read_text().replace(json.dumps(sys.executable), json.dumps(str(bare / "bin" / "python"))))
    (config_dir / "plugin" / "recollect.js").unlink()
    agent = config_dir / "agent" / "recall.md"
    agent.write_text(agent.read_text().replace("managed by recollect", "mine now"))
    broken = runner.invoke(main, ["doctor"])
    assert broken.exit_code == 1, broken.output
    said = [line for line in broken.output.splitlines() if line.startswith("  - OpenCode: ")]
    assert len(said) == 3, broken.output
    assert "the MCP server runs " in said[0] and "No module named 'recollect'" in said[0] and said[0].endswith(fix)
    assert "plugin/recollect.js is missing, so auto-recall and memory injection are off; " + fix in said[1]
    assert "agent/recall.md is not recollect's; " + fix[:-1] + " --force' to replace it" in said[2]

    config.write_text(config.read_text().replace(json.dumps(str(bare / "bin" / "python")), '"/nonexistent/python3"'))
    gone = [p for p in problems(runner) if "MCP server" in p]
    assert gone and "/nonexistent/python3, which does not exist" in gone[0], gone

    # The fix it names is the fix.
    again = runner.invoke(main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm", "--force"])
    assert again.exit_code == 0, again.output
    assert runner.invoke(main, ["doctor"]).exit_code == 0


def test_a_deleted_config_dir_points_at_uninstall(tmp_path: Path, sample_db: Path) -> None:
    import shutil

    config_dir = tmp_path / "xdg" / "opencode-elsewhere"
    runner = CliRunner()
    assert runner.invoke(main, ["install", "opencode", "--config-dir", str(config_dir), "--no-npm"]).exit_code == 0
    assert not [p for p in problems(runner) if p.startswith("OpenCode")]  # positive control
    shutil.rmtree(config_dir)
    said = [p for p in problems(runner) if p.startswith("OpenCode")]
    # One problem, naming the command that drops the leftover record; installing again only if wanted.
    uninstall = f"recollect uninstall opencode --config-dir {config_dir}"
    assert len(said) == 1 and f"run '{uninstall}' to drop the record" in said[0], said
    assert f"or run 'recollect install opencode --config-dir {config_dir}' to install there again" in said[0]
    # The fix it names is the fix: the record goes, and doctor has nothing left to say of OpenCode.
    assert runner.invoke(main, uninstall.split()[1:]).exit_code == 0
    assert not [p for p in problems(runner) if p.startswith("OpenCode")]
    assert not config_dir.exists()
