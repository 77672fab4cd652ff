"""What of a session an extraction model may see: numbered lines of what people and the model said.

Owns the choice of evidence for extraction. Only text parts of user and assistant messages are
kept, redacted, one numbered line per line of text, so a candidate can cite the lines that
support it and the review can quote them verbatim. Never included: tool inputs and outputs,
reasoning, compaction summaries, text the harness injected (`synthetic`), and every block we
inject ourselves (`INJECTED_BLOCK_TAGS`), and what the model relayed of the recall agent's answer
(text/relays.py) — extracting from those would feed recollect's own output back into memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from recollect.model import Message, Part, Session
from recollect.redact import redact
from recollect.text.markers import carries_injected_block, session_origin
from recollect.text.relays import Relays, relays

MAX_LINE_CHARS = 400  # a longer line (minified code, a pasted log) is cut; it is evidence, not data


@dataclass(frozen=True)
class Line:
    number: int
    role: str  # user | assistant
    text: str
    message_id: str


@dataclass
class Transcript:
    session_id: str
    title: str
    directory: str
    lines: list[Line] = field(default_factory=list)
    omitted: int = 0  # older lines left out to stay within the character budget
    through: int = 0  # time (epoch ms) of the newest message considered; the next run starts after it

    def line(self, number: int) -> Line | None:
        first = self.lines[0].number if self.lines else 0
        index = number - first
        return self.lines[index] if 0 <= index < len(self.lines) else None

    def render(self) -> str:
        """Lines as the model sees them, one `L12 user: text` per line."""
        out: list[str] = []
        if self.omitted:
            out.append(f"(… {self.omitted} earlier lines omitted)")
        for line in self.lines:
            out.append(f"L{line.number} {line.role}: {line.text}")
        return "\n".join(out)


def is_worker_session(session: Session) -> bool:
    """A session recollect itself caused (extraction or summary workers, the recall subagent), by the
    same structural test the indexer uses: never a source of memories."""
    return session_origin(session) != ""


def _typed_text(message: Message, part: Part, ours: Relays) -> str | None:
    """The text of a part a person or the model wrote, or None when it must not be evidence."""
    if part.kind != "text" or part.synthetic or not part.text.strip():
        return None
    if carries_injected_block(part.text):
        return None
    own = ours.text(message, part)
    return own if own.strip() else None


def _spoken(message: Message, ours: Relays) -> list[str]:
    if message.role not in ("user", "assistant") or message.summary:
        return []  # a compaction summary is the model's recap of evidence, not evidence
    return [text for part in message.parts if (text := _typed_text(message, part, ours)) is not None]


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate that does not undercount CJK: ~4 ASCII characters per token,
    one token for any other character (a Chinese character is about one token, not a quarter)."""
    ascii_chars = sum(1 for ch in text if ch < "\x80")
    return (ascii_chars + 3) // 4 + (len(text) - ascii_chars)


def build_transcript(session: Session, *, after: int = 0, max_tokens: int = 4000) -> Transcript:
    """Numbered lines of the messages newer than `after` (epoch ms), the newest that fit in
    `max_tokens` (estimated) kept."""
    transcript = Transcript(session.id, session.title, session.directory)
    transcript.through = max((m.time for m in session.messages), default=after)
    lines: list[tuple[str, str, str]] = []
    ours = relays(session)
    for message in session.messages:
        if message.time <= after:
            continue
        for text in _spoken(message, ours):
            for raw in redact(text).splitlines():
                clean = " ".join(raw.split())
                if not clean:
                    continue
                if len(clean) > MAX_LINE_CHARS:
                    clean = clean[: MAX_LINE_CHARS - 1] + "…"
                lines.append((message.role, clean, message.id))
    # Keep the newest lines: on idle, the turn that just ended is what matters most.
    budget, keep = max_tokens, 0
    for _role, text, _mid in reversed(lines):
        cost = estimate_tokens(text) + 4  # the "L12 role: " prefix
        if cost > budget:
            break
        budget -= cost
        keep += 1
    start = len(lines) - keep
    transcript.omitted = start
    transcript.lines = [
        Line(number=i + 1, role=role, text=text, message_id=mid)
        for i, (role, text, mid) in enumerate(lines)
        if i >= start
    ]
    return transcript
