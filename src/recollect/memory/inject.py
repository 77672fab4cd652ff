"""The curated memory put in front of a model, in three tiers:

1. hard rules — always, whatever the message (global ones first, project ones appended);
2. the outline — the hand-written goals and one line per live memory, bounded by
   `max_outline_chars`, so it stays cheap at any number of memories;
3. bodies — the strongest matches for the current message: at most `max_inject_entries`,
   within `max_inject_chars` (both from `[memory]`).

All three together stay within `max_injected_chars` per request, envelopes included: hard rules
first; then the bodies' cap is kept free and goals and outline get what is left; the bodies get
their cap and whatever else is left (each tier within its own cap too). Whatever a budget cuts is
said in the block ("… 3 more hard rules not shown …"), never dropped silently.

Two shapes (a host's prompt cache reuses a prompt only up to its first changed byte):

* `standing_block` — tiers 1 and 2. It does not depend on the message and holds no clock, counter or
  score, so it is byte-identical from request to request until the memories it shows change: the
  OpenCode plugin puts it in the system prompt. `turn_block` — tier 3 for one message, within what
  the standing block left of the budget: the plugin appends it to that message only.
* `injection_block` — all three tiers in one block (`recollect memory inject` prints it).

Every block opens with `INJECTION_MARKER`: the history indexer skips text carrying it, so what we
inject is never indexed back as if someone had said it. This module only reads; it does not count
hits (injection happens on every message, recall is the deliberate act the counters measure).

The standing block is built once per state of what it reads and kept (`_Kept`): the plugin asks for
it on every message, and rebuilding it (successions, eligibility, redacting every outline line) cost
~7 ms of CPU at 1,000 memories. The state is the catalog's snapshot of each root (a new object
whenever a memory file is created, removed or edited, as the catalog sees it: `catalog.py`), the bytes
of each root's tombstones and ROOT.md, and the clock only where it matters: a kept block is used until
the next validity boundary (a memory's valid_from or valid_to) passes.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from recollect.memory.catalog import RootContents, load_root
from recollect.memory.compile import goals_text
from recollect.memory.files import ROOT_FILE, TOMBSTONE_FILE, Memory, utcnow
from recollect.memory.recall import match_memories
from recollect.memory.space import MemorySpace, View, load_view
from recollect.memory.succession import honour_hand_successions
from recollect.redact import redact

INJECTION_MARKER = "<recollect-memory>"
INJECTION_END = "</recollect-memory>"
# The per-message block opens with the same tag (so the indexer and every reader treat it alike),
# marked as belonging to the message it rides on.
TURN_MARKER = '<recollect-memory for="this message">'
_INTRO = "Curated memory (recollect): notes people keep for this work. Hard rules always apply."
_TURN_INTRO = "Curated memories that bear on this message (added by recollect, not written by the person):"
_TRUNCATED = "…"
_MIN_LINE = len("- a/b — x")
_MIN_BODY = 80  # a body stub shorter than this would mislead more than help
_CUT_ROOM = 90  # kept free in the standing block for the line naming a tier left out whole
# Kept free of the standing block for the per-message block: its frame and at least a short body
# or the line saying the bodies were left out.
_TURN_ROOM = len(TURN_MARKER) + len(_TURN_INTRO) + len(INJECTION_END) + 4 + 120


def _safe(text: str) -> str:
    """Memory text can neither close our block early nor carry a secret to a model provider."""
    return redact(text).replace("</recollect-memory", "<\\/recollect-memory")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _outline_line(memory: Memory) -> str:
    when = f" (when: {', '.join(memory.load_when)})" if memory.load_when else ""
    return f"- {memory.id} — {_one_line(memory.summary)}{when}"


def _outline_candidates(view: View, limit: int) -> tuple[list[Memory], int]:
    """The first `limit` live memories that are not rules, project before global, then pinned,
    then most recently updated; and how many there are in all. No outline line is shorter than
    _MIN_LINE, so no more than `limit` can fit: the rest are never sorted."""
    picked: list[Memory] = []
    total = 0
    for scope in ("project", "global"):
        if scope not in view.contents:
            continue
        contents = view.contents[scope]
        columns = contents.columns
        rows = np.flatnonzero(view.eligible(scope) & ~columns.rule)
        total += rows.size
        if len(picked) >= limit or not rows.size:
            continue
        when = np.nan_to_num(columns.when_ts[rows], nan=view.now.timestamp())
        # lexsort sorts by its last key first: pinned first, then newest; it is stable and rows
        # are in id order, so ties go by id.
        ordered = rows[np.lexsort((-when, ~columns.pinned[rows]))][: limit - len(picked)]
        picked.extend(contents.order[r].memory for r in ordered)
    return picked, total


def _envelope(marker: str, intro: str) -> int:
    """Characters a block's frame takes: marker, intro, blank line, end tag, newlines."""
    return len(marker) + len(intro) + len(INJECTION_END) + 4


