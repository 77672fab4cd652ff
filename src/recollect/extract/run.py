"""Extraction runs: from a session (or the sessions changed since the last sweep) to memories.

One session goes through, in order: skip recollect's own worker sessions and subagent sessions;
skip sessions with fewer than `min_turns` turns a person typed; build the transcript of the turns
not yet shown to a model; ask the model; validate its reply strictly (all or nothing); then
screen each candidate — a suspected secret blocks it, a candidate overlapping an existing memory
(any status) or a forgotten one is skipped — and hand the rest to `recollect.memory.remember`
as `author="model:<id>"` with the session as `source_session`, where the trust rules apply once
more (a rule becomes a proposal, duplicates and tombstones are refused). Every outcome is logged.

A failure never reaches the person's conversation: this runs in its own process, reads the
session from the store read-only, and talks to the model only through `models.py`. A dry run
replays the writes against a scratch copy of the memory roots, so it reports exactly what would
happen and writes nothing (no memory, no state).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recollect.config import Config
from recollect.errors import RecollectError
from recollect.extract.candidates import (
    Candidate,
    MalformedOutput,
    parse_candidates,
    system_prompt,
    user_prompt,
)
from recollect.extract.models import Backend, ModelError
from recollect.extract.settings import ExtractSettings, RunOptions
from recollect.extract.state import Busy, ExtractState, append_log, extraction_lock, load_state, save_state
from recollect.extract.transcript import build_transcript, is_worker_session
from recollect.index.stats import count_turns
from recollect.jsonish import plain
from recollect.memory import (
    MemoryOperationError,
    MemoryRoot,
    MemorySettings,
    MemorySpace,
    SecretRefused,
    find_project_root,
    list_memories,
    open_memory,
    remember,
)
from recollect.memory.tombstones import read_tombstones, term_fingerprint
from recollect.model import Session, SourceError
from recollect.redact import find_secrets, redact
from recollect.sources import SourceSpec, configured_specs, open_source
from recollect.text.markers import WORKER_TITLE_MARKER
from recollect.text.tokenize import tokenize

LOCK_WAIT_SECONDS = 10.0  # an idle extraction that finds another running leaves its turns for next time


class ExtractError(RecollectError):
    """The run cannot start (nothing to extract with, no such session…); the message names the fix."""


@dataclass
class CandidateOutcome:
    # written | proposed | duplicate | forgotten | blocked | invalid (with dry_run: would-write | would-propose)
    outcome: str
    category: str
    summary: str  # redacted; empty when the candidate was blocked for a secret
    reason: str
    memory_id: str | None = None  # qualified id written (or that would be written)
    similar_to: str | None = None
    similarity: float = 0.0
    rule_like: bool = False
    evidence: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return plain(self, omit=("evidence",), similarity=round(self.similarity, 4), evidence_lines=self.evidence)


@dataclass
class SessionReport:
    session: str  # "source::id"
    title: str = ""
    status: str = "skipped"  # extracted | skipped | malformed | failed
    reason: str = ""
    model: str | None = None
    turns: int = 0
    lines: int = 0
    candidates: list[CandidateOutcome] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return plain(self, candidates=[c.to_dict() for c in self.candidates])


@dataclass
class ExtractReport:
    dry_run: bool = False
    sessions: list[SessionReport] = field(default_factory=list)
    model: dict[str, Any] | None = None  # the model used and why it was chosen
    limited_by: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def failed(self) -> list[SessionReport]:
        return [s for s in self.sessions if s.status in ("failed", "malformed")]

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for session in self.sessions:
            for candidate in session.candidates:
                out[candidate.outcome] = out.get(candidate.outcome, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "model": self.model,
            "sessions": [s.to_dict() for s in self.sessions],
            "counts": self.counts(),
            "limited_by": self.limited_by,
            "seconds": round(self.seconds, 3),
        }


# --- the run -------------------------------------------------------------------------------------


@dataclass
class _Run:
    config: Config
    settings: ExtractSettings
    backend: Backend
    dry_run: bool
    redo: bool
    report: ExtractReport
    state: ExtractState


def _start(options: RunOptions, config: Config, state: ExtractState) -> _Run:
    """A run with its model backend (ExtractError when none can be opened) and an empty report."""
    settings = ExtractSettings.of(config)
    try:
        backend = options.open_backend(config, settings)
    except ModelError as exc:
        raise ExtractError(str(exc)) from None
    dry_run = options.dry_run
    return _Run(config, settings, backend, dry_run, options.redo, ExtractReport(dry_run=dry_run), state)


def extract_session(session_ref: str, options: RunOptions | None = None) -> ExtractReport:
    """Extract memories from one session (`ses_…` or `source::id`), from the turns not yet extracted
    (all of them with `options.redo`).

    Raises ExtractError when nothing is configured to extract with or the session is unknown;
    everything else (too few turns, model down, malformed reply) is in the report.
    """
    started = time.monotonic()
    options = options or RunOptions()
    config = options.loaded_config()
    run = _start(options, config, load_state(config.paths))
    spec, session = _find_session(config, session_ref)
    report = run.report
    key = f"{spec.id}::{session.id}"
    try:
        with _locked(run):
            run.state = load_state(config.paths)  # re-read under the lock: another run may have moved it
            report.sessions.append(_process(run, key, session))
            if not run.dry_run:
                save_state(config.paths, run.state)
    except Busy as exc:
        report.sessions.append(SessionReport(key, session.title, "skipped", f"{exc}; its turns wait for the next run"))
    _finish(run, started)
    return report


def extract_since(since: int | None = None, options: RunOptions | None = None) -> ExtractReport:
    """Extract from every session updated since `since` (epoch ms), or since the last sweep.

    Oldest first and at most `max_sessions` model calls per run; when more changed, the sweep mark
    stops at the first session not done, so the rest are the next run's.
    """
    from recollect import history  # the index is only needed for sweeps
    from recollect.search.scope import Filters

    started = time.monotonic()
    options = options or RunOptions()
    config = options.loaded_config()
    state = load_state(config.paths)
    if since is None:
        since = state.last_sweep
        if since is None:
            raise ExtractError("this is the first sweep: say how far back to look, e.g. --since 7d")
    run = _start(options, config, state)
    settings, report = run.settings, run.report
    # A full sync, not the 2-second freshness shortcut of searches: a sweep must see every change.
    synced = history.index(config)
    if synced.lease_busy:
        report.limited_by.append("the index is being updated by another process; newest sessions may be missing")
    rows = history.sessions(Filters(since=since), limit=100_000, config=config, sync_first=False)
    rows.sort(key=lambda r: (r.time_updated, r.source, r.session_id))
    specs = {s.id: s for s in configured_specs(config)}
    # The sweep mark is the store's own clock (the newest time_updated listed), never ours: no skew.
    # A session at exactly the mark is listed again next time; its watermark makes that a no-op.
    done_through = max((r.time_updated for r in rows), default=since)
    try:
        with _locked(run):
            run.state = load_state(config.paths)
            budget = settings.max_sessions
            for row in rows:
                key = f"{row.source}::{row.session_id}"
                if WORKER_TITLE_MARKER in (row.title or "") or row.parent_id:
                    continue  # cheap skips from the index, before reading anything
                if budget == 0:
                    report.limited_by.append(f"max_sessions ({settings.max_sessions}); the rest are next run's")
                    done_through = min(done_through, row.time_updated)
                    break
                spec = specs.get(row.source)
                session = _read(spec, row.session_id) if spec else None
                if session is None:
                    report.sessions.append(SessionReport(key, row.title, "skipped", "no longer in its source"))
                    continue
                result = _process(run, key, session)
                report.sessions.append(result)
                if result.status != "skipped":
                    budget -= 1  # only sessions a model was asked about count
                if result.status == "failed":
                    # Keep the mark at or before it, so the next sweep retries its turns.
                    done_through = min(done_through, row.time_updated)
            if not run.dry_run:
                run.state.last_sweep = max(run.state.last_sweep or 0, done_through)
                save_state(config.paths, run.state)
    except Busy as exc:
        report.limited_by.append(str(exc))
    _finish(run, started)
    return report


def _locked(run: _Run) -> contextlib.AbstractContextManager[None]:
    if run.dry_run:
        return contextlib.nullcontext()
    return extraction_lock(run.config.paths, wait=LOCK_WAIT_SECONDS)


def _finish(run: _Run, started: float) -> None:
    choice = run.backend.choice
    run.report.model = choice.to_dict() if choice is not None else {"id": run.backend.label}
    run.report.seconds = time.monotonic() - started


# --- sessions ------------------------------------------------------------------------------------


def _read(spec: SourceSpec, native_id: str) -> Session | None:
    try:
        return next(iter(open_source(spec).read_sessions([native_id])), None)
    except (SourceError, OSError, ValueError):
        return None


def _find_session(config: Config, ref: str) -> tuple[SourceSpec, Session]:
    source_id, sep, native = ref.strip().partition("::")
    if not sep:
        source_id, native = "", ref.strip()
    native = native.split("::", 1)[0]  # a cursor names a message too; the session is enough
    if not native:
        raise ExtractError("give a session id, e.g. --session ses_… or --session opencode::ses_…")
    specs = [s for s in configured_specs(config) if s.enabled and (not source_id or s.id == source_id)]
    if source_id and not specs:
        raise ExtractError(f"no configured source {source_id!r}; 'recollect doctor' lists them")
    # OpenCode first: the plugin's idle extraction is the hot path, and its ids say where they live.
    specs.sort(key=lambda s: (s.kind != "opencode", s.id))
    problems: list[str] = []
    for spec in specs:
        try:
            session = next(iter(open_source(spec).read_sessions([native])), None)
        except (SourceError, OSError, ValueError) as exc:
            problems.append(f"{spec.id}: {exc}")
            continue
        if session is not None:
            return spec, session
    detail = f" ({'; '.join(problems)})" if problems else ""
    raise ExtractError(f"no session {native!r} in any configured source{detail}")


def _space_for(config: Config, session: Session) -> MemorySpace:
    """The session's project root when it is a git work tree on disk, else the global root only.

    Never `open_memory(project=dir)` on a plain directory: that would make a `.memory/` inside
    whatever directory a session happened to run in (a home directory, /tmp).
    """
    # `[memory] auto_extract` is the plugin's switch for this very feature, not a MemorySettings
    # key; left in, it would make every extraction it starts fail on "not a setting".
    section = {k: v for k, v in config.section("memory").items() if k != "auto_extract"}
    settings = MemorySettings.from_section(section)
    for candidate in (session.directory, session.project_root):
        if candidate and Path(candidate).is_dir():
            top = find_project_root(Path(candidate))
            if top is not None:
                return open_memory(project=top, paths=config.paths, settings=settings)
    return open_memory(no_project=True, paths=config.paths, settings=settings)


def _author(label: str) -> str:
    # The memory author field allows [\w.@/+-]; model ids like Ollama's "qwen2.5:3b" carry ':'.
    return "model:" + (re.sub(r"[^\w.@/+-]", "-", label)[:80] or "unknown")


def _process(run: _Run, key: str, session: Session) -> SessionReport:
    settings = run.settings
    report = SessionReport(key, session.title)
    if is_worker_session(session):
        report.reason = "a recollect worker session"
        return report
    if session.parent_id:
        report.reason = "a subagent session (its parent holds the conversation)"
        return report
    report.turns = count_turns(session)
    if report.turns < settings.min_turns:
        report.reason = f"{report.turns} turns, fewer than min_turns ({settings.min_turns})"
        return report
    after = 0 if run.redo else run.state.through(key)
    transcript = build_transcript(session, after=after, max_tokens=settings.max_transcript_tokens)
    report.lines = len(transcript.lines)
    if not transcript.lines:
        report.reason = "no new turns since the last extraction"
        if not run.dry_run and transcript.through > after:
            run.state.mark(key, through=transcript.through, outcome="nothing new", model="")
        return report
    if transcript.omitted:
        report.reason = f"{transcript.omitted} older lines left out (max_transcript_tokens)"

    space = _space_for(run.config, session)
    categories = space.settings.categories
    try:
        reply = run.backend.complete(
            system_prompt(categories, settings.max_candidates), user_prompt(transcript), purpose=f"extract {key}"
        )
    except ModelError as exc:
        report.status, report.reason, report.model = "failed", str(exc), run.backend.label
        _log(run, key, event="failed", reason=str(exc))
        return report  # the turns stay unextracted: the next run retries them
    report.model = run.backend.label
    try:
        candidates = parse_candidates(reply, transcript, categories=categories, max_candidates=settings.max_candidates)
    except MalformedOutput as exc:
        report.status, report.reason = "malformed", f"rejected the model's reply: {exc}"
        _log(run, key, event="malformed", reason=str(exc), excerpt=redact(reply.strip())[:300])
        if not run.dry_run:
            # Asking the same model about the same turns again would most likely fail the same way.
            run.state.mark(key, through=transcript.through, outcome="malformed", model=report.model)
        return report

    report.status = "extracted"
    with _target(space, run.dry_run) as target:
        for candidate in candidates:
            outcome = _screen_and_write(run, target, key, candidate)
            report.candidates.append(outcome)
            _log(
                run,
                key,
                event="candidate",
                outcome=outcome.outcome,
                reason=outcome.reason,
                memory=outcome.memory_id,
                similar_to=outcome.similar_to,
                category=outcome.category,
                summary=outcome.summary,
            )
    if not run.dry_run:
        run.state.mark(key, through=transcript.through, outcome="extracted", model=report.model)
    return report


def _log(run: _Run, key: str, **record: Any) -> None:
    if not run.dry_run:
        append_log(run.config.paths, {"session": key, "model": run.backend.label, **record})


# --- screening and writing -----------------------------------------------------------------------


@contextlib.contextmanager
def _target(space: MemorySpace, dry_run: bool) -> Iterator[MemorySpace]:
    """The space writes go to: the real one, or for a dry run a scratch copy of its roots."""
    if not dry_run:
        yield space
        return
    with tempfile.TemporaryDirectory(prefix="recollect-extract-dry-") as tmp:
        roots: dict[str, MemoryRoot] = {}
        for root in (space.global_root, space.project_root):
            if root is None:
                continue
            copy = Path(tmp) / root.scope
            if root.path.is_dir():
                shutil.copytree(root.path, copy, ignore=shutil.ignore_patterns(".lock", "*.tmp"))
            roots[root.scope] = MemoryRoot(copy, root.scope)
        yield MemorySpace(
            global_root=roots["global"],
            project_root=roots.get("project"),
            settings=space.settings,
            cache_dir=None,  # the parse cache belongs to the real roots
        )


def _secret_in(candidate: Candidate) -> str | None:
    fields: dict[str, Iterable[str]] = {
        "summary": [candidate.summary],
        "highlight": [candidate.highlight],
        "body": [candidate.body],
        "load_when": candidate.load_when,
        "evidence": [line.text for line in candidate.evidence],
    }
    for name, texts in fields.items():
        for text in texts:
            findings = find_secrets(text)
            if findings:
                return f"{name} looks like it holds a {findings[0].kind}"
    return None


def _overlap(terms: set[str], other: Iterable[str]) -> float:
    # Containment, not Jaccard: a candidate whose keywords a longer memory already holds adds
    # nothing, however much more that memory says.
    if not terms:
        return 0.0
    return len(terms & set(other)) / len(terms)


def _already_known(target: MemorySpace, candidate: Candidate, threshold: float) -> tuple[str, str, float] | None:
    """(outcome, qualified id, overlap) of the best forgotten or existing memory the candidate repeats."""
    terms = set(tokenize(candidate.keywords_text()))
    fingerprint = term_fingerprint(terms)
    best: tuple[str, str, float] | None = None
    for root in target.roots():
        if not root.path.is_dir():
            continue
        for tomb in read_tombstones(root).values():
            score = _overlap(set(fingerprint), tomb.terms)
            if score >= threshold and (best is None or score > best[2]):
                best = ("forgotten", f"{root.scope}:{tomb.id}", score)
    if best is not None:
        return best
    for entry in list_memories(target, include_inactive=True):
        score = _overlap(terms, tokenize(entry.memory.search_text()))
        if score >= threshold and (best is None or score > best[2]):
            best = ("duplicate", f"{entry.memory.qualified_id} ({entry.status})", score)
    return best


def _screen_and_write(run: _Run, target: MemorySpace, key: str, candidate: Candidate) -> CandidateOutcome:
    lines = [line.number for line in candidate.evidence]
    secret = _secret_in(candidate)
    if secret:
        reason = f"{secret}; not written"
        return CandidateOutcome(
            "blocked", candidate.category, "", reason, rule_like=candidate.rule_like, evidence=lines
        )
    summary = redact(candidate.summary)
    known = _already_known(target, candidate, run.settings.overlap_threshold)
    if known is not None:
        outcome, similar, score = known
        what = "a forgotten memory (a tombstone keeps it out)" if outcome == "forgotten" else "an existing memory"
        return CandidateOutcome(
            outcome,
            candidate.category,
            summary,
            f"{score:.0%} of its terms are in {what}: {similar}",
            similar_to=similar.split(" ", 1)[0],
            similarity=score,
            rule_like=candidate.rule_like,
            evidence=lines,
        )
    scope = candidate.scope
    if scope == "project" and target.project_root is None:
        scope = None  # no project on disk: the global root is the only place it can go
    try:
        result = remember(
            target,
            candidate.body_with_evidence(key),
            category=candidate.category,
            summary=candidate.summary,
            highlight=candidate.highlight,
            load_when=candidate.load_when,
            scope=scope,  # type: ignore[arg-type]
            author=_author(run.backend.label),
            source_session=key,
        )
    except SecretRefused as exc:
        return CandidateOutcome(
            "blocked", candidate.category, "", str(exc), rule_like=candidate.rule_like, evidence=lines
        )
    except MemoryOperationError as exc:
        return CandidateOutcome(
            "invalid", candidate.category, summary, str(exc), rule_like=candidate.rule_like, evidence=lines
        )
    outcome = result.outcome
    reason = result.message
    if candidate.rule_like and outcome == "proposed":
        reason += f" (it reads as a hard rule; the model filed it under {candidate.raw_category})"
    if run.dry_run and outcome in ("written", "proposed"):
        outcome = "would-write" if outcome == "written" else "would-propose"
        reason = "dry run: " + reason
    return CandidateOutcome(
        outcome,
        candidate.category,
        summary,
        reason,
        memory_id=f"{result.scope}:{result.id}",
        similar_to=result.similar_to,
        similarity=result.similarity,
        rule_like=candidate.rule_like,
        evidence=lines,
    )
