"""What of an ordinary session is the recall subagent's answer coming back: recollect's own text.

When an agent delegates to our recall subagent (OpenCode's `task` tool with `subagent_type: recall`),
the subagent's answer, a paraphrase of our own tool output, comes back twice in the parent session:

* as the output of that `task` call (`<task id=…><task_result>…</task_result></task>`);
* in what the parent model writes afterwards, which often quotes or restates that answer.

Both are ours, not the parent's work, so neither may make the parent session match a later search
(the parent would outrank the session that did the work). `relays` finds them by structure: the
calls by their input (`markers.is_recall_tool_call`), and the relayed sentences as the parent's own
text *after* such an answer, in the same turn (until the person speaks again), whose words are mostly
the answer's words (the answer's tokens, by the one tokenizer; a sentence of at least three) and that
holds two of them in a row as the answer has them (a phrase of the answer; a sentence of one word, all
of whose tokens are the answer's). A sentence that says
something of its own (a step the parent took next, a file it changed) keeps its own words and is
kept; so does a short one that only shares scattered words with a long answer ("I'll run the
worker." after an answer that runs no broker and names the worker). Never a phrase list, never the
session's title.

The same holds when the agent calls one of our own tools itself (`recollect_history_search`,
`history_read`, `memory_recall`: `markers.is_our_tool`): the chunks drop the tool's output already, and
the sentences after it that restate that output are relayed sentences as above.

The indexer leaves both out of chunks, cards, inventories and vectors; reads, deep search and
extraction show or use a short marker instead (`RECALL_ANSWER_OMITTED`, `RELAYED_OMITTED`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

from recollect.text.markers import is_our_tool, is_recall_tool_call
from recollect.text.sentences import sentences
from recollect.text.tokenize import keys_of, words

if TYPE_CHECKING:
    from recollect.model import Message, Part, Session

# Raise when what this rule hides changes: the next sync re-reads the sessions it shaped (index/derivations.py).
RULE_VERSION = 3  # 2: a relay holds a phrase of the answer (542f390); 3: our own tools' answers relay too
# A sentence is a relay when at least this share of its distinct tokens are the answer's tokens: a
# restatement keeps most of the answer's words (a paraphrase changes a few); a sentence of the
# parent's own (what it did next) brings words of its own.
RELAY_SHARE = 0.6
# A shorter sentence is too short to tell ("Done.", "Let me check."): any long answer holds its words.
RELAY_MIN_TOKENS = 3
RECALL_ANSWER_OMITTED = "[the recall agent's answer omitted: recollect's own text; ask @recall again to see it]"
RELAYED_OMITTED = "[recollect's own answer (the recall agent's or a recollect tool's), restated here, omitted]"


@dataclass
class Relays:
    """The recall calls of a session, the calls of our own tools, and its text parts that relayed their
    answers: what is left of each without the relayed sentences ("" when the whole part relays). Keyed by
    (message id, part id)."""

    calls: set[tuple[str, str]] = field(default_factory=set)
    own_calls: set[tuple[str, str]] = field(default_factory=set)  # our MCP tools, called by this session's agent
    trimmed: dict[tuple[str, str], str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        """Whether the rule read the session: it called the recall agent or one of our tools."""
        return bool(self.calls or self.own_calls)

    def is_call(self, message: Message, part: Part) -> bool:
        return (message.id, part.id) in self.calls

    def left(self, message: Message, part: Part) -> str | None:
        """What is left of a part that relayed an answer, or None for a part that relayed none."""
        return self.trimmed.get((message.id, part.id))

    def text(self, message: Message, part: Part) -> str:
        """The part's text as recollect may index or show it: without what relays a recall answer."""
        return self.trimmed.get((message.id, part.id), part.text)


@dataclass
class Answer:
    """What the recall agent answered in a turn: its tokens, and its phrases (two words in a row)."""

    tokens: set[str] = field(default_factory=set)
    phrases: set[tuple[str, str]] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.tokens)

    def add(self, text: str) -> None:
        tokens, keys = _read(text)
        self.tokens.update(tokens)
        self.phrases.update(pairwise(keys))


def _read(text: str) -> tuple[set[str], list[str]]:
    """The distinct tokens of `text` and its phrase keys (text/tokenize), from one reading of its words."""
    said = words(text)
    return {token for _, tokens in said for token in tokens}, keys_of(said)


def _relayed(sentence: str, answer: Answer) -> bool:
    tokens, keys = _read(sentence)
    if len(tokens) < RELAY_MIN_TOKENS or len(tokens & answer.tokens) < RELAY_SHARE * len(tokens):
        return False
    # Mostly the answer's words, and some of them in the answer's own order: a restatement, not a
    # sentence that only shares a long answer's scattered words. A sentence of one word (a file name, an
    # identifier copied on its own line) has no order to share: it relays when every token of it is ours.
    if len(keys) < 2:
        return tokens <= answer.tokens
    return not set(pairwise(keys)).isdisjoint(answer.phrases)


def without_relayed(text: str, answer: Answer) -> str | None:
    """`text` without its sentences that only restate `answer`, its lines kept; None when no sentence
    of it does."""
    kept_lines: list[str] = []
    changed = False
    for line in text.splitlines():
        if not line.strip():
            kept_lines.append(line)
            continue
        pieces = sentences(line, semicolons=True)
        kept = [p for p in pieces if not _relayed(p, answer)]
        if len(kept) == len(pieces):
            kept_lines.append(line)
            continue
        changed = True
        if kept:
            # CJK sentence ends take no space after them; Latin ones had one.
            joined = kept[0].strip()
            for piece in kept[1:]:
                joined += ("" if joined[-1:] in "。！？；" else " ") + piece.strip()
            kept_lines.append(joined)
    return "\n".join(kept_lines).strip() if changed else None


def relays(session: Session) -> Relays:
    """The recall calls of `session` and the parent text after them that relays their answers.

    Cheap for the sessions that never called the recall agent or our tools: one pass over the parts, no
    tokenizing."""
    found = Relays()
    answer = Answer()
    for message in session.messages:
        if message.role == "user" and any(p.kind == "text" and not p.synthetic for p in message.parts):
            # A person spoke: what the model says from here on answers them, in its own words. (Over a
            # whole session a long answer's words cover too many of the model's later sentences.)
            answer = Answer()
        for part in message.parts:
            if part.kind == "tool":
                if is_recall_tool_call(part.tool, part.tool_input):
                    found.calls.add((message.id, part.id))
                    answer.add(part.tool_output or "")
                elif is_our_tool(part.tool):
                    # The agent called our tool itself (history_search, history_read, memory_recall): what
                    # it restates of the answer is ours as much as the recall agent's answer is.
                    found.own_calls.add((message.id, part.id))
                    answer.add(part.tool_output or "")
                continue
            # Only what the model wrote after an answer arrived can relay it; a person's words are theirs.
            if not answer or message.role != "assistant" or part.kind not in ("text", "reasoning"):
                continue
            if not part.text.strip():
                continue
            rest = without_relayed(part.text, answer)
            if rest is not None:
                found.trimmed[(message.id, part.id)] = rest
    return found
