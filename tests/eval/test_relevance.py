"""The relevance eval holds its committed baseline: no metric, overall or per category, may fall.

The corpus (tests/data/eval) is indexed once per module; every labelled query of bench/eval/queries.jsonl
runs through recollect.history.search. After an intentional ranking change, update the baseline with
`recollect eval --write-baseline` and commit it (docs/eval.md).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from bench.eval.evaluate import (
    METRICS,
    TOLERANCE,
    Corpus,
    EvalError,
    EvalQuery,
    EvalReport,
    QueryResult,
    Ranked,
    load_baseline,
    load_queries,
    metrics,
    rank_of,
    regressions,
    run_corpus,
    summarize,
)
from recollect.search.scope import Filters
from recollect.search.stages import disabled as stages_disabled

REPO = Path(__file__).resolve().parents[2]
QUERIES = REPO / "bench" / "eval" / "queries.jsonl"
BASELINE = REPO / "bench" / "eval" / "baseline.json"
DATA = REPO / "tests" / "data" / "eval"


@pytest.fixture(scope="module")
def queries() -> list[EvalQuery]:
    return load_queries(QUERIES)


@pytest.fixture(scope="module")
def corpus() -> Iterator[Corpus]:
    # The baseline is measured with semantic search on, as users get it when the model is installed.
    with pytest.MonkeyPatch.context() as env:
        env.delenv("RECOLLECT_EMBEDDINGS", raising=False)
        with Corpus(DATA) as prepared:
            yield prepared


@pytest.fixture(scope="module")
def engine_ranked(corpus: Corpus) -> dict[str, list[Ranked]]:
    """Every query's whole ranked list from the engine, as `report` ran it (the report keeps the top 5)."""
    return {}


@pytest.fixture(scope="module")
def report(corpus: Corpus, queries: list[EvalQuery], engine_ranked: dict[str, list[Ranked]]) -> EvalReport:
    def recorded(q: EvalQuery, filters: Filters) -> list[Ranked]:
        engine_ranked[q.id] = corpus.search(q, filters)
        return engine_ranked[q.id]

    with pytest.MonkeyPatch.context() as env:
        env.delenv("RECOLLECT_EMBEDDINGS", raising=False)
        return run_corpus(corpus, queries, search=recorded, baseline=False)


def _describe(failures: Sequence[QueryResult], corpus: Corpus, limit: int = 15) -> str:
    lines = []
    for r in failures[:limit]:
        first = f"{r.top[0].title!r}" if r.top else "nothing"
        gold = ", ".join(repr(corpus.title(g)) for g in r.query.gold)
        lines.append(
            f"  [{r.query.category}] {r.query.id} {r.query.query!r}: rank {r.rank}; gold {gold}; first {first}"
        )
    return "\n".join(lines)


# ----------------------------------------------------------------------------- the committed baseline


def test_relevance_holds_the_baseline(report: EvalReport, corpus: Corpus) -> None:
    baseline = load_baseline(BASELINE)
    problems = regressions(report.summary()["ours"], baseline["ours"], TOLERANCE)
    assert not problems, (
        "search relevance fell below bench/eval/baseline.json:\n  "
        + "\n  ".join(problems)
        + "\nqueries whose gold session is not first:\n"
        + _describe(report.failures(), corpus)
        + "\n(an intentional change? run 'recollect eval --write-baseline' and commit the file; see docs/eval.md)"
    )


def test_baseline_matches_the_query_set(queries: list[EvalQuery]) -> None:
    """Adding or removing queries changes the numbers: the baseline must be rewritten with them."""
    baseline = load_baseline(BASELINE)
    counts: dict[str, int] = {}
    for q in queries:
        counts[q.category] = counts.get(q.category, 0) + 1
    recorded = {c: m["n"] for c, m in baseline["ours"]["by_category"].items()}
    assert baseline["queries"] == len(queries) and recorded == counts, (
        "bench/eval/queries.jsonl changed since the baseline was written; run 'recollect eval --write-baseline'"
    )


def test_queries_are_labelled_against_the_corpus(queries: list[EvalQuery], corpus: Corpus) -> None:
    assert len(queries) >= 80
    corpus.check_gold(queries)  # raises on a gold id that is not a session of the corpus
    categories = {q.category for q in queries}
    expected = {"identifier", "path", "error_output", "paraphrase", "decision", "chinese", "typo", "recency"}
    assert expected | {"scoped", "subagent", "near_duplicate"} <= categories


