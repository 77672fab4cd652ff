"""The contract with the extraction model: what it is asked, and the only answers accepted.

Owns the prompt and the strict validation of the reply. A reply is one JSON object
`{"memories": [...]}` (a single ```json fence around it is tolerated, prose is not); every
candidate must cite at least one transcript line, and every field has a type and a length limit.
One bad candidate rejects the whole reply, with a reason naming the field: a reply is either
taken as a whole or not at all, so nothing is ever half-written. It never writes anything.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from recollect.extract.transcript import Line, Transcript
from recollect.jsonish import plain
from recollect.memory import DEFAULT_CATEGORIES
from recollect.memory.files import kind_of

MAX_SUMMARY, MAX_HIGHLIGHT, MAX_BODY = 200, 240, 2000
MAX_TRIGGERS, MAX_TRIGGER_CHARS = 8, 60
MAX_EVIDENCE = 6
SCOPES = ("project", "global")
_KEYS = {"category", "kind", "summary", "highlight", "body", "load_when", "evidence", "scope"}
_FENCE = re.compile(r"^```(?:json|JSON)?[ \t]*\n(.*)\n```$", re.DOTALL)

# Phrasing of an absolute requirement. A false positive only costs a person one review; a miss
# would let a model write a standing order, so this leans wide (seed 002: hard rules are only
# ever written by a person).
_RULE_WORDS = re.compile(
    r"(?i)\b(?:always|never|must(?:n't| not)?|do not|don't|shall(?: not)?|mandatory|forbidden|required to)\b"
    r"|必须|禁止|不要|不得|不准|一律|务必|永远不|严禁"
)


class MalformedOutput(ValueError):
    """The model's reply is not what was asked for; the message says where, for the log."""


@dataclass(frozen=True)
class Candidate:
    category: str
    summary: str
    highlight: str
    body: str
    load_when: tuple[str, ...]
    evidence: tuple[Line, ...]
    scope: str | None  # "project" | "global" | None (the project when there is one)
    rule_like: bool = False  # moved to the rules category because it reads as a hard rule
    raw_category: str = field(default="", compare=False)

    def keywords_text(self) -> str:
        """What the memory claims — summary, highlight, triggers — compared with existing memories.

        The body is left out: it elaborates, and a model that elaborates more must not make a
        repeat look new.
        """
        return "\n".join([self.summary, self.highlight, *self.load_when])

    def body_with_evidence(self, session_ref: str) -> str:
        """The body a person reviews: the model's text, then the cited lines quoted verbatim."""
        quoted = "\n".join(f"> L{line.number} {line.role}: {line.text}" for line in self.evidence)
        head = f"Evidence from session {session_ref}:"
        return f"{self.body.strip()}\n\n{head}\n{quoted}" if self.body.strip() else f"{head}\n{quoted}"

    def to_dict(self) -> dict[str, Any]:
        return plain(
            self,
            omit=("raw_category",),
            load_when=list(self.load_when),
            evidence=[{"line": ln.number, "role": ln.role, "text": ln.text} for ln in self.evidence],
        )


SYSTEM_PROMPT = """\
You extract durable memories for a coding agent from a transcript of one of its sessions.
A memory is something worth knowing in a LATER session: a preference the person stated, a \
decision and its reason, a non-obvious pitfall and its root cause, a project convention, a fact \
about the project that the code does not show.
Do NOT extract: what the code or git already shows, the state of the current task, branch names, \
local file paths, one-off chatter, anything only the assistant guessed. Never copy secrets \
(keys, tokens, passwords) into a memory. When nothing qualifies, return no memories: that is \
the common, correct answer.
A standing order the person gave ("always …", "never …") belongs to the category "rules"; a \
person will review it before it counts.

Reply with ONE JSON object and nothing else, no prose, exactly this shape:
{"memories": [{"category": "<one of: {categories}>", "summary": "<one sentence, at most 200 \
characters>", "highlight": "<the key detail in a few words, or empty>", "body": "<context, \
decision, reason or root cause; at most 2000 characters>", "load_when": ["<keyword that should \
bring this memory back>", "..."], "evidence": [<line numbers L.. of the transcript that state \
it>], "scope": "project" or "global"}]}
Every memory must cite at least one transcript line in "evidence". Use "global" only for a \
preference of the person that holds in every project. At most {max_candidates} memories."""


def system_prompt(categories: tuple[str, ...] = DEFAULT_CATEGORIES, max_candidates: int = 8) -> str:
    return SYSTEM_PROMPT.replace("{categories}", ", ".join(categories)).replace("{max_candidates}", str(max_candidates))


def user_prompt(transcript: Transcript) -> str:
    title = " ".join((transcript.title or "untitled").split())[:120]
    return (
        f'Transcript of the session "{title}". Each line starts with its number.\n\n'
        f"{transcript.render()}\n\nReply with the JSON object now."
    )


def looks_like_rule(*texts: str) -> bool:
    return any(_RULE_WORDS.search(text) for text in texts if text)


def _text(item: dict[str, Any], key: str, where: str, limit: int, *, required: bool = False) -> str:
    value = item.get(key, "")
    if value is None and not required:
        value = ""
    if not isinstance(value, str):
        raise MalformedOutput(f"{where}.{key}: expected a string, got {type(value).__name__}")
    value = value.strip()
    if required and not value:
        raise MalformedOutput(f"{where}.{key}: empty")
    if len(value) > limit:
        raise MalformedOutput(f"{where}.{key}: {len(value)} characters, at most {limit}")
    return value


