"""A session's listing statistics and how it ended, derived from the session as a source yields it.

Pure: same session in, same numbers out. `sync.insert_session` stores them on the session row;
`history.sessions` lists them (docs/cli.md defines each one). `count_turns` is the one count of a
person's turns: the listing's `turns`, and the extraction's `min_turns` test, are both it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from recollect.model import Message, Session
from recollect.text.markers import carries_injected_block

ENDINGS = ("finished", "cancelled", "error", "unfinished")


@dataclass(frozen=True)
class SessionStats:
    turns: int  # messages a person typed (`count_turns`)
    assistant_messages: int
    tool_messages: int  # messages that call at least one tool
    text_parts: int  # non-empty text parts, any role
    approx_context_chars: int  # text, reasoning, tool input and output: what reading it all would cost
    ended: str  # one of ENDINGS

    def as_row(self) -> dict[str, object]:
        return asdict(self)


def _typed_by_a_person(message: Message) -> bool:
    return (
        message.role == "user"
        and not message.summary
        and any(
            p.kind == "text" and p.text.strip() and not p.synthetic and not carries_injected_block(p.text)
            for p in message.parts
        )
    )


def count_turns(session: Session) -> int:
    """Turns a person started: user messages with text they typed, not text the harness injected
    (`synthetic`), a compaction summary or a block recollect injected. A sub-agent's session (one with
    a parent: Claude Code's Task agents, OpenCode's child sessions, Codex's and Gemini's sub-agents)
    has none: its prompt is its parent agent's, as the index's `author` says (`subagent`)."""
    if session.parent_id is not None:
        return 0
    return sum(_typed_by_a_person(m) for m in session.messages)


def ending(session: Session) -> str:
    """How the session's last exchange ended: finished, cancelled (aborted by a person or its parent),
    error, or unfinished (no completion recorded: still running, or its process stopped)."""
    last = next((m for m in reversed(session.messages) if m.role == "assistant"), None)
    if last is None:
        return "unfinished"
    if last.error:
        return "cancelled" if "abort" in last.error.lower() or "cancel" in last.error.lower() else "error"
    return "finished" if last.completed else "unfinished"


def _input_chars(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return len(value)
    try:
        return len(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        return len(str(value))


def session_stats(session: Session) -> SessionStats:
    chars = 0
    text_parts = 0
    tool_messages = 0
    for message in session.messages:
        calls_a_tool = False
        for part in message.parts:
            if part.kind == "text" and part.text.strip():
                text_parts += 1
            if part.kind == "tool":
                calls_a_tool = True
                chars += _input_chars(part.tool_input) + len(part.tool_output or "") + len(part.tool_error or "")
            else:
                chars += len(part.text)
        tool_messages += calls_a_tool
    return SessionStats(
        turns=count_turns(session),
        assistant_messages=sum(m.role == "assistant" for m in session.messages),
        tool_messages=tool_messages,
        text_parts=text_parts,
        approx_context_chars=chars,
        ended=ending(session),
    )