def _fit(lines: list[str], room: int, note: Callable[[int], str]) -> list[str]:
    """The leading `lines` that fit in `room` characters (each with its newline). When some do
    not, the last line is `note(n)`, naming the n left out, and it fits too."""
    if sum(len(line) + 1 for line in lines) <= room:
        return list(lines)
    room -= len(note(len(lines))) + 1
    kept: list[str] = []
    for line in lines:
        if room < len(line) + 1:
            break
        kept.append(line)
        room -= len(line) + 1
    return [*kept, note(len(lines) - len(kept))] if room >= 0 else []


@dataclass(frozen=True)
class _Standing:
    sections: list[str]
    rule_ids: set[tuple[str, str]]


def _hard_rules(view: View) -> list[Memory]:
    rules: list[Memory] = []
    for scope in ("global", "project"):  # global hard rules first; project rules are appended
        if scope in view.contents:
            contents = view.contents[scope]
            rows = np.flatnonzero(view.eligible(scope) & contents.columns.rule)
            rules.extend(sorted((contents.order[r].memory for r in rows), key=lambda m: m.id))
    return rules


def _standing(space: MemorySpace, view: View, budget: int) -> _Standing:
    """Hard rules, goals and outline as sections, within `budget` characters (newlines counted).
    A tier the budget leaves no room for at all is named in a last line."""
    settings = space.settings
    total = settings.max_injected_chars
    rules = _hard_rules(view)
    sections: list[str] = []
    left_out: list[str] = []
    left = budget - _CUT_ROOM

    def add(name: str, heading: str, lines: list[str], cap: int, note: Callable[[int], str]) -> None:
        nonlocal left
        kept = _fit(lines, min(cap, left) - len(heading) - 2, note)
        if not kept:
            left_out.append(name)
            return
        section = heading + "\n" + "\n".join(kept)
        sections.append(section)
        left -= len(section) + 2  # the blank line between sections

    if rules:
        add(
            "hard rules",
            "## Hard rules (always apply)",
            [
                _safe(f"- {_one_line(m.summary)}" + (f" — {_one_line(m.highlight)}" if m.highlight else ""))
                for m in rules
            ],
            left,
            lambda n: (
                f"- … {n} more hard rules not shown (over the {total:,}-character budget); memory_recall finds them"
            ),
        )
    # Goals and outline yield to the bodies: the bodies' own cap stays free for them (hard rules
    # may take it, they always apply). A fixed reserve, so the standing block stays message-free.
    left -= settings.max_inject_chars
    goals = [
        _safe(text)
        for root in space.roots()
        if (root.path / ROOT_FILE).is_file()
        and (text := goals_text((root.path / ROOT_FILE).read_text(encoding="utf-8")))
    ]
    if goals:
        add(
            "goals",
            "## Current goals",
            "\n".join(goals).splitlines(),
            left,
            lambda n: f"- … {n} more lines of goals not shown (over the budget; ROOT.md has them)",
        )
    others, others_count = _outline_candidates(view, settings.max_outline_chars // _MIN_LINE + 1)
    if others:
        add(
            "outline",
            "## Memory outline (what exists; recall a topic for the full text)",
            [_safe(_outline_line(m)) for m in others],
            settings.max_outline_chars,
            lambda n: f"- … and {others_count - len(others) + n} more; search them with memory_recall",
        )
    if left_out:
        sections.append(f"(Not shown, over the {total:,}-character budget: the {', '.join(left_out)}.)")
    return _Standing(sections, {(m.scope, m.id) for m in rules})


def _more(n: int) -> str:
    return f"(… {n} more matching memories not shown: over the budget; memory_recall finds them)"


def _bodies(view: View, message: str, skip: set[tuple[str, str]], max_entries: int, budget: int) -> str:
    """The section of the memories that best match `message`, within `budget` characters: whole
    bodies while they fit, then the next one cut short (or left out when too little room is left),
    and a line naming how many matches were not shown."""
    heading = "## Relevant memories"
    room = budget - len(heading) - 1
    matched = match_memories(view, message, limit=max_entries + len(skip))
    matched = [s for s in matched if (s.memory.scope, s.memory.id) not in skip][:max_entries]
    out: list[str] = []
    for i, scored in enumerate(matched):
        memory = scored.memory
        entry = _safe(f"### {memory.id} — {_one_line(memory.summary)}\n{memory.body}".rstrip())
        rest = len(matched) - i - 1
        reserve = len(_more(rest)) + 2 if rest else 0
        if len(entry) + 2 <= room - reserve:
            out.append(entry)
            room -= len(entry) + 2
            continue
        suffix = f"{_TRUNCATED} (cut at the budget; memory_recall shows it whole)"
        avail = room - reserve - 2 - len(suffix)
        if avail >= _MIN_BODY:
            out.append(entry[:avail].rstrip() + suffix)
            if rest:
                out.append(_more(rest))
        elif len(_more(rest + 1)) + 2 <= room:
            out.append(_more(rest + 1))
        break
    return heading + "\n" + "\n\n".join(out) if out else ""


def _render(marker: str, intro: str, sections: list[str]) -> str:
    return "\n".join([marker, intro, "", "\n\n".join(sections), INJECTION_END]) + "\n" if sections else ""


def _view(space: MemorySpace, now: datetime | None) -> View:
    now = now or utcnow()
    with _KEPT_LOCK:
        kept = _KEPT.get(space)
    # Successions were honoured (none was pending) in the state the kept standing block was built from.
    if kept is None or not _same(kept.state, _state(space)):
        honour_hand_successions(space, now)
    return load_view(space, now)


def _standing_budget(space: MemorySpace) -> int:
    return space.settings.max_injected_chars - _envelope(INJECTION_MARKER, _INTRO) - _TURN_ROOM


_State = tuple[tuple[RootContents, ...], tuple[bytes | None, ...]]


@dataclass(frozen=True)
class _Kept:
    """A standing block and what it was built from: valid while the state is the same and the clock is
    in [since, until) (no validity boundary in between; nor, with undated memories, an `updated` one:
    an undated memory sorts as if updated now)."""

    state: _State
    block: str
    since: datetime
    until: datetime | None  # the next valid_from / valid_to at or after `since`; None: none
    until_ts: float  # the same for `updated` timestamps, when some memory is undated; else inf

    def holds(self, state: _State, now: datetime) -> bool:
        return (
            _same(self.state, state)
            and self.since <= now
            and (self.until is None or now < self.until)
            and now.timestamp() < self.until_ts
        )


def _same(a: _State, b: _State) -> bool:
    return a[1] == b[1] and len(a[0]) == len(b[0]) and all(x is y for x, y in zip(a[0], b[0], strict=True))


_KEPT: OrderedDict[MemorySpace, _Kept] = OrderedDict()
_KEPT_SPACES = 64  # one per directory the plugin helper serves
_KEPT_LOCK = threading.Lock()


def _state(space: MemorySpace) -> _State:
    """What the standing block reads, as of now: each root's catalog snapshot (the same object until a
    memory file changes, within `rescan_seconds` for a file edited in place, as every read of it is),
    and the bytes of its tombstones and ROOT.md (small files; bytes, not a modification time, so an
    edit within one mtime tick counts too)."""
    contents: list[RootContents] = []
    files: list[bytes | None] = []
    for root in space.roots():
        contents.append(load_root(root, space.cache_dir, rescan_seconds=space.settings.rescan_seconds))
        for name in (TOMBSTONE_FILE, ROOT_FILE):
            try:
                files.append((root.path / name).read_bytes())
            except OSError:
                files.append(None)
    return tuple(contents), tuple(files)


def _boundaries(view: View) -> tuple[datetime | None, float]:
    """The first validity boundary at or after the view's clock, and (when some memory is undated, so
    sorts as if updated now) the first `updated` timestamp at or after it: until then eligibility and
    order stay as they are."""
    now, now_ts = view.now, view.now.timestamp()
    until: datetime | None = None
    until_ts = math.inf
    for contents in view.contents.values():
        columns = contents.columns
        for row in columns.bounded:
            memory = contents.order[row].memory
            for bound in (memory.valid_from, memory.valid_to):
                if bound is not None and bound >= now and (until is None or bound < until):
                    until = bound
        when = columns.when_ts
        if np.isnan(when).any():
            later = when[when >= now_ts]
            if later.size:
                until_ts = min(until_ts, float(later.min()))
    return until, until_ts


def standing_block(space: MemorySpace, *, now: datetime | None = None) -> str:
    """Hard rules, goals and outline: the same bytes on every request until those memories change
    (kept between requests: see the module's docstring)."""
    now = now or utcnow()
    before = _state(space)
    with _KEPT_LOCK:
        kept = _KEPT.get(space)
    if kept is not None and kept.holds(before, now):
        return kept.block
    marked = honour_hand_successions(space, now)
    view = load_view(space, now)
    block = _render(INJECTION_MARKER, _INTRO, _standing(space, view, _standing_budget(space)).sections)
    after = _state(space)
    # Kept only when nothing moved while it was built: no succession marked, and the roots read as
    # before and after (so a kept block is exactly what a build from that state gives).
    if not marked and _same(before, after) and all(view.contents.get(c.root.scope) is c for c in after[0]):
        until, until_ts = _boundaries(view)
        with _KEPT_LOCK:
            _KEPT[space] = _Kept(after, block, now, until, until_ts)
            _KEPT.move_to_end(space)
            while len(_KEPT) > _KEPT_SPACES:
                _KEPT.popitem(last=False)
    return block


def turn_block(space: MemorySpace, message: str, *, standing: str | None = None, now: datetime | None = None) -> str:
    """The bodies of the memories that best match `message`, within `max_inject_chars` and what
    `standing` (the standing block sent with it; computed when not given) left of `max_injected_chars`."""
    settings = space.settings
    view = _view(space, now)
    skip: set[tuple[str, str]] = {(m.scope, m.id) for m in _hard_rules(view)}
    if standing is None:
        standing = _render(INJECTION_MARKER, _INTRO, _standing(space, view, _standing_budget(space)).sections)
    left = settings.max_injected_chars - len(standing) - _envelope(TURN_MARKER, _TURN_INTRO)
    section = _bodies(view, message, skip, settings.max_inject_entries, min(settings.max_inject_chars, left))
    return _render(TURN_MARKER, _TURN_INTRO, [section] if section else [])


def injection_block(
    space: MemorySpace,
    message: str,
    *,
    max_entries: int | None = None,
    max_chars: int | None = None,
    now: datetime | None = None,
) -> str:
    """All three tiers for `message` in one block; empty when there is no memory at all."""
    settings = space.settings
    max_entries = settings.max_inject_entries if max_entries is None else max_entries
    max_chars = settings.max_inject_chars if max_chars is None else max_chars
    view = _view(space, now)
    budget = settings.max_injected_chars - _envelope(INJECTION_MARKER, _INTRO)
    standing = _standing(space, view, _standing_budget(space))  # as standing_block shows it
    left = budget - sum(len(s) + 2 for s in standing.sections)
    section = _bodies(view, message, standing.rule_ids, max_entries, min(max_chars, left))
    return _render(INJECTION_MARKER, _INTRO, [*standing.sections, *([section] if section else [])])
