"""The one place that decides what a session becomes in the index: a card and slim chunks.

A card is one row per session (title, where, who, first line a person typed, last outcome line,
inventories of identifiers, files, tools and error signatures). Chunks are the searchable slices
of a session with their provenance: role, evidence class and authorship. Tool output and a tool's
error are kept only as a bounded excerpt (head, error-looking lines, tail): enough to find an error message, small
enough to keep the sidecar a fraction of the store.

Everything stored here is redacted first. Our own tool calls, the recall subagent's answers (the
`task` calls that start it, and the parent's sentences that relay them: text/relays.py), injected
blocks and files of a memory root are skipped (self-ingestion), and so are steps and other parts
without text.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from recollect.model import Message, Part, Session
from recollect.redact import redact as _redact_text
from recollect.text.markers import (
    carries_injected_block,
    global_memory_prefix,
    is_memory_path,
    is_our_tool,
    session_origin,
)
from recollect.text.relays import relays
from recollect.text.tokenize import identifiers_in

MAX_CHUNK_CHARS = 2_000  # long text is split into pieces of about this size
MAX_TEXT_CHARS = 60_000  # per part: beyond this only the head and tail are indexed
TOOL_INPUT_CHARS = 1_000
OUTPUT_HEAD, OUTPUT_TAIL, OUTPUT_ERRORS = 800, 800, 1_400
MAX_CHUNKS_PER_SESSION = 5_000
MAX_IDENTIFIERS, MAX_FILES, MAX_ERRORS = 200, 100, 50
HEAD_CHARS = 300

_ERRORISH = re.compile(
    r"(?i)\b(?:error|exception|traceback|fail(?:ed|ure|ing)?|fatal|panic|denied|refused|not found|"
    r"cannot|can't|unable|invalid|undefined|segmentation|timed? ?out|E[A-Z]{3,}|ERR_[A-Z_]+)\b"
)
# A line that states a decision and its reason: what "what did we decide about X" is looking for.
_DECISION = re.compile(
    r"(?i)\b(?:decided|decision|we(?:'ll| will| should)? (?:go with|use|keep|switch to|stick with)|chose|opted|"
    r"agreed|settled on|instead of|rather than|trade-?offs?|in favou?r of)\b|决定|选择了|采用|改用|而不是|不再使用"
)
MAX_DECISIONS, DECISION_CHARS = 20, 240
# `\b(?:[A-Z][A-Za-z0-9]*(?:Error|Exception|Failure|Warning)|E[A-Z]{3,}|ERR_[A-Z0-9_]+|panic)\b:?[^\n]{0,100}`,
# written to start with a character class (the boundary checked behind it), so the regex engine skips
# to candidate letters instead of trying every position of every tool output: same matches.
_ERROR_SIGNATURE = re.compile(
    r"[A-Zp](?<=\b[A-Zp])(?:(?<=[A-Z])[A-Za-z0-9]*(?:Error|Exception|Failure|Warning)|(?<=E)[A-Z]{3,}"
    r"|(?<=E)RR_[A-Z0-9_]+|(?<=p)anic)\b:?[^\n]{0,100}"
)


@dataclass
class Chunk:
    message_id: str
    part_id: str | None
    ord: int
    role: str
    klass: str
    author: str
    tool: str | None
    time: int
    text: str


@dataclass
class Card:
    first_human: str = ""
    last_outcome: str = ""
    identifiers: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    tools: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    message_count: int = 0
    chunks_dropped: int = 0
    origin: str = ""  # "" ordinary, or "recall" / "worker": a session recollect caused (text/markers.py)
    derived_by: list[str] = field(default_factory=list)  # the versioned rules that shaped it (index/derivations.py)


def _first_line(text: str, limit: int = HEAD_CHARS) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[:limit]
    return ""


def _last_line(text: str, limit: int = HEAD_CHARS) -> str:
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line:
            return line[:limit]
    return ""


def _split(text: str, size: int = MAX_CHUNK_CHARS) -> list[str]:
    """Split long text on paragraph, then line, then hard boundaries, into pieces of at most `size`."""
    if len(text) > MAX_TEXT_CHARS:
        half = MAX_TEXT_CHARS // 2
        text = text[:half] + "\n…\n" + text[-half:]
    if len(text) <= size:
        return [text]
    pieces: list[str] = []
    current = ""
    for para in re.split(r"(\n\s*\n)", text):
        if len(current) + len(para) <= size:
            current += para
            continue
        if current.strip():
            pieces.append(current)
        while len(para) > size:
            cut = para.rfind("\n", 0, size)
            cut = cut if cut > size // 2 else size
            pieces.append(para[:cut])
            para = para[cut:]
        current = para
    if current.strip():
        pieces.append(current)
    return pieces


# Text is cut before it is redacted and mined, so a 50 MB record costs what its excerpt costs. Each
# kept window is redacted with this much extra text around it, then trimmed: a secret that crosses
# a cut is still seen whole (the longest kinds, private keys, are matched even without their end).
REDACT_MARGIN = 4_096


# Short texts come back again and again in a history (a project's paths, a tool's fixed acknowledgement,
# the same small command): over a third of the texts redacted while indexing generated sessions. Their
# redaction is remembered, per process, in a table of bounded size (redaction is a pure function).
MEMO_CHARS = 256
MEMO_TEXTS = 4_096
_memo: dict[str, str] = {}


def redact(text: str) -> str:
    """`recollect.redact.redact`, remembered for short texts."""
    if len(text) > MEMO_CHARS:
        return _redact_text(text)
    done = _memo.get(text)
    if done is None:
        if len(_memo) >= MEMO_TEXTS:
            _memo.clear()
        done = _memo[text] = _redact_text(text)
    return done


def redact_head(text: str, limit: int) -> str:
    """The first `limit` characters of `text`, redacted."""
    if len(text) <= limit + REDACT_MARGIN:
        return redact(text)[:limit]
    return redact(text[: limit + REDACT_MARGIN])[:limit]


def redact_bounded(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """`text` redacted, or for text longer than `limit` its redacted head and tail (what is indexed)."""
    if len(text) <= limit + 2 * REDACT_MARGIN:
        return redact(text)
    half = limit // 2
    head = redact(text[: half + REDACT_MARGIN])[:half]
    tail = redact(text[-(half + REDACT_MARGIN) :])[-half:]
    return head + "\n…\n" + tail


def redacted_excerpt(output: str) -> str:
    """`output_excerpt` of the redacted output, computed on windows of the raw output."""
    if len(output) <= OUTPUT_HEAD + OUTPUT_TAIL + OUTPUT_ERRORS + 2 * REDACT_MARGIN:
        return output_excerpt(redact(output))
    head = redact_head(output, OUTPUT_HEAD)
    tail = redact(output[-(OUTPUT_TAIL + REDACT_MARGIN) :])[-OUTPUT_TAIL:]
    middle = output[OUTPUT_HEAD:-OUTPUT_TAIL]
    picked: list[str] = []
    budget = OUTPUT_ERRORS
    for match in _ERRORISH.finditer(middle):
        start = middle.rfind("\n", 0, match.start()) + 1
        end = middle.find("\n", match.end())
        line = redact(middle[start : end if end >= 0 else len(middle)].strip()[: 300 + REDACT_MARGIN])[:300]
        if picked and picked[-1] == line:
            continue
        if budget - len(line) < 0:
            break
        picked.append(line)
        budget -= len(line) + 1
    return head + "\n…\n" + "\n".join(picked) + ("\n…\n" if picked else "") + tail


def output_excerpt(output: str) -> str:
    """Head, the error-looking lines, and the tail of a tool output, within a fixed budget."""
    if len(output) <= OUTPUT_HEAD + OUTPUT_TAIL + OUTPUT_ERRORS:
        return output
    head, middle, tail = output[:OUTPUT_HEAD], output[OUTPUT_HEAD:-OUTPUT_TAIL], output[-OUTPUT_TAIL:]
    picked: list[str] = []
    budget = OUTPUT_ERRORS
    for line in middle.splitlines():
        if _ERRORISH.search(line):
            line = line.strip()[:300]
            if budget - len(line) < 0:
                break
            picked.append(line)
            budget -= len(line) + 1
    return head + "\n…\n" + "\n".join(picked) + ("\n…\n" if picked else "") + tail


def tool_input_text(tool: str, tool_input: Any) -> str:
    """A searchable rendering of a tool call's input, whole: redact it before cutting it."""
    if isinstance(tool_input, dict):
        # The fields people search for first; the rest as compact JSON.
        for key in ("command", "pattern", "query", "url", "filePath", "path", "description"):
            value = tool_input.get(key)
            if isinstance(value, str) and value:
                rest = {k: v for k, v in tool_input.items() if k != key}
                text = value if not rest else f"{value} {json.dumps(rest, ensure_ascii=False)}"
                return f"{tool}: {text}"
        return f"{tool}: {json.dumps(tool_input, ensure_ascii=False)}"
    if tool_input is None:
        return tool
    return f"{tool}: {tool_input}"


