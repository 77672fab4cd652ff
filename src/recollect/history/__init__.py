"""The history API: index, search, read, list and diagnose. The CLI and the MCP server call these
functions and nothing below them; each opens what it needs from the config and closes it, or uses the
caller's `Recollect`. The core functions live in `core`, the pieces beside them in this package's other
modules (access, saving, hides, diagnosis, cards); everything a caller uses is named here.

Each name is imported from its module on first use (PEP 562, `recollect.lazy_names`): the MCP server
builds its tool list from `FILTER_SPEC` at start-up without loading the index, the search or the
embedders, and the plugin helper's auto-recall takes the tokenizer without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from recollect import lazy_names

if TYPE_CHECKING:
    from recollect.history.access import HistoryError, open_index, scoped
    from recollect.history.ahead import MeaningAhead, meaning_ahead
    from recollect.history.cards import ProjectActivity, SessionCard, activity, session_card
    from recollect.history.core import (
        LISTED_AS_IS,
        Listed,
        SessionInfo,
        index,
        own_session,
        read,
        refresh,
        search,
        sessions,
        store,
    )
    from recollect.history.diagnosis import Diagnosis, doctor
    from recollect.history.hides import HiddenInfo, hidden_sessions, hide_session, unhide_session
    from recollect.history.saving import SAVE_DIR, SavedTranscript, save_target, save_transcript
    from recollect.history.warm import WARM_UP_STEPS, load_ahead, warm_up
    from recollect.index.queries import malformed_where
    from recollect.index.store import IndexUnavailable, take_leases_as
    from recollect.search.budgets import DEFAULT_BUDGET, WHOLE_BUDGET
    from recollect.search.ceiling import Ceiling, ScopeCeilingError
    from recollect.search.ceiling import from_config as ceiling_from_config
    from recollect.search.ceiling import from_option as ceiling_from_option
    from recollect.search.ceiling import narrowest as narrowest_ceiling
    from recollect.search.crowding import card_crowding
    from recollect.search.filters import FILTER_SPEC, filter_values
    from recollect.search.meaning import card_meaning_candidates, script_gap, static_similarity
    from recollect.search.rank import fts_match
    from recollect.search.read import render_chatml, render_text
    from recollect.search.results import CLI_OPTIONS, PAGE_OPTIONS, SearchResult, make_cursor, snippet
    from recollect.search.scope import AUTHORS, CLASSES, ROLES, SCOPES, Filters, git_root_of, predicate
    from recollect.search.terms import chunk_count, document_frequencies
    from recollect.sources import configured_specs
    from recollect.text.plain import counted, display_title
    from recollect.text.tokenize import STOPWORDS, fold, identifiers_in, query_terms
    from recollect.times import iso

_MODULES = {
    **dict.fromkeys(("HistoryError", "open_index", "scoped"), ".access"),
    **dict.fromkeys(("MeaningAhead", "meaning_ahead"), ".ahead"),
    **dict.fromkeys(("ProjectActivity", "SessionCard", "activity", "session_card"), ".cards"),
    **dict.fromkeys(
        (
            "LISTED_AS_IS",
            "Listed",
            "SessionInfo",
            "index",
            "own_session",
            "read",
            "refresh",
            "search",
            "sessions",
            "store",
        ),
        ".core",
    ),
    **dict.fromkeys(("Diagnosis", "doctor"), ".diagnosis"),
    **dict.fromkeys(("HiddenInfo", "hidden_sessions", "hide_session", "unhide_session"), ".hides"),
    **dict.fromkeys(("SAVE_DIR", "SavedTranscript", "save_target", "save_transcript"), ".saving"),
    **dict.fromkeys(("WARM_UP_STEPS", "load_ahead", "warm_up"), ".warm"),
    "IndexUnavailable": "recollect.index.store",
    "take_leases_as": "recollect.index.store",
    "malformed_where": "recollect.index.queries",
    **dict.fromkeys(("Ceiling", "ScopeCeilingError"), "recollect.search.ceiling"),
    "ceiling_from_config": "recollect.search.ceiling:from_config",
    "ceiling_from_option": "recollect.search.ceiling:from_option",
    "narrowest_ceiling": "recollect.search.ceiling:narrowest",
    "card_crowding": "recollect.search.crowding",
    **dict.fromkeys(("FILTER_SPEC", "filter_values"), "recollect.search.filters"),
    **dict.fromkeys(("card_meaning_candidates", "script_gap", "static_similarity"), "recollect.search.meaning"),
    "fts_match": "recollect.search.rank",
    **dict.fromkeys(("DEFAULT_BUDGET", "WHOLE_BUDGET"), "recollect.search.budgets"),
    **dict.fromkeys(("render_chatml", "render_text"), "recollect.search.read"),
    **dict.fromkeys(
        ("CLI_OPTIONS", "PAGE_OPTIONS", "SearchResult", "make_cursor", "snippet"), "recollect.search.results"
    ),
    **dict.fromkeys(
        ("AUTHORS", "CLASSES", "ROLES", "SCOPES", "Filters", "git_root_of", "predicate"), "recollect.search.scope"
    ),
    **dict.fromkeys(("chunk_count", "document_frequencies"), "recollect.search.terms"),
    "configured_specs": "recollect.sources",
    **dict.fromkeys(("counted", "display_title"), "recollect.text.plain"),
    **dict.fromkeys(("STOPWORDS", "fold", "identifiers_in", "query_terms"), "recollect.text.tokenize"),
    "iso": "recollect.times",
}
__getattr__ = lazy_names(__name__, _MODULES)

# What the surfaces (CLI, MCP, UI, the plugin helper) build calls from and print results with is named
# here too, so that they reach the library only through history (tests/test_architecture.py).
__all__ = [
    "AUTHORS",
    "CLASSES",
    "CLI_OPTIONS",
    "DEFAULT_BUDGET",
    "FILTER_SPEC",
    "LISTED_AS_IS",
    "PAGE_OPTIONS",
    "ROLES",
    "SAVE_DIR",
    "SCOPES",
    "STOPWORDS",
    "WARM_UP_STEPS",
    "WHOLE_BUDGET",
    "Ceiling",
    "Diagnosis",
    "Filters",
    "HiddenInfo",
    "HistoryError",
    "IndexUnavailable",
    "Listed",
    "MeaningAhead",
    "ProjectActivity",
    "SavedTranscript",
    "ScopeCeilingError",
    "SearchResult",
    "SessionCard",
    "SessionInfo",
    "activity",
    "card_crowding",
    "card_meaning_candidates",
    "ceiling_from_config",
    "ceiling_from_option",
    "chunk_count",
    "configured_specs",
    "counted",
    "display_title",
    "doctor",
    "document_frequencies",
    "filter_values",
    "fold",
    "fts_match",
    "git_root_of",
    "hidden_sessions",
    "hide_session",
    "identifiers_in",
    "index",
    "iso",
    "load_ahead",
    "make_cursor",
    "malformed_where",
    "meaning_ahead",
    "narrowest_ceiling",
    "open_index",
    "own_session",
    "predicate",
    "query_terms",
    "read",
    "refresh",
    "render_chatml",
    "render_text",
    "save_target",
    "save_transcript",
    "scoped",
    "script_gap",
    "search",
    "session_card",
    "sessions",
    "snippet",
    "static_similarity",
    "store",
    "take_leases_as",
    "unhide_session",
    "warm_up",
]
