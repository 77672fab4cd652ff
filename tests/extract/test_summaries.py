"""Session summaries: from card fields only, batched, strict, redone only when the card changed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from recollect.cli.extract import summarize_cmd
from recollect.config import resolve_paths
from recollect.extract.candidates import MalformedOutput
from recollect.extract.summaries import parse_summaries, read_summaries, summarize
from recollect.text.markers import WORKER_TITLE_MARKER
from tests.e2e.fake_llm import FakeLLM

from .store import Store, assistant, tool, user


def _answer(*summaries: str) -> dict[str, object]:
    body = {"summaries": [{"n": i, "summary": s} for i, s in enumerate(summaries, 1)]}
    return {"kind": "any", "match": ["cards:"], "text": json.dumps(body)}


@pytest.fixture
def two_sessions(project: Path, store: Store, configure: Callable[..., Path]) -> tuple[str, str]:
    older = store.session(
        project, [user("fix the flaky deploy"), assistant("Pinned pnpm.", tool("bash", "BODYTRAP output"))]
    )
    newer = store.session(project, [user("add a health endpoint"), assistant("Added /healthz.")], title="health")
    store.session(project, [user("worker prompt")], title=f"{WORKER_TITLE_MARKER} extract x")
    return older, newer


def test_summaries_are_written_then_left_alone_until_the_session_changes(
    two_sessions: tuple[str, str], store: Store, project: Path, llm: FakeLLM
) -> None:
    older, newer = two_sessions
    llm.set_rules([_answer("Added a health endpoint at /healthz.", "Fixed a flaky deploy by pinning pnpm.")])
    report = summarize()
    assert [w["session"] for w in report.written] == [f"opencode::{newer}", f"opencode::{older}"]
    stored = read_summaries(resolve_paths())
    assert stored[f"opencode::{older}"].summary == "Fixed a flaky deploy by pinning pnpm."
    assert stored[f"opencode::{older}"].model == "fake-extractor"
    (request,) = llm.requests()
    prompt = request["request"]["messages"][-1]["content"]
    assert "first request: fix the flaky deploy" in prompt
    assert "BODYTRAP" not in prompt and "worker prompt" not in prompt  # card fields only; no workers

    again = summarize()
    assert again.unchanged == 2 and again.written == [] and len(llm.requests()) == 1

    store.append(older, [user("also pin node"), assistant("Pinned node 22.")])
    llm.set_rules([_answer("Pinned pnpm and node for deploys.")])
    third = summarize()
    assert [w["session"] for w in third.written] == [f"opencode::{older}"] and third.unchanged == 1
    assert read_summaries(resolve_paths())[f"opencode::{older}"].summary == "Pinned pnpm and node for deploys."


def test_a_malformed_batch_stores_nothing(two_sessions: tuple[str, str], llm: FakeLLM) -> None:
    llm.set_rules([_answer("Only one summary for two cards.")])
    report = summarize()
    assert report.written == [] and "have no summary" in report.failed[0]
    assert read_summaries(resolve_paths()) == {}


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("nope", "not JSON"),
        ('{"summaries": [{"n": 3, "summary": "x"}]}', "not a card number"),
        ('{"summaries": [{"n": 1, "summary": "x"}, {"n": 1, "summary": "y"}]}', "summarized twice"),
        ('{"summaries": [{"n": 1, "summary": "' + "x" * 601 + '"}]}', "at most 600"),
        ('{"summaries": [{"n": 1}]}', "expected exactly"),
    ],
)
def test_summary_replies_are_strict(reply: str, reason: str) -> None:
    with pytest.raises(MalformedOutput, match=reason):
        parse_summaries(reply, 2 if "twice" in reason else 1)


def test_summarize_command_reports_json_and_dry_run_stores_nothing(two_sessions: tuple[str, str], llm: FakeLLM) -> None:
    llm.set_rules([_answer("One.", "Two.")])
    result = CliRunner().invoke(summarize_cmd, ["--dry-run", "--json"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["written"]) == 2
    assert read_summaries(resolve_paths()) == {}
