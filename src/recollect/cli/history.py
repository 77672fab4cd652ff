"""History commands: index, search, read, sessions, doctor. Argument handling and printing only."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import click

from recollect import blas, history
from recollect.cli.app import current_app
from recollect.cli.output import console, escape, fail, is_terminal, markup_printer, print_json
from recollect.history import (
    CLI_OPTIONS,
    DEFAULT_BUDGET,
    FILTER_SPEC,
    WHOLE_BUDGET,
    Filters,
    filter_values,
)
from recollect.history import ceiling_from_config as from_config

if TYPE_CHECKING:
    from recollect.history import SearchResult

MAX_OFFSET = 1_000_000_000  # past any history; larger numbers do not fit SQLite's integers


class QueryCommand(click.Command):
    """A command whose words are a query: a query that starts with '-' is read as an option by
    click, so the error says how to pass it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        given = list(args)  # click's parser consumes `args`
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            # click names the option it read (`-X` of `-Xmx512m`): the hint repeats the word as typed.
            word = next((a for a in given if a.startswith(exc.option_name)), exc.option_name)
            dashed = f"recollect {self.name} -- {shlex.quote(word)}"
            if exc.possibilities:
                # A misspelt option (`--lmit`) far more often than a query: its correction comes first, alone.
                close = ", ".join(repr(p) for p in exc.possibilities)
                exc.message += f" Did you mean {close}?\n(To search for the text {word!r} itself: {dashed})"
                exc.possibilities = None  # said above; click would append it again
            else:
                exc.message += f" To search for text that starts with '-', put it after '--': {dashed}"
            raise


# Filters only a chunk can answer (`Filters.chunk_level`): a window is whole messages, so `read` has none.
CHUNK_FIELDS = ("roles", "classes", "tools", "authors")
# A cursor names its session, a recall subagent's run too (search/read.py): `read` has no --include-recall.
NOT_READ_FIELDS = (*CHUNK_FIELDS, "include_recall")


def filter_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The filter options of search and sessions, generated from `FILTER_SPEC`."""
    return _filter_options(f, FILTER_SPEC)


def session_filter_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The filter options of read: which sessions it may open, without the chunk-level ones."""
    return _filter_options(f, tuple(s for s in FILTER_SPEC if s.field not in NOT_READ_FIELDS), opens=True)


def _filter_options(f: Callable[..., Any], specs: tuple[Any, ...], *, opens: bool = False) -> Callable[..., Any]:
    for spec in reversed(specs):
        decls = [spec.option, *([spec.short] if spec.short else []), *([spec.cli_dest] if spec.cli_dest else [])]
        kw: dict[str, Any] = {"help": (opens and spec.open_cli_help) or spec.cli_help}
        if spec.kind == "boolean":
            kw["is_flag"] = True
        else:
            kw["multiple"] = spec.kind == "string_list"
            if spec.choices and spec.cli_choices:
                kw["type"] = click.Choice(list(spec.choices))
            if spec.metavar:
                kw["metavar"] = spec.metavar
        f = click.option(*decls, **kw)(f)
    return f


def build_filters(**options: Any) -> Filters:
    """`Filters` from the filter options' values (keyed by click parameter name)."""
    # The config's [scope] ceiling, anchored here: the default, and the widest a --scope may ask for.
    ceiling = from_config(current_app().config)
    values = filter_values(options, key="dest")
    if values.get("sessions") and values.get("scope") in (None, "all"):
        values["scope"] = "session"
    values["scope"] = values.get("scope") or ceiling.narrow("all")
    values["directory"] = os.path.abspath(values["directory"]) if values.get("directory") else None
    if values["directory"] and not os.path.isdir(values["directory"]):
        # Not refused (a project deleted since still has its sessions), but a typo would give no hits.
        click.echo(f"note: -C {values['directory']} is no directory here; searching sessions recorded there", err=True)
    filters = Filters(ceiling=ceiling, **values)
    filters.validate()
    return filters


