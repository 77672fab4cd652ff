"""The reply format is strict: a reply is taken whole or not at all, with a reason naming the field."""

from __future__ import annotations

import json
from typing import Any

import pytest

from recollect.extract.candidates import (
    MalformedOutput,
    looks_like_rule,
    parse_candidates,
    system_prompt,
    user_prompt,
)
from recollect.extract.transcript import Line, Transcript


def _transcript() -> Transcript:
    t = Transcript("ses_1", "deploys", "/p")
    t.lines = [Line(i, "user" if i % 2 else "assistant", f"line {i}", f"m{i}") for i in range(1, 6)]
    return t


def _good(**over: Any) -> dict[str, Any]:
    item = {
        "category": "decisions",
        "summary": "Deploys use pnpm because the lockfile is pnpm's.",
        "highlight": "pnpm, not npm",
        "body": "npm ignores pnpm-lock.yaml and resolves different versions.",
        "load_when": ["deploy", "pnpm"],
        "evidence": [1, "L3"],
        "scope": "project",
    }
    item.update(over)
    return item


def _parse(memories: Any) -> list[Any]:
    return parse_candidates(json.dumps({"memories": memories}), _transcript())


def test_a_good_reply_becomes_candidates_with_quoted_evidence() -> None:
    (c,) = _parse([_good()])
    assert c.category == "decisions" and c.scope == "project" and not c.rule_like
    assert [ln.number for ln in c.evidence] == [1, 3]
    body = c.body_with_evidence("opencode::ses_1")
    assert body.startswith("npm ignores")
    assert "Evidence from session opencode::ses_1:\n> L1 user: line 1\n> L3 user: line 3" in body
    assert "pnpm" in c.keywords_text() and "npm ignores" not in c.keywords_text()


def test_nothing_to_remember_is_a_valid_reply() -> None:
    assert _parse([]) == []


def test_one_code_fence_is_tolerated_prose_is_not() -> None:
    fenced = "```json\n" + json.dumps({"memories": [_good()]}) + "\n```"
    assert len(parse_candidates(fenced, _transcript())) == 1
    with pytest.raises(MalformedOutput, match="not JSON"):
        parse_candidates("Sure! Here you go:\n" + json.dumps({"memories": []}), _transcript())


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("", "empty reply"),
        ("[]", "expected an object"),
        ('{"memories": [], "notes": "x"}', "unexpected: notes"),
        ('{"memories": {}}', "must be a list"),
        ('{"memories": [', "not JSON"),
    ],
)
def test_malformed_shapes_are_rejected_with_a_reason(reply: str, reason: str) -> None:
    with pytest.raises(MalformedOutput, match=reason):
        parse_candidates(reply, _transcript())


@pytest.mark.parametrize(
    ("override", "reason"),
    [
        ({"category": "gossip"}, "category: 'gossip' is not one of"),
        ({"summary": ""}, "summary: empty"),
        ({"summary": "x" * 201}, "summary: 201 characters"),
        ({"summary": "two\nlines"}, "summary: must be one line"),
        ({"summary": 42}, "summary: expected a string"),
        ({"body": "b" * 2001}, "body: 2001 characters"),
        ({"load_when": "deploy"}, "load_when: expected a list"),
        ({"load_when": [f"w{i}" for i in range(9)]}, "load_when: 9 items"),
        ({"evidence": []}, "must cite at least one"),
        ({"evidence": [99]}, "line 99 is not in the transcript"),
        ({"evidence": [True]}, "is not a line number"),
        ({"scope": "everywhere"}, "scope"),
        ({"kind": "rule"}, "contradicts category"),
        ({"confidence": 0.9}, "unknown keys confidence"),
    ],
)
def test_one_bad_candidate_rejects_the_whole_reply(override: dict[str, Any], reason: str) -> None:
    with pytest.raises(MalformedOutput, match=reason) as info:
        _parse([_good(summary="A fine first memory about the build cache."), _good(**override)])
    assert "memories[1]" in str(info.value)


def test_too_many_candidates_is_malformed() -> None:
    with pytest.raises(MalformedOutput, match="at most 8"):
        _parse([_good(summary=f"memory {i}") for i in range(9)])


def test_kind_alone_names_the_category() -> None:
    item = _good(kind="pitfall")
    del item["category"]
    (c,) = _parse([item])
    assert c.category == "pitfalls"


def test_anything_that_reads_as_a_hard_rule_is_filed_as_a_rule() -> None:
    (c,) = _parse([_good(category="preferences", summary="Never push directly to main; open a pull request.")])
    assert c.category == "rules" and c.rule_like and c.raw_category == "preferences"
    (zh,) = _parse([_good(category="facts", summary="提交前必须跑完测试")])
    assert zh.category == "rules"
    # Control: ordinary statements stay where the model filed them.
    (plain,) = _parse([_good()])
    assert plain.category == "decisions"
    assert looks_like_rule("Always run ruff before committing")
    assert not looks_like_rule("The cache lives in ~/.cache")


def test_prompt_lists_the_categories_and_the_transcript() -> None:
    system = system_prompt(("rules", "facts"), 3)
    assert "one of: rules, facts" in system and "At most 3 memories" in system
    assert "L2 assistant: line 2" in user_prompt(_transcript())
