"""The operations and their trust rules, on real files in real git work trees.

Every "must not" is preceded by a positive control showing the same path does work.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from recollect.memory import (
    InvalidMemory,
    MemoryNotFound,
    MemorySpace,
    NotAllowed,
    SecretRefused,
    accept,
    compile_memory,
    edit,
    forget,
    get_memory,
    inspect,
    list_memories,
    open_memory,
    proposals,
    read_log,
    recall,
    reject,
    remember,
    supersede,
)
from recollect.memory.files import render_memory

from .conftest import git_init

DEPLOY = "部署脚本用 pnpm 而不是 npm,因为 lockfile 不兼容"


def ids(hits: list) -> list[str]:
    return [h.memory.id for h in hits]


def test_remember_writes_the_file_index_root_and_gitignore(space: MemorySpace, project: Path) -> None:
    result = remember(space, DEPLOY, category="pitfalls", summary="Deploy uses pnpm", load_when=["deploy", "部署"])
    assert result.outcome == "written" and result.id == "pitfalls/deploy-uses-pnpm"
    root = project / ".memory"
    assert (root / "pitfalls" / "deploy-uses-pnpm.md").read_text().startswith("---\nid: pitfalls/deploy-uses-pnpm\n")
    assert "[deploy-uses-pnpm](deploy-uses-pnpm.md) — Deploy uses pnpm" in (root / "pitfalls" / "index.md").read_text()
    root_md = (root / "ROOT.md").read_text()
    assert "| 部署 | pitfalls/deploy-uses-pnpm |" in root_md
    assert ".state.json" in (root / ".gitignore").read_text().splitlines()
    assert (root / "pitfalls" / "deploy-uses-pnpm.md").stat().st_mode & 0o077 == 0


def test_two_character_chinese_word_recalls_the_sentence(space: MemorySpace) -> None:
    remember(space, DEPLOY, category="pitfalls", summary="pnpm for deploys")
    remember(space, "The staging database is reset every night", category="facts")
    hits = recall(space, "部署")
    assert ids(hits) == ["pitfalls/pnpm-for-deploys"]
    assert hits[0].why.terms == {"部署": 1}
    assert hits[0].memory.body == DEPLOY  # recall returns the full text


def test_recall_counts_hits_and_the_count_boosts(space: MemorySpace, project: Path) -> None:
    remember(space, "deploy with pnpm", category="facts", summary="one")
    recall(space, "pnpm")
    recall(space, "pnpm")
    state = json.loads((project / ".memory" / ".state.json").read_text())
    assert state["hits"] == {"facts/one": 2}
    hit = recall(space, "pnpm", record_hits=False)[0]
    assert hit.why.hits == 2 and hit.why.rehearsal > 1.0


def test_superseded_memory_is_not_recalled_while_its_successor_is(space: MemorySpace) -> None:
    remember(space, "Deploys run npm install", category="decisions", summary="deploy with npm")
    assert ids(recall(space, "deploy")) == ["decisions/deploy-with-npm"]  # positive control
    result = supersede(space, "decisions/deploy-with-npm", "Deploys run pnpm install", summary="deploy with pnpm")
    assert result.outcome == "written" and result.superseded == "decisions/deploy-with-npm"
    assert ids(recall(space, "deploy")) == ["decisions/deploy-with-pnpm"]
    old = get_memory(space, "decisions/deploy-with-npm")
    assert old.status == "superseded" and old.memory.superseded_by == "decisions/deploy-with-pnpm"
    assert get_memory(space, "decisions/deploy-with-pnpm").memory.supersedes == ["decisions/deploy-with-npm"]


def test_forgotten_memory_stays_forgotten(space: MemorySpace, project: Path) -> None:
    first = remember(space, DEPLOY, category="pitfalls", summary="Deploy uses pnpm")
    assert ids(recall(space, "部署")) == ["pitfalls/deploy-uses-pnpm"]  # positive control
    forget(space, "pitfalls/deploy-uses-pnpm", reason="wrong")
    path = project / ".memory" / "pitfalls" / "deploy-uses-pnpm.md"
    assert not path.exists()
    assert recall(space, "部署") == []

    compile_memory(space)
    assert recall(space, "部署") == [] and not path.exists()

    again = remember(
        space, DEPLOY, category="pitfalls", summary="Deploy uses pnpm", author="model", source_session="ses_1"
    )
    assert again.outcome == "forgotten" and again.similar_to == "project:pitfalls/deploy-uses-pnpm"
    assert not path.exists() and recall(space, "部署") == []

    # A sync that brings the file back does not bring the memory back.
    assert first.memory is not None
    path.write_text(render_memory(first.memory))
    assert recall(space, "部署") == []
    assert any(p.code == "forgotten-file" for p in inspect(space).problems)


def test_a_person_can_deliberately_re_add_a_forgotten_memory(space: MemorySpace) -> None:
    remember(space, DEPLOY, category="pitfalls", summary="Deploy uses pnpm")
    forget(space, "pitfalls/deploy-uses-pnpm")
    assert remember(space, DEPLOY, category="pitfalls", summary="Deploy uses pnpm").outcome == "forgotten"
    with pytest.raises(NotAllowed):
        remember(space, DEPLOY, category="pitfalls", summary="Deploy uses pnpm", author="model", force=True)
    result = remember(space, DEPLOY, category="pitfalls", summary="Deploy uses pnpm", force=True)
    assert result.outcome == "written"
    assert ids(recall(space, "部署")) == [result.id]
    assert [e.op for e in read_log(space)][-2:] == ["lift-tombstone", "remember"]


def test_model_rule_never_becomes_active_without_review(space: MemorySpace, project: Path) -> None:
    person_rule = remember(space, "Never force-push main", category="rules", summary="Never force-push main")
    assert person_rule.outcome == "written"  # positive control: a person's rule is active at once
    assert get_memory(space, person_rule.id).status == "active"

    proposed = remember(space, "Always squash merge", category="rules", summary="Always squash merge", author="model")
    assert proposed.outcome == "proposed"
    assert [e.memory.id for e in proposals(space)] == ["rules/always-squash-merge"]
    assert recall(space, "squash") == []
    assert "squash" not in (project / ".memory" / "ROOT.md").read_text().split("## Hard rules")[1].split("##")[0]

    # Hand-editing the file to "active" does not make a model's rule a hard rule.
    path = project / ".memory" / "rules" / "always-squash-merge.md"
    path.write_text(path.read_text().replace("status: proposed", "status: active"))
    assert get_memory(space, "rules/always-squash-merge").status == "proposed"
    assert recall(space, "squash") == []

    with pytest.raises(NotAllowed):
        accept(space, "rules/always-squash-merge", reviewer="model")
    assert recall(space, "squash") == []

    accept(space, "rules/always-squash-merge", note="agreed in standup")
    assert ids(recall(space, "squash")) == ["rules/always-squash-merge"]
    assert get_memory(space, "rules/always-squash-merge").memory.reviewed_by == "person"


def test_rejected_proposal_stays_out_and_is_not_proposed_again(space: MemorySpace) -> None:
    remember(space, "Prefer tabs", category="rules", summary="Prefer tabs", author="model")
    with pytest.raises(InvalidMemory):
        reject(space, "rules/prefer-tabs", reason="  ")
    reject(space, "rules/prefer-tabs", reason="we use spaces")
    entry = get_memory(space, "rules/prefer-tabs")
    assert entry.status == "rejected" and entry.memory.review_note == "we use spaces"
    assert recall(space, "tabs") == [] and proposals(space) == []
    again = remember(space, "Prefer tabs", category="rules", summary="Prefer tabs", author="model")
    assert again.outcome == "duplicate" and again.similar_to == "project:rules/prefer-tabs"


def test_model_cannot_forget_or_supersede_a_hard_rule(space: MemorySpace) -> None:
    remember(space, "Never commit to main", category="rules", summary="Never commit to main")
    with pytest.raises(NotAllowed):
        forget(space, "rules/never-commit-to-main", author="model")
    result = supersede(space, "rules/never-commit-to-main", "Commit to main is fine", summary="main ok", author="model")
    assert result.outcome == "proposed"
    assert get_memory(space, "rules/never-commit-to-main").status == "active"  # still in force
    accept(space, result.id)
    assert get_memory(space, "rules/never-commit-to-main").status == "superseded"


def test_secret_is_never_written(space: MemorySpace, project: Path) -> None:
    assert remember(space, "token lives in the vault", category="facts", summary="vault").outcome == "written"
    body = "Deploy with:\nexport OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx1234"
    with pytest.raises(SecretRefused, match="body line 2"):
        remember(space, body, category="facts", summary="deploy key")
    assert not (project / ".memory" / "facts" / "deploy-key.md").exists()
    assert "sk-proj" not in "".join(p.read_text() for p in (project / ".memory").rglob("*") if p.is_file())
    with pytest.raises(SecretRefused, match="summary"):
        remember(space, "x", category="facts", summary="password = hunter22hunter")
    with pytest.raises(SecretRefused):
        edit(space, "facts/vault", body="ghp_" + "a" * 36)
    assert get_memory(space, "facts/vault").memory.body == "token lives in the vault"


def test_project_memory_does_not_appear_in_another_project(tmp_path: Path) -> None:
    alpha = open_memory(git_init(tmp_path / "alpha"))
    beta = open_memory(git_init(tmp_path / "beta"))
    remember(alpha, "alpha deploys with pnpm", category="facts", summary="alpha deploy")
    remember(alpha, "everyone uses pnpm", category="preferences", summary="pnpm everywhere", scope="global")
    assert ids(recall(alpha, "pnpm")) == ["facts/alpha-deploy", "preferences/pnpm-everywhere"]  # positive control
    assert ids(recall(beta, "pnpm")) == ["preferences/pnpm-everywhere"]
    assert [e.memory.id for e in list_memories(beta, include_inactive=True)] == ["preferences/pnpm-everywhere"]
    assert not (tmp_path / "beta" / ".memory").exists()  # reading never creates a root


def test_project_wins_on_conflict_but_global_hard_rules_stay(space: MemorySpace) -> None:
    remember(space, "global way: npm", category="decisions", summary="npm", slug="pkg", scope="global")
    assert recall(space, "npm")[0].memory.scope == "global"  # positive control
    remember(space, "project way: pnpm", category="decisions", summary="pnpm", slug="pkg")
    assert [(h.memory.scope, h.memory.id) for h in recall(space, "way")] == [("project", "decisions/pkg")]
    assert get_memory(space, "global:decisions/pkg").shadowed

    remember(space, "No secrets in git", category="rules", summary="No secrets in git", slug="git", scope="global")
    remember(space, "Sign commits", category="rules", summary="Sign commits", slug="git")
    hits = recall(space, "git", limit=5)
    assert {(h.memory.scope, h.memory.id) for h in hits} == {("global", "rules/git"), ("project", "rules/git")}


def test_expired_and_not_yet_valid_memories_do_not_surface(space: MemorySpace) -> None:
    now = datetime(2026, 6, 1, tzinfo=UTC)
    remember(space, "freeze on releases", category="facts", summary="freeze", valid_to="2026-07-01", now=now)
    assert ids(recall(space, "freeze", now=now)) == ["facts/freeze"]  # positive control
    later = now + timedelta(days=60)
    assert recall(space, "freeze", now=later) == []
    assert get_memory(space, "facts/freeze", now=later).status == "expired"
    remember(space, "new api from july", category="facts", summary="new api", valid_from="2026-07-01", now=now)
    assert recall(space, "api", now=now) == []
    assert ids(recall(space, "api", now=later)) == ["facts/new-api"]


def test_duplicates_are_skipped_and_said_so(space: MemorySpace) -> None:
    remember(space, "Run the linter before pushing", category="preferences", summary="lint before push")
    dup = remember(space, "Run the linter before pushing", category="preferences", summary="lint before push")
    assert dup.outcome == "duplicate" and "similar to project:preferences/lint-before-push" in dup.message
    loose = remember(
        space,
        "Run the linter before pushing",
        category="preferences",
        summary="lint before push",
        author="model",
        similarity_threshold=1.01,  # the threshold is the caller's to tune
    )
    assert loose.outcome == "written"


def test_unknown_category_and_model_force_are_refused(space: MemorySpace) -> None:
    with pytest.raises(InvalidMemory, match="unknown category"):
        remember(space, "x", category="misc")
    with pytest.raises(MemoryNotFound):
        forget(space, "facts/nothing-here")
    with pytest.raises(InvalidMemory):
        forget(space, "../../etc/passwd")


def test_edit_by_person_only_and_audit_records_hashes(space: MemorySpace) -> None:
    remember(space, "old text", category="facts", summary="thing")
    with pytest.raises(NotAllowed):
        edit(space, "facts/thing", author="model", body="new")
    edit(space, "facts/thing", body="new text", load_when=["thing"])
    assert get_memory(space, "facts/thing").memory.body == "new text"
    log = read_log(space)
    assert [(e.op, e.actor) for e in log] == [("remember", "person"), ("edit", "person")]
    assert log[1].before == log[0].after and log[1].after != log[1].before
    assert all("text" not in e.note for e in log)


def test_missing_project_root_is_skipped_on_read_and_created_on_write(space: MemorySpace, project: Path) -> None:
    assert recall(space, "anything") == [] and inspect(space).ok
    assert not (project / ".memory").exists()
    duplicate_free = remember(space, "first note", category="facts")
    assert duplicate_free.outcome == "written" and (project / ".memory" / "ROOT.md").is_file()


def test_inspect_flags_a_secret_a_person_typed_into_a_file(space: MemorySpace, project: Path) -> None:
    remember(space, "harmless", category="facts", summary="harmless")
    assert inspect(space).ok  # positive control
    path = project / ".memory" / "facts" / "harmless.md"
    path.write_text(path.read_text() + "\nline two\nAKIAABCDEFGHIJKLMNOP\n")
    secret = [p for p in inspect(space).problems if p.code == "secret"]
    assert len(secret) == 1 and "body line 4" in secret[0].message and "AKIA" not in secret[0].message