@contextmanager
def progress_bar() -> Iterator[Callable[[str, int, int], None] | None]:
    if not is_terminal():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console(stderr=True),
        transient=True,
    ) as bar:
        tasks: dict[str, Any] = {}

        def update(source: str, done: int, total: int) -> None:
            if source not in tasks:
                # A source id ("reading claude"), or an embedding pass's label ("embedding texts"): ids hold no space.
                tasks[source] = bar.add_task(source if " " in source else f"reading {source}", total=total)
            bar.update(tasks[source], completed=done, total=total)

        yield update


def first_use_config(*, quiet: bool = False) -> None:
    """On first use, write config.toml with every option at its default (never over an existing file);
    `quiet` when the output is JSON for a script."""
    from recollect import configfile

    written = configfile.write_config(only_if_missing=True)
    if written is not None and not quiet:
        click.echo(f"wrote {written} with every option at its default ('recollect config show')", err=True)


@click.command("index")
@click.option("--wait", is_flag=True, help="If another process is updating the index, wait for it instead of skipping.")
@click.option("--json", "as_json", is_flag=True, help="Print the sync report as JSON.")
def index_cmd(wait: bool, as_json: bool) -> None:
    """Read every session store (read-only) and bring the index up to date."""
    first_use_config(quiet=as_json)
    with progress_bar() as progress:
        report = history.index(progress=progress, wait=wait, app=current_app())
    if as_json:
        print_json({"summary": report.summary(), **asdict(report)})
    else:
        click.echo(report.summary())
    if report.lease_busy and wait:
        sys.exit(1)
    if report.sources and all(s.status != "ok" for s in report.sources):
        sys.exit(1)


@click.command("search", cls=QueryCommand)
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", "-n", default=10, show_default=True, type=click.IntRange(1, 200), help="Hits to return.")
@filter_options
@click.option("--no-sync", is_flag=True, help="Search the index as it is, without syncing first.")
@click.option(
    "--deep",
    is_flag=True,
    help="Read whole tool outputs from the stores (the index keeps excerpts). Needs --session, or "
    "--scope project|directory with --since.",
)
@click.option(
    "--ephemeral",
    is_flag=True,
    help="Read the stores into an index in memory and write nothing to disk (a locked-down machine, or a "
    "one-off look at another store). Words only; slower on a big history.",
)
@click.option(
    "--exact",
    is_flag=True,
    help="Search the words exactly as typed: no typo correction, no reading of question or time words, "
    "no hit by meaning alone. "
    "Two or more words are a phrase: every hit holds them side by side, in this order (stopwords too). "
    "For a phrase in whole tool outputs, beyond the index's excerpts, use --deep.",
)
@click.option("--json", "as_json", is_flag=True, help="Print hits and coverage as JSON (see docs/cli.md).")
def search_cmd(
    query: tuple[str, ...],
    limit: int,
    no_sync: bool,
    deep: bool,
    ephemeral: bool,
    exact: bool,
    as_json: bool,
    **kw: Any,
) -> None:
    """Search past sessions. QUERY can be words, an identifier, a file path, an error message, or Chinese."""
    # One BLAS thread (unless the user set their own): a query's matrix products take a few ms on one
    # core, and OpenBLAS's second thread cost a one-shot search more than it saved (started at numpy's
    # import, then spinning): ~30-50 ms of CPU at 5,000 sessions.
    blas.hold_to_one_thread()
    text = " ".join(query)
    if not text.strip():
        # Not "no hits": nothing was asked. Listing sessions is another command.
        raise click.UsageError("give words to search for; to list recent sessions, run 'recollect sessions'")
    filters = build_filters(**kw)
    app = current_app()
    config = app.config
    if no_sync and not ephemeral and not config.index_path.exists():
        # Searching "as it is" an index that is not there would create an empty one and find nothing.
        fail(
            f"there is no index yet ({config.index_path}): run 'recollect index' to build it, "
            "or search without --no-sync (the first search builds it)"
        )
    if not no_sync and not ephemeral and not config.index_path.exists():
        # The very first search builds the whole index: say so and show progress, rather than sit silent.
        click.echo("Building the index for the first time (read-only; later searches are quick)…", err=True)
        with progress_bar() as progress:
            report = history.index(progress=progress, app=app)
        click.echo(report.summary(), err=True)
    # The arms by meaning run in a child process beside the word queries when no sync comes first
    # (history/ahead.py), else numpy and the models load on a thread while this one opens the index and runs
    # the word queries (not for an index that is not there: nothing to search by meaning, and an error
    # should not wait for it).
    loads = not (deep or ephemeral or filters.chunk_level) and config.index_path.exists()
    beside = history.meaning_ahead(app, text, filters, exact=exact) if loads and no_sync and not exact else None
    ahead = history.load_ahead(app, text) if loads and beside is None and not exact else None  # exact: no model
    try:
        result = history.search(
            text, filters, limit=limit, app=app, sync_first=not no_sync, deep=deep, ephemeral=ephemeral, exact=exact,
            ahead=beside,
        )  # fmt: skip
    finally:
        if beside is not None:
            beside.close()  # reaped (stopped first if the search never asked for it)
        if ahead is not None:
            ahead.join()  # done by now (the search used what it loaded); the quick exit needs no thread left
    if as_json:
        print_json(result.to_dict())
        return
    _print_result(text, result)