def test_error_queries_occur_only_in_tool_output(queries: list[EvalQuery], corpus: Corpus) -> None:
    """The error_output category means what it says: the pasted line is in a tool's output of the gold
    session (or its subagent child) and nowhere in any session's text, reasoning or tool input."""
    errors = [q for q in queries if q.category == "error_output"]
    found: dict[str, set[tuple[str, str]]] = {q.id: set() for q in errors}
    for path in corpus.stores.values():
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            parents = dict(db.execute("SELECT id, parent_id FROM session"))
            for session_id, data in db.execute("SELECT session_id, data FROM part"):
                part = json.loads(data)
                state = part.get("state") or {}
                places = {
                    "text": str(part.get("text") or "") if part.get("type") in ("text", "reasoning") else "",
                    "tool_input": json.dumps(state.get("input"), ensure_ascii=False) if "input" in state else "",
                    "tool_output": str(state.get("output") or ""),
                }
                for q in errors:
                    for place, text in places.items():
                        if q.query in text:
                            found[q.id].add((parents.get(session_id) or session_id, place))
        finally:
            db.close()
    wrong = {
        q.id: sorted(found[q.id])
        for q in errors
        if not found[q.id] or {place for _, place in found[q.id]} != {"tool_output"}
        or not {s for s, _ in found[q.id]} <= set(q.gold)
    }  # fmt: skip
    assert not wrong, f"error_output queries not confined to a gold session's tool output: {wrong}"


def test_the_eval_can_fail(
    corpus: Corpus, queries: list[EvalQuery], report: EvalReport, engine_ranked: dict[str, list[Ranked]]
) -> None:
    """A deliberately broken ranking (the engine's own results, reversed) must score lower and be
    reported as a regression: the eval measures ranking, not just whether anything is found. The
    engine's results are the ones `report` scored (the engine is deterministic: searching again gave
    the same lists and cost a whole second run of the eval)."""
    assert len(engine_ranked) == len(queries)  # every query was ranked by `report`, under its own id

    def reversed_engine(q: EvalQuery, filters: Filters) -> list[Ranked]:
        return list(reversed(engine_ranked[q.id]))

    broken = run_corpus(corpus, queries, search=reversed_engine, baseline=False)
    good, bad = report.summary()["ours"]["overall"], broken.summary()["ours"]["overall"]
    assert bad["mrr"] < good["mrr"] - 0.1
    assert bad["recall@1"] < good["recall@1"]
    assert regressions(broken.summary()["ours"], report.summary()["ours"])


def test_meaning_never_costs_a_category(corpus: Corpus, queries: list[EvalQuery], report: EvalReport) -> None:
    """Semantic search is on by default, so it must earn its place: against the same engine with
    embeddings off, no category's MRR or recall@5 falls, and the categories it exists for (words
    the session never used, another language) rise."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("RECOLLECT_EMBEDDINGS", "off")
        lexical = run_corpus(corpus, queries, baseline=False).summary()["ours"]["by_category"]
    hybrid = report.summary()["ours"]["by_category"]
    worse = [
        f"{cat} {metric}: {hybrid[cat][metric]} < {lexical[cat][metric]} lexical-only"
        for cat in lexical
        for metric in ("mrr", "recall@5")
        if hybrid[cat][metric] < lexical[cat][metric] - TOLERANCE
    ]
    assert not worse, "semantic search made a category worse:\n  " + "\n  ".join(worse)
    for cat in ("paraphrase", "cross_lingual"):
        assert hybrid[cat]["mrr"] > lexical[cat]["mrr"] + 0.02, (cat, hybrid[cat], lexical[cat])


def test_meaning_standing_in_for_uncovered_words_earns_its_place(
    corpus: Corpus, queries: list[EvalQuery], report: EvalReport
) -> None:
    """Stage `uncovered`: where the best session's words cover only part of the query, the card's meaning
    counts for the rest. It exists for paraphrases (few shared words), so they must rise with it, and no
    category may fall against the same engine with only this stage off."""
    with stages_disabled("uncovered"):
        off = run_corpus(corpus, queries, baseline=False).summary()["ours"]["by_category"]
    on = report.summary()["ours"]["by_category"]
    assert on["paraphrase"]["mrr"] > off["paraphrase"]["mrr"] + 0.02, (on["paraphrase"], off["paraphrase"])
    worse = [
        f"{cat} {metric}: {on[cat][metric]} < {off[cat][metric]} with the stage off"
        for cat in off
        for metric in ("mrr", "recall@5")
        if on[cat][metric] < off[cat][metric] - 1e-9
    ]
    assert not worse, "stage 'uncovered' made a category worse:\n  " + "\n  ".join(worse)


def test_with_meaning_off_a_session_across_the_script_gap_keeps_its_coverage(
    corpus: Corpus, queries: list[EvalQuery]
) -> None:
    """Stage `script` with meaning off: an English question about a session held in Chinese, that the words rank
    among the first five, keeps the coverage of the best English session (its other words are said in Chinese).
    Cross-lingual questions rise with it, to plain FTS5 or above, and no category falls."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("RECOLLECT_EMBEDDINGS", "off")
        on = run_corpus(corpus, queries, baseline=True)
        with stages_disabled("script"):
            off = run_corpus(corpus, queries, baseline=False).summary()["ours"]["by_category"]
    by_cat, fts5 = on.summary()["ours"]["by_category"], on.summary()["fts5"]["by_category"]
    assert off["cross_lingual"]["mrr"] < fts5["cross_lingual"]["mrr"]  # the control: without it, below FTS5
    assert by_cat["cross_lingual"]["mrr"] >= fts5["cross_lingual"]["mrr"], (
        by_cat["cross_lingual"],
        fts5["cross_lingual"],
    )
    worse = [
        f"{cat} {metric}: {by_cat[cat][metric]} < {off[cat][metric]} with the stage off"
        for cat in off
        for metric in ("mrr", "recall@5")
        if by_cat[cat][metric] < off[cat][metric] - 1e-9
    ]
    assert not worse, "stage 'script' made a category worse with meaning off:\n  " + "\n  ".join(worse)


