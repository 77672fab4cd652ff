"""A table printed into a pipe or a file keeps every column whole (cli/output.console), and one too wide
for the terminal is printed in parts, each column whole (cli/output.print_table)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

from recollect.cli.cases import print_cases
from recollect.cli.output import print_table


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


class _Report:
    """What bench/eval/cli's tables read of an EvalReport: its summary, with the lexical and FTS5 runs."""

    corpus_sessions = 210

    def summary(self) -> dict[str, Any]:
        metrics = {"n": 88, "mrr": 0.8333, "recall@1": 0.6667, "recall@5": 1.0, "recall@10": 1.0}
        metrics |= {"turn@5": 0.5, "all@5": 0.75}
        run = {"overall": metrics, "by_category": {"conversation": metrics, "code-identifier": metrics}}
        stages = {f"-{stage}": run for stage in ("meaning", "pruning", "priors", "fusion", "novelty", "turns")}
        return {"queries": 322, "ours": run, "fts5": run, "others": {"lexical": run, **stages}}


@pytest.mark.parametrize("table", ["relevance", "ablation"])
def test_a_wide_table_on_an_80_column_terminal_is_printed_in_parts(table: str) -> None:
    from bench.eval.cli import _ablation_table, _table

    made = _table(_Report()) if table == "relevance" else _ablation_table(_Report(), "mrr")  # type: ignore[arg-type]
    squashed, parts = io.StringIO(), io.StringIO()
    Console(file=squashed, width=80).print(made)  # positive control: all at once, the cells are cut
    assert "…" in squashed.getvalue()
    print_table(Console(file=parts, width=80), made)
    out = parts.getvalue()
    assert "…" not in out, out
    assert max(len(line) for line in out.splitlines()) <= 80
    headers = [str(c.header) for c in made.columns]
    for header in headers:  # every column is there, whole, in one of the parts
        assert all(word in out for word in header.split()), header
    # Each part repeats the first column, so every row reads on its own.
    parts_printed = out.count("category")
    assert parts_printed >= 2 and out.count("code-identifier") == parts_printed, out
    per_row = len(headers) - 1 if table == "ablation" else 3  # the MRR cells: ours, lexical, FTS5
    assert out.count("0.833") == 3 * per_row  # each of the three rows, in every part
