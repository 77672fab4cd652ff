"""Writing memories: remember, supersede, forget, under the trust rules every surface relies on.

The CLI, the MCP server and the OpenCode plugin call these functions and nothing below them, so
the trust rules live here once:

- models propose, people decide: a rule from a model is stored as a proposal, only a person
  accepts, rejects or edits, and a model may not forget or supersede a hard rule;
- a write whose text looks like a secret is refused before anything touches the disk;
- a new memory too similar to an existing one (any status) is not written, and one similar to a
  forgotten one is not brought back — unless a person insists (`force`);
- every mutation recompiles the root's derived files and appends to its audit log.

Writes to one root happen under that root's lock; reads never block.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from recollect.memory import audit
from recollect.memory.catalog import Loaded, forget_cached, load_root
from recollect.memory.compile import is_hard_rule, plan_compile, write_compiled
from recollect.memory.files import (
    InvalidMemory,
    Memory,
    MemoryRoot,
    NotAllowed,
    Scope,
    SecretRefused,
    check_author,
    check_category,
    is_person,
    kind_of,
    render_memory,
    root_lock,
    slugify,
    split_id,
    utcnow,
    write_text_atomic,
)
from recollect.memory.results import ForgetResult, RememberResult
from recollect.memory.settings import RULES_CATEGORY
from recollect.memory.space import MemorySpace, View, load_view
from recollect.memory.state import drop_hits
from recollect.memory.succession import mark_superseded
from recollect.memory.tombstones import add_tombstone, jaccard, lift_tombstone, read_tombstones, term_fingerprint
from recollect.redact import find_secrets
from recollect.text.tokenize import tokenize
from recollect.times import parse_datetime


def secret_location(fields: dict[str, str | Sequence[str] | None]) -> str | None:
    """Where the first suspected secret is ('body line 2 looks like a secret (jwt)'), or None.
    Names the field and line, never the secret."""
    for name, value in fields.items():
        if value is None:
            continue
        texts = [value] if isinstance(value, str) else list(value)
        for i, text in enumerate(texts):
            findings = find_secrets(text)
            if findings:
                where = f"{name} line {findings[0].line}" if isinstance(value, str) else f"{name} item {i + 1}"
                return f"{where} looks like a secret ({findings[0].kind})"
    return None


def check_no_secrets(fields: dict[str, str | Sequence[str] | None]) -> None:
    """Refuse a write whose text looks like it holds a secret."""
    where = secret_location(fields)
    if where:
        raise SecretRefused(
            f"refused: {where}; memories are plain files that go into git. "
            "Remove the secret (say where it is kept instead) and try again. Nothing was written."
        )


def memory_text(memory: Memory) -> dict[str, str | Sequence[str] | None]:
    return {
        "body": memory.body,
        "summary": memory.summary,
        "highlight": memory.highlight,
        "load_when": memory.load_when,
        "source_session": memory.source_session,
    }


def as_time(value: datetime | str | None, name: str) -> datetime | None:
    if value is None or value == "":
        return None
    try:
        return parse_datetime(value)
    except (ValueError, OverflowError, OSError) as exc:
        raise InvalidMemory(f"{name}: {value!r} is not a date (use 2026-10-01 or 2026-10-01T12:00:00Z)") from exc


def _first_line(text: str, limit: int = 160) -> str:
    line = next((ln.strip().lstrip("#").strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def _terms(memory: Memory) -> set[str]:
    return set(tokenize(memory.search_text()))


def _free_slug(root: MemoryRoot, base: str, taken: Iterable[str], category: str) -> str:
    used = {i.split("/", 1)[1] for i in taken if i.startswith(category + "/")}
    slug, n = base, 2
    while slug in used or (root.path / category / f"{slug}.md").exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def remember(
    space: MemorySpace,
    body: str,
    *,
    category: str = "facts",
    summary: str | None = None,
    highlight: str = "",
    load_when: Sequence[str] = (),
    pinned: bool = False,
    slug: str | None = None,
    scope: Scope | None = None,
    author: str = "person",
    source_session: str | None = None,
    supersedes: str | None = None,
    valid_from: datetime | str | None = None,
    valid_to: datetime | str | None = None,
    similarity_threshold: float | None = None,
    force: bool = False,
    now: datetime | None = None,
) -> RememberResult:
    """Write a memory — or say why not — and recompile the root's index and ROOT.md.

    A model (`author="model"` or `"model:<id>"`) gets the trust rules for free: a rule becomes a
    proposal, a near-duplicate (Jaccard of distinct terms >= `similarity_threshold`, default from
    `[memory]`) or a re-creation of a forgotten memory is skipped with a message, and secrets are
    refused (`SecretRefused`). `force` lets a person write past a duplicate or a tombstone.
    """
    now = now or utcnow()
    draft = _draft(
        space,
        body,
        category=category,
        summary=summary,
        highlight=highlight,
        load_when=load_when,
        pinned=pinned,
        slug=slug,
        author=author,
        source_session=source_session,
        supersedes=supersedes,
        valid_from=valid_from,
        valid_to=valid_to,
        similarity_threshold=similarity_threshold,
        force=force,
    )
    root = space.root(scope)
    # Screen once without the lock so a refused write creates nothing, not even the root; then
    # again under it, since another process may have written in between.
    screened = _screen(space, root, draft, now, exact=False)
    if isinstance(screened, RememberResult):
        return screened
    with root_lock(root):
        screened = _screen(space, root, draft, now, exact=True)
        if isinstance(screened, RememberResult):
            return screened
        candidate, old, lifted = screened
        superseded = _write(space, root, candidate, old, lifted, author=author, now=now)
    return _remembered(candidate, root, superseded)


def _draft(
    space: MemorySpace,
    body: str,
    *,
    category: str,
    summary: str | None,
    highlight: str,
    load_when: Sequence[str],
    pinned: bool,
    slug: str | None,
    author: str,
    source_session: str | None,
    supersedes: str | None,
    valid_from: datetime | str | None,
    valid_to: datetime | str | None,
    similarity_threshold: float | None,
    force: bool,
) -> _Draft:
    """The checked, normalised memory `remember` was asked to write (or the reason it cannot be)."""
    check_author(author)
    person = is_person(author)
    if force and not person:
        raise NotAllowed("only a person can force a write past a duplicate or a forgotten memory")
    check_category(category)
    if category not in space.settings.categories:
        raise InvalidMemory(
            f"unknown category {category!r}; known: {', '.join(space.settings.categories)} "
            "(add it to 'categories' in the [memory] section of the config to use it)"
        )
    body = body.strip("\n")
    summary = (summary or "").strip() or _first_line(body)
    if not summary:
        raise InvalidMemory("a memory needs a summary or a body; both are empty")
    load_when = [w.strip() for w in load_when if w and w.strip()]
    check_no_secrets(
        {
            "body": body,
            "summary": summary,
            "highlight": highlight,
            "load_when": load_when,
            "slug": slug,
            "source_session": source_session,
        }
    )
    valid_from_t, valid_to_t = as_time(valid_from, "valid_from"), as_time(valid_to, "valid_to")
    if valid_from_t and valid_to_t and valid_to_t <= valid_from_t:
        raise InvalidMemory("valid_to must be later than valid_from")
    threshold = similarity_threshold if similarity_threshold is not None else space.settings.similarity_threshold

    return _Draft(
        category=category,
        summary=summary,
        body=body,
        highlight=highlight.strip(),
        load_when=tuple(load_when),
        pinned=pinned,
        slug=slug,
        author=author,
        source_session=source_session,
        supersedes=supersedes,
        valid_from=valid_from_t,
        valid_to=valid_to_t,
        threshold=threshold,
        force=force,
    )


def _write(
    space: MemorySpace,
    root: MemoryRoot,
    candidate: Memory,
    old: Loaded | None,
    lifted: Sequence[tuple[Scope, str]],
    *,
    author: str,
    now: datetime,
) -> str | None:
    """Write a screened memory under the root's lock: lift the tombstones it overrides, audit it, mark
    what it supersedes, recompile. Returns the id it superseded, if any."""
    for tomb_scope, tomb_id in lifted:
        lift_tombstone(space.root(tomb_scope), memory_id=tomb_id, by=author, now=now)
        audit.record(
            space.root(tomb_scope),
            actor=author,
            op="lift-tombstone",
            memory_id=tomb_id,
            before=None,
            after=None,
            now=now,
            note="re-added by a person with force",
        )
    text = render_memory(candidate)
    write_text_atomic(candidate.path, text)
    forget_cached(root, candidate.id)
    audit.record(
        root,
        actor=author,
        op="remember",
        memory_id=candidate.id,
        before=None,
        after=text,
        now=now,
        note=f"status {candidate.status}" + (f"; supersedes {old.memory.id}" if old else ""),
    )
    superseded = None
    if old is not None and candidate.status == "active":
        mark_superseded(root, old.memory, candidate.id, actor=author, now=now)
        superseded = old.memory.id
    recompile(space, root, {candidate.category} | ({old.memory.category} if old else set()))
    return superseded


def _remembered(candidate: Memory, root: MemoryRoot, superseded: str | None) -> RememberResult:
    if candidate.status == "proposed":
        why = "rules from a model wait" if candidate.category == RULES_CATEGORY else "it waits"
        message = f"proposed {candidate.qualified_id}: {why} for a person's review ('recollect memory review')"
    else:
        message = f"remembered {candidate.qualified_id}" + (f", superseding {superseded}" if superseded else "")
    return RememberResult(
        "proposed" if candidate.status == "proposed" else "written",
        candidate.id,
        root.scope,
        message,
        memory=candidate,
        superseded=superseded,
    )


@dataclass(frozen=True)
class _Draft:
    """A validated remember() request, screened twice (see remember)."""

    category: str
    summary: str
    body: str
    highlight: str
    load_when: tuple[str, ...]
    pinned: bool
    slug: str | None
    author: str
    source_session: str | None
    supersedes: str | None
    valid_from: datetime | None
    valid_to: datetime | None
    threshold: float
    force: bool


def _screen(
    space: MemorySpace, root: MemoryRoot, draft: _Draft, now: datetime, *, exact: bool
) -> RememberResult | tuple[Memory, Loaded | None, list[tuple[Scope, str]]]:
    """Either why the draft must not be written, or (the memory to write, what it supersedes,
    the tombstones a person's force lifts)."""
    view = load_view(space, now, exact=exact)
    candidate, old = _candidate(space, root, draft, view, now)
    terms = _terms(candidate)
    lifted = _forgotten(view, root, draft, candidate, terms)
    if isinstance(lifted, RememberResult):
        return lifted
    refused = _duplicate(view, root, draft, candidate, terms, old)
    if refused is not None:
        return refused
    if draft.slug is None:
        taken = [*view.contents[root.scope].by_id, *view.tombstones.get(root.scope, {})]
        candidate = replace(candidate, id=f"{draft.category}/{_free_slug(root, candidate.slug, taken, draft.category)}")
    candidate.path = root.file_for(candidate.id)
    return candidate, old, lifted


def _candidate(
    space: MemorySpace, root: MemoryRoot, draft: _Draft, view: View, now: datetime
) -> tuple[Memory, Loaded | None]:
    """The memory the draft would become (its status by the trust rules), and what it supersedes."""
    person = is_person(draft.author)
    old: Loaded | None = None
    if draft.supersedes is not None:
        old = _find_in_root(view, root, draft.supersedes)
        old_status = view.status(old.memory)
        if old_status in ("superseded", "forgotten", "rejected"):
            raise InvalidMemory(f"{old.memory.id} is {old_status}; supersede the memory that replaced it instead")

    status = "active"
    if draft.category == RULES_CATEGORY and not person:
        status = "proposed"  # hard rules are only ever written by a person
    elif not person and space.settings.review_model_memories:
        status = "proposed"
    elif old is not None and not person and (old.memory.pinned or is_hard_rule(old.memory)):
        status = "proposed"  # a model may not replace what a person pinned or ruled

    if draft.slug is not None:
        split_id(f"{draft.category}/{draft.slug}")
    candidate = Memory(
        id=f"{draft.category}/{draft.slug or slugify(draft.summary) or slugify(draft.body) or 'note'}",
        scope=root.scope,
        path=root.path,
        summary=draft.summary,
        body=draft.body,
        kind=kind_of(draft.category),
        highlight=draft.highlight,
        created=now,
        updated=now,
        load_when=list(draft.load_when),
        pinned=draft.pinned,
        status=status,
        author=draft.author,
        source_session=draft.source_session,
        valid_from=draft.valid_from,
        valid_to=draft.valid_to,
        supersedes=[old.memory.id] if old else [],
    )
    return candidate, old


def _forgotten(
    view: View, root: MemoryRoot, draft: _Draft, candidate: Memory, terms: set[str]
) -> RememberResult | list[tuple[Scope, str]]:
    """Forgotten stays forgotten: why not, or the tombstones a person's force lifts."""
    person = is_person(draft.author)
    # 1. Forgotten stays forgotten: the same id, or the same terms as a tombstone, in any root.
    lifted: list[tuple[Scope, str]] = []
    fingerprint = term_fingerprint(terms)
    for tomb_scope, tombs in view.tombstones.items():
        for tomb in tombs.values():
            same_id = tomb_scope == root.scope and tomb.id == candidate.id and draft.slug is not None
            similarity = 1.0 if same_id else jaccard(fingerprint, tomb.terms)
            if similarity < draft.threshold:
                continue
            if not draft.force:
                return RememberResult(
                    "forgotten",
                    candidate.id,
                    root.scope,
                    f"not written: this matches {tomb_scope}:{tomb.id}, forgotten {tomb.at} by {tomb.by}",
                    similar_to=f"{tomb_scope}:{tomb.id}",
                    similarity=similarity,
                    forceable="re-add it" if person else None,
                )
            lifted.append((tomb_scope, tomb.id))
    return lifted


def _duplicate(
    view: View, root: MemoryRoot, draft: _Draft, candidate: Memory, terms: set[str], old: Loaded | None
) -> RememberResult | None:
    """Why the draft repeats a memory, or None."""
    person = is_person(draft.author)
    # 2. Dedupe. A model is checked against every memory whatever its status: a rejected proposal
    #    or a superseded fact re-extracted is exactly what must not come back. A person is checked
    #    against live memories only (they may restate what they themselves rejected).
    if draft.slug is not None and candidate.id in view.contents[root.scope].by_id:
        existing = view.contents[root.scope].by_id[candidate.id].memory
        return RememberResult(
            "duplicate",
            candidate.id,
            root.scope,
            f"not written: {existing.qualified_id} already exists; edit it, or supersede it with a new memory",
            similar_to=existing.qualified_id,
            similarity=1.0,
        )
    if not draft.force:
        best: tuple[float, Memory] | None = None
        for entry in _near_duplicate_candidates(view, terms, draft.threshold):
            if (old is not None and entry is old) or (person and not view.surfaces(entry.memory)):
                continue  # superseding a memory with similar words is the point
            similarity = jaccard(terms, entry.terms.keys())
            if similarity >= draft.threshold and (best is None or similarity > best[0]):
                best = (similarity, entry.memory)
        if best is not None:
            similarity, twin = best
            return RememberResult(
                "duplicate",
                candidate.id,
                root.scope,
                f"not written: {similarity:.0%} similar to {twin.qualified_id} ({view.status(twin)}): "
                f"{twin.summary!r}" + ("; supersede it if it is outdated" if person else ""),
                similar_to=twin.qualified_id,
                similarity=similarity,
                forceable="add it anyway" if person else None,
            )
    return None


def supersede(space: MemorySpace, old_ref: str, body: str, **fields: Any) -> RememberResult:
    """Write a memory that replaces `old_ref` (same root, same category unless given).

    The old one is kept, marked `superseded` with `superseded_by`, and no longer surfaces. When the
    new one is only a proposal, the old one stays active until a person accepts it.
    """
    view = load_view(space, fields.get("now") or utcnow(), exact=True)
    old = view.find(old_ref).memory
    fields.setdefault("category", old.category)
    fields["scope"] = old.scope
    return remember(space, body, supersedes=old.id, **fields)


def _near_duplicate_candidates(view: View, terms: set[str], threshold: float) -> list[Loaded]:
    """Every memory that could reach `threshold` Jaccard similarity with `terms`, found through the
    postings rather than by comparing (and tokenizing) every memory.

    J(A, B) >= t needs |A ∩ B| >= ceil(t·|A|). So B holds at least one of any |A| - ceil(t·|A|) + 1
    terms of A (prefix filter: the rarest ones keep the union short), and B must be in the postings
    of at least ceil(t·|A|) terms of A (counted without reading B).
    """
    if not terms:
        return []
    least_shared = math.ceil(threshold * len(terms))
    needed = len(terms) - least_shared + 1
    if needed <= 0:
        return []
    contents = list(view.contents.values())
    frequency = {t: sum(len(c.postings.get(t, ())) for c in contents) for t in terms}
    rarest = sorted(terms, key=lambda t: (frequency[t], t))[:needed]
    out: list[Loaded] = []
    for c in contents:
        ids: set[str] = set()
        for term in rarest:
            ids |= c.postings.get(term, set())
        postings = [c.postings.get(t, set()) for t in terms]
        for memory_id in sorted(ids):
            if memory_id in c.files and sum(memory_id in p for p in postings) >= least_shared:
                out.append(c.files[memory_id])
    return out


def _find_in_root(view: View, root: MemoryRoot, ref: str) -> Loaded:
    entry = view.find(ref if ":" in ref else f"{root.scope}:{ref}")
    if entry.memory.scope != root.scope:
        raise InvalidMemory(
            f"{ref} is in the {entry.memory.scope} root; a memory can only supersede one in its own root"
        )
    return entry


def recompile(space: MemorySpace, root: MemoryRoot, categories: set[str]) -> list[str]:
    """After a write that touched `categories`: their index.md files and ROOT.md."""
    # Called under the lock right after an exact load: our own writes are seen without a new sweep.
    contents = load_root(root, space.cache_dir, rescan_seconds=space.settings.rescan_seconds)
    memories = [e.memory for e in contents.entries]
    tombstones = set(read_tombstones(root))
    planned = plan_compile(root, memories, space.settings.categories, tombstones, only=categories)
    return [str(p) for p in write_compiled(planned)]


# --- forget --------------------------------------------------------------------------------------


def forget(
    space: MemorySpace, ref: str, *, author: str = "person", reason: str = "", now: datetime | None = None
) -> ForgetResult:
    """Delete a memory file and leave a tombstone, so no sync or re-extraction brings it back.

    `ref` is an id (`pitfalls/deploy-tool`, project root first) or a qualified id
    (`global:pitfalls/deploy-tool`); anything that is not an id — `../x`, an absolute path — is refused.
    """
    now = now or utcnow()
    check_author(author)
    view = load_view(space, now, exact=True)
    entry = view.find(ref)
    memory = entry.memory
    if not is_person(author) and memory.category == RULES_CATEGORY and is_hard_rule(memory):
        raise NotAllowed(f"{memory.id} is a hard rule; only a person can forget it")
    root = space.root(memory.scope)
    with root_lock(root):
        before = memory.path.read_text(encoding="utf-8")
        add_tombstone(root, memory_id=memory.id, terms=entry.terms, by=author, reason=reason, now=now)
        memory.path.unlink()
        forget_cached(root, memory.id)
        audit.record(
            root, actor=author, op="forget", memory_id=memory.id, before=before, after=None, now=now, note=reason
        )
        drop_hits(root, memory.id)
        recompile(space, root, {memory.category})
    return ForgetResult(
        memory.id, memory.scope, f"forgot {memory.qualified_id} (a tombstone keeps it from coming back)"
    )
