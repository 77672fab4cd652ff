"""What a search returns: hits, with what limited them (`Coverage`), and how to build a hit."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field, fields
from typing import Any

from recollect.jsonish import plain
from recollect.text.plain import display_title
from recollect.text.tokenize import as_typed, query_words
from recollect.times import iso

SNIPPET_CHARS = 280


@dataclass
class Hit:
    session_id: str
    source: str
    agent_kind: str
    message_id: str
    part_id: str | None
    cursor: str
    score: float
    title: str
    directory: str
    time: int
    role: str
    klass: str
    author: str
    tool: str | None
    snippet: str
    matched: list[str]
    why: str  # terms (words matched) | semantic (meaning only) | both | literal (the literal retry)
    parent_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data = _fields(self)
        data["class"] = data.pop("klass")
        data["time_iso"] = iso(self.time)
        return data


@dataclass(frozen=True)
class OptionNames:
    """How one surface names what a reader can do about a search's limits (`SearchResult.limits`)."""

    more: str  # how to see more hits than were shown
    narrow: str  # the options that narrow a search
    window: str  # the options that set its time window, in brackets


# Written with the CLI's flags, which the MCP server's `for_model` turns into tool arguments (a valued flag is
# followed by its value, a comma or a bracket: "--class or" would read "or" as its value).
CLI_OPTIONS = OptionNames(
    more="raise --limit to see more",
    narrow="--scope project, --since 30d, --class, --tool",
    window="(--since/--until)",
)
PAGE_OPTIONS = OptionNames(
    more="add a word or a filter to see others first",
    narrow="the scope, since, class or tool filters",
    window="(since/until)",
)

_SCOPE_WORDS = {"project": "this project's", "directory": "this directory's", "session": "the chosen"}


@dataclass
class Coverage:
    sessions_indexed: int = 0
    sessions_in_scope: int = 0
    sessions_matched: int = 0
    sessions_returned: int = 0
    hits_returned: int = 0
    scope: str = "all"
    limited_by: list[str] = field(default_factory=list)
    skipped_by_reason: dict[str, int] = field(default_factory=dict)
    sources: list[dict[str, Any]] = field(default_factory=list)
    hint: str = ""


@dataclass
class SearchResult:
    query: str
    terms: list[str]
    hits: list[Hit]
    coverage: Coverage
    took_ms: float = 0.0
    corrections: dict[str, str] = field(default_factory=dict)  # typo -> the indexed word searched beside it
    time_words: list[str] = field(default_factory=list)  # read as a time preference, not searched
    framing: list[str] = field(default_factory=list)  # words that frame the question, weighted low
    literal: bool = False  # nothing ranked, so the scope was scanned for the query as typed
    phrase: str = ""  # an exact search of two or more words: the phrase every hit holds, its words in order

    def matched_as_typed(self, hit: Hit) -> list[str]:
        """The words `hit` matched as the query was typed (text/tokenize.as_typed): 'ECONNREFUSED', not its
        tokens 'econnrefused, econnrefus', which `hit.matched` keeps for --json; a typo's correction, which no
        typed word holds, as it was searched."""
        said = as_typed(query_words(self.query), hit.matched)
        covered = {t for tokens in said.values() for t in tokens}
        return [*said, *(t for t in hit.matched if t not in covered)]

    def notes(self, exact_hint: str) -> list[str]:
        """One line each for what the search did beyond the words as typed, and how to turn it off."""
        out = []
        if self.corrections:
            fixed = ", ".join(f"{old!r} (also searched {new!r})" for old, new in self.corrections.items())
            out.append(f"not in the index: {fixed}; for the words exactly as typed use {exact_hint}")
        if self.time_words:
            out.append(f"read {', '.join(repr(w) for w in self.time_words)} as a time: sessions from then rank first")
        if self.phrase:
            out.append(
                f"searched the phrase {self.phrase!r}: its words in this order, no typo correction "
                f"(without {exact_hint}, each word on its own)"
            )
        if self.literal and self.hits:  # with none, the hint says the literal retry found nothing either
            out.append(
                f"no session matched these words, so the hits are the newest text that holds {self.query.strip()!r} "
                "as typed (any case)"
            )
        return out

    def limits(self, names: OptionNames) -> list[str]:
        """What kept this answer from being the whole story (`coverage.limited_by`, whose short names --json
        keeps), one sentence each for a reader who never saw the engine: what happened and which of the
        surface's options (`names`) to use. A limit with nothing to add (the literal scan: `notes` says it)
        says nothing; one that is a sentence already is kept as it is."""
        from recollect.search.deep import MAX_CHARS
        from recollect.search.rank import CHUNK_CANDIDATES, LITERAL_SCAN_CHUNKS

        cov = self.coverage
        shown = cov.sessions_returned
        said = {
            "limit": f"showing the best {shown} of {shown + cov.skipped_by_reason.get('beyond_limit_sessions', 0)} "
            f"matching sessions; {names.more}",
            "candidate cap": f"these words are in so much text that the {CHUNK_CANDIDATES} passages compared (those "
            f"that match best) come from only a few sessions: other sessions holding them can be missing; add a "
            f"more specific word, or narrow it ({names.narrow})",
            "scope": f"only {_SCOPE_WORDS.get(cov.scope, 'some')} sessions were searched (scope {cov.scope!r})",
            "time window": f"only sessions active in the time window {names.window} were searched",
            "literal retry": "",
            "literal retry (newest chunks)": f"only the newest {LITERAL_SCAN_CHUNKS:,} passages were scanned for the "
            "text as typed; older sessions can hold it too: try other words",
            "index being updated by another process": "another process is writing to the index, so it was "
            "searched as it is: what that process is adding is not in it yet; search again in a moment",
            "deep character budget": f"the deep search stopped after reading {MAX_CHARS // 1_000_000} million "
            f"characters of tool output; narrow it ({names.narrow})",
        }
        return [line for limit in cov.limited_by if (line := said.get(limit, limit))]

    def to_dict(self) -> dict[str, Any]:
        return plain(
            self,
            omit=("hits", "coverage", "took_ms"),  # after the query's readings
            hits=[h.to_dict() for h in self.hits],
            coverage=_fields(self.coverage),
            took_ms=round(self.took_ms, 1),
        )


