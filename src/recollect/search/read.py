"""Bounded reads of the real transcript by cursor: a window around a message, one message whole,
or a session paged. The transcript is read from the source store (read-only), not from the index,
so a window shows what really happened; the index only resolves the cursor and enforces scope.

Every window is capped: tool input and output per part, and characters per response, with a note
of what was cut. Output is redacted like the index. Rendering: readable text for people, or
ChatML-like blocks for agents.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from recollect.errors import RecollectError
from recollect.model import Message, Part, Session
from recollect.redact import redact
from recollect.search.budgets import DEFAULT_BUDGET
from recollect.search.results import make_cursor
from recollect.search.scope import FilterError, Filters, predicate
from recollect.text.markers import OWN_OUTPUT_OMITTED, carries_injected_block, is_our_tool
from recollect.text.plain import counted, plain_title
from recollect.text.relays import RECALL_ANSWER_OMITTED, RELAYED_OMITTED, Relays, relays
from recollect.times import iso

if TYPE_CHECKING:
    from recollect.sources import SourceSpec

TOOL_INPUT_CAP = 2_000
TOOL_OUTPUT_CAP = 6_000
DEFAULT_BEFORE, DEFAULT_AFTER = 3, 4


class ReadError(RecollectError):
    """A cursor cannot be read; the message says why and what to do."""


@dataclass
class RenderedMessage:
    index: int
    message_id: str
    role: str
    time: int
    blocks: list[dict[str, Any]]
    cursor: str


@dataclass
class Window:
    source: str
    session_id: str
    title: str
    directory: str
    anchor: int
    start: int
    end: int  # exclusive
    total: int
    messages: list[RenderedMessage]
    nav: dict[str, str | None]
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "session_id": self.session_id,
            "title": self.title,
            "directory": self.directory,
            "anchor": self.anchor,
            "range": [self.start, self.end - 1],
            "total": self.total,
            "messages": [
                {
                    "index": m.index,
                    "message_id": m.message_id,
                    "role": m.role,
                    "time": m.time,
                    "time_iso": iso(m.time),
                    "cursor": m.cursor,
                    "blocks": m.blocks,
                }
                for m in self.messages
            ],
            "nav": self.nav,
            "notes": self.notes,
        }


def _cap(text: str, cap: int | None, what: str, notes: list[str]) -> str:
    if cap is None or len(text) <= cap:
        return text
    notes.append(f"{what}: {len(text) - cap} of {len(text)} characters cut")
    return text[:cap] + f"\n…[{len(text) - cap} more characters cut]"


def _relayed_blocks(kind: str, own: str) -> list[dict[str, Any]]:
    """A part that relayed the recall agent's answer: what it said of its own, then the marker."""
    kept = [{"type": kind, "text": redact(own)}] if own.strip() else []
    return [*kept, {"type": "note", "text": RELAYED_OMITTED}]


def _blocks(
    message: Message, part: Part, notes: list[str], where: str, ours: Relays, *, caps: bool = True
) -> list[dict[str, Any]]:
    input_cap, output_cap = (TOOL_INPUT_CAP, TOOL_OUTPUT_CAP) if caps else (None, None)
    if part.kind in ("text", "subtask", "other") and part.text.strip():
        if carries_injected_block(part.text):
            return [{"type": "note", "text": "[recollect's own injected block omitted]"}]
        kind = "injected" if part.synthetic else "text"
        own = ours.left(message, part)
        if own is not None:
            return _relayed_blocks(kind, own)
        return [{"type": kind, "text": redact(part.text)}]
    if part.kind == "reasoning" and part.text.strip():
        own = ours.left(message, part)
        if own is not None:
            return _relayed_blocks("reasoning", own)
        return [{"type": "reasoning", "text": redact(part.text)}]
    if part.kind == "tool" and ours.is_call(message, part):
        # The recall subagent's answer paraphrases our own tool output (of any scope): the call is shown,
        # what it answered never is.
        shown = {"type": "tool", "tool": part.tool, "status": part.tool_status, "input": ""}
        return [{**shown, "output": RECALL_ANSWER_OMITTED}]
    if part.kind == "tool" and is_our_tool(part.tool):
        # What our own tool answered then may reach beyond the scope of this read (a search over
        # every project, run inside this session): the call is shown, its answer never is.
        return [
            {"type": "tool", "tool": part.tool, "status": part.tool_status, "input": "", "output": OWN_OUTPUT_OMITTED}
        ]
    if part.kind == "tool":
        raw_input = (
            part.tool_input if isinstance(part.tool_input, str) else json.dumps(part.tool_input, ensure_ascii=False)
        )
        block: dict[str, Any] = {
            "type": "tool",
            "tool": part.tool,
            "status": part.tool_status,
            "input": _cap(redact(raw_input or ""), input_cap, f"{where} tool input", notes),
        }
        if part.tool_output:
            block["output"] = _cap(redact(part.tool_output), output_cap, f"{where} tool output", notes)
        if part.tool_error:
            block["error"] = _cap(redact(part.tool_error), output_cap, f"{where} tool error", notes)
        return [block]
    if part.kind == "template":  # a slash command's template (sources/opencode_commands.py): the host's text
        return [{"type": "note", "text": f"[OpenCode's /{part.raw_type} template, {len(part.text):,} characters]"}]
    if part.kind == "patch" and part.files:
        return [{"type": "patch", "files": part.files}]
    if part.kind == "file":
        return [{"type": "file", "path": part.files[0] if part.files else part.text}]
    if part.kind == "compaction":
        return [{"type": "note", "text": "[conversation compacted here]"}]
    return []


