"""bench/eval/compare.py: ranking variants side by side, each set indexed once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.eval import compare
from bench.eval.compare import Variant, applied, fell, parse_variant
from bench.eval.evaluate import load_queries
from bench.eval.pasted import PastedCorpus
from recollect.search import novelty, stages


def test_a_variant_names_constants_and_stages() -> None:
    v = parse_variant("nov:recollect.search.novelty.SAME_EVIDENCE=0.9,-coverage,recollect.x.MODE=plain")
    constants = {"recollect.search.novelty.SAME_EVIDENCE": 0.9, "recollect.x.MODE": "plain"}
    assert v == Variant("nov", constants, ["coverage"])
    with pytest.raises(ValueError, match="unknown ranking stage"):
        parse_variant("x:-no_such_stage")
    with pytest.raises(ValueError, match=r"module\.CONSTANT=value"):
        parse_variant("x:SAME_EVIDENCE")


def test_a_variant_is_undone_after_it_even_when_it_fails() -> None:
    before = novelty.SAME_EVIDENCE
    variant = parse_variant("v:recollect.search.novelty.SAME_EVIDENCE=0.5,-novelty")
    with pytest.raises(RuntimeError), applied(variant):
        assert novelty.SAME_EVIDENCE == 0.5 and not stages.on("novelty")  # control: set inside
        raise RuntimeError
    assert before == novelty.SAME_EVIDENCE and stages.on("novelty")
    with pytest.raises(ValueError, match="has no"), applied(parse_variant("v:recollect.search.novelty.NOPE=1")):
        pass


def test_what_fell_is_every_lower_metric_overall_and_per_category() -> None:
    before = {"overall": {"mrr": 0.5, "n": 4}, "by_category": {"a": {"mrr": 0.5}, "b": {"mrr": 0.5, "turn@5": 0.5}}}
    after = {"overall": {"mrr": 0.6, "n": 4}, "by_category": {"a": {"mrr": 0.7}, "b": {"mrr": 0.5, "turn@5": 0.25}}}
    assert fell(before, after) == ["b turn@5 0.5000 -> 0.2500"]
    assert fell(before, before) == []


def test_every_variant_runs_on_the_same_index_beside_chunk_bm25_and_fts5() -> None:
    same = parse_variant(f"same:recollect.search.novelty.SAME_EVIDENCE={novelty.SAME_EVIDENCE}")
    report = compare.compare(["haystack"], [Variant("today"), same, parse_variant("off:-coverage")])["haystack"]
    assert set(report) == {"today", "same", "off", "chunk_bm25", "fts5"}
    assert report["same"] == report["today"]  # a constant set to its own value changes nothing
    assert report["off"]["ranks"] != report["today"]["ranks"]  # control: coverage off moves questions


def test_the_pasted_sets_are_the_real_transcripts_with_their_cases(tmp_path: Path) -> None:
    for name, cases in (("pasted", "bench/eval/pasted.jsonl"), ("openings", "bench/eval/pasted_openings.jsonl")):
        [(_opener, queries)] = compare._sets(name, tmp_path)
        assert [q.id for q in queries] == [q.id for q in load_queries(Path(cases))]
    assert issubclass(compare._Pasted, PastedCorpus)  # the pasted bench's own index of the transcripts
