"""`recollect extract` (memories from sessions) and `recollect summarize` (sentences per session).

Thin: they call `recollect.extract` and print the report. The plugin runs
`recollect extract --session ID` detached on `session.idle`, so this command fails fast (a
missing model or session is one line on stderr before any network call) and is silent on
success unless it writes to a terminal, or `-v` / `--json` asks for the report.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

import click

from recollect.cli.output import F, fail, options, print_json
from recollect.errors import RecollectError

EXIT_USAGE = 2
T = TypeVar("T")


def _which_sessions(since_help: str) -> Callable[[F], F]:
    """--session and --since, which both model-backed commands take."""
    return options(
        click.option("--session", "session_ref", metavar="ID", help="One session (ses_… or source::id)."),
        click.option("--since", metavar="WHEN", help=since_help),
    )


def _which_model(dry_run_help: str) -> Callable[[F], F]:
    """--dry-run, --model and --opencode-url, which both model-backed commands take."""
    return options(
        click.option("--dry-run", is_flag=True, help=dry_run_help),
        click.option("--model", default="", help="Model to use: provider/model for OpenCode, a name for an endpoint."),
        click.option(
            "--opencode-url", default="", metavar="URL", help="OpenCode server (else $RECOLLECT_OPENCODE_URL)."
        ),
    )


def _run(session_ref: str | None, since: str | None, call: Callable[[int | None], T]) -> T:
    """`call` with --since read as a time, for --session or --since but not both; a RecollectError
    (nothing to run with, an unknown session, a time it cannot read) is a usage error."""
    from recollect.times import parse_when

    if session_ref and since:
        fail("give --session or --since, not both", EXIT_USAGE)
    try:
        return call(parse_when(since) if since else None)
    except RecollectError as exc:
        fail(str(exc), EXIT_USAGE)


def _say_report(report: object) -> None:
    from recollect.extract import ExtractReport

    assert isinstance(report, ExtractReport)
    model = (report.model or {}).get("id") or "?"
    why = (report.model or {}).get("reason")
    head = "dry run — nothing written. " if report.dry_run else ""
    click.echo(f"{head}model: {model}" + (f" ({why})" if why else ""))
    if not report.sessions:
        click.echo("no session to extract from")
    for session in report.sessions:
        title = f" — {session.title}" if session.title else ""
        line = f"{session.session}{title}: {session.status}"
        if session.reason:
            line += f" ({session.reason})"
        click.echo(line)
        for c in session.candidates:
            target = c.memory_id or c.similar_to or ""
            summary = f" — {c.summary}" if c.summary else ""
            click.echo(f"  {c.outcome:<13} {c.category:<11} {target}{summary}")
            if c.outcome not in ("written", "would-write"):
                click.echo(f"  {'':<13} {c.reason}")
    for limit in report.limited_by:
        click.echo(f"limited by: {limit}")
    counts = report.counts()
    if counts:
        click.echo("candidates: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))


@click.command("extract")
@_which_sessions("Sessions updated since WHEN (today, yesterday, 2026-10-01, 7d, 12h). Default: last sweep.")
@click.option("--redo", is_flag=True, help="Send every turn again, not only those not yet extracted.")
@_which_model("Ask the model and screen its candidates, but write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (documented in docs/extract.md).")
@click.option("-v", "--verbose", is_flag=True, help="Print the report even when not on a terminal.")
def extract_cmd(
    session_ref: str | None,
    since: str | None,
    redo: bool,
    dry_run: bool,
    model: str,
    opencode_url: str,
    as_json: bool,
    verbose: bool,
) -> None:
    """Propose memories from what was said in sessions; rules wait for 'recollect memory review'.

    Without --session, every session changed since the last sweep (the first sweep needs
    --since). Only sessions with at least [extract] min_turns turns are read, and only the
    turns not extracted before. Exit status: 0 done (even if every candidate was skipped),
    1 a model failed or answered malformed output, 2 nothing to extract with or bad arguments.
    """
    from recollect.extract import RunOptions, extract_session, extract_since

    how = RunOptions(opencode_url=opencode_url, model=model, dry_run=dry_run, redo=redo)
    report = _run(
        session_ref,
        since,
        lambda when: extract_session(session_ref, how) if session_ref else extract_since(when, how),
    )
    if as_json:
        print_json(report.to_dict())
    elif verbose or sys.stdout.isatty():
        _say_report(report)
    for session in report.failed:
        click.echo(f"recollect: extract {session.session}: {session.status}: {session.reason}", err=True)
    if report.failed:
        sys.exit(1)


@click.command("summarize")
@_which_sessions("Sessions updated since WHEN (2026-10-01, 7d). Default: all.")
@click.option("--force", is_flag=True, help="Rewrite summaries even when the session's card did not change.")
@_which_model("Ask the model, but store nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def summarize_cmd(
    session_ref: str | None, since: str | None, force: bool, dry_run: bool, model: str, opencode_url: str, as_json: bool
) -> None:
    """Write two or three sentences per session, from its card; redone only when the session changed.

    Uses the same model as 'recollect extract'. Summaries are kept beside the index
    (extract/summaries.json under the data dir) and spend the model's tokens: fifteen sessions per
    prompt, at most twenty prompts per run. Exit status: 0 done, 1 a batch failed, 2 nothing to
    summarize with or bad arguments.
    """
    from recollect.extract.settings import RunOptions
    from recollect.extract.summaries import summarize

    how = RunOptions(opencode_url=opencode_url, model=model, dry_run=dry_run, redo=force)
    report = _run(session_ref, since, lambda when: summarize(since=when, session_ref=session_ref, options=how))
    if as_json:
        print_json(report.to_dict())
    elif sys.stdout.isatty():
        for item in report.written:
            click.echo(f"{item['session']}: {item['summary']}")
        click.echo(
            f"{len(report.written)} written, {report.unchanged} unchanged, {len(report.skipped)} skipped"
            + (" (dry run: nothing stored)" if dry_run else "")
        )
    for reason in report.failed:
        click.echo(f"recollect: summarize: {reason}", err=True)
    if report.failed:
        sys.exit(1)