def _render_message(
    session: Session, index: int, message: Message, notes: list[str], ours: Relays, *, caps: bool = True
) -> RenderedMessage:
    blocks: list[dict[str, Any]] = []
    for part in message.parts:
        blocks.extend(_blocks(message, part, notes, f"message {index}", ours, caps=caps))
    if message.summary:
        blocks.insert(0, {"type": "note", "text": "[compaction summary]"})
    if message.error:
        blocks.append({"type": "error", "text": redact(message.error)})
    return RenderedMessage(
        index=index,
        message_id=message.id,
        role=message.role,
        time=message.time,
        blocks=blocks,
        cursor=make_cursor(session.source, session.id, message.id),
    )


_TEXT_FIELDS = ("text", "input", "output", "error")


def _fit_whole(message: RenderedMessage, budget: int, notes: list[str]) -> None:
    """Cut one uncapped message to `budget` characters of text, in order, and say so when it cuts."""
    total = sum(len(b[k]) for b in message.blocks for k in _TEXT_FIELDS if isinstance(b.get(k), str))
    left = budget
    for block in message.blocks:
        for key in _TEXT_FIELDS:
            value = block.get(key)
            if not isinstance(value, str):
                continue
            if len(value) > left:
                block[key] = value[:left] + f"\n…[{len(value) - left} more characters cut by the budget]"
            left = max(0, left - len(value))
    if total > budget:
        notes.append(
            f"message {message.index} whole is {total} characters; the first {budget} are shown (the budget); "
            "raise the budget to see the rest"
        )


def _size(message: RenderedMessage) -> int:
    return sum(len(json.dumps(b, ensure_ascii=False)) for b in message.blocks) + 80


def resolve_cursor(
    conn: sqlite3.Connection, cursor: str, filters: Filters | None = None
) -> tuple[sqlite3.Row, str | None]:
    """(session row, message id or None) for a cursor, through the scope predicate.

    Accepts our cursors (`source::session::message`), `source::session`, a raw session id, or a raw
    message id (looked up among indexed chunks)."""
    filters = (filters or Filters()).resolve(conn)
    pieces = cursor.strip().split("::")
    source: str | None = None
    session_id: str | None = None
    message_id: str | None = None
    if len(pieces) == 3:
        source, session_id, message_id = pieces
    elif len(pieces) == 2:
        source, session_id = pieces
    elif len(pieces) == 1 and pieces[0]:
        session_id = pieces[0]
    else:
        raise ReadError(f"cannot read cursor {cursor!r}: pass a cursor from a search hit, or a session id")
    assert session_id is not None
    if filters.ceiling is not None:
        # A cursor copied from an earlier, wider answer must not open a session beyond the ceiling.
        filters.ceiling.check_sessions(conn, [f"{source}::{session_id}" if source else session_id])
        if source is None:
            filters.ceiling.check_sessions(conn, [session_id], by_message=True)  # a bare message id
    # A cursor names its session: reading one of the recall subagent's runs is asking for it.
    where, params = predicate(replace(filters, include_recall=True), chunk_alias=None)
    conn.row_factory = sqlite3.Row
    try:
        clause = "s.native_id = ?" + (" AND s.source_id = ?" if source else "")
        args: list[object] = [session_id, *([source] if source else [])]
        rows = conn.execute(f"SELECT * FROM session s WHERE {clause} AND {where}", [*args, *params]).fetchall()
        if not rows and source is None and session_id:
            # A bare message id: find its session among indexed chunks.
            rows = conn.execute(
                f"SELECT s.* FROM session s JOIN chunk c ON c.sid = s.sid WHERE c.message_id = ? AND {where} LIMIT 2",
                [session_id, *params],
            ).fetchall()
            message_id, session_id = session_id, None
    finally:
        conn.row_factory = None
    if not rows:
        why = (
            f"or the scope excludes it (try --scope {filters.widest_scope})"
            if filters.scope != filters.widest_scope
            else "or it is not indexed yet (run 'recollect index')"
        )
        raise ReadError(f"no session for cursor {cursor!r} within the current scope; it may have been deleted, {why}")
    if len({(r["source_id"], r["native_id"]) for r in rows}) > 1:
        choices = ", ".join(f"{r['source_id']}::{r['native_id']}" for r in rows)
        raise ReadError(f"cursor {cursor!r} is ambiguous; use one of: {choices}")
    return rows[0], message_id