def decision_lines(text: str) -> list[str]:
    """Sentences of `text` that state a decision (bounded), for the card."""
    out = []
    for sentence in re.split(r"(?<=[.!?。！？])\s+|\n+", text):
        sentence = sentence.strip()
        if len(sentence) >= 12 and _DECISION.search(sentence):
            out.append(sentence[:DECISION_CHARS])
    return out


def error_signatures(text: str) -> list[str]:
    return [m.group(0).strip() for m in _ERROR_SIGNATURE.finditer(text)]


class _Builder:
    """The state of one `build`: the rows so far and what the card collects on the way."""

    def __init__(self, session: Session) -> None:
        self.card = Card(message_count=len(session.messages), origin=session_origin(session))
        self.chunks: list[Chunk] = []
        self.identifier_counts: Counter[str] = Counter()
        self.files: dict[str, None] = {}
        self.errors: dict[str, None] = {}
        self.decisions: dict[str, None] = {}
        self.is_child = session.parent_id is not None
        self.memory_prefix = global_memory_prefix()
        self.relays = relays(session)  # the recall agent's answers and the parent's text relaying them
        if self.relays:
            self.card.derived_by.append("relays")

    def author_for(self, message: Message, part: Part) -> str:
        if part.synthetic:
            return "injected"
        if self.is_child:
            return "subagent"
        return "person" if message.role == "user" else "model"

    def add(self, message: Message, ord_: int, part: Part, klass: str, author: str, text: str) -> None:
        # `text` is already redacted: every text is redacted whole, once, before it is cut or mined.
        for piece in _split(text):
            if piece.strip():
                self.chunks.append(
                    Chunk(
                        message_id=message.id,
                        part_id=part.id,
                        ord=ord_,
                        role=message.role,
                        klass=klass,
                        author=author,
                        tool=part.tool,
                        time=part.time or message.time,
                        text=piece,
                    )
                )

    def count_identifiers(self, text: str) -> None:
        self.identifier_counts.update(i for i in identifiers_in(text) if not is_memory_path(i, self.memory_prefix))

    def part(self, message: Message, ord_: int, part: Part) -> None:
        if part.kind == "tool":
            self.tool_part(message, ord_, part)
            return
        self.files.update(
            dict.fromkeys(redact_head(f, 4_096) for f in part.files if not is_memory_path(f, self.memory_prefix))
        )
        if part.kind in ("text", "subtask") and part.text.strip():
            self.text_part(message, ord_, part)
        elif part.kind == "reasoning" and part.text.strip():
            author = "subagent" if self.is_child else "model"
            own = self.relays.text(message, part)
            if own.strip():
                self.add(message, ord_, part, "reasoning", author, redact_bounded(own))
        elif part.kind == "other" and part.text.strip():
            klass = "assistant_text" if message.role == "assistant" else "user_text"
            self.add(message, ord_, part, klass, self.author_for(message, part), redact_bounded(part.text))

    def text_part(self, message: Message, ord_: int, part: Part) -> None:
        if carries_injected_block(part.text):
            return  # our own injected memory / recall block
        own = self.relays.text(message, part)
        if not own.strip():
            return  # it only relayed the recall agent's answer
        text = redact_bounded(own)
        author = self.author_for(message, part)
        if message.summary:
            klass = "summary"
        elif part.kind == "subtask":
            klass = "subtask"
        else:
            klass = "user_text" if message.role == "user" else "assistant_text"
        self.add(message, ord_, part, klass, author, text)
        if author != "injected":
            self.count_identifiers(text)
        if author == "person" and not self.card.first_human:
            self.card.first_human = _first_line(text)
        if message.role == "assistant" and klass == "assistant_text":
            self.card.last_outcome = _last_line(text)
        if klass in ("assistant_text", "summary", "user_text") and author != "injected":
            self.decisions.update(dict.fromkeys(decision_lines(text)))

    def tool_part(self, message: Message, ord_: int, part: Part) -> None:
        tool = part.tool or "tool"
        if is_our_tool(tool) or self.relays.is_call(message, part):
            return  # our own tool calls, the recall subagent's answers: never indexed back
        if part.files and all(is_memory_path(f, self.memory_prefix) for f in part.files):
            return  # a curated memory file read or written: the memory, not history
        self.card.tools[tool] += 1
        self.files.update(
            dict.fromkeys(redact_head(f, 4_096) for f in part.files if not is_memory_path(f, self.memory_prefix))
        )
        author = "subagent" if self.is_child else "model"
        input_text = redact_head(tool_input_text(tool, part.tool_input), TOOL_INPUT_CHARS)
        self.add(message, ord_, part, "tool_input", author, input_text)
        self.count_identifiers(input_text)
        if part.tool_error:
            # A failed command's whole output is its error, and the line that says what failed is often its
            # last (a traceback's, pytest's FAILED summary, ssh's "Permission denied"): kept like an output.
            error = redacted_excerpt(part.tool_error)
            self.add(message, ord_, part, "tool_error", author, error)
            self.errors.setdefault(_first_line(error, 160), None)
        if part.tool_output and not carries_injected_block(part.tool_output):
            excerpt = redacted_excerpt(part.tool_output)
            self.add(message, ord_, part, "tool_output", author, excerpt)
            for signature in error_signatures(excerpt):
                self.errors.setdefault(signature[:160], None)

    def cap(self) -> None:
        """Keep everything a person typed, then the newest of the rest, within the per-session cap."""
        if len(self.chunks) <= MAX_CHUNKS_PER_SESSION:
            return
        person = [c for c in self.chunks if c.author == "person"]
        rest = [c for c in self.chunks if c.author != "person"]
        keep = max(0, MAX_CHUNKS_PER_SESSION - len(person))
        self.card.chunks_dropped = len(self.chunks) - len(person) - min(keep, len(rest))
        kept = person + (rest[-keep:] if keep else [])
        self.chunks = sorted(kept, key=lambda c: (c.ord, c.time))

    def finish(self) -> tuple[Card, list[Chunk]]:
        self.cap()
        card = self.card
        # Mined from redacted text; a token that is only part of a secret's placeholder is dropped.
        card.identifiers = [i for i, _ in self.identifier_counts.most_common(MAX_IDENTIFIERS) if "REDACTED" not in i]
        card.files = list(self.files)[:MAX_FILES]
        card.errors = list(self.errors)[:MAX_ERRORS]
        card.decisions = list(self.decisions)[:MAX_DECISIONS]
        return card, self.chunks


def build(session: Session) -> tuple[Card, list[Chunk]]:
    """Derive the card and chunks of one session. Pure: same session in, same rows out."""
    builder = _Builder(session)
    for ord_, message in enumerate(session.messages):
        for part in message.parts:
            builder.part(message, ord_, part)
        if message.error:
            builder.errors.setdefault(redact_head(message.error, 160), None)
    return builder.finish()
