"""The relevance eval command: score search relevance on the labelled corpus and compare with the baseline.

Runs from a recollect checkout (the queries and the corpus are test data, not installed files), as
`python -m bench.eval` or, with an editable install, `recollect eval`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from bench.eval.evaluate import (
    METRICS,
    TOLERANCE,
    EvalError,
    EvalReport,
    baseline_document,
    evaluate,
    find_repo_file,
    load_baseline,
    regressions,
)
from recollect.cli.output import console, fail, print_json, print_table

QUERIES = "bench/eval/queries.jsonl"
DATA = "tests/data/eval"
BASELINE = "bench/eval/baseline.json"


def _locate(value: Path | None, relative: str, what: str) -> Path:
    if value is not None:
        return value
    found = find_repo_file(relative)
    if found is None:
        fail(f"cannot find {relative} ({what}); run from the recollect repository or pass its path")
    return found


def _cell(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def _section(summary: dict[str, Any], category: str) -> dict[str, Any]:
    return summary["overall"] if category == "overall" else summary["by_category"].get(category, {})


def _table(report: EvalReport) -> Table:
    """Ours per category, with turn recall where queries name turns, beside lexical-only and plain FTS5."""
    summary = report.summary()
    ours, fts5 = summary["ours"], summary.get("fts5")
    lexical = summary.get("others", {}).get("lexical")
    table = Table(title=f"relevance on {summary['queries']} queries, {report.corpus_sessions} sessions")
    table.add_column("category")
    table.add_column("n", justify="right")
    for metric in METRICS:
        table.add_column(metric.replace("recall", "R"), justify="right")
    table.add_column("turn@5", justify="right")
    table.add_column("all@5", justify="right")
    baselines = [(name, s) for name, s in (("lexical", lexical), ("FTS5", fts5)) if s]
    for name, _ in baselines:
        for metric in ("MRR", "R@5", "turn@5", "all@5"):
            table.add_column(f"{name} {metric}", justify="right", style="dim")
    categories = ["overall", *ours["by_category"]]
    for i, category in enumerate(categories):
        m = _section(ours, category)
        cells = [category, str(m["n"]), *(_cell(m[k]) for k in METRICS), _cell(m.get("turn@5")), _cell(m.get("all@5"))]
        for _, other in baselines:
            b = _section(other, category)
            cells += [_cell(b.get(k)) for k in ("mrr", "recall@5", "turn@5", "all@5")]
        table.add_row(*cells, end_section=i == 0)
    return table


def _ablation_table(report: EvalReport, metric: str) -> Table:
    """One row per category; one column per ranking stage switched off, beside ours and plain FTS5.
    A cell below the FTS5 column is marked: that stage's absence is not what loses to BM25, but a cell
    above "all" means the stage costs that category."""
    summary = report.summary()
    runs = {"all": summary["ours"], **summary.get("others", {})}
    fts5 = summary.get("fts5")
    table = Table(title=f"ablation: {metric} with each ranking stage off (docs/eval.md)")
    table.add_column("category")
    for name in runs:
        table.add_column(name, justify="right")
    if fts5:
        table.add_column("FTS5", justify="right", style="dim")
    for i, category in enumerate(["overall", *summary["ours"]["by_category"]]):
        full = _section(summary["ours"], category).get(metric)
        cells = [category]
        for name, run in runs.items():
            value = _section(run, category).get(metric)
            mark = "*" if name != "all" and value is not None and full is not None and value > full + 1e-9 else ""
            cells.append(_cell(value) + mark)
        if fts5:
            cells.append(_cell(_section(fts5, category).get(metric)))
        table.add_row(*cells, end_section=i == 0)
    return table


def _print_failures(report: EvalReport, limit: int) -> None:
    out = console()
    failures = sorted(report.failures(), key=lambda r: (r.rank is not None, -(r.rank or 0)))
    if not failures:
        return
    out.print(f"\nqueries whose gold session is not first ({len(failures)}):", highlight=False)
    for r in failures[:limit]:
        first = r.top[0] if r.top else None
        got = f"{first.title!r} ({first.session_id})" if first else "no results"
        rank = f"rank {r.rank}" if r.rank else "not found"
        out.print(f"  [{r.query.category}] {r.query.id}: {r.query.query!r} — {rank}; first: {got}", markup=False)


def _haystack(queries_path: Path, data_dir: Path, as_json: bool) -> None:
    from bench.eval.haystack import MULTI_SESSION, evaluate_haystack

    multi = _locate(None, MULTI_SESSION, "multi-session questions")
    try:
        report = evaluate_haystack(queries_path, multi, data_dir)
    except EvalError as exc:
        fail(str(exc))
    if as_json:
        print_json(report.to_dict())
        return
    out = console()
    print_table(out, _table(report))
    for metric in ("mrr", "recall@5", "all@5", "turn@5"):
        print_table(out, _ablation_table(report, metric))
    click.echo(f"* = better with that stage off; {report.seconds:.1f}s (indexing {report.index_seconds:.1f}s)")


@click.command("eval")
@click.option("--queries", type=click.Path(path_type=Path, dir_okay=False), help=f"Labelled queries [{QUERIES}].")
@click.option("--data", type=click.Path(path_type=Path, file_okay=False), help=f"Corpus directory [{DATA}].")
@click.option("--baseline", "baseline_path", type=click.Path(path_type=Path, dir_okay=False), help=f"[{BASELINE}]")
@click.option("--category", "categories", multiple=True, help="Only queries of this category (repeatable).")
@click.option("--no-fts5", is_flag=True, help="Skip the plain-FTS5 comparison.")
@click.option("--no-lexical", is_flag=True, help="Skip the run with semantic search off.")
@click.option(
    "--ablate", is_flag=True, help="Also run every query with each ranking stage off in turn, and print that table."
)
@click.option("--check", is_flag=True, help=f"Exit 1 if a metric fell more than {TOLERANCE} below the baseline.")
@click.option("--write-baseline", is_flag=True, help="Record this run as the new baseline.")
@click.option("--failures", "show_failures", type=int, default=20, show_default=True, help="Failing queries to list.")
@click.option(
    "--cases",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Score labelled cases of your OWN history against your index instead of the corpus (docs/eval.md).",
)
@click.option(
    "--haystack",
    is_flag=True,
    help="Instead: the conversation questions and bench/eval/multi_session.jsonl over an index of the conversations "
    "alone (a chat benchmark's haystack), with all@5 and every stage off in turn.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the full report (per query) as JSON.")
def eval_cmd(
    queries: Path | None,
    data: Path | None,
    baseline_path: Path | None,
    categories: tuple[str, ...],
    no_fts5: bool,
    no_lexical: bool,
    ablate: bool,
    check: bool,
    write_baseline: bool,
    show_failures: int,
    cases: Path | None,
    haystack: bool,
    as_json: bool,
) -> None:
    """Measure search relevance: MRR and recall@1/5/10 on labelled queries, overall and per category,
    beside a plain SQLite FTS5 baseline. See docs/eval.md."""
    if cases is not None:
        from recollect.cli.cases import run_cases_cmd

        run_cases_cmd(cases, as_json)
        return
    queries_path = _locate(queries, QUERIES, "labelled queries")
    data_dir = _locate(data, DATA, "the eval corpus")
    if (check or write_baseline) and categories:
        fail("--check and --write-baseline need the full query set; drop --category")
    if haystack:
        _haystack(queries_path, data_dir, as_json)
        return
    if write_baseline and baseline_path is None:
        baseline_path = queries_path.parent / "baseline.json"
    try:
        if not as_json:
            click.echo("indexing the eval corpus and running the queries…", err=True)
        report = evaluate(
            queries_path,
            data_dir,
            baseline=not no_fts5,
            categories=categories,
            lexical=not no_lexical,
            ablate=ablate,
        )
    except EvalError as exc:
        fail(str(exc))
    problems: list[str] = []
    if check:
        path = baseline_path or _locate(None, BASELINE, "the committed baseline")
        try:
            problems = regressions(report.summary()["ours"], load_baseline(path)["ours"])
        except EvalError as exc:
            fail(str(exc))
    if as_json:
        data_out: dict[str, Any] = report.to_dict()
        if check:
            data_out["regressions"] = problems
        print_json(data_out)
    else:
        out = console()
        print_table(out, _table(report))
        if ablate:
            for metric in ("mrr", "recall@5", "turn@5"):
                print_table(out, _ablation_table(report, metric))
            click.echo("* = better with that stage off")
        click.echo(f"{report.seconds:.1f}s (indexing {report.index_seconds:.1f}s)")
        if show_failures:
            _print_failures(report, show_failures)
        if check:
            click.echo("\nno regression against the baseline" if not problems else "\nregressions:")
            for p in problems:
                click.echo(f"  {p}")
    if write_baseline:
        assert baseline_path is not None
        baseline_path.write_text(json.dumps(baseline_document(report), indent=1) + "\n", encoding="utf-8")
        click.echo(f"wrote {baseline_path}", err=True)
    if problems:
        raise SystemExit(1)