def _print_result(text: str, result: SearchResult) -> None:
    """A search's notes, hits and coverage, for a person."""
    for note in result.notes("--exact"):
        click.echo(f"({note})")
    cov = result.coverage
    if not result.hits:
        click.echo(f"No hits for {text!r}: {cov.hint}")
        click.echo(f"(searched {cov.sessions_in_scope} of {cov.sessions_indexed} sessions)")
        for limit in result.limits(CLI_OPTIONS):
            click.echo(limit)
        return
    show = markup_printer()  # rich on a terminal; piped, the same text without importing it
    for i, hit in enumerate(result.hits, 1):
        where = hit.directory or "?"
        show(
            f"[bold]{i}. {escape(hit.title or '(untitled)')}[/bold]  "
            f"[dim]{escape(where)} · {history.iso(hit.time)} · {hit.agent_kind}[/dim]"
        )
        tool = f" {escape(hit.tool)}" if hit.tool and hit.klass != "tool_input" else ""  # tool_input names it
        show(f"   [cyan]{hit.role}/{hit.klass}[/cyan]{tool}: {escape(hit.snippet)}", emoji=False)
        # A hit that shares no word with the query would puzzle a reader without this.
        meaning = {"semantic": "by meaning, no shared word · ", "literal": "literal match · "}.get(hit.why, "")
        show(f"   [dim]{meaning}read: recollect read {hit.cursor}[/dim]")
    click.echo(
        f"\n{history.counted(cov.hits_returned, 'hit')} from {history.counted(cov.sessions_returned, 'session')}; "
        f"{cov.sessions_matched} matched, {cov.sessions_in_scope} in scope, {cov.sessions_indexed} indexed"
    )
    for limit in result.limits(CLI_OPTIONS):
        click.echo(limit)
    pending = cov.skipped_by_reason.get("sessions_not_yet_embedded", 0)
    if pending:
        pending_sessions = history.counted(pending, "session is", "sessions are")
        click.echo(f"{pending_sessions} not yet searchable by meaning; 'recollect index' embeds them")


@click.command("read")
@click.argument("cursor")
@click.option("--before", default=3, show_default=True, type=click.IntRange(0, 50), help="Messages before the anchor.")
@click.option("--after", default=4, show_default=True, type=click.IntRange(0, 50), help="Messages after the anchor.")
@click.option(
    "--mode",
    type=click.Choice(["around", "message", "head", "tail"]),
    default="around",
    show_default=True,
    help="A window around the cursor, the one message whole, or the session's head or tail.",
)
@click.option(
    "--whole",
    is_flag=True,
    help="The one message at CURSOR with its full tool input and output (no per-part caps), within --budget.",
)
@click.option(
    "--budget",
    type=click.IntRange(1_000, 200_000),
    help=f"Most characters to print (default {DEFAULT_BUDGET:,}; with --whole {WHOLE_BUDGET:,}).",
)
@click.option(
    "--save",
    metavar="PATH",
    help="Write the whole session (every message, uncapped, secrets redacted) as ChatML to PATH instead.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "chatml", "json"]),
    default="text",
    show_default=True,
    help="For people, for agents (ChatML with navigation cursors), or JSON.",
)
@session_filter_options
def read_cmd(
    cursor: str,
    before: int,
    after: int,
    mode: str,
    whole: bool,
    budget: int | None,
    save: str | None,
    fmt: str,
    **kw: Any,
) -> None:
    """Read a bounded window of the real transcript around CURSOR (from a search hit, or a session id)."""
    filters = build_filters(**kw)
    if save is not None:
        saved = history.save_transcript(cursor, save, filters, app=current_app())
        if fmt == "json":
            print_json(saved.to_dict())
        else:
            click.echo(f"saved {history.counted(saved.messages, 'message')} ({saved.bytes} bytes) to {saved.path}")
        return
    chars = budget or (WHOLE_BUDGET if whole else DEFAULT_BUDGET)
    w = history.read(
        cursor, filters, before=before, after=after, budget=chars, mode=mode, whole=whole, app=current_app()
    )
    if fmt == "json":
        print_json(w.to_dict())
    elif fmt == "chatml":
        click.echo(history.render_chatml(w))
    else:
        click.echo(history.render_text(w))


