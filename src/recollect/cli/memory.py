"""`recollect memory …`: curated memory from the command line.

Thin on purpose: every command calls one function of `recollect.memory` and prints what it
returned — rich tables on a terminal, plain tab-separated lines when piped, `--json` for scripts
and agents. It never reads or writes a memory file itself. Errors become one clear line and a
non-zero exit, never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import click
from rich.markup import escape
from rich.table import Table

from recollect import memory as mem
from recollect.cli.group import Group
from recollect.cli.output import console, is_terminal, options, print_json
from recollect.history import counted

# Exit status when a write was screened out (duplicate, forgotten) or a check found problems.
EXIT_NOT_DONE = 1


def _space(ctx: click.Context) -> mem.MemorySpace:
    options = ctx.find_root().meta.setdefault("recollect.memory", {})
    if "space" not in options:
        options["space"] = mem.open_memory(project=options.get("project"), no_project=options.get("global_only", False))
    return options["space"]


def _table(columns: list[str], rows: list[list[str]], *, title: str | None = None) -> None:
    if not is_terminal():
        for row in rows:
            click.echo("\t".join(cell.replace("\t", " ").replace("\n", " ") for cell in row))
        return
    table = Table(title=title, show_lines=False)
    for i, column in enumerate(columns):
        table.add_column(column, overflow="fold", no_wrap=i == 0)  # an id or a time reads best whole
    for row in rows:
        table.add_row(*(escape(cell) for cell in row))
    console().print(table)


def _say(text: str, *, err: bool = False) -> None:
    click.echo(text, err=err)


def _listed(items: Sequence[Any], as_json: bool, empty: str, *, err: bool = True) -> bool:
    """Print `items` as JSON, or say `empty` when there are none; False leaves the listing to the caller."""
    if as_json:
        print_json([item.to_dict() for item in items])
        return True
    if not items:
        _say(empty, err=err)
        return True
    return False


def _done(result: Any, as_json: bool, text: str, *, err: bool = False) -> None:
    """What a command that changed something prints: the result as JSON, or one line saying what it did."""
    if as_json:
        print_json(result.to_dict())
    else:
        _say(text, err=err)


def _on_one_memory(group: click.Group, name: str, *own: Callable[[Any], Any]) -> Callable[[Callable[..., None]], Any]:
    """Command `name` of `group`, on one memory: MEMORY_ID, the command's own options, then --json;
    the function is called with the click context first."""

    def make(function: Callable[..., None]) -> Any:
        parameters = options(
            click.argument("memory_id"),
            *own,
            click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (see docs/cli.md)."),
        )
        return group.command(name)(parameters(click.pass_context(function)))

    return make


def _date(value: Any) -> str:
    return value.strftime("%Y-%m-%d") if value else ""


_PROJECT_HELP = "Use this project directory's .memory/ (default: the git work tree holding the current directory)."
_GLOBAL_HELP = "Ignore any project; use the global memory root only."


def _set_root_option(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    if value:  # given after the subcommand: it wins over (or adds to) what the group was given
        ctx.find_root().meta.setdefault("recollect.memory", {})[param.name or ""] = value


class MemoryGroup(Group):
    """`--project` and `--global-only` work before the subcommand and after it alike
    (`recollect memory --project P list` and `recollect memory list --project P`)."""

    synonyms: ClassVar[dict[str, str]] = {
        "remember": "add",
        "new": "add",
        "save": "add",
        "note": "add",
        "delete": "forget",
        "remove": "forget",
        "rm": "forget",
        "ls": "list",
        "search": "recall",
        "find": "recall",
        "get": "show",
        "view": "show",
        "audit": "log",
        "history": "log",
        "check": "inspect",
        "proposals": "review",
    }

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        cmd.params += [
            click.Option(
                ["--project"],
                type=click.Path(exists=True, file_okay=False, path_type=Path),
                expose_value=False,
                callback=_set_root_option,
                help=_PROJECT_HELP,
            ),
            click.Option(
                ["--global-only", "global_only"],
                is_flag=True,
                expose_value=False,
                callback=_set_root_option,
                help=_GLOBAL_HELP,
            ),
        ]
        super().add_command(cmd, name)


@click.group("memory", cls=MemoryGroup)
@click.option(
    "--project",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Use this project directory's .memory/ (default: the git work tree holding the current directory).",
)
@click.option("--global-only", is_flag=True, help="Ignore any project; use the global memory root only.")
@click.pass_context
def memory(ctx: click.Context, project: Path | None, global_only: bool) -> None:
    """Curated memories: rules, preferences, decisions, pitfalls and facts, as markdown files.

    Two roots: the global one (under your recollect config dir) and <project>/.memory/ when run
    inside a git work tree. Project memories win on conflict; global hard rules always apply.
    """
    ctx.find_root().meta["recollect.memory"] = {"project": project, "global_only": global_only}


@memory.command("add")
@click.argument("body", required=False)
@click.option(
    "--category", "-c", default="facts", show_default=True, help="rules, preferences, decisions, pitfalls, facts…"
)
@click.option("--summary", "-s", help="One line saying what this memory is (default: the body's first line).")
@click.option("--highlight", default="", help="The one detail worth seeing first.")
@click.option("--when", "load_when", multiple=True, help="A scenario or keyword that should load this memory; repeat.")
@click.option("--pinned", is_flag=True, help="Never decays with age, and a model cannot replace it.")
@click.option("--slug", help="File name inside the category (default: made from the summary).")
@click.option("--global", "to_global", is_flag=True, help="Write to the global root even inside a project.")
@click.option("--supersedes", help="Id of the memory this one replaces (it is kept, marked superseded).")
@click.option("--valid-from", help="Date from which this holds (2026-10-01).")
@click.option("--valid-to", help="Date from which this no longer holds; it then stops surfacing.")
@click.option("--author", default="person", show_default=True, help="person, person:<name>, model or model:<id>.")
@click.option("--session", "source_session", help="The session this memory came from.")
@click.option("--force", is_flag=True, help="Write even if it duplicates a memory or matches a forgotten one.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def add_command(ctx: click.Context, body: str | None, to_global: bool, as_json: bool, **fields: Any) -> None:
    """Remember something. BODY is the text ('-' reads it from stdin)."""
    # `fields` are the options named as `remember` names them (category, summary, load_when, author, ...).
    if body == "-" or (body is None and not sys.stdin.isatty() and not fields["summary"]):
        body = sys.stdin.read()
    result = mem.remember(_space(ctx), body or "", scope="global" if to_global else None, **fields)
    switches = []
    if result.outcome == "duplicate" and result.similar_to and result.forceable:
        # "supersede it" names no command: say the switch, and the id it takes.
        switches.append(f"--supersedes {result.similar_to} to replace it")
    if result.forceable:
        switches.append(f"--force to {result.forceable}")
    said = result.message + (f" (run again with {', or with '.join(switches)})" if switches else "")
    _done(result, as_json, said, err=not result.written)
    if not result.written:
        ctx.exit(EXIT_NOT_DONE)


@memory.command("list")
@click.option(
    "--all", "include_all", is_flag=True, help="Include proposed, rejected, superseded, expired and hidden ones."
)
@click.option("--category", "-c", help="Only this category.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (see docs/cli.md).")
@click.pass_context
def list_command(ctx: click.Context, include_all: bool, category: str | None, as_json: bool) -> None:
    """List memories (active ones unless --all)."""
    entries = mem.list_memories(_space(ctx), include_inactive=include_all, category=category)
    if _listed(entries, as_json, "no memories" + ("" if include_all else " (try --all)")):
        return
    rows = [
        [
            e.memory.id,
            e.memory.scope,
            e.status
            + (" (hidden by project)" if e.shadowed else "")
            + (" (file has problems: 'recollect memory inspect')" if e.memory.problems else ""),
            _date(e.memory.updated),
            e.memory.summary,
        ]
        for e in entries
    ]
    _table(["id", "scope", "status", "updated", "summary"], rows)


@_on_one_memory(memory, "show")
def show_command(ctx: click.Context, memory_id: str, as_json: bool) -> None:
    """Show one memory: its fields and full text. MEMORY_ID is like pitfalls/deploy-tool (or global:…)."""
    entry = mem.get_memory(_space(ctx), memory_id)
    if as_json:
        print_json(entry.to_dict())
        return
    m = entry.memory
    lines = [
        f"{m.qualified_id}  [{entry.status}{', hidden by project' if entry.shadowed else ''}]",
        f"summary: {m.summary}",
    ]
    if m.highlight:
        lines.append(f"highlight: {m.highlight}")
    if m.load_when:
        lines.append(f"when: {', '.join(m.load_when)}")
    lines.append(f"author: {m.author}  created: {_date(m.created)}  updated: {_date(m.updated)}  pinned: {m.pinned}")
    for label, value in (
        ("supersedes", ", ".join(m.supersedes)),
        ("superseded by", m.superseded_by),
        ("valid from", _date(m.valid_from)),
        ("valid to", _date(m.valid_to)),
        ("source session", m.source_session),
        ("reviewed by", m.reviewed_by),
        ("review note", m.review_note),
    ):
        if value:
            lines.append(f"{label}: {value}")
    lines.append(f"file: {m.path}")
    _say("\n".join(lines) + ("\n\n" + m.body if m.body else ""))


@memory.command("recall")
@click.argument("query", nargs=-1, required=True)
@click.option(
    "--limit", "-n", type=click.IntRange(min=1), help="How many memories (default from [memory] recall_limit)."
)
@click.option("--category", "-c", help="Only this category.")
@click.option("--no-count", is_flag=True, help="Do not count this recall in the rehearsal counters.")
@click.option("--json", "as_json", is_flag=True, help="A list of memories, each with its id, text, score and why.")
@click.pass_context
def recall_command(
    ctx: click.Context, query: tuple[str, ...], limit: int | None, category: str | None, no_count: bool, as_json: bool
) -> None:
    """Find the memories that match QUERY, with their full text and why they matched."""
    hits = mem.recall(_space(ctx), " ".join(query), limit=limit, category=category, record_hits=not no_count)
    if _listed(hits, as_json, "no memory matches"):
        return
    terminal = is_terminal()
    out = console()
    for hit in hits:
        m = hit.memory
        terms = ", ".join(f"{word}×{n}" for word, n in hit.why.words.items())
        head = f"{m.id}  ({m.scope}, score {hit.score:.3f}) — {m.summary}"
        if terminal:
            out.print(f"[bold]{escape(m.id)}[/]  ({m.scope}, score {hit.score:.3f}) — {escape(m.summary)}")
            out.print(f"  [dim]matched: {escape(terms)}[/]")
        else:
            click.echo(head)
            click.echo(f"  matched: {terms}")
        if m.body:
            click.echo("\n".join("  " + line for line in m.body.splitlines()))
        click.echo()


@_on_one_memory(
    memory,
    "forget",
    click.option("--reason", default="", help="Why (kept in the tombstone and the audit log)."),
    click.option("--author", default="person", show_default=True, help="Who forgets it (person or model:<id>)."),
)
def forget_command(ctx: click.Context, memory_id: str, reason: str, author: str, as_json: bool) -> None:
    """Forget a memory: delete its file and leave a tombstone so it never comes back."""
    result = mem.forget(_space(ctx), memory_id, author=author, reason=reason)
    _done(result, as_json, result.message)


@memory.command("inspect")
@click.option("--strict", is_flag=True, help="Exit non-zero when the self-check finds problems.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (see docs/cli.md).")
@click.pass_context
def inspect_command(ctx: click.Context, strict: bool, as_json: bool) -> None:
    """Every memory, plus a self-check: index drift, dangling supersedes, unknown categories, bad files."""
    report = mem.inspect(_space(ctx))
    if as_json:
        print_json(report.to_dict())
    else:
        for root in report.roots:
            state = counted(root["memories"], "memory", "memories") if root["exists"] else "not created yet"
            _say(f"{root['scope']} root: {root['path']} ({state})")
        counts: dict[str, int] = {}
        for entry in report.memories:
            counts[entry.status] = counts.get(entry.status, 0) + 1
        if counts:
            _say("by status: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        rows = [[e.memory.id, e.memory.scope, e.status, e.memory.summary] for e in report.memories]
        if rows:
            _table(["id", "scope", "status", "summary"], rows)
        if report.problems:
            _table(
                ["scope", "path", "problem", "detail"],
                [[p.scope, p.path, p.code, p.message] for p in report.problems],
                title="problems",
            )
        else:
            _say("self-check: no problems")
    if strict and not report.ok:
        ctx.exit(EXIT_NOT_DONE)


class ReviewGroup(Group):
    synonyms: ClassVar[dict[str, str]] = {"approve": "accept", "keep": "accept", "deny": "reject", "drop": "reject"}


@memory.group("review", cls=ReviewGroup, invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (see docs/cli.md).")
@click.pass_context
def review(ctx: click.Context, as_json: bool) -> None:
    """List proposals awaiting a person's review; accept, reject or edit them with the subcommands."""
    if ctx.invoked_subcommand is not None:
        return
    pending = mem.proposals(_space(ctx))
    if _listed(pending, as_json, "nothing to review", err=False):
        return
    rows = [[e.memory.id, e.memory.scope, e.memory.author, e.memory.summary] for e in pending]
    _table(["id", "scope", "author", "summary"], rows, title="proposals")
    first = pending[0].memory.id  # what to do next, with a real id (stderr: the listing stays a listing)
    _say(
        f"read one: recollect memory show {first}; decide: recollect memory review accept {first}, or "
        f"recollect memory review reject {first} --reason WHY (or on the page: recollect ui)",
        err=True,
    )