# Text about nothing in the corpus: made-up words and everyday topics, English, Chinese, Spanish. Since the
# conversation sessions (bench/eval/conversations.py) brought a cat and a dinner party into the corpus,
# "cats like fish" and a paella recipe are no longer about nothing there: the card arm rightly finds
# those sessions by meaning. They were replaced by topics the corpus still lacks.
ABOUT_NOTHING = (
    "teshnaxkasnemip",
    "drorumtesh",
    "quavorgli",
    "naxvorwibgli",
    "naxteshsnebunax",
    "kasneloquadro",
    "banana smoothie recipe",
    "weather in paris tomorrow",
    "how to knit a scarf",
    "宇宙飞船燃料",
    "火山爆发的原因",
    "la historia del imperio romano",
    "football match results",
    "learn to ride a horse",
)


def test_text_about_nothing_in_the_history_finds_nothing_by_meaning(corpus: Corpus, queries: list[EvalQuery]) -> None:
    """The rescue lane lets in sessions that share no word with the query. It must not hand back the
    nearest noise for a query about nothing there: a user then sees no hits and a hint, not junk."""
    from recollect import history

    def by_meaning(text: str) -> list[str]:
        result = history.search(text, Filters(), limit=10, config=corpus.config, sync_first=False)
        return [h.session_id for h in result.hits if h.why == "semantic"]

    with pytest.MonkeyPatch.context() as env:
        env.delenv("RECOLLECT_EMBEDDINGS", raising=False)
        rescued = [q.id for q in queries if q.category == "cross_lingual" and set(by_meaning(q.query)) & set(q.gold)]
        assert rescued, "positive control: some cross-lingual gold session should come in by meaning"
        noise = {text: found for text in ABOUT_NOTHING if (found := by_meaning(text))}
    assert not noise, noise


def test_plain_fts5_baseline_runs(corpus: Corpus, queries: list[EvalQuery]) -> None:
    """The comparison is reported by `recollect eval`, not held by a test; it must only work."""
    exact = next(q for q in queries if q.category == "error_output")
    assert rank_of(corpus.baseline_search(exact, exact.to_filters()), exact.gold) is not None


# ---------------------------------------------------------------------------------- scoring rules


def _q(gold: list[str], category: str = "c") -> EvalQuery:
    return EvalQuery(id="q", query="x", category=category, gold=gold)


def test_rank_credits_a_subagent_child_to_its_parent() -> None:
    results = [Ranked("other"), Ranked("child", parent_id="parent"), Ranked("parent")]
    assert rank_of(results, ["parent"]) == 2
    assert rank_of(results, ["child"]) == 2
    assert rank_of(results, ["missing"]) is None
    assert rank_of(results, ["missing", "parent"]) == 2  # any gold counts


def test_metrics_and_regressions() -> None:
    results = [
        QueryResult(_q(["a"], "x"), 1, []),
        QueryResult(_q(["a"], "x"), 2, []),
        QueryResult(_q(["a"], "y"), None, []),
        QueryResult(_q(["a"], "y"), 7, []),
    ]
    m = metrics(results)
    assert m.n == 4
    assert m.mrr == pytest.approx((1 + 0.5 + 0 + 1 / 7) / 4)
    assert m.recall == {1: 0.25, 5: 0.5, 10: 0.75}
    summary = summarize(results)
    assert set(summary["by_category"]) == {"x", "y"} and set(METRICS) <= set(summary["overall"])
    assert regressions(summary, summary) == []
    worse = json.loads(json.dumps(summary))
    worse["by_category"]["y"]["recall@10"] -= TOLERANCE * 2
    assert regressions(worse, summary) == ["category y: recall@10 0.4900 < baseline 0.5000"]
    slightly = json.loads(json.dumps(summary))
    slightly["overall"]["mrr"] -= TOLERANCE / 2
    assert regressions(slightly, summary) == []
    del worse["by_category"]["x"]
    assert any("category x: missing" in p for p in regressions(worse, summary))


def test_load_queries_rejects_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "a", "query": "x", "category": "c", "gold": ["s"]}\n// a comment\n\n')
    assert [q.id for q in load_queries(path)] == ["a"]
    for bad, message in (
        ('{"id": "a", "query": "x", "category": "c", "gold": []}', "'gold' is required"),
        ('{"id": "a", "query": "x", "category": "c", "gold": ["s"], "scope": "project"}', "needs a 'directory'"),
        ('{"id": "a", "query": "x", "category": "c", "gold": ["s"], "filters": {"when": 1}}', "unknown filters"),
        ('{"id": "a", "query": "x", "category": "c", "gold": ["s"], "extra": 1}', "unknown keys"),
    ):
        path.write_text(bad + "\n")
        with pytest.raises(EvalError, match=message):
            load_queries(path)
