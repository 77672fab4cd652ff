"""Memories that write themselves, safely: a cheap model proposes, the memory rules decide.

From a session's transcript (only what people and the model said — never tool output, never a
block recollect injected) a model proposes structured memories; the reply is validated strictly,
each candidate is screened (secrets block it, overlap with an existing or forgotten memory skips
it) and written through `recollect.memory.remember` as a model's memory, so rules stay proposals
until a person accepts them. Every outcome goes to the extraction log.

    from recollect.extract import RunOptions, extract_session, extract_since
    report = extract_session("ses_…")            # the turns not extracted yet
    report = extract_since(parse_when("7d"))      # every session changed in a week
    report = extract_session("ses_…", RunOptions(dry_run=True))  # what it would write

Modules: `settings` ([extract] config), `transcript` (what the model sees), `candidates` (the
prompt and the strict reply format), `models` (OpenCode worker sessions or an OpenAI-compatible
endpoint; choosing the cheapest suitable model), `state` (per-session progress and the log),
`run` (the pipeline), `summaries` (optional two-or-three-sentence session summaries from cards,
by the same model path). Nothing here prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from recollect import lazy_names

if TYPE_CHECKING:
    from recollect.extract.candidates import Candidate, MalformedOutput, looks_like_rule, parse_candidates
    from recollect.extract.models import (
        Backend,
        ModelChoice,
        ModelError,
        NoBackend,
        OpenAIBackend,
        OpenCodeBackend,
        choose_model,
        open_backend,
    )
    from recollect.extract.run import (
        CandidateOutcome,
        ExtractError,
        ExtractReport,
        SessionReport,
        extract_session,
        extract_since,
    )
    from recollect.extract.settings import ExtractSettings, RunOptions
    from recollect.extract.state import failing
    from recollect.extract.summaries import SummaryReport, read_summaries, summarize
    from recollect.extract.transcript import Transcript, build_transcript, is_worker_session
    from recollect.index.stats import count_turns

# Each name is imported from its module on first use (PEP 562): `recollect index` reads stored summaries
# (`summaries.read_summaries`) without importing the extraction pipeline, the model backends or the
# curated-memory package (and numpy with it).
_LAZY = {
    **dict.fromkeys(("Candidate", "MalformedOutput", "looks_like_rule", "parse_candidates"), ".candidates"),
    **dict.fromkeys(
        (
            "Backend",
            "ModelChoice",
            "ModelError",
            "NoBackend",
            "OpenAIBackend",
            "OpenCodeBackend",
            "choose_model",
            "open_backend",
        ),
        ".models",
    ),
    **dict.fromkeys(
        ("CandidateOutcome", "ExtractError", "ExtractReport", "SessionReport", "extract_session", "extract_since"),
        ".run",
    ),
    **dict.fromkeys(("ExtractSettings", "RunOptions"), ".settings"),
    "failing": ".state",
    **dict.fromkeys(("SummaryReport", "read_summaries", "summarize"), ".summaries"),
    **dict.fromkeys(("Transcript", "build_transcript", "is_worker_session"), ".transcript"),
    "count_turns": "recollect.index.stats",  # the listing's `turns`: one count for both
}
__getattr__ = lazy_names(__name__, _LAZY)

__all__ = [
    "Backend",
    "Candidate",
    "CandidateOutcome",
    "ExtractError",
    "ExtractReport",
    "ExtractSettings",
    "MalformedOutput",
    "ModelChoice",
    "ModelError",
    "NoBackend",
    "OpenAIBackend",
    "OpenCodeBackend",
    "RunOptions",
    "SessionReport",
    "SummaryReport",
    "Transcript",
    "build_transcript",
    "choose_model",
    "count_turns",
    "extract_session",
    "extract_since",
    "failing",
    "is_worker_session",
    "looks_like_rule",
    "open_backend",
    "parse_candidates",
    "read_summaries",
    "summarize",
]