@_on_one_memory(
    review,
    "edit",
    click.option("--summary", "-s", help="A new one-line summary."),
    click.option("--body", help="New text ('-' reads it from stdin)."),
    click.option("--highlight", help="A new highlight: the one detail worth seeing first."),
    click.option("--when", "load_when", multiple=True, help="Replace the triggers; repeat."),
    click.option(
        "--pinned/--unpinned", default=None, help="Pin it (it never decays; a model cannot replace it), or unpin it."
    ),
    click.option("--valid-from", help="A date, or '' to clear."),
    click.option("--valid-to", help="A date, or '' to clear."),
)
def edit_command(
    ctx: click.Context,
    memory_id: str,
    summary: str | None,
    body: str | None,
    highlight: str | None,
    load_when: tuple[str, ...],
    pinned: bool | None,
    valid_from: str | None,
    valid_to: str | None,
    as_json: bool,
) -> None:
    """Edit a memory's text or fields in place (a proposal stays a proposal)."""
    if body == "-":
        body = sys.stdin.read()
    changes: dict[str, Any] = {}
    if valid_from is not None:
        changes["valid_from"] = valid_from or None
    if valid_to is not None:
        changes["valid_to"] = valid_to or None
    edited = mem.edit(
        _space(ctx),
        memory_id,
        summary=summary,
        body=body,
        highlight=highlight,
        load_when=list(load_when) if load_when else None,
        pinned=pinned,
        **changes,
    )
    _done(edited, as_json, f"edited {edited.qualified_id}")


