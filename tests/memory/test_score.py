"""Scoring: term overlap × idf × scope prior × time decay × rehearsal boost."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from recollect.memory.catalog import Loaded, RootContents
from recollect.memory.files import Memory, MemoryRoot
from recollect.memory.score import rehearsal_boost, score_memories, time_decay
from recollect.text.tokenize import query_terms, tokenize

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def loaded(mid: str, text: str, *, scope: str = "project", age_days: float = 0, pinned: bool = False) -> Loaded:
    memory = Memory(
        id=mid,
        scope=scope,  # type: ignore[arg-type]
        path=Path("/x"),
        summary=text,
        updated=NOW - timedelta(days=age_days),
        pinned=pinned,
    )
    counts: dict[str, int] = {}
    for token in tokenize(memory.search_text()):
        counts[token] = counts.get(token, 0) + 1
    return Loaded(memory, counts)


def contents_of(scope: str, docs: list[Loaded]) -> RootContents:
    postings: dict[str, set[str]] = {}
    for doc in docs:
        for term in doc.terms:
            postings.setdefault(term, set()).add(doc.memory.id)
    root = MemoryRoot(Path(f"/{scope}"), scope)  # type: ignore[arg-type]
    return RootContents(root, files={d.memory.id: d for d in docs}, postings=postings)


def rank(candidates: list[Loaded], query: str, half_life: float = 14, hits: dict[str, int] | None = None) -> list[str]:
    roots = []
    for scope in ("project", "global"):
        docs = [c for c in candidates if c.memory.scope == scope]
        roots.append((contents_of(scope, docs), np.ones(len(docs), dtype=bool)))
    scored = score_memories(roots, query_terms(query), now=NOW, half_life_days=half_life, hits={"project": hits or {}})
    return [s.memory.id for s in scored]


def test_only_eligible_rows_score() -> None:
    docs = [loaded("facts/a", "pnpm"), loaded("facts/b", "pnpm")]
    contents = contents_of("project", docs)
    both = score_memories([(contents, np.array([True, True]))], ["pnpm"], now=NOW, half_life_days=14, hits={})
    assert [s.memory.id for s in both] == ["facts/a", "facts/b"]  # positive control
    one = score_memories([(contents, np.array([False, True]))], ["pnpm"], now=NOW, half_life_days=14, hits={})
    assert [s.memory.id for s in one] == ["facts/b"]


def test_limit_keeps_the_best_and_breaks_ties_by_id() -> None:
    docs = [loaded(f"facts/n{i:02d}", "pnpm") for i in range(30)]
    roots = [(contents_of("project", docs[::-1]), np.ones(30, dtype=bool))]
    scored = score_memories(roots, ["pnpm"], now=NOW, half_life_days=0, hits={}, limit=3)
    assert [s.memory.id for s in scored] == ["facts/n00", "facts/n01", "facts/n02"]


def test_rare_terms_outweigh_common_ones() -> None:
    docs = [loaded(f"facts/common-{i}", "deploy notes") for i in range(5)] + [loaded("facts/rare", "pnpm")]
    docs.append(loaded("facts/both", "deploy pnpm"))
    assert rank(docs, "deploy pnpm")[:2] == ["facts/both", "facts/rare"]


def test_project_beats_global_on_a_tie() -> None:
    docs = [loaded("facts/g", "pnpm", scope="global"), loaded("facts/p", "pnpm", scope="project")]
    assert rank(docs, "pnpm") == ["facts/p", "facts/g"]


def test_decay_halves_every_half_life_and_can_be_disabled() -> None:
    day = 86400.0
    assert time_decay(14 * day, pinned=False, half_life_days=14) == pytest.approx(0.5)
    assert time_decay(28 * day, pinned=False, half_life_days=14) == pytest.approx(0.25)
    assert time_decay(28 * day, pinned=False, half_life_days=0) == 1.0
    assert time_decay(280 * day, pinned=True, half_life_days=14) == 1.0
    assert time_decay(-day, pinned=False, half_life_days=14) == 1.0  # a clock skew is not a bonus
    docs = [loaded("facts/old", "pnpm", age_days=60), loaded("facts/new", "pnpm", age_days=1)]
    assert rank(docs, "pnpm") == ["facts/new", "facts/old"]
    assert rank(docs, "pnpm", half_life=0) == ["facts/new", "facts/old"]  # tie broken by id
    pinned = [loaded("facts/old", "pnpm", age_days=60, pinned=True), loaded("facts/new", "pnpm", age_days=1)]
    assert rank(pinned, "pnpm")[0] == "facts/old"


def test_rehearsal_is_a_gentle_boost() -> None:
    assert rehearsal_boost(0) == 1.0
    assert 1.0 < rehearsal_boost(10) < 1.3
    docs = [loaded("facts/a", "pnpm"), loaded("facts/b", "pnpm")]
    assert rank(docs, "pnpm", hits={"facts/b": 3}) == ["facts/b", "facts/a"]


def test_no_shared_term_no_result() -> None:
    assert rank([loaded("facts/a", "pnpm")], "cargo") == []
    assert rank([loaded("facts/a", "pnpm")], "") == []


def test_cjk_bigram_meets_a_longer_word() -> None:
    docs = [loaded("pitfalls/deploy", "部署脚本用 pnpm 而不是 npm"), loaded("facts/other", "配置文件在根目录")]
    assert rank(docs, "部署") == ["pitfalls/deploy"]
    assert rank(docs, "配置") == ["facts/other"]


def test_a_noun_in_ment_meets_its_verb_through_the_one_tokenizer() -> None:
    docs = [loaded("facts/deploy", "we deploy with helm from the release branch"), loaded("facts/other", "pnpm")]
    assert rank(docs, "deploy") == ["facts/deploy"]  # positive control: the word itself
    assert rank(docs, "deployment") == ["facts/deploy"]
    assert rank(docs, "deployments") == ["facts/deploy"]
    assert rank(docs, "employment") == []  # a different word stays different