@click.command("sessions")
@click.option("--limit", "-n", default=20, show_default=True, type=click.IntRange(1, 1000), help="Sessions to list.")
@click.option("--offset", default=0, type=click.IntRange(0, MAX_OFFSET), help="Skip this many (for paging).")
@filter_options
@click.option(
    "--parent",
    metavar="ID",
    help="Only the children (subagent sessions) of this session, each with how it ended: to recover a "
    "cancelled subagent.",
)
@click.option("--hidden", is_flag=True, help="List the sessions hidden with 'recollect hide' instead, with why.")
@click.option("--json", "as_json", is_flag=True, help="Print the sessions, with their statistics, as JSON.")
def sessions_cmd(limit: int, offset: int, parent: str | None, hidden: bool, as_json: bool, **kw: Any) -> None:
    """List recent sessions, newest first, with their size and how each ended."""
    if hidden:
        _print_hidden(as_json)
        return
    filters = build_filters(**kw)
    filters.parent = parent
    rows = history.sessions(filters, limit=limit, offset=offset, app=current_app())
    if as_json:
        print_json({"sessions": [r.to_dict() for r in rows], "listed_as_is": rows.as_is})
        return
    if rows.as_is:
        click.echo(f"Note: {history.LISTED_AS_IS}.")
    if not rows:
        if parent:
            click.echo(f"No children of {parent} in the index (a session id, or SOURCE::ID).")
        else:
            click.echo("No sessions in this scope. Run 'recollect doctor' if you expected some.")
        return
    # Two lines a session, as search prints its hits: the cursor is never wrapped, so it can be copied.
    for i, r in enumerate(rows, start=offset + 1):
        title = " ".join((r.title or "(untitled)").split())
        title = title if len(title) <= 100 else title[:99] + "…"
        when = history.iso(r.time_updated)[:16].replace("T", " ")
        click.echo(f"{i}. {title}  {r.directory or '(no directory)'} · {when} · {r.agent_kind}")
        size = f"{history.counted(r.messages, 'message')}, {history.counted(r.turns, 'turn')}"
        child = f" · subagent of {r.source}::{r.parent_id}" if r.parent_id else ""
        click.echo(f"   {size}, {r.ending}{child} · read: recollect read {r.cursor}")


def _print_hidden(as_json: bool) -> None:
    entries = history.hidden_sessions(app=current_app())
    if as_json:
        print_json({"hidden": [e.to_dict() for e in entries]})
        return
    if not entries:
        click.echo("No hidden sessions.")
        return
    for e in entries:
        where = f" [{e.directory}]" if e.directory else ""
        click.echo(f"{e.session}  {e.title or '(not in the index)'}{where}")
        click.echo(f"    hidden {e.at} by {e.by}: {e.why}")


@click.command("hide")
@click.argument("session")
@click.option(
    "--why", required=True, metavar="TEXT", help="Why it is hidden (kept with the hide and in the audit log)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (see docs/cli.md).")