@_on_one_memory(review, "accept", click.option("--note", default="", help="Kept in the file and the audit log."))
def accept_command(ctx: click.Context, memory_id: str, note: str, as_json: bool) -> None:
    """Accept a proposal: it becomes active."""
    accepted = mem.accept(_space(ctx), memory_id, note=note)
    _done(accepted, as_json, f"accepted {accepted.qualified_id}")


@_on_one_memory(
    review,
    "reject",
    click.option("--reason", required=True, help="Why (kept in the file, so the same proposal is not made again)."),
)
def reject_command(ctx: click.Context, memory_id: str, reason: str, as_json: bool) -> None:
    """Reject a proposal, with a reason."""
    rejected = mem.reject(_space(ctx), memory_id, reason=reason)
    _done(rejected, as_json, f"rejected {rejected.qualified_id}")


@memory.command("log")
@click.option("--limit", "-n", type=click.IntRange(min=1), default=50, show_default=True, help="Most recent entries.")
@click.option("--id", "memory_id", help="Only entries about this memory id.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (see docs/cli.md).")
@click.pass_context
def log_command(ctx: click.Context, limit: int, memory_id: str | None, as_json: bool) -> None:
    """The audit log: every change to memories, who made it, and the before/after file hashes."""
    entries = mem.read_log(_space(ctx), limit=limit, memory_id=memory_id)
    if _listed(entries, as_json, "no changes recorded"):
        return
    rows = [
        [e.at, e.scope, e.actor, e.op, e.id, (e.before or "-")[:12], (e.after or "-")[:12], e.note] for e in entries
    ]
    _table(["when", "scope", "who", "op", "id", "before", "after", "note"], rows)


@memory.command("compile")
@click.option("--check", is_flag=True, help="Write nothing; exit non-zero if a compiled file is out of date.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (see docs/cli.md).")
@click.pass_context
def compile_command(ctx: click.Context, check: bool, as_json: bool) -> None:
    """Regenerate every index.md and ROOT.md's tables from the memory files' frontmatter."""
    changed = mem.compile_memory(_space(ctx), check=check)
    if as_json:
        print_json({"changed": changed, "check": check})
    elif changed:
        _say(("out of date:\n" if check else "compiled:\n") + "\n".join(f"  {p}" for p in changed))
    else:
        _say("up to date")
    if check and changed:
        ctx.exit(EXIT_NOT_DONE)


@memory.command("inject")
@click.argument("message", nargs=-1)
@click.pass_context
def inject_command(ctx: click.Context, message: tuple[str, ...]) -> None:
    """Print the memory block a model would get before MESSAGE (hard rules, outline, best matches)."""
    click.echo(mem.injection_block(_space(ctx), " ".join(message)), nl=False)
