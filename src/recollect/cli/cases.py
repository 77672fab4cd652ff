"""`recollect eval --cases FILE`: score search on your own history (labelled cases, recollect/cases.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.table import Table

from recollect.cli.output import console, fail, print_json, print_table


def print_cases(report: dict[str, Any]) -> None:
    table = Table(title=f"relevance on {len(report['cases'])} cases of your own history")
    for column in ("category", "n", "MRR", "R@1", "R@5", "R@10", "BM25 MRR", "BM25 R@5"):
        table.add_column(column, justify="left" if column == "category" else "right")
    ours, bm25 = report["ours"], report["bm25"]
    rows = [("overall", ours["overall"], bm25["overall"])]
    rows += [(c, m, bm25["by_category"][c]) for c, m in ours["by_category"].items()]
    for i, (name, m, b) in enumerate(rows):
        cells = [f"{m[k]:.3f}" for k in ("mrr", "recall@1", "recall@5", "recall@10")]
        table.add_row(name, str(int(m["n"])), *cells, f"{b['mrr']:.3f}", f"{b['recall@5']:.3f}", end_section=i == 0)
    out = console()
    print_table(out, table)
    missed = [c for c in report["cases"] if c["rank"] != 1]
    if missed:
        out.print(f"\ncases whose session is not first ({len(missed)}):", highlight=False)
        for c in missed[:20]:
            out.print(
                f"  {c['id']}: {c['query']!r} — {'rank ' + str(c['rank']) if c['rank'] else 'not found'}", markup=False
            )


def run_cases_cmd(cases: Path, as_json: bool) -> None:
    from recollect.cases import CasesError, load_cases, run_cases
    from recollect.config import load_config
    from recollect.errors import RecollectError

    try:  # also run outside the recollect group (python -m bench.eval --cases), so handled here
        config = load_config()
    except RecollectError as exc:
        fail(str(exc))
    if not config.index_path.exists():
        fail("no index yet: run 'recollect index' first, then 'recollect eval --cases FILE'")
    try:
        report = run_cases(load_cases(cases), config)
    except CasesError as exc:
        fail(str(exc))
    if as_json:
        print_json(report)
    else:
        print_cases(report)


@click.command("eval")
@click.option(
    "--cases",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    help='Labelled cases, JSON lines: {"query": ..., "gold": [session ids]} (see docs/eval.md).',
)
@click.option("--json", "as_json", is_flag=True, help="Print metrics and per-case ranks as JSON.")
def eval_cmd(cases: Path, as_json: bool) -> None:
    """Score search on your own history: MRR and recall@1/5/10 of labelled cases against your index,
    beside plain BM25 over the same chunks. See docs/eval.md."""
    run_cases_cmd(cases, as_json)