def _copied(value: Any) -> Any:
    return (
        [_copied(v) for v in value]
        if isinstance(value, list)
        else {k: _copied(v) for k, v in value.items()}
        if isinstance(value, dict)
        else value
    )


def _fields(obj: Any) -> dict[str, Any]:
    """`dataclasses.asdict` of a hit or a coverage, whose fields are scalars and lists and dicts of them:
    the same dict, ~30x faster (asdict deep-copies every value: ~0.2 ms a hit, ten or more per search)."""
    return {f.name: _copied(getattr(obj, f.name)) for f in fields(obj)}


def make_cursor(source: str, session_id: str, message_id: str) -> str:
    """Opaque to callers; qualified by source so several stores never collide."""
    return f"{source}::{session_id}::{message_id}" if message_id else f"{source}::{session_id}"


def snippet(text: str, terms: list[str], width: int = SNIPPET_CHARS) -> str:
    lowered = text.lower()
    best = -1
    for term in terms:
        # Map a token back to the raw text: the first literal occurrence of the token or its first part.
        probe = term.split("/")[-1] if "/" in term else term
        idx = lowered.find(probe)
        if idx >= 0 and (best < 0 or idx < best):
            best = idx
    flat = re.sub(r"\s+", " ", text)
    if best < 0 or len(flat) <= width:
        return flat[:width] + ("…" if len(flat) > width else "")
    # Re-find in the flattened text so whitespace collapsing does not shift the window.
    anchor = flat.lower().find(lowered[best : best + 20].split()[0] if lowered[best:].split() else "")
    anchor = max(anchor, 0)
    start = max(0, anchor - width // 3)
    end = min(len(flat), start + width)
    return ("…" if start else "") + flat[start:end] + ("…" if end < len(flat) else "")


def chunk_hit(
    session: sqlite3.Row, chunk: sqlite3.Row, score: float, matched: list[str], terms: list[str], why: str
) -> Hit:
    return Hit(
        session_id=session["native_id"],
        source=session["source_id"],
        agent_kind=session["agent_kind"],
        message_id=chunk["message_id"],
        part_id=chunk["part_id"],
        cursor=make_cursor(session["source_id"], session["native_id"], chunk["message_id"]),
        score=round(score, 6),
        title=display_title(session["title"], session["first_human"]),
        directory=session["directory"],
        time=chunk["time"] or session["time_updated"],
        role=chunk["role"],
        klass=chunk["class"],
        author=chunk["author"],
        tool=chunk["tool"],
        snippet=snippet(chunk["text"], matched or terms),
        matched=matched,
        why=why,
        parent_id=session["parent_id"],
    )


def card_hit(
    conn: sqlite3.Connection, session: sqlite3.Row, score: float, matched: list[str], terms: list[str], why: str
) -> Hit:
    first = conn.execute(
        "SELECT message_id, part_id, role, class, author, tool, time FROM chunk WHERE sid = ? ORDER BY ord, id LIMIT 1",
        (session["sid"],),
    ).fetchone()
    text = " — ".join(x for x in (session["title"], session["first_human"]) if x) or session["identifiers"][:200]
    message_id = first[0] if first else ""
    return Hit(
        session_id=session["native_id"],
        source=session["source_id"],
        agent_kind=session["agent_kind"],
        message_id=message_id,
        part_id=first[1] if first else None,
        cursor=make_cursor(session["source_id"], session["native_id"], message_id),
        score=round(score, 6),
        title=display_title(session["title"], session["first_human"]),
        directory=session["directory"],
        time=session["time_updated"],
        role=first[2] if first else "user",
        klass="card",
        author=first[4] if first else "person",
        tool=None,
        snippet=snippet(text, matched or terms),
        matched=matched,
        why=why,
        parent_id=session["parent_id"],
    )
