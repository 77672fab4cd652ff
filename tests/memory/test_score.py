"""Scoring: term overlap × idf × scope prior × time decay × rehearsal boost."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from recollect.memory.catalog import Loaded
from recollect.memory.files import Memory
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


def rank(candidates: list[Loaded], query: str, half_life: float = 14, hits: dict[str, int] | None = None) -> list[str]:
    scored = score_memories(
        candidates, query_terms(query), now=NOW, half_life_days=half_life, hits_of=lambda m: (hits or {}).get(m.id, 0)
    )
    return [s.memory.id for s in scored]


def test_rare_terms_outweigh_common_ones() -> None:
    docs = [loaded(f"facts/common-{i}", "deploy notes") for i in range(5)] + [loaded("facts/rare", "pnpm")]
    docs.append(loaded("facts/both", "deploy pnpm"))
    assert rank(docs, "deploy pnpm")[:2] == ["facts/both", "facts/rare"]


def test_project_beats_global_on_a_tie() -> None:
    docs = [loaded("facts/g", "pnpm", scope="global"), loaded("facts/p", "pnpm", scope="project")]
    assert rank(docs, "pnpm") == ["facts/p", "facts/g"]


def test_decay_halves_every_half_life_and_can_be_disabled() -> None:
    assert time_decay(loaded("facts/a", "x", age_days=14).memory, NOW, 14) == 0.5
    assert time_decay(loaded("facts/a", "x", age_days=28).memory, NOW, 14) == 0.25
    assert time_decay(loaded("facts/a", "x", age_days=28).memory, NOW, 0) == 1.0
    assert time_decay(loaded("facts/a", "x", age_days=280, pinned=True).memory, NOW, 14) == 1.0
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