def _category(item: dict[str, Any], where: str, categories: tuple[str, ...]) -> str:
    category, kind = item.get("category"), item.get("kind")
    if category is None and kind is None:
        raise MalformedOutput(f"{where}: needs a category")
    if category is not None and (not isinstance(category, str) or category not in categories):
        raise MalformedOutput(f"{where}.category: {category!r} is not one of {', '.join(categories)}")
    by_kind = [c for c in categories if kind_of(c) == kind or c == kind]
    if kind is not None and not by_kind:
        raise MalformedOutput(f"{where}.kind: {kind!r} is not the kind of any category")
    if category is not None and kind is not None and category not in by_kind:
        raise MalformedOutput(f"{where}: kind {kind!r} contradicts category {category!r}")
    return category if isinstance(category, str) else by_kind[0]


def _triggers(item: dict[str, Any], where: str) -> tuple[str, ...]:
    value = item.get("load_when", [])
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MalformedOutput(f"{where}.load_when: expected a list of strings")
    triggers = tuple(dict.fromkeys(" ".join(v.split()) for v in value if v.strip()))
    if len(triggers) > MAX_TRIGGERS:
        raise MalformedOutput(f"{where}.load_when: {len(triggers)} items, at most {MAX_TRIGGERS}")
    for trigger in triggers:
        if len(trigger) > MAX_TRIGGER_CHARS:
            raise MalformedOutput(f"{where}.load_when: {trigger[:20]!r}… is longer than {MAX_TRIGGER_CHARS}")
    return triggers


def _evidence(item: dict[str, Any], where: str, transcript: Transcript) -> tuple[Line, ...]:
    value = item.get("evidence")
    if not isinstance(value, list) or not value:
        raise MalformedOutput(f"{where}.evidence: must cite at least one transcript line number")
    if len(value) > MAX_EVIDENCE:
        raise MalformedOutput(f"{where}.evidence: {len(value)} lines, at most {MAX_EVIDENCE}")
    lines: list[Line] = []
    for ref in value:
        number = ref
        if isinstance(ref, str) and re.fullmatch(r"[Ll]?\d+", ref.strip()):
            number = int(ref.strip().lstrip("Ll"))  # "L12" is how the lines are shown
        if isinstance(number, bool) or not isinstance(number, int):
            raise MalformedOutput(f"{where}.evidence: {ref!r} is not a line number")
        line = transcript.line(number)
        if line is None:
            raise MalformedOutput(f"{where}.evidence: line {number} is not in the transcript")
        if line not in lines:
            lines.append(line)
    return tuple(sorted(lines, key=lambda ln: ln.number))


def _unwrap(reply: str) -> str:
    text = reply.strip()
    fenced = _FENCE.match(text)
    return fenced.group(1).strip() if fenced else text


def parse_candidates(
    reply: str,
    transcript: Transcript,
    *,
    categories: tuple[str, ...] = DEFAULT_CATEGORIES,
    max_candidates: int = 8,
    rules_category: str = "rules",
) -> list[Candidate]:
    """Every candidate of `reply`, or MalformedOutput naming the first problem."""
    text = _unwrap(reply)
    if not text:
        raise MalformedOutput("empty reply")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedOutput(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    if not isinstance(data, dict):
        raise MalformedOutput(f'expected an object {{"memories": [...]}}, got {type(data).__name__}')
    if set(data) != {"memories"}:
        extra = ", ".join(sorted(set(data) - {"memories"})) or "none"
        raise MalformedOutput(f'expected exactly the key "memories" (unexpected: {extra})')
    items = data["memories"]
    if not isinstance(items, list):
        raise MalformedOutput(f'"memories" must be a list, got {type(items).__name__}')
    if len(items) > max_candidates:
        raise MalformedOutput(f"{len(items)} memories, at most {max_candidates}")
    out: list[Candidate] = []
    for i, item in enumerate(items):
        where = f"memories[{i}]"
        if not isinstance(item, dict):
            raise MalformedOutput(f"{where}: expected an object, got {type(item).__name__}")
        unknown = set(item) - _KEYS
        if unknown:
            raise MalformedOutput(f"{where}: unknown keys {', '.join(sorted(unknown))}")
        category = _category(item, where, categories)
        summary = _text(item, "summary", where, MAX_SUMMARY, required=True)
        if "\n" in summary:
            raise MalformedOutput(f"{where}.summary: must be one line")
        highlight = _text(item, "highlight", where, MAX_HIGHLIGHT)
        body = _text(item, "body", where, MAX_BODY)
        scope = item.get("scope")
        if scope is not None and scope not in SCOPES:
            raise MalformedOutput(f"{where}.scope: {scope!r} is not project or global")
        candidate = Candidate(
            category=category,
            summary=summary,
            highlight=" ".join(highlight.split()),
            body=body,
            load_when=_triggers(item, where),
            evidence=_evidence(item, where, transcript),
            scope=scope,
            raw_category=category,
        )
        if (
            category != rules_category
            and rules_category in categories
            and looks_like_rule(candidate.summary, candidate.highlight)
        ):
            candidate = replace(candidate, category=rules_category, rule_like=True)
        out.append(candidate)
    return out
