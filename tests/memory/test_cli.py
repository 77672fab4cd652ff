"""`recollect memory …` through click's CliRunner, and once as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli import main

DEPLOY = "部署脚本用 pnpm 而不是 npm"


@pytest.fixture
def cli(project: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(project)
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None, code: int = 0):
        result = runner.invoke(main, ["memory", *args], input=input)
        assert result.exit_code == code, (result.output, result.exception)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        return result

    return invoke


def test_add_recall_forget_round_trip(cli, project: Path) -> None:
    added = cli("add", "--category", "pitfalls", "--summary", "deploy tool", "--when", "deploy", DEPLOY)
    assert "remembered project:pitfalls/deploy-tool" in added.output
    assert (project / ".memory" / "pitfalls" / "deploy-tool.md").is_file()

    hits = json.loads(cli("recall", "部署", "--json").output)
    assert [h["id"] for h in hits] == ["pitfalls/deploy-tool"]
    assert hits[0]["body"] == DEPLOY and hits[0]["why"]["terms"] == {"部署": 1}

    listed = cli("list").output
    assert listed.splitlines()[0].split("\t")[:3] == ["pitfalls/deploy-tool", "project", "active"]
    shown = cli("show", "pitfalls/deploy-tool").output
    assert "summary: deploy tool" in shown and DEPLOY in shown

    assert "forgot project:pitfalls/deploy-tool" in cli("forget", "pitfalls/deploy-tool", "--reason", "wrong").output
    assert json.loads(cli("recall", "部署", "--json").output) == []
    readded = cli("add", "--category", "pitfalls", "--summary", "deploy tool", "--author", "model", DEPLOY, code=1)
    assert "forgotten" in readded.output
    assert "force" not in readded.output  # a model's write cannot be forced: no switch to name
    by_person = cli("add", "--category", "pitfalls", "--summary", "deploy tool", DEPLOY, code=1)
    # The switch is named as it is typed here: `--force`, not the library's parameter `force`.
    assert "forgotten" in by_person.output and "(run again with --force to re-add it)" in by_person.output

    log = json.loads(cli("log", "--json").output)
    assert [(e["op"], e["id"]) for e in log] == [
        ("remember", "pitfalls/deploy-tool"),
        ("forget", "pitfalls/deploy-tool"),
    ]
    assert log[1]["note"] == "wrong" and log[1]["after"] is None


def test_a_duplicate_names_the_switch_that_supersedes_it(cli) -> None:
    cli("add", "--summary", "pnpm for deploys", "Deploys go through pnpm, never npm.")
    again = cli("add", "--summary", "pnpm for deploys", "Deploys go through pnpm, never npm.", code=1).output
    # "supersede it if it is outdated" named no command a person could run: the switch and its id now.
    switch = "--supersedes project:facts/pnpm-for-deploys"
    assert f"(run again with {switch} to replace it, or with --force to add it anyway)" in again, again
    replaced = cli("add", *switch.split(), "Deploys go through pnpm 9, never npm.").output
    assert "superseding facts/pnpm-for-deploys" in replaced  # the switch it names does it


def test_body_from_stdin_and_duplicate_exit_code(cli) -> None:
    cli("add", "-c", "facts", "-s", "ci", "-", input="CI runs on Fridays\n")
    dup = cli("add", "-c", "facts", "-s", "ci", "CI runs on Fridays", "--json", code=1)
    assert json.loads(dup.output)["outcome"] == "duplicate"


def test_review_flow(cli) -> None:
    cli("add", "-c", "rules", "--author", "model", "Always squash merge")
    pending = json.loads(cli("review", "--json").output)
    assert [p["id"] for p in pending] == ["rules/always-squash-merge"]
    assert pending[0]["effective_status"] == "proposed"
    listed = cli("review")
    assert "rules/always-squash-merge" in listed.stdout  # positive control: the proposal is listed
    # ...and what to do with it, said once on stderr (the listing on stdout stays one row a proposal)
    assert "recollect memory review accept rules/always-squash-merge" in listed.stderr
    assert "recollect memory show rules/always-squash-merge" in listed.stderr and "--reason" in listed.stderr
    assert "recollect memory review accept" not in listed.stdout
    cli("review", "edit", "rules/always-squash-merge", "--summary", "Squash merge feature branches")
    cli("review", "accept", "rules/always-squash-merge", "--note", "ok")
    assert cli("review").output.strip() == "nothing to review"
    assert "Squash merge feature branches" in cli("inject", "anything").output

    cli("add", "-c", "rules", "--author", "model", "Use tabs")
    missing_reason = cli("review", "reject", "rules/use-tabs", code=2)
    assert "--reason" in missing_reason.output
    cli("review", "reject", "rules/use-tabs", "--reason", "we use spaces")
    assert json.loads(cli("show", "rules/use-tabs", "--json").output)["effective_status"] == "rejected"


def test_errors_are_one_line_and_non_zero(cli, project: Path) -> None:
    for args, needle in (
        (("forget", "../../etc/passwd"), "is not a memory id"),
        (("forget", "facts/nothing"), "no memory facts/nothing"),
        (("show", "facts/nothing"), "no memory facts/nothing"),
        (("add", "-c", "misc", "x"), "unknown category"),
        (("add", "-c", "facts", "token: ghp_" + "a" * 36), "looks like a secret"),
        (("review", "accept", "facts/nothing"), "no memory"),
    ):
        result = cli(*args, code=1)
        assert needle in result.output and "Traceback" not in result.output
    assert not (project / ".memory").exists()  # nothing was written, so no root was created


def test_inspect_and_compile_check(cli, project: Path) -> None:
    cli("add", "-c", "facts", "-s", "one", "first fact")
    inspected = cli("inspect").output
    assert "self-check: no problems" in inspected
    assert "(1 memory)" in inspected and "(1 memories)" not in inspected, inspected
    cli("add", "-c", "facts", "-s", "three", "third fact")
    assert "(2 memories)" in cli("inspect").output
    (project / ".memory" / "facts" / "two.md").write_text("---\nsummary: two\n---\nsecond\n")
    report = json.loads(cli("inspect", "--json").output)
    assert not report["ok"] and {p["code"] for p in report["problems"]} == {"index-drift", "root-drift"}
    cli("inspect", "--strict", code=1)
    cli("compile", "--check", code=1)
    assert "compiled" in cli("compile").output
    assert cli("compile", "--check").output.strip() == "up to date"


def test_outside_any_project_only_the_global_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_home: Path
) -> None:
    elsewhere = tmp_path / "not-a-repo"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    runner = CliRunner()
    result = runner.invoke(main, ["memory", "add", "-c", "preferences", "-s", "dark mode", "I like dark mode"])
    assert result.exit_code == 0 and "global:preferences/dark-mode" in result.output
    assert (isolated_home / "memory" / "preferences" / "dark-mode.md").is_file()
    assert not (elsewhere / ".memory").exists()


def test_real_process(project: Path, isolated_home: Path) -> None:
    env = {**os.environ, "RECOLLECT_HOME": str(isolated_home)}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "recollect.cli", "memory", *args],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    added = run("add", "--category", "facts", "--summary", "S", "the body about pnpm")
    assert added.returncode == 0, added.stderr
    hits = json.loads(run("recall", "pnpm", "--json").stdout)
    assert [h["id"] for h in hits] == ["facts/s"]
    bad = run("forget", "../x")
    assert bad.returncode == 1 and bad.stderr.startswith("recollect: ") and "Traceback" not in bad.stderr


def test_recall_deployment_finds_a_memory_about_deploy(cli) -> None:
    cli("add", "--category", "facts", "--summary", "how we deploy", "we deploy with helm from the release branch")
    assert [h["id"] for h in json.loads(cli("recall", "deploy", "--json").output)] == ["facts/how-we-deploy"]
    assert [h["id"] for h in json.loads(cli("recall", "deployment", "--json").output)] == ["facts/how-we-deploy"]


def test_recall_says_the_words_the_user_typed_not_their_stems(cli) -> None:
    cli("add", "--category", "facts", "--summary", "deployments", "deployments are missing their tags")
    # The query's stems match too (deployment -> deploy, missing -> miss) and are kept as terms for scripts.
    hit = json.loads(cli("recall", "deployment", "missing", "--json").output)[0]
    assert {"deploy", "miss"} <= set(hit["why"]["terms"])  # positive control: the stems matched
    terms = hit["why"]["terms"]
    # Each word counts as often as its most frequent term (the stem: every inflection of it in the memory).
    assert hit["why"]["words"] == {"deployment": terms["deploy"], "missing": terms["miss"]}
    said = cli("recall", "Deployment", "missing").output
    assert f"matched: Deployment×{terms['deploy']}, missing×{terms['miss']}\n" in said, said