def hide_cmd(session: str, why: str, as_json: bool) -> None:
    """Hide SESSION (an id, SOURCE::ID, or a cursor) from search, read, listings, agents and auto-recall.

    The session is not deleted and its store is not touched: the hide is kept outside the index, so it
    survives re-indexing. 'recollect unhide SESSION' brings it back.
    """
    entry = history.hide_session(session, why=why, app=current_app())
    if as_json:
        print_json(entry.to_dict())
    else:
        click.echo(f"hid {entry.session}; 'recollect unhide {entry.session}' brings it back")


@click.command("unhide")
@click.argument("session")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (see docs/cli.md).")
def unhide_cmd(session: str, as_json: bool) -> None:
    """Show a session hidden with 'recollect hide' again."""
    entry = history.unhide_session(session, app=current_app())
    if as_json:
        print_json(entry.to_dict())
    else:
        click.echo(f"{entry.session} is visible again")


@click.command("doctor")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (see docs/cli.md).")
def doctor_cmd(as_json: bool) -> None:
    """Say what recollect found (config, index, sources) and what is wrong. Changes nothing."""
    d = history.doctor(current_app().config)
    from recollect.integrations.opencode import checkup, problems_of

    connected = checkup(current_app().config.paths)
    d.problems.extend(problems_of(connected))
    if as_json:
        print_json({**asdict(d), "opencode": [c.to_dict() for c in connected]})
    else:
        click.echo(f"config: {d.config_file} ({'found' if d.config_exists else 'none; defaults in use'})")
        click.echo(
            f"index:  {d.index_path} ({d.index_size})"
            if d.index_exists
            else f"index:  {d.index_path} (not built yet: run 'recollect index')"
        )
        for s in d.sources:
            flags = "discovered" if s["discovered"] else "configured"
            state = s.get("status", "")
            extra = ""
            if "indexed_sessions" in s:
                extra = f", {history.counted(s['indexed_sessions'], 'session')} indexed" + (
                    f", synced {s['synced']}" if "synced" in s else ""
                )
                if s.get("malformed"):
                    extra += f", {history.counted(s['malformed'], 'malformed record')} skipped or mended"
                    extra += history.malformed_where(s["malformed"], s.get("malformed_most", ""))
                if s.get("not_sessions"):
                    extra += f", {history.counted(s['not_sessions'], 'file')} left out as no session"
            click.echo(f"source {s['id']} ({s['kind']}, {flags}): {s['path']} [{state}{extra}]")
        for extra_line in _doctor_extras(d.semantic):
            click.echo(extra_line)
        for c in connected:
            state = "ok" if not c.problems else f"{history.counted(len(c.problems), 'problem')} (below)"
            click.echo(f"opencode: {c.config_dir} [{state}]" + "".join(f"\n  {line}: ok" for line in c.fine))
        if not connected and any(s["kind"] == "opencode" for s in d.sources):
            click.echo("opencode: not connected to recollect ('recollect install opencode' gives it recollect's tools)")
        if d.problems:
            click.echo("problems:")
            for p in d.problems:
                click.echo(f"  - {p}")
        else:
            click.echo("no problems found")
    if d.problems:
        sys.exit(1)


def _doctor_extras(semantic: dict[str, Any]) -> list[str]:
    """doctor's lines about search by meaning (history.doctor's `semantic`, from factory.semantic_state)."""
    if semantic.get("status") == "off":
        return [
            f"search by meaning: off ({semantic.get('reason')}; to turn it on: {semantic.get('fix')})",
            "session-card encoder: off (search by meaning is off)",
        ]
    static = semantic.get("static") or {}
    cards = static.get("card_encoder") or {}
    state = "on" if semantic.get("status") == "on" else str(semantic.get("status", "unknown"))
    lines = [f"search by meaning: {state} (provider {semantic.get('provider')}, model {static.get('model_id', '?')})"]
    if semantic.get("cards_enabled") and cards.get("installed"):
        cache = "cached" if cards.get("cached") else "not cached yet: the first index loads it (~2 s)"
        lines.append(
            f"session-card encoder: on ({cards.get('model_id')}/card400; {cache} in {cards.get('cache_path')})"
        )
    else:
        lines.append(
            "session-card encoder: off ([embeddings] cards = false)"
            if not semantic.get("cards_enabled")
            else f"session-card encoder: off ({cards.get('problem')}; fix: {cards.get('fix')})"
        )
    return lines