def load_session(spec_by_id: dict[str, SourceSpec], row: sqlite3.Row) -> Session:
    spec = spec_by_id.get(row["source_id"])
    if spec is None:
        raise ReadError(f"source {row['source_id']!r} is not configured any more; run 'recollect doctor'")
    from recollect.sources import open_source  # the store adapters: only a read of a transcript needs them

    source = open_source(spec)
    for session in source.read_sessions([row["native_id"]]):
        return session
    raise ReadError(
        f"session {row['native_id']} is no longer in {spec.path}; it was deleted. Run 'recollect index' to drop it."
    )


def window(
    session: Session,
    message_id: str | None,
    *,
    before: int = DEFAULT_BEFORE,
    after: int = DEFAULT_AFTER,
    budget: int = DEFAULT_BUDGET,
    mode: str = "around",
    whole: bool = False,
) -> Window:
    """Messages around `message_id` (or the session head), within `budget` characters.

    `whole` reads one message (mode "message") with its full tool input and output: no per-part caps,
    only `budget` characters in all, with a note when the budget cuts."""
    messages = session.messages
    total = len(messages)
    anchor, start, end = _span(session, message_id, mode, before, after)
    notes: list[str] = []
    ours = relays(session)
    if whole:
        if mode != "message":
            raise FilterError("'whole' reads one message: use it with mode 'message' (or leave mode out)")
        rendered = [_render_message(session, i, messages[i], notes, ours, caps=False) for i in range(start, end)]
        for message in rendered:
            _fit_whole(message, budget, notes)
        budget = max(budget, sum(_size(m) for m in rendered))  # the one message is never dropped
    else:
        rendered = [_render_message(session, i, messages[i], notes, ours) for i in range(start, end)]
    kept = _within_budget(rendered, anchor, budget, notes)
    if len(kept) < len(rendered):
        rendered = kept
        start, end = rendered[0].index, rendered[-1].index + 1
    first = rendered[0].index if rendered else 0
    last = rendered[-1].index if rendered else 0

    def cur(i: int) -> str:
        return make_cursor(session.source, session.id, messages[i].id)

    nav = {
        "prev": cur(max(0, first - after - 1)) if first > 0 else None,
        "next": cur(min(total - 1, last + before + 1)) if last < total - 1 else None,
        "head": cur(0) if total else None,
        "tail": cur(total - 1) if total else None,
    }
    if mode == "message" and total:
        nav["context"] = cur(anchor)
    return Window(
        source=session.source,
        session_id=session.id,
        title=plain_title(redact(session.title)),  # the store's own title: it may hold a key, or markdown
        directory=session.directory,
        anchor=anchor,
        start=start,
        end=end,
        total=total,
        messages=rendered,
        nav=nav,
        notes=notes,
    )


def _span(session: Session, message_id: str | None, mode: str, before: int, after: int) -> tuple[int, int, int]:
    """(anchor, start, end exclusive): the message a window is about and the messages it shows."""
    messages = session.messages
    total = len(messages)
    if mode not in ("around", "head", "tail", "message"):
        raise FilterError("mode must be around, head, tail or message")
    anchor = 0
    if message_id:
        found = [i for i, m in enumerate(messages) if m.id == message_id]
        if not found:
            raise ReadError(f"message {message_id} is no longer in session {session.id} (removed or reverted)")
        anchor = found[0]
    if mode == "tail":
        anchor = max(0, total - 1)
    if mode == "message":
        return anchor, anchor, anchor + 1
    if mode == "head":
        return anchor, 0, min(total, before + after + 1)
    if mode == "tail":
        return anchor, max(0, total - (before + after + 1)), total
    return anchor, max(0, anchor - before), min(total, anchor + after + 1)


