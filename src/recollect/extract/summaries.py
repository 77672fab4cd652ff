"""Optional session summaries: two or three sentences per session, from its card (seed 000 §3/§7).

Owns `extract/summaries.json` under the data dir: per session, the summary, the model that wrote
it, and a hash of the card digest it was written from — a summary is redone only when that digest
changes. Prompts carry card fields only (title, directory, first request, last outcome, tools),
redacted, fifteen cards per prompt, never message bodies; they go through the same backends as
extraction (an OpenCode worker session with the marker title and no tools, or an endpoint). The
reply is validated strictly, a batch is taken whole or not at all, and a summary that looks like
it holds a secret is dropped. The summaries are derived data, like the index: delete the file and
the next run rewrites them. It never touches memory files.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from recollect.config import Paths, ensure_private_dir
from recollect.extract.settings import ExtractSettings, RunOptions
from recollect.extract.state import append_log, extraction_lock, now_iso, state_dir
from recollect.jsonish import plain
from recollect.redact import find_secrets, redact
from recollect.text.markers import WORKER_TITLE_MARKER

if TYPE_CHECKING:
    pass

# The model backends and the reply parser's error are imported where a summary is made: `recollect index`
# reads stored summaries (read_summaries, card_digest) and must not import the curated-memory package
# (numpy) that the candidate parser brings, nor urllib.

BATCH = 15  # cards per prompt, as the seed's summarizer did
MAX_PROMPTS = 20  # per run: a first run over a big store is spread over several
MAX_SUMMARY_CHARS = 600
FIELD_CHARS = 300

SYSTEM_PROMPT = """\
You write short summaries of coding-agent sessions from their index cards.
For each card write two or three plain sentences: what the person wanted and what came of it.
Use only what the card says; do not guess. Never copy secrets (keys, tokens, passwords).
Reply with ONE JSON object and nothing else:
{"summaries": [{"n": <card number>, "summary": "<two or three sentences>"}]}
with exactly one entry per card."""


@dataclass(frozen=True)
class StoredSummary:
    summary: str
    digest: str  # sha256 of the card digest the summary was written from
    model: str
    at: str


@dataclass
class SummaryReport:
    dry_run: bool = False
    model: str = ""
    written: list[dict[str, str]] = field(default_factory=list)  # {session, summary}
    unchanged: int = 0
    skipped: list[dict[str, str]] = field(default_factory=list)  # {session, reason}
    failed: list[str] = field(default_factory=list)  # one reason per failed batch
    limited_by: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return plain(self, seconds=round(self.seconds, 3))


def _path(paths: Paths) -> Any:
    return state_dir(paths) / "summaries.json"


def read_summaries(paths: Paths) -> dict[str, StoredSummary]:
    """Every stored summary by "source::id" (what the index or a UI shows beside a session's card)."""
    try:
        data = json.loads(_path(paths).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    out: dict[str, StoredSummary] = {}
    for key, value in (data.get("sessions") or {}).items() if isinstance(data, dict) else ():
        if isinstance(value, dict) and isinstance(value.get("summary"), str):
            out[key] = StoredSummary(
                value["summary"], str(value.get("digest", "")), str(value.get("model", "")), str(value.get("at", ""))
            )
    return out


def _write(paths: Paths, summaries: dict[str, StoredSummary]) -> None:
    directory = ensure_private_dir(state_dir(paths))
    data = {"version": 1, "sessions": {k: v.__dict__ for k, v in sorted(summaries.items())}}
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".summaries.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False, indent=1)
        os.chmod(tmp, 0o600)
        os.replace(tmp, _path(paths))
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def card_digest(card: Any) -> str:
    """The card fields a summary is written from, redacted and bounded (a `history.SessionInfo`)."""

    def one(value: Any) -> str:
        return redact(" ".join(str(value or "").split()))[:FIELD_CHARS]

    lines = [
        f"title: {one(card.title) or '(untitled)'}",
        f"directory: {one(card.directory)}",
        f"first request: {one(card.first_human)}",
        f"last outcome: {one(card.last_outcome)}",
        f"tools used: {one(card.tools)}",
        f"messages: {int(card.messages or 0)}",
    ]
    return "\n".join(lines)


def parse_summaries(reply: str, count: int) -> dict[int, str]:
    """{card number: summary} for a batch of `count` cards, or MalformedOutput."""
    from recollect.extract.candidates import MalformedOutput

    text = reply.strip()
    if text.startswith("```") and text.endswith("```"):
        text = text.split("\n", 1)[1].rsplit("```", 1)[0] if "\n" in text else ""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedOutput(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    if not isinstance(data, dict) or set(data) != {"summaries"} or not isinstance(data["summaries"], list):
        raise MalformedOutput('expected exactly {"summaries": [...]}')
    out: dict[int, str] = {}
    for i, item in enumerate(data["summaries"]):
        where = f"summaries[{i}]"
        if not isinstance(item, dict) or set(item) != {"n", "summary"}:
            raise MalformedOutput(f'{where}: expected exactly {{"n": …, "summary": …}}')
        n, summary = item["n"], item["summary"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= count:
            raise MalformedOutput(f"{where}.n: {n!r} is not a card number 1..{count}")
        if n in out:
            raise MalformedOutput(f"{where}.n: card {n} is summarized twice")
        if not isinstance(summary, str) or not summary.strip():
            raise MalformedOutput(f"{where}.summary: expected a non-empty string")
        summary = " ".join(summary.split())
        if len(summary) > MAX_SUMMARY_CHARS:
            raise MalformedOutput(f"{where}.summary: {len(summary)} characters, at most {MAX_SUMMARY_CHARS}")
        out[n] = summary
    if len(out) != count:
        missing = sorted(set(range(1, count + 1)) - set(out))
        raise MalformedOutput(f"cards {missing} have no summary")
    return out


def _batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def summarize(
    *, since: int | None = None, session_ref: str | None = None, options: RunOptions | None = None
) -> SummaryReport:
    """Write summaries for sessions whose card changed since their summary (or that have none; every
    one with `options.redo`).

    `session_ref` picks one session; else every session updated since `since` (default: all).
    """
    from recollect import history
    from recollect.extract.candidates import MalformedOutput
    from recollect.extract.models import ModelError
    from recollect.search.scope import Filters

    started = time.monotonic()
    options = options or RunOptions()
    config = options.loaded_config()
    backend = options.open_backend(config, ExtractSettings.of(config))
    dry_run = options.dry_run
    report = SummaryReport(dry_run=dry_run, model=backend.label)
    history.index(config)
    filters = Filters(scope="session", sessions=[session_ref]) if session_ref else Filters(since=since)
    cards = history.sessions(filters, limit=100_000, config=config, sync_first=False)
    stored = read_summaries(config.paths)
    todo: list[tuple[str, Any, str, str]] = []  # key, card, digest text, digest hash
    for card in sorted(cards, key=lambda c: c.time_updated, reverse=True):
        key = f"{card.source}::{card.session_id}"
        if WORKER_TITLE_MARKER in (card.title or "") or card.parent_id:
            report.skipped.append({"session": key, "reason": "a worker or subagent session"})
            continue
        if not card.first_human:
            report.skipped.append({"session": key, "reason": "nothing a person typed"})
            continue
        digest = card_digest(card)
        digest_hash = hashlib.sha256(digest.encode()).hexdigest()
        if not options.redo and key in stored and stored[key].digest == digest_hash:
            report.unchanged += 1
            continue
        todo.append((key, card, digest, digest_hash))
    if len(todo) > BATCH * MAX_PROMPTS:
        report.limited_by.append(f"{MAX_PROMPTS} prompts per run; {len(todo) - BATCH * MAX_PROMPTS} sessions wait")
        todo = todo[: BATCH * MAX_PROMPTS]  # newest first: the sessions people look at
    lock = contextlib.nullcontext() if dry_run else extraction_lock(config.paths, wait=30.0)
    with lock:
        stored = read_summaries(config.paths)  # again, under the lock
        for batch in _batches(todo, BATCH):
            prompt = "Cards:\n\n" + "\n\n".join(f"[{n}]\n{digest}" for n, (_, _, digest, _) in enumerate(batch, 1))
            try:
                reply = backend.complete(SYSTEM_PROMPT, prompt, purpose=f"summarize {len(batch)} sessions")
                summaries = parse_summaries(reply, len(batch))
            except (ModelError, MalformedOutput) as exc:
                report.failed.append(str(exc))
                if not dry_run:
                    append_log(config.paths, {"event": "summary-failed", "model": backend.label, "reason": str(exc)})
                continue
            report.model = backend.label
            for n, (key, _, _, digest_hash) in enumerate(batch, 1):
                summary = summaries[n]
                if find_secrets(summary):
                    report.skipped.append({"session": key, "reason": "the summary looked like it held a secret"})
                    continue
                report.written.append({"session": key, "summary": summary})
                stored[key] = StoredSummary(summary, digest_hash, backend.label, now_iso())
        if not dry_run and report.written:
            _write(config.paths, stored)
    if not dry_run and report.written:
        history.index(config)  # the summaries become card fields (searched and embedded) at once
    report.seconds = time.monotonic() - started
    return report
