"""Curated-memory tools for agents: memory_recall, memory_remember, memory_forget, memory_inspect.

Thin over `recollect.memory`: the trust rules live there once. Everything a model writes through
these tools is authored `model` — so a rule it writes is only a proposal, it cannot forget a hard
rule, cannot force past a duplicate or a forgotten memory, and a suspected secret is refused.
The memory space is the one seen from the project directory the server was started in. Under a
scope ceiling (search/ceiling.py) both roots are read, but the global root is not written or
forgotten from here: what a model put there would be read in every project.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from recollect.history import counted
from recollect.mcp.args import ArgumentError, Param, Signature
from recollect.mcp.base import Lines, Reply, ServerSettings, Tool, fit, one_line

if TYPE_CHECKING:
    from recollect.memory import MemoryEntry, Recalled

AUTHOR = "model"  # models propose, people decide: never "person" from this surface
MAX_RECALL_LIMIT = 20
CATEGORY_HELP = "rules, preferences, decisions, pitfalls or facts (unless the user configured others)"


def _space(settings: ServerSettings) -> Any:
    from recollect.memory import open_memory  # the library loads after start-up, off the critical path

    return open_memory(Path(settings.cwd))


def _check_category(space: Any, category: str | None) -> None:
    if category is not None and category not in space.settings.categories:
        raise ArgumentError(f"category must be one of {', '.join(space.settings.categories)}; got {category!r}")


def _indent(text: str, prefix: str = "   ") -> list[str]:
    return [prefix + line if line else "" for line in text.splitlines()]


# --- memory_recall -------------------------------------------------------------------------------

RECALL_DESCRIPTION = (
    "Recall the user's curated memories — rules, preferences, decisions, pitfalls and facts they or earlier "
    "sessions recorded for this project and globally — that match what you are about to do. Use it at the "
    "start of a task, before a decision the user may already have made, and whenever the user says "
    "'remember', 'as I said' or 'we decided'.\n"
    "Returns the best matches first, each with its id (project:… or global:…), category, summary, the words "
    "that matched and its full text. Only active, currently valid memories are returned. Nothing matches → "
    "try other words, or memory_inspect to see what exists. Past conversations are in history_search instead."
)

RECALL = Signature(
    "memory_recall",
    (
        Param(
            "query",
            "string",
            "What the work is about: key words, identifiers, a task description. Any language.",
            required=True,
        ),
        Param(
            "limit",
            "integer",
            f"How many memories (default from the user's settings, usually 5; at most {MAX_RECALL_LIMIT}).",
            minimum=1,
            maximum=MAX_RECALL_LIMIT,
        ),
        Param("category", "string", f"Only this category: {CATEGORY_HELP}."),
    ),
)


def run_recall(args: dict[str, Any], settings: ServerSettings) -> Reply:
    from recollect.memory import recall

    space = _space(settings)
    _check_category(space, args["category"])
    hits = recall(space, args["query"], limit=args["limit"], category=args["category"])
    data = {"query": args["query"], "memories": [h.to_dict() for h in hits]}
    if not hits:
        return Reply(
            f"No memory matches {args['query']!r}. Try other words, or memory_inspect to list what exists.", data
        )
    out = Lines(settings.budget)
    out.add(f"{counted(len(hits), 'memory', 'memories')} for {args['query']!r}, best first:")
    shown_hits = out.add_while_fits((_recall_block(i, hit) for i, hit in enumerate(hits, 1)), 200)
    if shown_hits < len(hits):
        out.add(f"({len(hits) - shown_hits} more left out to stay within {settings.budget} characters; ask for fewer)")
    data["memories"] = data["memories"][:shown_hits]
    return Reply(out.text(), data)


def _recall_block(i: int, hit: Recalled) -> list[str]:
    m = hit.memory
    matched = ", ".join(hit.why.words) or "-"
    block = [f"{i}. {m.qualified_id} — {one_line(m.summary, 200)}  [score {hit.score:.3f}; matched {matched}]"]
    if m.highlight:
        block.append(f"   highlight: {one_line(m.highlight, 300)}")
    if m.load_when:
        block.append(f"   when: {one_line(', '.join(m.load_when), 300)}")
    if m.body.strip() != m.summary.strip():  # the summary defaults to the body's first line
        block.extend(_indent(m.body))
    return block


# --- memory_remember -----------------------------------------------------------------------------

REMEMBER_DESCRIPTION = (
    "Save a lasting memory for future sessions: a preference or rule the user states, a decision and its "
    "reason, a pitfall you hit and how to avoid it, a fact about the project that is not obvious from the code. "
    "One idea per memory, short, self-contained, no secrets (a write that looks like a credential is refused). "
    "Don't save what is already in the code, the docs or a memory (memory_recall first).\n"
    "Returns what happened: 'remembered <id>', 'proposed <id>' (rules, and anything replacing a pinned memory, "
    "wait for the user's review), or why nothing was written — a near-duplicate of an existing memory (its id "
    "is given: supersede it instead if it is outdated) or a memory the user made recollect forget."
)

REMEMBER = Signature(
    "memory_remember",
    (
        Param(
            "body",
            "string",
            "The memory itself: one self-contained fact, rule, preference, decision or pitfall, with the reason "
            "('Deploys use pnpm, not npm: the lockfile is pnpm's'). Markdown. Never a secret.",
            required=True,
            max_length=8_000,
        ),
        Param(
            "category",
            "string",
            f"One of {CATEGORY_HELP}. Default 'facts'. A rule you write waits for the user's review.",
            default="facts",
        ),
        Param("summary", "string", "One line saying what it is (default: the body's first line).", max_length=300),
        Param("highlight", "string", "The one detail worth seeing first.", max_length=500),
        Param("load_when", "string_list", "Situations or keywords in which it matters ('deploying', 'pnpm')."),
        Param(
            "scope",
            "string",
            "Where to keep it: 'project' (this git project's .memory/, the default inside a project) or "
            "'global' (every project).",
            choices=("project", "global"),
        ),
        Param(
            "supersedes",
            "string",
            "Id of a memory this one replaces (from memory_recall); the old one is kept, marked superseded.",
        ),
        Param("valid_from", "string", "Date from which it holds (2026-10-01)."),
        Param("valid_to", "string", "Date from which it no longer holds; it then stops being recalled."),
        Param("source_session", "string", "Id of the session it came from, if known."),
    ),
)


def run_remember(args: dict[str, Any], settings: ServerSettings) -> Reply:
    from recollect.memory import remember

    space = _space(settings)
    settings.ceiling().check_memory_write(space.root(args["scope"]).scope, "writing")
    result = remember(
        space,
        args["body"],
        category=args["category"],
        summary=args["summary"],
        highlight=args["highlight"] or "",
        load_when=args["load_when"] or (),
        scope=args["scope"],
        author=AUTHOR,
        source_session=args["source_session"],
        supersedes=args["supersedes"],
        valid_from=args["valid_from"],
        valid_to=args["valid_to"],
    )
    lines = [result.message]
    if result.outcome == "forgotten":
        # This tool has no force: say who can write past the tombstone, so the model does not retry.
        # Who forgot it is on the line already ("forgotten … by model" or by a person): say only who may undo it.
        lines[0] += "; it was forgotten on purpose, and only the user can re-add it ('recollect memory add --force')"
    if result.outcome in ("written", "proposed"):
        lines.append(f"id: {result.scope}:{result.id}")
    elif result.similar_to:
        lines.append(f"similar to: {result.similar_to} (similarity {result.similarity:.2f}); nothing was written")
    return Reply("\n".join(lines), result.to_dict())


# --- memory_forget -------------------------------------------------------------------------------

FORGET_DESCRIPTION = (
    "Forget a memory that is wrong or no longer wanted, when the user asks you to or it is plainly outdated "
    "(if it was only replaced, prefer memory_remember with 'supersedes'). The file is deleted and a tombstone "
    "keeps it from coming back; every change is in an audit log the user can read. Hard rules written by the "
    "user cannot be forgotten by you.\n"
    "Returns 'forgot <id>', or why not (unknown id: memory_inspect lists them)."
)

FORGET = Signature(
    "memory_forget",
    (
        Param(
            "id",
            "string",
            "The memory's id, as memory_recall or memory_inspect show it: 'pitfalls/deploy-tool', or qualified "
            "'project:pitfalls/deploy-tool' / 'global:…'.",
            required=True,
        ),
        Param("reason", "string", "Why it should be forgotten (kept in the audit log).", max_length=500),
    ),
)


def run_forget(args: dict[str, Any], settings: ServerSettings) -> Reply:
    from recollect.memory import forget, get_memory

    space = _space(settings)
    settings.ceiling().check_memory_write(get_memory(space, args["id"]).memory.scope, "forgetting")
    result = forget(space, args["id"], author=AUTHOR, reason=args["reason"] or "")
    return Reply(result.message, result.to_dict())


# --- memory_inspect ------------------------------------------------------------------------------

INSPECT_DESCRIPTION = (
    "Look at the memory store itself: without 'id', every memory with its id, status (active, proposed — "
    "waiting for the user's review —, superseded, expired, rejected) and summary, the roots they live in, and "
    "problems the self-check found; with 'id', that one memory in full, including who wrote it, when, what it "
    "supersedes and its validity dates. Use it to find an id before memory_forget or 'supersedes', or to check "
    "what was proposed. Read-only; memory_recall is the way to find memories by topic."
)

INSPECT = Signature(
    "memory_inspect",
    (
        Param(
            "id",
            "string",
            "Show this one memory in full (all its fields and text). Default: list every memory instead.",
        ),
        Param("category", "string", f"List only this category: {CATEGORY_HELP}."),
    ),
)


def _one(entry: Any) -> list[str]:
    m = entry.memory
    lines = [f"{m.qualified_id}  [{entry.status}{', hidden by a project memory' if entry.shadowed else ''}]"]
    lines.append(f"summary: {m.summary}")
    for label, value in (
        ("highlight", m.highlight),
        ("when", ", ".join(m.load_when)),
        ("author", m.author),
        ("created", m.created.isoformat() if m.created else ""),
        ("updated", m.updated.isoformat() if m.updated else ""),
        ("pinned", "yes" if m.pinned else ""),
        ("supersedes", ", ".join(m.supersedes)),
        ("superseded by", m.superseded_by),
        ("valid from", m.valid_from.isoformat() if m.valid_from else ""),
        ("valid to", m.valid_to.isoformat() if m.valid_to else ""),
        ("source session", m.source_session),
        ("reviewed by", m.reviewed_by),
        ("review note", m.review_note),
    ):
        if value:
            lines.append(f"{label}: {value}")
    if m.body:
        lines.append("")
        lines.extend(m.body.splitlines())
    return lines


def _listed_block(i: int, entry: MemoryEntry) -> list[str]:
    hidden = ", hidden" if entry.shadowed else ""
    return [f"{i}. {entry.memory.qualified_id} [{entry.status}{hidden}] — {one_line(entry.memory.summary, 160)}"]


def run_inspect(args: dict[str, Any], settings: ServerSettings) -> Reply:
    from recollect.memory import get_memory, inspect

    space = _space(settings)
    if args["id"]:
        entry = get_memory(space, args["id"])
        return Reply(fit("\n".join(_one(entry)), settings.budget), entry.to_dict())
    _check_category(space, args["category"])
    report = inspect(space)
    entries = [e for e in report.memories if args["category"] in (None, e.memory.category)]
    out = Lines(settings.budget)
    for root in report.roots:
        state = counted(root["memories"], "memory", "memories") if root["exists"] else "not created yet"
        out.add(f"{root['scope']} root: {root['path']} ({state})")
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry.status] = counts.get(entry.status, 0) + 1
    out.add("by status: " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "no memories yet"))
    problems = [f"- {p.scope} {p.path}: {p.code}: {p.message}" for p in report.problems]
    reserve = sum(len(p) + 1 for p in problems[:10]) + 200
    listed = out.add_while_fits((_listed_block(i, entry) for i, entry in enumerate(entries, 1)), reserve)
    if listed < len(entries):
        out.add(f"({len(entries) - listed} more not listed; pass 'category' to narrow)")
    if problems:
        out.add(f"problems ({len(problems)}):", *problems[:10])
        if len(problems) > 10:
            out.add(f"… {len(problems) - 10} more")
    else:
        out.add("self-check: no problems")
    data = report.to_dict()
    data["memories"] = [e.to_dict() for e in entries[:listed]]
    return Reply(out.text(), data)


TOOLS = (
    Tool(RECALL, RECALL_DESCRIPTION, run_recall, title="Recall memories"),
    Tool(REMEMBER, REMEMBER_DESCRIPTION, run_remember, read_only=False, title="Remember"),
    Tool(FORGET, FORGET_DESCRIPTION, run_forget, read_only=False, title="Forget a memory"),
    Tool(INSPECT, INSPECT_DESCRIPTION, run_inspect, title="Inspect memories"),
)