def _within_budget(
    rendered: list[RenderedMessage], anchor: int, budget: int, notes: list[str]
) -> list[RenderedMessage]:
    """Spend the budget nearest the anchor first; drop the farthest messages beyond it (with a note)."""
    order = sorted(range(len(rendered)), key=lambda k: abs(rendered[k].index - anchor))
    spent, keep = 0, set[int]()
    for k in order:
        size = _size(rendered[k])
        if keep and spent + size > budget:
            continue
        keep.add(k)
        spent += size
    if len(keep) == len(rendered):
        return rendered
    notes.append(f"{counted(len(rendered) - len(keep), 'message')} left out to stay within {budget} characters")
    return [m for k, m in enumerate(rendered) if k in keep]


def transcript(session: Session) -> Window:
    """The whole session, every message uncapped (for saving to a file; secrets still redacted)."""
    notes: list[str] = []
    ours = relays(session)
    rendered = [_render_message(session, i, m, notes, ours, caps=False) for i, m in enumerate(session.messages)]
    total = len(rendered)

    def cur(i: int) -> str:
        return make_cursor(session.source, session.id, session.messages[i].id)

    return Window(
        source=session.source,
        session_id=session.id,
        title=plain_title(redact(session.title)),  # the store's own title: it may hold a key, or markdown
        directory=session.directory,
        anchor=0,
        start=0,
        end=total,
        total=total,
        messages=rendered,
        nav={"head": cur(0) if total else None, "tail": cur(total - 1) if total else None},
        notes=notes,
    )


def render_text(w: Window) -> str:
    """For people: readable, one block per message."""
    lines = [
        f"{w.title or '(untitled)'} — {w.directory}",
        f"session {w.source}::{w.session_id}, messages {w.start + 1}-{w.end} of {w.total}",
        "",
    ]
    for m in w.messages:
        marker = "▶ " if m.index == w.anchor else "  "
        lines.append(f"{marker}[{m.index + 1}] {m.role} · {iso(m.time)}")
        for b in m.blocks:
            if b["type"] in ("text", "reasoning", "injected", "note", "error"):
                label = {"reasoning": "(thinking) ", "injected": "(injected) ", "error": "(error) "}.get(b["type"], "")
                lines.extend(
                    "    " + label + ln if i == 0 else "    " + ln for i, ln in enumerate(b["text"].splitlines())
                )
            elif b["type"] == "tool":
                lines.append(f"    $ {b['tool']} {b['input']}".rstrip())
                body = b.get("error") or b.get("output") or ""
                for ln in body.splitlines()[:40]:
                    lines.append("      " + ln)
                if len(body.splitlines()) > 40:
                    lines.append(f"      … {len(body.splitlines()) - 40} more lines")
            elif b["type"] == "patch":
                lines.append("    (changed files) " + ", ".join(b["files"]))
            elif b["type"] == "file":
                lines.append(f"    (attached file) {b['path']}")
        lines.append("")
    for note in w.notes:
        lines.append(f"note: {note}")
    lines.append("navigate: " + "  ".join(f"{k}={v}" for k, v in w.nav.items() if v))
    return "\n".join(lines)


def render_chatml(w: Window) -> str:
    """For agents: ChatML-like blocks with provenance and navigation cursors."""

    def attr(value: str) -> str:
        return value.replace('"', "'")

    out = [
        f'<hist source="{attr(w.source)}" sid="{attr(w.session_id)}" dir="{attr(w.directory)}" '
        f'title="{attr(w.title)}" range="{w.start}-{w.end - 1}" anchor="{w.anchor}" total="{w.total}">'
    ]
    for m in w.messages:
        out.append(f'<|im_start|>{m.role} id="{m.message_id}" index="{m.index}" time="{iso(m.time)}"')
        for b in m.blocks:
            if b["type"] == "tool":
                name, status = attr(b["tool"] or ""), b.get("status") or ""
                out.append(f'<tool_call name="{name}" status="{status}">{b["input"]}</tool_call>')
                if "output" in b:
                    out.append(f"<tool_result>{b['output']}</tool_result>")
                if "error" in b:
                    out.append(f"<tool_error>{b['error']}</tool_error>")
            elif b["type"] == "patch":
                out.append(f'<patch files="{attr(", ".join(b["files"]))}"/>')
            elif b["type"] == "file":
                out.append(f'<file path="{attr(b["path"])}"/>')
            elif b["type"] == "reasoning":
                out.append(f"<thinking>{b['text']}</thinking>")
            elif b["type"] == "injected":
                out.append(f"<injected>{b['text']}</injected>")
            else:
                out.append(b["text"])
        out.append("<|im_end|>")
    for note in w.notes:
        out.append(f"<note>{note}</note>")
    nav = " ".join(f'{k}="{v}"' for k, v in w.nav.items() if v)
    out.append(f"<nav {nav}/>")
    out.append("</hist>")
    return "\n".join(out)
