"""The pipeline against a scripted fake LLM on 127.0.0.1 (OpenAI-compatible) and a real-schema store.

Every scripted extraction lands exactly where it should — active memory, proposal, skipped
duplicate, blocked secret, forgotten-not-recreated, malformed-rejected — and nothing else is
written: the memory roots' file listings are compared before and after.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from recollect.cli import main
from recollect.config import resolve_paths
from recollect.extract import ExtractError, RunOptions, extract_session, extract_since
from recollect.extract.state import read_log
from recollect.memory import forget, get_memory, list_memories, open_memory, proposals, remember
from recollect.text.markers import WORKER_TITLE_MARKER
from tests.e2e.fake_llm import FakeLLM

from .conftest import listing, reply_rule
from .store import Store, assistant, tool, user

SECRET = "ghp_" + "Zx9Yw8Vu7T" * 4


def _conversation(tag: str) -> list[Any]:
    """Four turns; the first line says `tag`, so a fake-LLM rule can answer this session only."""
    return [
        user(f"{tag}: we deploy with pnpm, never npm; npm ignores pnpm-lock.yaml"),
        assistant("Understood: deploys use pnpm because the lockfile is pnpm's.", tool("bash", "TOOLOUTPUT-TRAP")),
        user("Never push directly to main, always open a pull request."),
        assistant("I will open pull requests from now on."),
        user("CI runs on GitHub Actions with a nightly matrix build."),
        assistant("Noted, the nightly matrix build runs on GitHub Actions."),
        user("Copying opencode.db without its -wal file loses recent rows."),
        assistant("Right: open it in place, read-only."),
    ]


def _good(summary: str, category: str, evidence: list[int], **extra: Any) -> dict[str, Any]:
    return {"category": category, "summary": summary, "body": extra.pop("body", ""), "evidence": evidence, **extra}


SCRIPTED = [
    _good(
        "Deploys use pnpm because the lockfile is pnpm's",
        "decisions",
        [1, 2],
        highlight="pnpm, not npm",
        body="npm ignores pnpm-lock.yaml and resolves other versions.",
        load_when=["deploy", "pnpm"],
    ),
    # Filed by the model as a preference; it reads as a standing order, so it becomes a proposed rule.
    _good("Never push directly to main; open a pull request", "preferences", [3], load_when=["git push"]),
    # Already known (a person wrote it): skipped as a duplicate.
    _good("CI runs on GitHub Actions with a nightly matrix build", "facts", [5], load_when=["CI"]),
    # Holds a token: blocked, never written, never logged.
    _good("The deploy bot authenticates with a token", "facts", [1], body=f"token: {SECRET}"),
    # A person forgot this one: it must not come back.
    _good("Copying opencode.db without its -wal file loses recent rows", "pitfalls", [7], load_when=["sqlite wal"]),
]


@pytest.fixture
def world(project: Path, store: Store, llm: FakeLLM, configure: Callable[..., Path]) -> dict[str, Any]:
    space = open_memory(project=project)
    ci = remember(space, "CI runs on GitHub Actions with a nightly matrix build.", category="facts")
    wal = remember(space, "Copying opencode.db without its -wal file loses recent rows.", category="pitfalls")
    forget(space, wal.id, reason="obsolete")
    sid = store.session(project, _conversation("ALPHA"), title="deploy fixes")
    llm.set_rules([reply_rule(["ALPHA"], SCRIPTED)])
    return {"space": space, "sid": sid, "project": project, "ci": f"project:{ci.id}", "wal": f"project:{wal.id}"}


def _outcomes(report: Any) -> list[tuple[str, str]]:
    return [(c.outcome, c.category) for s in report.sessions for c in s.candidates]


def test_each_scripted_extraction_lands_where_it_should(world: dict[str, Any], llm: FakeLLM) -> None:
    project_root = world["project"] / ".memory"
    global_root = resolve_paths().global_memory
    before_project, before_global = listing(project_root), listing(global_root)

    report = extract_session(world["sid"])

    (session,) = report.sessions
    assert session.status == "extracted", session.reason
    assert session.session == f"opencode::{world['sid']}" and session.turns == 4
    assert _outcomes(report) == [
        ("written", "decisions"),
        ("proposed", "rules"),
        ("duplicate", "facts"),
        ("blocked", "facts"),
        ("forgotten", "pitfalls"),
    ]
    written, proposed, duplicate, blocked, forgotten = session.candidates
    assert duplicate.similar_to == world["ci"]
    assert forgotten.similar_to == world["wal"]
    assert blocked.summary == "" and "token" in blocked.reason
    assert proposed.rule_like and "reads as a hard rule" in proposed.reason

    # The active memory: a model's, with its session and the lines that support it.
    entry = get_memory(world["space"], written.memory_id)
    memory = entry.memory
    assert entry.status == "active" and memory.author == "model:fake-extractor"
    assert memory.source_session == f"opencode::{world['sid']}"
    assert memory.load_when == ["deploy", "pnpm"] and memory.highlight == "pnpm, not npm"
    assert "> L1 user: ALPHA: we deploy with pnpm" in memory.body
    # The rule waits for a person, and review shows where it came from.
    (pending,) = proposals(world["space"])
    assert pending.memory.qualified_id == proposed.memory_id and pending.memory.category == "rules"
    assert pending.memory.source_session == f"opencode::{world['sid']}"
    assert "> L3 user: Never push directly to main" in pending.memory.body

    # Nothing else was written: two new memory files (and their category indexes), nothing global.
    after = listing(project_root)
    new = set(after) - set(before_project)
    assert new == {
        written.memory_id.split(":", 1)[1] + ".md",
        proposed.memory_id.split(":", 1)[1] + ".md",
        "decisions/index.md",
        "rules/index.md",
    }
    assert not set(before_project) - set(after)
    changed = {k for k in before_project if after[k] != before_project[k]}
    assert changed <= {"ROOT.md", "audit.jsonl"}
    assert listing(global_root) == before_global
    assert SECRET not in "".join(p.read_text() for p in project_root.rglob("*") if p.is_file())

    # What the model saw: the typed lines, never the tool output.
    (request,) = [r for r in llm.requests() if "ALPHA" in json.dumps(r["request"])]
    sent = json.dumps(request["request"])
    assert "TOOLOUTPUT-TRAP" not in sent and request["request"]["model"] == "fake-extractor"

    # Every outcome is in the extraction log with its reason; the secret is not.
    log = read_log(resolve_paths())
    assert [r["outcome"] for r in log if r["event"] == "candidate"] == [o for o, _ in _outcomes(report)]
    assert all(r["reason"] for r in log)
    assert SECRET not in json.dumps(log)


def test_malformed_output_is_rejected_whole_with_a_logged_reason(
    world: dict[str, Any], store: Store, llm: FakeLLM
) -> None:
    sid = store.session(world["project"], _conversation("BRAVO"), title="more")
    half_good = json.dumps({"memories": [SCRIPTED[0]]})[:-3]  # one good candidate, then cut off
    llm.set_rules([reply_rule(["BRAVO"], None, raw="Here are the memories: " + half_good)])
    before = listing(world["project"] / ".memory")

    report = extract_session(sid)

    (session,) = report.sessions
    assert session.status == "malformed" and "not JSON" in session.reason
    assert session.candidates == []
    assert listing(world["project"] / ".memory") == before
    (entry,) = [r for r in read_log(resolve_paths()) if r["event"] == "malformed"]
    assert "not JSON" in entry["reason"] and entry["session"] == f"opencode::{sid}"


def test_a_second_run_sends_only_new_turns_and_redo_sends_all(
    world: dict[str, Any], store: Store, llm: FakeLLM
) -> None:
    extract_session(world["sid"])
    again = extract_session(world["sid"])
    assert again.sessions[0].reason == "no new turns since the last extraction"
    assert len([r for r in llm.requests() if "ALPHA" in json.dumps(r["request"])]) == 1

    store.append(world["sid"], [user("ALPHA follow-up: the staging host is staging.internal"), assistant("ok")])
    llm.set_rules([reply_rule(["ALPHA", "follow-up"], [])])
    report = extract_session(world["sid"])
    assert report.sessions[0].status == "extracted" and report.sessions[0].lines == 2
    last = llm.requests()[-1]["request"]["messages"][-1]["content"]
    assert "L1 user: ALPHA follow-up" in last and "deploy with pnpm" not in last

    llm.set_rules([reply_rule(["ALPHA"], SCRIPTED)])
    redo = extract_session(world["sid"], RunOptions(redo=True))
    # Everything is known by now: re-extraction never writes twice.
    assert {o for o, _ in _outcomes(redo)} <= {"duplicate", "forgotten", "blocked"}


def test_too_few_turns_workers_and_subagents_are_left_alone(world: dict[str, Any], store: Store, llm: FakeLLM) -> None:
    short = store.session(world["project"], _conversation("CHARLIE")[:4], title="short")
    worker = store.session(world["project"], _conversation("DELTA"), title=f"{WORKER_TITLE_MARKER} extract x")
    child = store.session(world["project"], _conversation("ECHO"), title="sub", parent=world["sid"])
    reasons = {sid: extract_session(sid).sessions[0].reason for sid in (short, worker, child)}
    assert "2 turns, fewer than min_turns (4)" in reasons[short]
    assert "worker" in reasons[worker] and "subagent" in reasons[child]
    assert llm.requests() == []  # not one model call


def test_min_turns_is_configurable(
    world: dict[str, Any], store: Store, llm: FakeLLM, configure: Callable[..., Path]
) -> None:
    configure(min_turns=2)
    short = store.session(world["project"], _conversation("CHARLIE")[:4], title="short")
    llm.set_rules([reply_rule(["CHARLIE"], [])])
    assert extract_session(short).sessions[0].status == "extracted"


def test_the_plugins_auto_extract_switch_does_not_break_extraction(
    world: dict[str, Any], configure: Callable[..., Path]
) -> None:
    path = configure()
    path.write_text(path.read_text() + "\n[memory]\nauto_extract = true\n")
    assert _outcomes(extract_session(world["sid"]))[0] == ("written", "decisions")


def test_a_dry_run_reports_exactly_and_writes_nothing(world: dict[str, Any]) -> None:
    home = resolve_paths().data_dir
    before_memory, before_home = listing(world["project"] / ".memory"), listing(home)
    report = extract_session(world["sid"], RunOptions(dry_run=True))
    assert _outcomes(report) == [
        ("would-write", "decisions"),
        ("would-propose", "rules"),
        ("duplicate", "facts"),
        ("blocked", "facts"),
        ("forgotten", "pitfalls"),
    ]
    assert listing(world["project"] / ".memory") == before_memory
    assert listing(home) == before_home  # no state, no log
    # And the real run afterwards still does the work.
    assert _outcomes(extract_session(world["sid"]))[0] == ("written", "decisions")


def test_a_model_failure_leaves_the_turns_for_next_time(
    world: dict[str, Any], llm: FakeLLM, configure: Callable[..., Path]
) -> None:
    llm.set_rules([{"kind": "any", "match": ["ALPHA"], "error_status": 500, "text": "overloaded"}])
    failed = extract_session(world["sid"])
    assert failed.sessions[0].status == "failed" and "HTTP 500" in failed.sessions[0].reason
    llm.set_rules([reply_rule(["ALPHA"], SCRIPTED)])
    assert extract_session(world["sid"]).sessions[0].status == "extracted"


def test_a_sweep_covers_sessions_changed_since_the_last_one(world: dict[str, Any], store: Store, llm: FakeLLM) -> None:
    with pytest.raises(ExtractError, match="first sweep"):
        extract_since()
    report = extract_since(0)
    assert [s.status for s in report.sessions] == ["extracted"]
    store.session(world["project"], _conversation("FOXTROT"), title="later")
    llm.set_rules([reply_rule(["FOXTROT"], [])])
    second = extract_since()
    assert [(s.title, s.status) for s in second.sessions if s.status != "skipped"] == [("later", "extracted")]
    assert len([r for r in llm.requests() if "ALPHA" in json.dumps(r["request"])]) == 1


def test_a_sweep_retries_a_session_whose_model_call_failed(world: dict[str, Any], llm: FakeLLM) -> None:
    llm.set_rules([{"kind": "any", "match": ["ALPHA"], "error_status": 503, "text": "busy"}])
    assert [s.status for s in extract_since(0).sessions] == ["failed"]
    llm.set_rules([reply_rule(["ALPHA"], [])])
    assert [s.status for s in extract_since().sessions] == ["extracted"]


def test_a_sweep_stops_at_max_sessions_and_continues_next_time(
    world: dict[str, Any], store: Store, llm: FakeLLM, configure: Callable[..., Path]
) -> None:
    configure(max_sessions=1)
    store.session(world["project"], _conversation("HOTEL"), title="second")
    llm.set_rules([reply_rule(["ALPHA"], []), reply_rule(["HOTEL"], [])])
    first = extract_since(0)
    assert [s.title for s in first.sessions if s.status == "extracted"] == ["deploy fixes"]
    assert first.limited_by and "max_sessions" in first.limited_by[0]
    second = extract_since()
    assert [s.title for s in second.sessions if s.status == "extracted"] == ["second"]


def test_a_global_preference_goes_to_the_global_root(world: dict[str, Any], llm: FakeLLM) -> None:
    memory = _good("Prefers answers in British English", "preferences", [1], scope="global")
    llm.set_rules([reply_rule(["ALPHA"], [memory])])
    (outcome,) = extract_session(world["sid"]).sessions[0].candidates
    assert outcome.outcome == "written" and outcome.memory_id.startswith("global:preferences/")
    assert [e.memory.id for e in list_memories(world["space"]) if e.memory.scope == "global"] == [
        outcome.memory_id.split(":", 1)[1]
    ]


def test_a_session_outside_any_project_writes_only_to_the_global_root(
    tmp_path: Path, store: Store, llm: FakeLLM, configure: Callable[..., Path]
) -> None:
    plain = tmp_path / "scratch"
    plain.mkdir()
    sid = store.session(plain, _conversation("GOLF"), title="no git here")
    llm.set_rules([reply_rule(["GOLF"], [SCRIPTED[0]])])
    (outcome,) = extract_session(sid).sessions[0].candidates
    assert outcome.memory_id.startswith("global:")
    assert not (plain / ".memory").exists()


# --- the command ----------------------------------------------------------------------------------


def test_cli_is_silent_on_success_and_reports_with_json(world: dict[str, Any]) -> None:
    runner = CliRunner()
    quiet = runner.invoke(main, ["extract", "--session", world["sid"]])
    assert quiet.exit_code == 0 and quiet.output == ""
    data = json.loads(runner.invoke(main, ["extract", "--session", world["sid"], "--redo", "--json"]).output)
    assert data["model"] == {"id": "fake-extractor"}
    assert data["sessions"][0]["status"] == "extracted"
    assert set(data["counts"]) <= {"duplicate", "forgotten", "blocked"}


def test_cli_reports_malformed_output_on_stderr_with_status_1(
    world: dict[str, Any], store: Store, llm: FakeLLM
) -> None:
    llm.set_rules([reply_rule(["ALPHA"], None, raw="not json at all")])
    result = CliRunner().invoke(main, ["extract", "--session", world["sid"]])
    assert result.exit_code == 1
    assert "malformed" in result.output and "not JSON" in result.output


def test_cli_fails_fast_without_a_model(
    world: dict[str, Any], configure: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RECOLLECT_OPENCODE_URL", raising=False)
    configure(endpoint="", model="")
    result = CliRunner().invoke(main, ["extract", "--session", world["sid"]])
    assert result.exit_code == 2 and "no model to extract with" in result.output
    assert "'opencode --port 4096'" in result.output  # how to have one: a plain TUI serves no API
    unknown = CliRunner().invoke(main, ["extract", "--session", "ses_doesnotexist"], env={})
    assert unknown.exit_code == 2


def test_doctor_says_when_extraction_last_failed_until_a_run_reaches_a_model(
    world: dict[str, Any], configure: Callable[..., Path]
) -> None:
    def failures() -> list[str]:
        out = CliRunner().invoke(main, ["doctor", "--json"])
        return [p for p in json.loads(out.stdout)["problems"] if "the last memory extraction failed" in p]

    assert CliRunner().invoke(main, ["install", "opencode", "--no-npm"]).exit_code == 0  # the plugin extracts
    assert failures() == []  # positive control: nothing has run yet
    # The plugin's extraction against an OpenCode TUI that listens on no port (1.18.33 without --port).
    configure(endpoint="", model="", opencode_url="http://127.0.0.1:9")
    assert CliRunner().invoke(main, ["extract", "--session", world["sid"]]).exit_code == 1
    (said,) = failures()
    assert said.startswith("OpenCode: the last memory extraction failed at ")
    assert f"(session opencode::{world['sid']})" in said and "cannot reach http://127.0.0.1:9" in said
    assert "'opencode --port 4096'" in said  # what to do about it
    assert CliRunner().invoke(main, ["uninstall", "opencode"]).exit_code == 0
    assert failures() == []  # no plugin, no automatic extraction to worry about
    assert CliRunner().invoke(main, ["install", "opencode", "--no-npm"]).exit_code == 0
    assert len(failures()) == 1
    configure()  # the fake model again: a run that reaches it clears the problem
    assert CliRunner().invoke(main, ["extract", "--session", world["sid"]]).exit_code == 0
    assert failures() == []
