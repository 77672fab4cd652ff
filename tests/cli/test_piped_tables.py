"""A table printed into a pipe or a file keeps every column whole (cli/output.console)."""

from __future__ import annotations

import pytest

from recollect.cli.cases import print_cases


def test_a_piped_table_is_as_wide_as_it_needs(capsys: pytest.CaptureFixture[str]) -> None:
    metrics = {"n": 3, "mrr": 0.8333, "recall@1": 0.6667, "recall@5": 1.0, "recall@10": 1.0}
    by_category = {f"category-{i}-with-a-long-name": metrics for i in range(3)}
    report = {
        "cases": [{"id": "c1", "query": "q", "rank": 1}],
        "ours": {"overall": metrics, "by_category": by_category},
        "bm25": {"overall": metrics, "by_category": by_category},
    }
    print_cases(report)
    out = capsys.readouterr().out  # captured: no terminal, as in `recollect eval > report.txt`
    # At rich's 80 columns the cells were cut to "c…" and "0…"; now each is whole.
    assert "…" not in out, out
    assert "category-2-with-a-long-name" in out and "BM25 MRR" in out and "0.833" in out
